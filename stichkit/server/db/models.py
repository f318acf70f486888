"""The schema, as SQLAlchemy 2 typed ORM classes. Migrations (stichkit/server/migrations) build it.

A table's game is never stored as a blob: a game row keeps the seed, and every decision is an
action row numbered by the version it leads to. The primary key (table, game, version) is what
makes two processes unable to apply two different moves at one version; the table's `version`
and `line` are what a move must find to be stored (see Store._insert).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime")
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON, datetime: UTCDateTime}


class Meta(Base):
    """Facts about the database itself (its cluster id names the Redis channel)."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    private: Mapped[bool]
    settings: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16))  # waiting | playing | over
    game_no: Mapped[int]  # the current game; a rematch adds one
    version: Mapped[int]  # decisions in the current game: a move is stored only where it is one more
    # The current game's line: one more with each takeback (its newest actions deleted, `version`
    # back to fewer decisions). A move is stored only on the line its process played it on, so a
    # process that has not heard of a takeback cannot go on with the line taken back.
    line: Mapped[int] = mapped_column(server_default="0")
    # A takeback asked for where other players must agree (store.TakebackRequest as JSON text; a
    # change is stored only over the text read: of two answers at once, the second is refused,
    # read again and retried, so neither is lost).
    takeback: Mapped[str | None] = mapped_column(Text, default=None)
    rev: Mapped[int]  # grows with every change: other processes compare it to catch up
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    # The client that opened it (clients.client_key; None: opened before this was kept): what one
    # client may hold is counted from here.
    opened_by: Mapped[str | None] = mapped_column(String(80), default=None, index=True)

    seats: Mapped[list[SeatRow]] = relationship(order_by="SeatRow.seat", cascade="all, delete-orphan")

    __table_args__ = (Index("ix_tables_status_private", "status", "private"),)


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    bot: Mapped[str | None] = mapped_column(String(200))  # the bot spec of a bot seat
    name: Mapped[str | None] = mapped_column(String(80))
    token_hash: Mapped[str | None] = mapped_column(String(64))  # sha256(table id, token); None: free
    takeover: Mapped[str | None] = mapped_column(String(8))  # None | hand | game
    takeover_hand: Mapped[int | None]
    rematch: Mapped[bool]
    # The account of whoever sits here logged in (None: a guest, a bot or free): the seat follows
    # the account to its other devices.
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), default=None, index=True
    )
    # Who sits here as a person (identity.person: a browser's identity or an account; never
    # shown), and everyone who has held the seat since the current game began: a person who held
    # one seat of a game may not take another of it (model.barred_seats).
    person: Mapped[str | None] = mapped_column(String(64), default=None)
    holders: Mapped[list[Any] | None] = mapped_column(default=None)


class GameRow(Base):
    __tablename__ = "games"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    game_no: Mapped[int] = mapped_column(primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[Any]]  # who sat where, as the game began
    status: Mapped[str] = mapped_column(String(16))  # playing | over
    result: Mapped[dict[str, Any] | None]
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    takebacks: Mapped[list[Any] | None] = mapped_column(default=None)  # per seat (None: no takeback yet)


class ActionRow(Base):
    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_no: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)  # the version this decision leads to (1, 2, ...)
    seat: Mapped[int]
    action: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(16))  # human | bot | timer | takeover
    created_at: Mapped[datetime]

    __table_args__ = (
        ForeignKeyConstraint(["table_id", "game_no"], ["games.table_id", "games.game_no"], ondelete="CASCADE"),
    )


class ChatRow(Base):
    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[datetime]
    # who said it, when logged in: deleting the account renames its lines (db/accounts.py)
    account_id: Mapped[int | None] = mapped_column(default=None, index=True)


class AnalysisRow(Base):
    """A game's double-dummy analysis (server/analysis.py): minutes of solving, kept once done;
    while in work, claimed by the process solving it, with its progress for the others."""

    __tablename__ = "analyses"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_no: Mapped[int] = mapped_column(primary_key=True)
    document: Mapped[dict[str, Any]]  # the answer: status, deals done, the analysis so far (docs/server.md)
    created_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16), server_default="done")  # working | done
    owner: Mapped[str | None] = mapped_column(String(64), default=None)  # the process solving it
    claim: Mapped[int] = mapped_column(server_default="0")  # one more each time another process takes it over
    updated_at: Mapped[datetime | None] = mapped_column(default=None)  # the owner's last sign of life

    __table_args__ = (
        ForeignKeyConstraint(["table_id", "game_no"], ["games.table_id", "games.game_no"], ondelete="CASCADE"),
    )


class AccountRow(Base):
    """A registered player. `name` is shown as it was registered; `name_key` is its skeleton
    (usernames.name_key): two names that look alike have the same key, and the key is unique."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))  # argon2id, in its PHC string form
    created_at: Mapped[datetime]
    password_changed_at: Mapped[datetime]
    banned_at: Mapped[datetime | None] = mapped_column(default=None)
    ban_reason: Mapped[str | None] = mapped_column(String(200), default=None)


class SessionRow(Base):
    """A logged-in browser. The cookie holds the session's secret; only its hash is kept here, so
    a copy of the database opens no session. Deleting the row ends the session."""

    __tablename__ = "sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime]
    seen_at: Mapped[datetime]
    expires_at: Mapped[datetime]


class QueueRow(Base):
    """One player waiting in quick play, or matched a moment ago and not yet told (see
    server/quickplay.py). The row is the queue: every process reads and matches the same rows."""

    __tablename__ = "quick_queue"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the player's ticket
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int]
    rated: Mapped[bool]
    name: Mapped[str] = mapped_column(String(80))
    wait: Mapped[float]  # seconds until the player is offered bots for the empty seats
    created_at: Mapped[datetime]
    seen_at: Mapped[datetime]  # the player's last poll: an entry not seen for a while has gone
    # Once matched: the table, the seat and its token, kept until the player picks them up.
    table_id: Mapped[str | None] = mapped_column(String(32), default=None)
    seat: Mapped[int | None] = mapped_column(default=None)
    token: Mapped[str | None] = mapped_column(String(64), default=None)
    # The account of a logged-in player (None: a guest); an account waits in one queue at a time.
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), default=None)
    # Who waits (identity.person; None: waited before people were told apart): a person waits in
    # one queue at a time, and never gets two seats at one table.
    person: Mapped[str | None] = mapped_column(String(64), default=None)

    __table_args__ = (Index("ix_quick_queue_waiting", "game", "players", "rated", "table_id"),)


class RatingRow(Base):
    """An account's rating in one game (openskill's mu and sigma), changed only in the transaction
    that stores a rated game's result (db/results.py)."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int]  # rated games played
    wins: Mapped[int]
    updated_at: Mapped[datetime]

    __table_args__ = (Index("ix_ratings_game", "game"),)


class PlayedRow(Base):
    """One finished game of an account, rated or not: its profile's counts and recent games, and
    the rating after it (None: unrated). The key makes a game count once for each account."""

    __tablename__ = "played"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)  # no foreign key: kept when the table is swept
    game_no: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int]
    place: Mapped[int]  # 1: first (winners share it); a leaver is last
    players: Mapped[int]
    won: Mapped[bool]
    left: Mapped[bool]  # gave the seat up before the end (a loss when rated)
    rated: Mapped[bool]
    mu: Mapped[float | None] = mapped_column(default=None)  # the rating after this game
    sigma: Mapped[float | None] = mapped_column(default=None)
    change: Mapped[float | None] = mapped_column(default=None)  # of the shown rating (mu - 3 sigma)
    finished_at: Mapped[datetime]

    __table_args__ = (Index("ix_played_account_time", "account_id", "finished_at"),)


class FriendRow(Base):
    """`account_id` added `friend_id` as a friend. Two accounts are friends when each added the
    other: only then does either see where the other plays (db/social.py)."""

    __tablename__ = "friends"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime]


class ReportRow(Base):
    """A chat line reported to the operator, copied as it was said (a table keeps only its newest
    lines, and a swept table none): `stich admin reports` lists the open ones."""

    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))
    chat_id: Mapped[int]
    said_by: Mapped[str] = mapped_column(String(80))  # the name the line was said under
    seat: Mapped[int]
    text: Mapped[str] = mapped_column(String(2000))
    said_at: Mapped[datetime]
    reporter: Mapped[str] = mapped_column(String(80))  # the reporter's name, as shown
    reporter_key: Mapped[str] = mapped_column(String(80))  # "account:ID" or "seat:TABLE:SEAT": one report each
    reason: Mapped[str | None] = mapped_column(String(300), default=None)
    created_at: Mapped[datetime]
    resolved_at: Mapped[datetime | None] = mapped_column(default=None)

    __table_args__ = (UniqueConstraint("chat_id", "reporter_key", name="uq_reports_line_reporter"),)


class MuteRow(Base):
    """A name whose chat lines `account_id` folds away, on every device it logs in on (a guest's
    mutes stay in the browser; db/social.py)."""

    __tablename__ = "mutes"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(80), primary_key=True)  # as the chat lines show it
    created_at: Mapped[datetime]
