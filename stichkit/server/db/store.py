"""Every read and write of the database, as plain data in and out (the values of ../model.py).

Nothing else in the server queries the database: the hub keeps its live tables through here, and
the routes read finished games, their records and analyses through here too. The methods are
synchronous (SQLAlchemy sessions) and short; the hub runs them in its database thread(s), never
in the event loop. Each write is one transaction, and a move's transaction is committed before
anyone is told of the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, Select, bindparam, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..model import (
    ChatLine,
    FinishedGame,
    Seat,
    StoredAction,
    StoredGame,
    StoredTable,
    account_person,
    barred_seats,
    began,
    sat_down,
)
from ..quotas import TableQuota
from .models import ActionRow, AnalysisRow, ChatRow, GameRow, SeatRow, TableRow
from .results import record_result


class Conflict(Exception):
    """Another process changed the table first (a move at this version, a rematch, a seat)."""


class Missing(LookupError):
    """No such table (it may have been swept), or no such game at it."""


class NotOver(Exception):
    """The game asked for is still being played: its record is public once it ends."""


def to_dt(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


def to_ts(d: datetime) -> float:
    return d.timestamp()


@dataclass(frozen=True)
class StoredAnalysis:
    """A game's analysis as stored: `status` "done" (kept for good) or "working" (claimed by
    process `owner`, whose last sign of life was `updated_at`; `document` is its progress)."""

    document: dict[str, Any]
    status: str
    owner: str | None
    claim: int
    updated_at: float


@dataclass(frozen=True)
class Move:
    """A decision to store: with `result` the game ends with it; `seat_changes` end takeovers. It
    is stored only if the table is still at `line` and one decision short of the action's version."""

    table_id: str
    game_no: int
    action: StoredAction
    line: int = 0
    result: dict[str, Any] | None = None
    seat_changes: dict[int, dict[str, Any]] = field(default_factory=dict)


def _seat(row: SeatRow) -> Seat:
    return Seat(
        row.kind,
        row.bot,
        row.name,
        row.token_hash,
        row.takeover,
        row.takeover_hand,
        row.rematch,
        row.account_id,
        row.person,
        list(row.holders) if row.holders else None,
    )


def _actions(s: Session, table_id: str, game_no: int, after: int = 0) -> list[StoredAction]:
    """The game's actions past version `after`, in order."""
    q = select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.game_no == game_no,
                                ActionRow.version > after)  # fmt: skip
    rows = s.scalars(q.order_by(ActionRow.version))
    return [StoredAction(a.version, a.seat, a.action, a.by, to_ts(a.created_at)) for a in rows]


def add_table(s: Session, t: StoredTable) -> None:
    """Add a new table and its first game within the transaction `s`."""
    s.add(
        TableRow(
            id=t.id, name=t.name, game=t.game, options=t.options, private=t.private, settings=t.settings,
            status=t.status, game_no=t.game_no, version=0, line=0, rev=t.rev, created_at=to_dt(t.created_at),
            updated_at=to_dt(t.updated_at), opened_by=t.opened_by,
            seats=[SeatRow(seat=i, kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash,
                           takeover=None, takeover_hand=None, rematch=False, account_id=x.account,
                           person=x.person, holders=x.holders)
                   for i, x in enumerate(t.seats)],
        )
    )  # fmt: skip
    s.flush()
    s.add(
        GameRow(table_id=t.id, game_no=t.game_no, seed=t.seed, seats=[x.public() for x in t.seats],
                status="playing", result=None, started_at=to_dt(t.started_at), finished_at=None)
    )  # fmt: skip


def client_tables(s: Session, client: str) -> tuple[int, int]:
    """The tables `client` opened that are stored, and the bot seats of those not over."""
    held = s.scalar(select(func.count()).select_from(TableRow).where(TableRow.opened_by == client)) or 0
    bots = s.scalar(
        select(func.count()).select_from(SeatRow).join(TableRow, TableRow.id == SeatRow.table_id)
        .where(TableRow.opened_by == client, TableRow.status != "over", SeatRow.kind == "bot")
    )  # fmt: skip
    return held, bots or 0


def hold_to(s: Session, quota: TableQuota) -> None:
    """Within the transaction `s` that stores a new table: raise the quota's LimitReached when the
    table would take its client past it. On PostgreSQL a lock per client, held to the commit,
    makes two processes opening tables for one client at once count one after the other."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "client " + quota.client})
    refusal = quota.refuse(*client_tables(s, quota.client))
    if refusal is not None:
        raise refusal


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- tables ------------------------------------------------------------------------------

    def create_table(self, t: StoredTable, quota: TableQuota | None = None) -> None:
        """Store a new table; with a `quota`, only if its client stays within it (else the quota's
        LimitReached is raised and nothing is stored). The count and the insert are one
        transaction, under a lock per client on PostgreSQL, so two processes opening tables for
        one client at once cannot both pass the last free place."""
        with self.sessions.begin() as s:
            if quota is not None:
                hold_to(s, quota)
            add_table(s, t)

    def client_tables(self, client: str) -> tuple[int, int]:
        with self.sessions() as s:
            return client_tables(s, client)

    def _stored(self, s: Session, row: TableRow, after: tuple[int, int, int] | None,
                last_chat: int = 0) -> StoredTable:  # fmt: skip
        g = s.get(GameRow, (row.id, row.game_no))
        assert g is not None, f"table {row.id} has no game {row.game_no}"
        complete = after is None or after[:2] != (row.game_no, row.line)
        actions = _actions(s, row.id, row.game_no, 0 if after is None or complete else after[2])
        return StoredTable(
            id=row.id, name=row.name, game=row.game, options=dict(row.options), private=row.private,
            settings=dict(row.settings), status=row.status, game_no=row.game_no, rev=row.rev,
            created_at=to_ts(row.created_at), updated_at=to_ts(row.updated_at), seats=[_seat(x) for x in row.seats],
            seed=g.seed, started_at=to_ts(g.started_at), actions=actions, complete=complete, line=row.line,
            last_chat=last_chat, takeback=row.takeback, opened_by=row.opened_by,
        )  # fmt: skip

    def load_tables(self) -> list[StoredTable]:
        with self.sessions() as s:
            newest = select(ChatRow.table_id, func.max(ChatRow.id)).group_by(ChatRow.table_id)
            last = {table_id: line for table_id, line in s.execute(newest)}
            rows = s.scalars(select(TableRow).order_by(TableRow.created_at))
            return [self._stored(s, row, None, last.get(row.id, 0)) for row in rows]

    def load_table(self, table_id: str, after: tuple[int, int, int] | None = None) -> StoredTable | None:
        """The table; with `after` = (game_no, line, version) only the actions past that version if
        the game and its line are still the current ones (a rematch or a takeback elsewhere gives
        the whole game again). Read in full (no `after`), it also names its newest chat line
        (`last_chat`).

        The actions are those of the line read. On PostgreSQL the reads share one snapshot
        (REPEATABLE READ; under READ COMMITTED each statement could see a takeback the one before
        did not). SQLite serves one process, whose reads and writes take turns in its one
        database thread."""
        with self.sessions() as s:
            if self.engine.dialect.name == "postgresql":
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            last_chat = 0
            if after is None:
                last_chat = s.scalar(select(func.max(ChatRow.id)).where(ChatRow.table_id == table_id)) or 0
            return self._stored(s, row, after, last_chat)

    def revisions(self) -> dict[str, int]:
        with self.sessions() as s:
            return {i: r for i, r in s.execute(select(TableRow.id, TableRow.rev))}

    def count_tables(self) -> int:
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(TableRow)) or 0

    def delete_table(self, table_id: str) -> None:
        with self.sessions.begin() as s:
            for model in (AnalysisRow, ActionRow, ChatRow, GameRow, SeatRow):
                s.execute(delete(model).where(model.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))

    def _bump(self, s: Session, table_id: str, at: float, **values: Any) -> None:
        s.execute(
            update(TableRow).where(TableRow.id == table_id).values(rev=TableRow.rev + 1, updated_at=to_dt(at), **values)
        )

    # -- moves -------------------------------------------------------------------------------

    def append_moves(self, moves: list[Move]) -> list[Conflict | None]:
        """Store decisions of different tables in one transaction (group commit: under load one
        commit serves many moves). Each move's outcome: None (committed) or the Conflict that
        refused it because another process stored a decision at that version first."""
        if len(moves) > 1:
            try:
                with self.engine.begin() as conn:
                    self._insert(conn, moves)
                return [None] * len(moves)
            except (IntegrityError, Conflict):
                pass  # someone's version was taken: store them one by one, to know whose
        out: list[Conflict | None] = []
        for m in moves:
            try:
                with self.engine.begin() as conn:
                    self._insert(conn, [m])
                out.append(None)
            except IntegrityError:
                a = m.action
                out.append(Conflict(f"version {a.version} of game {m.game_no} at table {m.table_id} is taken"))
            except Conflict as e:
                out.append(e)
        return out

    def _insert(self, conn: Connection, moves: list[Move]) -> None:
        """The hot path: Core statements, several rows per statement, no ORM unit of work."""
        conn.execute(
            insert(ActionRow),
            [{"table_id": m.table_id, "game_no": m.game_no, "version": m.action.version, "seat": m.action.seat,
              "action": m.action.action, "by": m.action.by, "created_at": to_dt(m.action.at)} for m in moves],
        )  # fmt: skip
        plain = [m for m in moves if m.result is None and not m.seat_changes]
        if plain and conn.dialect.supports_sane_multi_rowcount:
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == bindparam("b_id"), TableRow.game_no == bindparam("b_game"),
                       TableRow.line == bindparam("b_line"), TableRow.version == bindparam("b_prev"))
                .values(rev=TableRow.rev + 1, updated_at=bindparam("b_at"), version=bindparam("b_version")),
                [{"b_id": m.table_id, "b_game": m.game_no, "b_line": m.line, "b_prev": m.action.version - 1,
                  "b_at": to_dt(m.action.at), "b_version": m.action.version} for m in plain],
            )  # fmt: skip
            if done.rowcount != len(plain):
                raise Conflict("a table is no longer at the game, line or version of its move")
            special = [m for m in moves if m not in plain]
        else:
            special = moves
        for m in special:
            at = to_dt(m.action.at)
            values: dict[str, Any] = {"version": m.action.version}
            if m.result is not None:
                values["status"] = "over"
                conn.execute(
                    update(GameRow)
                    .where(GameRow.table_id == m.table_id, GameRow.game_no == m.game_no)
                    .values(status="over", result=m.result, finished_at=at)
                )
            for seat, changes in m.seat_changes.items():
                conn.execute(
                    update(SeatRow).where(SeatRow.table_id == m.table_id, SeatRow.seat == seat).values(**changes)
                )
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == m.table_id, TableRow.game_no == m.game_no, TableRow.line == m.line,
                       TableRow.version == m.action.version - 1)
                .values(rev=TableRow.rev + 1, updated_at=at, **values)
            )  # fmt: skip
            if done.rowcount != 1:
                raise Conflict(f"table {m.table_id} is no longer at game {m.game_no}, line {m.line}, "
                               f"version {m.action.version - 1}")  # fmt: skip
            if m.result is not None:  # the game's end: its accounts' results and ratings, in this transaction
                record_result(conn, m.table_id, m.game_no, m.result, at)

    def take_back(self, table_id: str, game_no: int, line: int, version: int, to_version: int, at: float,
                  request: str | None = None, seat: int | None = None) -> None:  # fmt: skip
        """Take the current game back from `version` to `to_version` decisions: the later actions
        are deleted, the line grows by one, any takeback request is done with, and the game counts
        one more takeback for `seat` (its record says how many each seat made). Refused
        (Conflict) unless the table is still playing that game at that line and version (another
        process moved or took back first), and, given `request`, still holds that request's text
        (nobody declined or withdrew it meanwhile)."""
        with self.sessions.begin() as s:
            where = [TableRow.id == table_id, TableRow.game_no == game_no, TableRow.line == line,
                     TableRow.version == version, TableRow.status == "playing"]  # fmt: skip
            if request is not None:
                where.append(TableRow.takeback == request)
            done = s.execute(
                update(TableRow)
                .where(*where)
                .values(version=to_version, line=line + 1, takeback=None, rev=TableRow.rev + 1, updated_at=to_dt(at))
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id} is not playing game {game_no} at line {line}, version {version}")
            s.execute(
                delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.game_no == game_no,
                                        ActionRow.version > to_version)
            )  # fmt: skip
            g = s.get(GameRow, (table_id, game_no))
            if seat is not None and g is not None and 0 <= seat < len(g.seats):
                counts = list(g.takebacks or [0] * len(g.seats))
                counts[seat] += 1
                g.takebacks = counts

    def set_takeback(self, table_id: str, game_no: int, line: int, old: str | None, new: str | None,
                     at: float) -> None:  # fmt: skip
        """Ask for, answer or withdraw a takeback: the request's text `old` becomes `new`. Refused
        (Conflict) unless the table still plays that game on that line and holds `old` (an answer
        or a takeback elsewhere came first)."""
        with self.sessions.begin() as s:
            held = TableRow.takeback.is_(None) if old is None else TableRow.takeback == old
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.game_no == game_no, TableRow.line == line,
                       TableRow.status == "playing", held)
                .values(takeback=new, rev=TableRow.rev + 1, updated_at=to_dt(at))
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id}'s takeback request changed, or it left game {game_no} line {line}")

    def _seat_updates(self, s: Session, table_id: str, changes: dict[int, dict[str, Any]]) -> None:
        for seat, values in changes.items():
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(**values))

    # -- seats -------------------------------------------------------------------------------

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str, at: float,
                   account: int | None = None, person: str | None = None, one_seat: bool = False) -> str:  # fmt: skip
        """Claim a free human seat (for `account`, when its holder is logged in; by `person`,
        identity.person): the table's status after it. Refused (Conflict) when the seat is not
        free (another process seated someone there first), or, with `one_seat`, when `person`
        holds another seat of the table or held one in the game being played (model.barred_seats)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id, with_for_update=True)  # claims at one table, one at a time
            if row is None:
                raise Conflict(f"table {table_id} is gone")
            if one_seat:
                seats = [_seat(r) for r in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                                     .order_by(SeatRow.seat))]  # fmt: skip
                if seat in barred_seats(seats, person, row.status == "playing"):
                    raise Conflict(f"seat {seat} of table {table_id} is barred to this person")
            done = s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human",
                       SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, takeover=None, takeover_hand=None, rematch=False,
                        account_id=account, person=person)
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"seat {seat} of table {table_id} is not a free human seat")
            free = s.scalar(
                select(func.count()).where(SeatRow.table_id == table_id, SeatRow.kind == "human",
                                           SeatRow.token_hash.is_(None))
            )  # fmt: skip
            status = "playing" if row.status == "waiting" and not free else row.status
            if status == "playing":  # who held which seat of this game (model.began, model.sat_down)
                rows = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))
                seats = [_seat(r) for r in rows]
                if row.status == "waiting":
                    began(seats)
                else:
                    sat_down(seats[seat], person, True)
                for r, x in zip(rows, seats, strict=True):
                    r.holders = x.holders
            if row.status != "over":
                self._seat_in_game(s, table_id, row.game_no, seat, name, row.status == "waiting", account)
            self._bump(s, table_id, at, status=status)
            return status

    def _seat_in_game(self, s: Session, table_id: str, game_no: int, seat: int, name: str | None,
                      before_play: bool, account: int | None = None) -> None:  # fmt: skip
        """Keep the game's seat list (its record's and replay's names) with who sits there. Before
        play the seat's name is simply who holds it now; a seat that changes hands during play
        keeps the name of who began the game and adds each newcomer to `names`."""
        game = s.get(GameRow, (table_id, game_no), with_for_update=True)
        if game is None or not 0 <= seat < len(game.seats):
            return
        seats = [dict(x) for x in game.seats]
        entry = seats[seat]
        names = list(entry.get("names") or ([entry["name"]] if entry.get("name") else []))
        # `joined`: the accounts among those who took the seat during play, with the name each sat
        # under, so that deleting one of them renames it here too (Accounts.delete)
        joined = [list(x) for x in entry.get("joined") or []]
        if before_play:
            names, joined = ([name] if name else []), []
        elif name:
            names.append(name)
            if account is not None:
                joined.append([account_person(account), name])
        entry["names"] = names
        entry["name"] = names[0] if names else None
        if joined:
            entry["joined"] = joined
        else:
            entry.pop("joined", None)
        if before_play:  # the account of whoever begins the game here
            entry.pop("account", None)
            if account is not None:
                entry["account"] = account
        game.seats = seats  # a new list: the JSON column is written again

    def release_seat(self, table_id: str, seat: int, token_hash: str, takeover: str | None, at: float) -> None:
        """Give a seat up (its token stops working); during play `takeover` says who plays on.
        Refused (Conflict) when the token no longer holds the seat."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == token_hash)
                .values(
                    token_hash=None, takeover=takeover, takeover_hand=None, rematch=False, account_id=None, person=None
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"the token holds seat {seat} of table {table_id} no longer")
            row = s.get(TableRow, table_id)
            if row is not None and row.status == "waiting":  # nobody has played from this seat yet
                self._seat_in_game(s, table_id, row.game_no, seat, None, True)
            self._bump(s, table_id, at)

    def move_seat(self, table_id: str, seat: int, to: int, token_hash: str, at: float) -> None:
        """Before play: the player holding `seat` (by its token) moves to the free human seat `to`,
        keeping the token. Refused (Conflict) when the table has begun, the token is not there or
        `to` is no longer free (another process changed the seats first)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id, with_for_update=True)
            src, dst = s.get(SeatRow, (table_id, seat)), s.get(SeatRow, (table_id, to))
            if row is None or row.status != "waiting" or src is None or dst is None:
                raise Conflict(f"table {table_id} waits for players no longer")
            if src.token_hash != token_hash or dst.kind != "human" or dst.token_hash is not None:
                raise Conflict(f"the seats of table {table_id} changed")
            name, account, person = src.name, src.account_id, src.person
            src.name, src.token_hash, src.account_id, src.person = None, None, None, None
            s.flush()
            dst.name, dst.token_hash, dst.account_id, dst.person = name, token_hash, account, person
            self._seat_in_game(s, table_id, row.game_no, seat, None, True)
            self._seat_in_game(s, table_id, row.game_no, to, name, True, account)
            self._bump(s, table_id, at)

    def update_seats(self, table_id: str, game_no: int, changes: dict[int, dict[str, Any]], at: float) -> None:
        """Takeovers, reclaims and rematch votes; refused (Conflict) when the game has changed."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id)
            if row is None or row.game_no != game_no:
                raise Conflict(f"table {table_id} is no longer at game {game_no}")
            self._seat_updates(s, table_id, changes)
            self._bump(s, table_id, at)

    def start_game(self, table_id: str, game_no: int, seed: int, seats: list[Seat], status: str, at: float) -> None:
        """The next game at the table (a rematch): new seats, a new seed, version 0."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.game_no == game_no - 1, TableRow.status == "over")
                .values(
                    game_no=game_no,
                    version=0,
                    line=0,
                    takeback=None,
                    status=status,
                    rev=TableRow.rev + 1,
                    updated_at=to_dt(at),
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id} already went on to another game")
            for i, x in enumerate(seats):
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == i)
                    .values(kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash, takeover=None,
                            takeover_hand=None, rematch=False, account_id=x.account, person=x.person,
                            holders=x.holders)
                )  # fmt: skip
            s.add(GameRow(table_id=table_id, game_no=game_no, seed=seed, seats=[x.public() for x in seats],
                          status="playing", result=None, started_at=to_dt(at), finished_at=None))  # fmt: skip

    # -- chat --------------------------------------------------------------------------------

    def add_chat(self, table_id: str, seat: int, name: str, text: str, at: float, keep: int | None = None) -> ChatLine:
        """Store a chat line; with `keep`, the table keeps only its newest `keep` lines."""
        with self.sessions.begin() as s:
            row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, created_at=to_dt(at))
            s.add(row)
            s.flush()
            if keep is not None:
                oldest_gone = s.scalar(
                    select(ChatRow.id).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).offset(keep)
                    .limit(1)
                )  # fmt: skip
                if oldest_gone is not None:
                    s.execute(delete(ChatRow).where(ChatRow.table_id == table_id, ChatRow.id <= oldest_gone))
            self._bump(s, table_id, at)
            return ChatLine(row.id, seat, name, text, at)

    def chat(self, table_id: str, last: int, after_id: int = 0) -> list[ChatLine]:
        """The table's last `last` messages (after `after_id`), oldest first."""
        with self.sessions() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.id > after_id)
                .order_by(ChatRow.id.desc())
                .limit(last)
            ).all()
            return [ChatLine(r.id, r.seat, r.name, r.text, to_ts(r.created_at)) for r in reversed(rows)]

    # -- finished games ----------------------------------------------------------------------

    def analysis(self, table_id: str, game_no: int) -> StoredAnalysis | None:
        """A game's analysis as stored: done, or in work somewhere (None: never begun)."""
        with self.sessions() as s:
            row = s.get(AnalysisRow, (table_id, game_no))
            if row is None:
                return None
            at = row.updated_at or row.created_at
            return StoredAnalysis(dict(row.document), row.status, row.owner, row.claim, to_ts(at))

    def claim_analysis(self, table_id: str, game_no: int, owner: str, document: dict[str, Any], at: float,
                       seen: StoredAnalysis | None) -> bool:  # fmt: skip
        """Claim a game's analysis for `owner` to solve: new (`seen` None), or taken over from a
        process that has gone silent (`seen`, as read). False: another process claimed it first."""
        try:
            with self.sessions.begin() as s:
                if seen is None:
                    s.add(AnalysisRow(table_id=table_id, game_no=game_no, document=document, created_at=to_dt(at),
                                      status="working", owner=owner, claim=0, updated_at=to_dt(at)))  # fmt: skip
                    return True
                done = s.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no,
                           AnalysisRow.status == "working", AnalysisRow.claim == seen.claim)
                    .values(owner=owner, claim=seen.claim + 1, document=document, updated_at=to_dt(at))
                )  # fmt: skip
                return bool(done.rowcount == 1)  # type: ignore[attr-defined]
        except IntegrityError:
            return False

    def analysis_progress(self, owner: str, progress: dict[tuple[str, int], dict[str, Any] | None], at: float) -> None:
        """The owner's sign of life for the analyses it has in work, with the new answer of each
        that came further (None: as it was)."""
        with self.sessions.begin() as s:
            for (table_id, game_no), document in progress.items():
                values: dict[str, Any] = {"updated_at": to_dt(at)}
                if document is not None:
                    values["document"] = document
                s.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no,
                           AnalysisRow.status == "working", AnalysisRow.owner == owner)
                    .values(**values)
                )  # fmt: skip

    def save_analysis(self, table_id: str, game_no: int, document: dict[str, Any], at: float) -> None:
        """Keep a finished analysis (whoever finishes first: every process finds the same)."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(AnalysisRow)
                .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no)
                .values(document=document, status="done", owner=None, updated_at=to_dt(at))
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                return
        try:
            with self.sessions.begin() as s:
                s.add(AnalysisRow(table_id=table_id, game_no=game_no, document=document, created_at=to_dt(at),
                                  status="done", updated_at=to_dt(at)))  # fmt: skip
        except IntegrityError:
            pass  # kept meanwhile by another process

    def release_analyses(self, owner: str | None, keys: list[tuple[str, int]] | None = None) -> None:
        """Give up `owner`'s claims (`keys`, or all of them; every owner's with None): a failed
        analysis, a server stopping. Whoever asks next begins the analysis again."""
        with self.sessions.begin() as s:
            q = delete(AnalysisRow).where(AnalysisRow.status == "working")
            if owner is not None:
                q = q.where(AnalysisRow.owner == owner)
            if keys is None:
                s.execute(q)
            for table_id, game_no in keys or []:
                s.execute(q.where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no))

    def games(self, table_id: str) -> list[StoredGame]:
        """Every game of the table, finished or not, in order."""
        with self.sessions() as s:
            if s.get(TableRow, table_id) is None:
                raise Missing(f"no table {table_id!r} here (it may have been swept)")
            return [_game(g) for g in s.scalars(_games_of(table_id).order_by(GameRow.game_no))]

    def finished_game(self, table_id: str, game_no: int | None = None) -> FinishedGame:
        """Game `game_no` of the table (None: its latest finished one) with its actions, once it
        is over (NotOver before; Missing: no such table or game)."""
        with self.sessions() as s:
            table = s.get(TableRow, table_id)
            if table is None:
                raise Missing(f"no table {table_id!r} here (it may have been swept)")
            if game_no is None:
                over = _games_of(table_id).where(GameRow.status == "over")
                game = s.scalars(over.order_by(GameRow.game_no.desc())).first()
                if game is None:
                    raise NotOver("no game at this table is over yet: records are public once a game ends")
            else:
                game = s.get(GameRow, (table_id, game_no))
                if game is None:
                    raise Missing(f"table {table_id} has no game {game_no}")
                if game.status != "over":
                    raise NotOver(f"game {game_no} is not over: its record is public once it ends")
            return FinishedGame(table.id, table.game, dict(table.options), game.seed, _game(game),
                                _seats_played(table, game), _actions(s, table_id, game.game_no))  # fmt: skip


def _games_of(table_id: str) -> Select[GameRow]:
    return select(GameRow).where(GameRow.table_id == table_id)


def _game(row: GameRow) -> StoredGame:
    return StoredGame(row.game_no, row.status, list(row.seats), row.result, row.takebacks, to_ts(row.started_at),
                      None if row.finished_at is None else to_ts(row.finished_at))  # fmt: skip


def _seats_played(table: TableRow, game: GameRow) -> list[dict[str, Any]]:
    """The game's seats, each with its number. A game finished by an older server kept no human
    names (it stored the seats before anyone sat): while the table is still at that game, they
    come from its seats."""
    out = [{"seat": i, **s} for i, s in enumerate(game.seats)]
    if table.game_no == game.game_no:
        for s, now in zip(out, table.seats, strict=False):
            if s["kind"] == "human" and s.get("name") is None and now.name is not None:
                s["name"], s["names"] = now.name, [now.name]
    return out
