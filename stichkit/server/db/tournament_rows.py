"""The tables of tournaments (see db/tournaments.py), and the two ways between their rows and
the plain values of ../model.py: `tournament_of` reads, `entrant_row` writes. `bump` counts a
tournament's revision up: the claim every step is taken by."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, UniqueConstraint, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..model import Entrant, Round, RoundTable, StoredTournament
from .models import Base
from .repository import Conflict, to_dt, value_of


class TournamentRow(Base):
    """A tournament. `settings` are the organiser's choices as checked (format, rounds, games a
    round, rated, registration, move timer); `rev` counts every change (the claim of each step)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))  # registering | running | paused | over
    round: Mapped[int]  # the round being played or last played (0: none yet)
    seed: Mapped[int] = mapped_column(BigInteger)  # every round's pairing and deals come from it
    organiser: Mapped[str] = mapped_column(String(64))  # identity.person of whoever opened it; never shown
    opened_by: Mapped[str] = mapped_column(String(80), index=True)  # clients.client_key: counted by the quotas
    invitation: Mapped[str | None] = mapped_column(String(64), default=None)  # the secret of the invitation link
    start_at: Mapped[datetime | None] = mapped_column(default=None)  # None: the organiser starts it
    ended_early: Mapped[bool] = mapped_column(default=False)
    rev: Mapped[int]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    # Finished games of this (Jass) tournament may still wait for the server's own analyses
    # (tournament_analyses.py): set with the step that ends a round, cleared once all are solved.
    analyses_pending: Mapped[bool] = mapped_column(default=False)

    __table_args__ = (Index("ix_tournaments_status", "status"),)


class EntrantRow(Base):
    """A person (an account or a browser), or a bot, entered in a tournament; in Jass with a team
    name that joins two entrants. `replaced_by` is the bot that plays for a player who has gone,
    from round `replaced_round` on: their results from then are marked."""

    __tablename__ = "tournament_entrants"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)  # 1, 2, ... in the order of registering
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    name: Mapped[str] = mapped_column(String(80))
    bot: Mapped[str | None] = mapped_column(String(200), default=None)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), default=None)
    person: Mapped[str | None] = mapped_column(String(64), default=None)
    team: Mapped[str | None] = mapped_column(String(80), default=None)
    replaced_by: Mapped[str | None] = mapped_column(String(200), default=None)
    replaced_round: Mapped[int | None] = mapped_column(default=None)
    registered_at: Mapped[datetime]

    __table_args__ = (UniqueConstraint("tournament_id", "person", name="uq_tournament_entrants_person"),)


class RoundRow(Base):
    """A round: its plan (who sits where at which table, the seeds of its games) as paired."""

    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # playing | done
    plan: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None] = mapped_column(default=None)


class RoundTableRow(Base):
    """One table of a round: the ordinary table that plays it, the entrant at each seat, the
    seed of each of its games, and the results of the games played. `tokens` holds the seat tokens
    of the people seated (by seat), each given to its own player only."""

    __tablename__ = "tournament_tables"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seats: Mapped[list[Any]] = mapped_column(JSON)  # the entrant number at each seat
    seeds: Mapped[list[Any]] = mapped_column(JSON)  # the seed of each game, in order
    tokens: Mapped[dict[str, Any]] = mapped_column(JSON)  # seat (as text) -> the seat's token
    results: Mapped[list[Any]] = mapped_column(JSON)  # one per game finished: scores, winners, bots
    status: Mapped[str] = mapped_column(String(16))  # playing | over


def tournament_of(row: TournamentRow, entrants: Any, rounds: Any, tables: Any) -> StoredTournament:
    """The tournament as a value, with its entrants', rounds' and round tables' rows."""
    return value_of(
        StoredTournament, row,
        entrants=[value_of(Entrant, e, account=e.account_id) for e in entrants],
        rounds=[value_of(Round, r) for r in rounds],
        tables=[value_of(RoundTable, t) for t in tables],
    )  # fmt: skip


def entrant_row(tournament_id: str, e: Entrant) -> EntrantRow:
    return EntrantRow(tournament_id=tournament_id, number=e.number, kind=e.kind, name=e.name, bot=e.bot,
                      account_id=e.account, person=e.person, team=e.team,
                      registered_at=to_dt(e.registered_at))  # fmt: skip


def bump(s: Session, tournament_id: str, rev: int | None, at: float, *conditions: Any, **values: Any) -> int:
    """Count the tournament's revision up (only from `rev`, when given, and under `conditions`):
    the new revision. Conflict when the tournament changed first."""
    where = [TournamentRow.id == tournament_id, *conditions]
    if rev is not None:
        where.append(TournamentRow.rev == rev)
    done = s.execute(update(TournamentRow).where(*where)
                     .values(rev=TournamentRow.rev + 1, updated_at=to_dt(at), **values))  # fmt: skip
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(f"tournament {tournament_id} changed meanwhile")
    return int(s.scalar(select(TournamentRow.rev).where(TournamentRow.id == tournament_id)) or 0)
