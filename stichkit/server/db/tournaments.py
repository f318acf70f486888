"""Tournaments as stored: the tournament, its entrants, its rounds and the tables of each round,
with the results of their games. The round tables themselves are ordinary tables (db/store.py).

Every change of a tournament counts its `rev` up by one. A change that depends on what was read
(the next round paired from the results, the tournament started, paused or ended) is stored only
if `rev` is still the one read: of two processes that take the same step at once, the second is
refused (Conflict) and nothing of it is stored, its round tables included. This is the claim each
step is taken by, as a game's analysis is claimed by its `claim` counter. Registering counts `rev`
up too, so a round paired from an older list of entrants is refused and paired again.

The tables are in tournament_rows.py, the opening and the entrants' writes in
tournament_entrants.py; `TournamentStore` joins them with the reads and the steps here. A Jass
tournament's games still waiting for the server's own analyses are marked in the database (with
the step that ends a round, or the tournament), so a restarted process goes on with them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..model import NewRoundTable, StoredTournament
from .models import AnalysisRow, GameRow, SeatRow, TableRow
from .repository import to_dt, to_ts
from .tables import ARCHIVED, add_table
from .tournament_entrants import EntrantStore
from .tournament_rows import EntrantRow, RoundRow, RoundTableRow, TournamentRow, bump, tournament_of

# A round table whose game has not moved for this long is given up once its tournament is over
# (nobody is left to play it: a tournament's table is never swept): its round's cards are sealed
# no more (`in_play`), as long as a game with no human at it is kept elsewhere (settings.py).
GIVEN_UP = 2 * 3600.0


class TournamentStore(EntrantStore):
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
            return tournament_of(row, entrants, rounds, tables)

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
                     "start_at": None if r.start_at is None else to_ts(r.start_at), "rev": r.rev}
                    for r, n in s.execute(q)]  # fmt: skip

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

    def in_play(self, table_ids: list[str], now: float) -> set[str]:
        """Of these (round) tables, those whose game still plays: not over, at a table neither
        archived nor deleted, that moved within `GIVEN_UP` seconds before `now`. The others will
        not finish: a duplicate round's cards are sealed only while one of its tables is here."""
        if not table_ids:
            return set()
        with self.sessions() as s:
            q = (select(TableRow.id).join(GameRow, GameRow.table_id == TableRow.id)
                 .where(TableRow.id.in_(table_ids), TableRow.status != ARCHIVED, GameRow.status == "playing",
                        TableRow.updated_at >= to_dt(now - GIVEN_UP)).distinct())  # fmt: skip
            return set(s.scalars(q))

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

    # -- the steps the server takes ----------------------------------------------------------

    def set_status(self, tournament_id: str, rev: int, status: str, at: float, ended_early: bool = False,
                   analyse: bool = False) -> int:  # fmt: skip
        """Pause, go on, or end (early): only from revision `rev` (Conflict otherwise). `analyse`:
        its finished games wait for the server's analyses (see `analyses_due`)."""
        with self.sessions.begin() as s:
            values: dict[str, Any] = {"status": status}
            if status == "over":
                values.update(ended_at=to_dt(at), ended_early=ended_early)
            if analyse:
                values["analyses_pending"] = True
            return bump(s, tournament_id, rev, at, **values)

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
            bump(s, tournament_id, None, at)
            return True

    def advance(self, tournament_id: str, rev: int, at: float, *, finish: int | None = None,
                start: tuple[int, dict[str, Any], list[NewRoundTable]] | None = None,
                status: str | None = None, analyse: bool = False) -> int:  # fmt: skip
        """One step, from revision `rev` (Conflict, and nothing stored, when another process took
        it first): the round `finish` done; the round `start` = (number, plan, tables) begun, its
        tables stored with it; the tournament's `status` after; with `analyse`, its finished games
        marked as waiting for the server's analyses. The new revision."""
        with self.sessions.begin() as s:
            values: dict[str, Any] = {"analyses_pending": True} if analyse else {}
            if status is not None:
                values["status"] = status
                if status == "over":
                    values["ended_at"] = to_dt(at)
            if start is not None:
                values["round"] = start[0]
                if start[0] == 1:
                    values["started_at"] = to_dt(at)
            new_rev = bump(s, tournament_id, rev, at, **values)
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

    # -- the server's own analyses -----------------------------------------------------------

    def analyses_due(self) -> list[tuple[str, int]]:
        """The tournaments whose finished games may still wait for the server's analyses: (id, rev)."""
        with self.sessions() as s:
            q = select(TournamentRow.id, TournamentRow.rev).where(TournamentRow.analyses_pending.is_(True))
            return [(i, r) for i, r in s.execute(q.order_by(TournamentRow.id))]

    def analyses_settled(self, tournament_id: str, rev: int) -> bool:
        """Every finished game of the tournament as read at revision `rev` is solved or in work:
        its mark is taken away, unless it changed since (a round ended meanwhile). No new revision:
        nobody's step depends on it."""
        with self.sessions.begin() as s:
            done = s.execute(update(TournamentRow).where(TournamentRow.id == tournament_id, TournamentRow.rev == rev)
                             .values(analyses_pending=False))  # fmt: skip
            return bool(done.rowcount)  # type: ignore[attr-defined]
