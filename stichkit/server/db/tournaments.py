"""Tournaments as stored: the tournament, its entrants, its rounds and the tables of each round,
with the results of their games. The round tables themselves are ordinary tables (db/store.py).

Every change of a tournament counts its `rev` up by one. A change that depends on what was read
(the next round paired from the results, the tournament started, paused or ended) is stored only
if `rev` is still the one read: of two processes that take the same step at once, the second is
refused (Conflict) and nothing of it is stored, its round tables included. This is the claim each
step is taken by, as a game's analysis is claimed by its `claim` counter. Registering counts `rev`
up too, so a round paired from an older list of entrants is refused and paired again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    delete,
    func,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from ..model import StoredTable
from ..quotas import LimitReached
from .models import AnalysisRow, Base, GameRow, SeatRow
from .repository import Conflict, to_dt, to_ts
from .tables import add_table

TABLE_OPENER = "tournament:"  # a round table's `opened_by`: the tournament's, not a visitor's


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


@dataclass(frozen=True)
class Entrant:
    number: int
    kind: str
    name: str
    bot: str | None = None
    account: int | None = None
    person: str | None = None
    team: str | None = None
    replaced_by: str | None = None
    replaced_round: int | None = None
    registered_at: float = 0.0


@dataclass(frozen=True)
class RoundTable:
    round: int
    number: int
    table_id: str
    seats: list[int]
    seeds: list[int]
    tokens: dict[str, str]
    results: list[dict[str, Any]]
    status: str


@dataclass(frozen=True)
class Round:
    number: int
    status: str
    plan: dict[str, Any]
    started_at: float
    ended_at: float | None


@dataclass(frozen=True)
class StoredTournament:
    id: str
    name: str
    game: str
    options: dict[str, Any]
    format: str
    settings: dict[str, Any]
    status: str
    round: int
    seed: int
    organiser: str
    opened_by: str
    invitation: str | None
    start_at: float | None
    ended_early: bool
    rev: int
    created_at: float
    updated_at: float
    started_at: float | None = None
    ended_at: float | None = None
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    tables: list[RoundTable] = field(default_factory=list)

    def entrant_of(self, person: str | None) -> Entrant | None:
        if person is None:
            return None
        return next((e for e in self.entrants if e.person == person), None)


@dataclass(frozen=True)
class NewRoundTable:
    """A table of a round to open: the ordinary table, and what the tournament keeps of it."""

    number: int
    table: StoredTable
    seats: list[int]
    seeds: list[int]
    tokens: dict[str, str]


@dataclass(frozen=True)
class TournamentQuota:
    """What opening a tournament or entering a bot may not take a client past (0: no limit):
    tournaments not over that it opened, and bot entrants it entered in those."""

    client: str
    tournaments: int
    bots: int

    def refuse(self, held: int, bots: int, new_bots: int) -> LimitReached | None:
        if self.tournaments and new_bots == 0 and held >= self.tournaments:
            return LimitReached("client_tournaments", f"you run {held} tournaments at this server, the most one "
                                f"visitor may run at once ({self.tournaments}); end one first")  # fmt: skip
        if self.bots and bots + new_bots > self.bots:
            return LimitReached("client_bot_entrants", f"your tournaments have {bots} bot entrants and you asked "
                                f"for {new_bots} more; one visitor may enter {self.bots}")  # fmt: skip
        return None


def _entrant(r: EntrantRow) -> Entrant:
    return Entrant(r.number, r.kind, r.name, r.bot, r.account_id, r.person, r.team, r.replaced_by, r.replaced_round,
                   to_ts(r.registered_at))  # fmt: skip


def _ts(d: datetime | None) -> float | None:
    return None if d is None else to_ts(d)


class TournamentStore:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    # -- reading -----------------------------------------------------------------------------

    def load(self, tournament_id: str) -> StoredTournament | None:
        """The tournament with its entrants, rounds and round tables, read in one snapshot."""
        with self.sessions() as s:
            if s.get_bind().dialect.name == "postgresql":
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = s.get(TournamentRow, tournament_id)
            if row is None:
                return None
            entrants = s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == row.id)
                                 .order_by(EntrantRow.number))  # fmt: skip
            rounds = s.scalars(select(RoundRow).where(RoundRow.tournament_id == row.id).order_by(RoundRow.number))
            tables = s.scalars(select(RoundTableRow).where(RoundTableRow.tournament_id == row.id)
                               .order_by(RoundTableRow.round, RoundTableRow.number))  # fmt: skip
            return StoredTournament(
                row.id, row.name, row.game, dict(row.options), row.format, dict(row.settings), row.status, row.round,
                row.seed, row.organiser, row.opened_by, row.invitation, _ts(row.start_at), row.ended_early, row.rev,
                to_ts(row.created_at), to_ts(row.updated_at), _ts(row.started_at), _ts(row.ended_at),
                [_entrant(e) for e in entrants],
                [Round(r.number, r.status, dict(r.plan), to_ts(r.started_at), _ts(r.ended_at)) for r in rounds],
                [RoundTable(t.round, t.number, t.table_id, list(t.seats), list(t.seeds), dict(t.tokens),
                            list(t.results), t.status) for t in tables],
            )  # fmt: skip

    def listing(self, limit: int) -> list[dict[str, Any]]:
        """The newest tournaments, each as a line of the list (no secrets)."""
        with self.sessions() as s:
            count = (select(EntrantRow.tournament_id, func.count().label("n"))
                     .group_by(EntrantRow.tournament_id).subquery())  # fmt: skip
            q = (select(TournamentRow, count.c.n).outerjoin(count, count.c.tournament_id == TournamentRow.id)
                 .order_by(TournamentRow.created_at.desc()).limit(limit))  # fmt: skip
            return [{"id": r.id, "name": r.name, "game": r.game, "format": r.format, "status": r.status,
                     "round": r.round, "rounds": r.settings.get("rounds"), "entrants": n or 0,
                     "registration": r.settings.get("registration"), "rated": bool(r.settings.get("rated")),
                     "start_at": _ts(r.start_at), "rev": r.rev} for r, n in s.execute(q)]  # fmt: skip

    def due(self, now: float) -> list[tuple[str, int]]:
        """The tournaments a server has something to do for: running ones, paused ones (their
        round's games go on), and those whose start time has come. (id, rev)."""
        with self.sessions() as s:
            q = select(TournamentRow.id, TournamentRow.rev).where(
                (TournamentRow.status.in_(("running", "paused")))
                | ((TournamentRow.status == "registering") & (TournamentRow.start_at <= to_dt(now)))
            )
            return [(i, r) for i, r in s.execute(q)]

    def of_table(self, table_id: str) -> tuple[str, int, int] | None:
        """(tournament, round, table number) of a round table; None for any other table."""
        with self.sessions() as s:
            row = s.execute(select(RoundTableRow.tournament_id, RoundTableRow.round, RoundTableRow.number)
                            .where(RoundTableRow.table_id == table_id)).first()  # fmt: skip
            return None if row is None else (row[0], row[1], row[2])

    def finished_tables(self, table_ids: list[str]) -> set[str]:
        """Of these round tables, those done with: all their games' results kept (the round
        table is over), or their tournament over (a game still played when it ended counts no more)."""
        if not table_ids:
            return set()
        with self.sessions() as s:
            q = (select(RoundTableRow.table_id).join(TournamentRow, TournamentRow.id == RoundTableRow.tournament_id)
                 .where(RoundTableRow.table_id.in_(table_ids),
                        (RoundTableRow.status == "over") | (TournamentRow.status == "over")))  # fmt: skip
            return set(s.scalars(q))

    def games_of(self, table_ids: list[str]) -> dict[str, list[tuple[int, str, dict[str, Any] | None]]]:
        """The games of these (round) tables: (game number, status, result), in order."""
        out: dict[str, list[tuple[int, str, dict[str, Any] | None]]] = {i: [] for i in table_ids}
        if not table_ids:
            return out
        with self.sessions() as s:
            q = (select(GameRow.table_id, GameRow.game_no, GameRow.status, GameRow.result)
                 .where(GameRow.table_id.in_(table_ids)).order_by(GameRow.table_id, GameRow.game_no))  # fmt: skip
            for table_id, game_no, status, result in s.execute(q):
                out[table_id].append((game_no, status, None if result is None else dict(result)))
            return out

    def analysed_seats(self, games: list[tuple[str, int]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
        """For each (table, game number) whose analysis is done, its seats' totals (`seat`, cards
        reviewed as `decisions`, `errors`, points `lost`: the Jass analysis, docs/server.md)."""
        out: dict[tuple[str, int], list[dict[str, Any]]] = {}
        wanted = set(games)
        tables = sorted({t for t, _ in wanted})
        if not tables:
            return out
        with self.sessions() as s:
            q = select(AnalysisRow.table_id, AnalysisRow.game_no, AnalysisRow.document).where(
                AnalysisRow.table_id.in_(tables), AnalysisRow.status == "done"
            )
            for table_id, game_no, doc in s.execute(q):
                seats = ((doc or {}).get("analysis") or {}).get("seats")
                if (table_id, game_no) in wanted and (doc or {}).get("status") == "done" and isinstance(seats, list):
                    out[(table_id, game_no)] = [x for x in seats if isinstance(x, dict)]
        return out

    def takeovers(self, table_id: str) -> list[str | None]:
        """Who plays each seat of a table in the bot's stead now (None: its own player)."""
        with self.sessions() as s:
            q = select(SeatRow.takeover).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            return list(s.scalars(q))

    # -- the organiser and the entrants ------------------------------------------------------

    def create(self, t: StoredTournament, quota: TournamentQuota | None, bots: list[Entrant]) -> None:
        """Store a new tournament (with the bots it enters at once), within the client's quota:
        else the quota's LimitReached, and nothing stored."""
        with self.sessions.begin() as s:
            if quota is not None:
                self._hold(s, quota, len(bots))
            s.add(TournamentRow(
                id=t.id, name=t.name, game=t.game, options=t.options, format=t.format, settings=t.settings,
                status=t.status, round=0, seed=t.seed, organiser=t.organiser, opened_by=t.opened_by,
                invitation=t.invitation, start_at=None if t.start_at is None else to_dt(t.start_at),
                ended_early=False, rev=1, created_at=to_dt(t.created_at), updated_at=to_dt(t.updated_at),
            ))  # fmt: skip
            s.flush()
            for number, e in enumerate(bots, 1):
                s.add(self._entrant_row(t.id, Entrant(**{**vars(e), "number": number,
                                                         "registered_at": t.created_at})))  # fmt: skip

    def _hold(self, s: Session, quota: TournamentQuota, new_bots: int) -> None:
        """Refuse (LimitReached) what would take the client past its quota; on PostgreSQL under a
        lock per client, held to the commit, so two processes count one after the other."""
        if s.get_bind().dialect.name == "postgresql":
            s.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "tournaments " + quota.client})
        live = select(TournamentRow.id).where(TournamentRow.opened_by == quota.client, TournamentRow.status != "over")
        held = s.scalar(select(func.count()).select_from(live.subquery())) or 0
        bots = s.scalar(select(func.count()).select_from(EntrantRow)
                        .where(EntrantRow.tournament_id.in_(live), EntrantRow.kind == "bot")) or 0  # fmt: skip
        refusal = quota.refuse(held, bots, new_bots)
        if refusal is not None:
            raise refusal

    @staticmethod
    def _entrant_row(tournament_id: str, e: Entrant) -> EntrantRow:
        return EntrantRow(tournament_id=tournament_id, number=e.number, kind=e.kind, name=e.name, bot=e.bot,
                          account_id=e.account, person=e.person, team=e.team,
                          registered_at=to_dt(e.registered_at))  # fmt: skip

    def _bump(self, s: Session, tournament_id: str, rev: int | None, at: float, *conditions: Any,
              **values: Any) -> int:  # fmt: skip
        """Count the tournament's revision up (only from `rev`, when given, and under
        `conditions`): the new revision. Conflict when the tournament changed first."""
        where = [TournamentRow.id == tournament_id, *conditions]
        if rev is not None:
            where.append(TournamentRow.rev == rev)
        done = s.execute(update(TournamentRow).where(*where)
                         .values(rev=TournamentRow.rev + 1, updated_at=to_dt(at), **values))  # fmt: skip
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(f"tournament {tournament_id} changed meanwhile")
        return int(s.scalar(select(TournamentRow.rev).where(TournamentRow.id == tournament_id)) or 0)

    def register(self, tournament_id: str, e: Entrant, largest: int, at: float,
                 quota: TournamentQuota | None = None) -> Entrant:  # fmt: skip
        """Enter `e` (its number is given here) while the tournament takes registrations and has
        fewer than `largest` entrants. Conflict when it no longer registers, is full, or the person
        is entered already (the message says which); a bot within the client's `quota`."""
        with self.sessions.begin() as s:
            row = s.get(TournamentRow, tournament_id, with_for_update=True)  # one registration at a time
            if row is None or row.status != "registering":
                raise Conflict("registration is closed: the tournament has begun or ended")
            if e.person is not None and s.scalar(select(EntrantRow.number).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.person == e.person)) is not None:  # fmt: skip
                raise Conflict("you are entered in this tournament already")
            n = s.scalar(select(func.count()).where(EntrantRow.tournament_id == tournament_id)) or 0
            if n >= largest:
                raise Conflict(f"the tournament is full: it has {n} entrants, the most it takes")
            if e.team is not None:
                mates = s.scalar(select(func.count()).where(EntrantRow.tournament_id == tournament_id,
                                                            EntrantRow.team == e.team)) or 0  # fmt: skip
                if mates >= 2:
                    raise Conflict(f"team {e.team!r} has two players already")
            if quota is not None and e.kind == "bot":
                self._hold(s, quota, 1)
            last = s.scalar(select(func.max(EntrantRow.number)).where(EntrantRow.tournament_id == tournament_id))
            entered = Entrant(**{**vars(e), "number": (last or 0) + 1, "registered_at": at})
            s.add(self._entrant_row(tournament_id, entered))
            self._bump(s, tournament_id, None, at)
            return entered

    def unregister(self, tournament_id: str, number: int, at: float) -> None:
        """Take entrant `number` out while the tournament registers; Conflict once it has begun."""
        with self.sessions.begin() as s:
            self._bump(s, tournament_id, None, at, TournamentRow.status == "registering")
            done = s.execute(delete(EntrantRow).where(EntrantRow.tournament_id == tournament_id,
                                                      EntrantRow.number == number))  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"entrant {number} is not entered")

    def replace(self, tournament_id: str, number: int, bot: str, from_round: int, at: float) -> None:
        """A bot plays for entrant `number` from round `from_round` on (their results marked)."""
        with self.sessions.begin() as s:
            self._bump(s, tournament_id, None, at, TournamentRow.status.in_(("running", "paused")))
            done = s.execute(
                update(EntrantRow).where(EntrantRow.tournament_id == tournament_id, EntrantRow.number == number,
                                         EntrantRow.kind == "human", EntrantRow.replaced_by.is_(None))
                .values(replaced_by=bot, replaced_round=from_round)
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"entrant {number} is not a player a bot could replace")

    def set_status(self, tournament_id: str, rev: int, status: str, at: float, ended_early: bool = False) -> int:
        """Pause, go on, or end (early): only from revision `rev` (Conflict otherwise)."""
        with self.sessions.begin() as s:
            values: dict[str, Any] = {"status": status}
            if status == "over":
                values.update(ended_at=to_dt(at), ended_early=ended_early)
            return self._bump(s, tournament_id, rev, at, **values)

    # -- the steps the server takes ----------------------------------------------------------

    def table_result(self, tournament_id: str, round_no: int, number: int, game_no: int, result: dict[str, Any],
                     over: bool, at: float) -> bool:  # fmt: skip
        """Keep the result of game `game_no` of a round table (each game once: False when it was
        kept already); `over`: the table's last game."""
        with self.sessions.begin() as s:
            row = s.get(RoundTableRow, (tournament_id, round_no, number), with_for_update=True)
            if row is None or len(row.results) != game_no - 1:
                return False
            row.results = [*row.results, result]
            row.status = "over" if over else "playing"
            self._bump(s, tournament_id, None, at)
            return True

    def advance(self, tournament_id: str, rev: int, at: float, *, finish: int | None = None,
                start: tuple[int, dict[str, Any], list[NewRoundTable]] | None = None,
                status: str | None = None) -> int:  # fmt: skip
        """One step, from revision `rev` (Conflict, and nothing stored, when another process took
        it first): the round `finish` done; the round `start` = (number, plan, tables) begun, its
        tables stored with it; the tournament's `status` after. The new revision."""
        with self.sessions.begin() as s:
            values: dict[str, Any] = {}
            if status is not None:
                values["status"] = status
                if status == "over":
                    values["ended_at"] = to_dt(at)
            if start is not None:
                values["round"] = start[0]
                if start[0] == 1:
                    values["started_at"] = to_dt(at)
            new_rev = self._bump(s, tournament_id, rev, at, **values)
            if finish is not None:
                s.execute(update(RoundRow).where(RoundRow.tournament_id == tournament_id, RoundRow.number == finish)
                          .values(status="done", ended_at=to_dt(at)))  # fmt: skip
            if start is not None:
                number, plan, tables = start
                s.add(RoundRow(tournament_id=tournament_id, number=number, status="playing", plan=plan,
                               started_at=to_dt(at)))  # fmt: skip
                for nt in tables:
                    add_table(s, nt.table)
                    s.add(RoundTableRow(tournament_id=tournament_id, round=number, number=nt.number,
                                        table_id=nt.table.id, seats=nt.seats, seeds=nt.seeds, tokens=nt.tokens,
                                        results=[], status="playing"))  # fmt: skip
            return new_rev
