"""A tournament's rounds, as every process takes their steps once a second (`tick`), whichever
comes first: a round begun (at the start time, or when the organiser starts it), the results of
finished games kept, a table's next game begun, and once every table of the round is over, the
round ended in one step with the next one paired and its tables opened (or, paused, not yet;
after the last round, the tournament over). The step that ends a round of a Jass tournament marks
its games for the server's own analyses (tournament_analyses.py). A round table done with is
archived (`archive_finished`).

A step is stored only from the revision it was decided on (db/tournaments.py), so of two
processes taking it at once one is refused (Conflict) and tries again from what the other
stored; a server that was killed resumes from the database.
"""

from __future__ import annotations

import contextlib
import logging
import time

import stichkit
from stichkit.arena import tournaments as arena
from stichkit.core import OptionError

from .db.store import Conflict
from .db.tournaments import TournamentStore
from .errors import HubError
from .hub_protocol import RoomHub
from .messages import STATE, News
from .model import TABLE_OPENER, NewRoundTable, RoundTable, Seat, StoredTable, StoredTournament, began
from .table import LiveTable, TableSettings
from .tokens import hash_token, new_table_id, new_token
from .tournament_arena import arena_entrants, arena_settings, plans_of, player_id, results_of
from .tournament_common import tournament_bot

log = logging.getLogger("stichkit.server")

GRACE = 60.0  # seconds a player may be away before the takeover bot plays their turn
ARCHIVE_GRACE = 60.0  # seconds a finished round table stays for whoever still has it open


class Rounds:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.next_look = 0.0

    @property
    def store(self) -> TournamentStore:
        return self.hub.tournament_store

    async def tick(self, now: float) -> None:
        """Once a second: the step due in each tournament in play, whichever process takes it, then
        the round tables done with archived."""
        if now < self.next_look:
            return
        self.next_look = now + 1.0
        for tournament_id, _ in await self.hub.db(self.store.due, now):
            try:
                await self.step(tournament_id, now)
            except Exception:
                log.exception("tournament %s: its step failed; the next look tries again", tournament_id)
        try:
            await self.archive_finished(now)
        except Exception:
            log.exception("archiving finished round tables failed; the next look tries again")

    async def step(self, tournament_id: str, now: float) -> None:
        t = await self.hub.db(self.store.load, tournament_id)
        if t is None or t.status == "over":
            return
        if t.status == "registering":
            if t.start_at is not None and now >= t.start_at:
                try:
                    await self.begin(t)
                except Conflict:
                    pass  # a registration or another process came first: the next look tries again
                except HubError as e:  # too few entrants at the start time: it ends, saying why
                    log.info("tournament %s could not start at its start time: %s", t.id, e)
                    if e.status != 409:
                        return  # the server is full: the next look tries again
                    with contextlib.suppress(Conflict):
                        await self.hub.db(self.store.set_status, t.id, t.rev, "over", now, True)
            return
        tables = [x for x in t.tables if x.round == t.round]
        if await self._collect(t, tables):
            t = await self.hub.db(self.store.load, tournament_id)
            if t is None or t.status == "over":
                return
            tables = [x for x in t.tables if x.round == t.round]
        settings = arena_settings(t.settings)
        try:
            await self._advance(t, settings, tables)
        except Conflict:
            pass  # another process took the step first: the next look starts from what it stored
        except HubError as e:  # the round cannot begin now (the server is full): the next look tries again
            log.warning("tournament %s: the next round waits: %s", t.id, e)

    async def _collect(self, t: StoredTournament, tables: list[RoundTable]) -> bool:
        """Keep the results of the round's finished games, and begin a table's next game where
        this process runs the table. True: something was kept."""
        hub = self.hub
        for x in tables:
            if x.status == "playing" and x.table_id not in hub.tables:  # opened by a process that stopped
                await hub.peers.sync(x.table_id)  # before telling (an archived table reads back as gone)
        games = await hub.db(self.store.games_of, [x.table_id for x in tables])
        plans = [arena.RoundPlan.from_json(r.plan) for r in t.rounds if r.number == t.round]
        table_plans = {tp.number: tp for p in plans for tp in p.tables}
        kept = False
        for x in tables:
            tp = table_plans[x.number]
            played = games.get(x.table_id, [])
            for game_no, status, result in played:
                if status != "over" or result is None or game_no != len(x.results) + 1 or game_no > len(tp.games):
                    continue
                planned = tp.games[game_no - 1]
                marks = await self._marks(t, x, planned, game_no)
                done = arena.GamePlayed.of(t.round, x.number, planned, result["scores"], result["winners"], marks,
                                           ref=f"{x.table_id}/{game_no}")  # fmt: skip
                if await hub.db(self.store.table_result, t.id, t.round, x.number, game_no, done.to_json(),
                                game_no == len(tp.games), time.time()):  # fmt: skip
                    kept = True
                x = RoundTable(**{**vars(x), "results": [*x.results, done.to_json()]})
            if played and played[-1][1] == "over" and played[-1][0] < len(tp.games) and t.status != "over":
                live = hub.tables.get(x.table_id)
                if live is not None and hub.owner.owns(live.id) and len(x.results) == played[-1][0]:
                    await self._next_game(t, live, x, tp.games[played[-1][0]], played[-1][0] + 1)
        return kept

    async def _marks(self, t: StoredTournament, x: RoundTable, planned: arena.PlannedGame, game_no: int) -> list[int]:
        """The seats of a finished game a bot played for a player who was gone: replaced by the
        organiser, or away at the end (the takeover bot played on for them)."""
        replaced = {player_id(e) for e in t.entrants if e.replaced_round is not None and e.replaced_round <= t.round}
        marks = {s for s, p in enumerate(planned.seats) if p in replaced}
        live = self.hub.tables.get(x.table_id)
        if live is not None and live.game_no == game_no:
            marks |= {s for s, seat in enumerate(live.seats) if seat.kind == "human" and seat.takeover is not None}
        return sorted(marks)

    async def _next_game(self, t: StoredTournament, live: LiveTable, x: RoundTable, planned: arena.PlannedGame,
                         game_no: int) -> None:  # fmt: skip
        """The table's next game of the round, its players at the seats of the plan."""
        settings = arena_settings(t.settings)
        async with live.lock:
            if live.status != "over" or live.game_no != game_no - 1:
                return
            now = time.time()
            seats = self._seats(t, settings, live.id, x.tokens, planned.seats, t.round)
            for s in seats:  # a player who left for good stays with the takeover bot
                old = next((o for o in live.seats if o.token_hash and o.token_hash == s.token_hash), None)
                if old is not None and old.takeover == "game":
                    s.takeover = "game"

            def begun(_: None) -> News:
                stored = StoredTable(
                    id=live.id, name=live.name, game=live.game.name, options=live.game.options, private=live.private,
                    settings=live.settings.as_dict(), status="playing", game_no=game_no, rev=live.rev,
                    created_at=live.created_at, updated_at=now, seats=seats, seed=planned.seed, started_at=now,
                    opened_by=live.opened_by,
                )  # fmt: skip
                self.hub.reload(live, stored, now)
                live.recount()
                return STATE

            hub = self.hub
            write = hub.db(hub.store.start_game, live.id, game_no, planned.seed, seats, "playing", now)
            await hub.store_then_tell(live, write, begun, "the next game")
            if any(s.takeover for s in seats):
                await hub.seats.set_seats(live, {i: {"takeover": "game"} for i, s in enumerate(seats) if s.takeover})

    async def _advance(self, t: StoredTournament, settings: arena.Settings, tables: list[RoundTable]) -> None:
        """The round over once every table is: the next round paired (or, paused, not yet; after
        the last round, the tournament over)."""
        current = t.rounds[-1] if t.rounds else None
        analyse = settings.game == "jass"  # its finished games wait for the server's analyses
        if current is not None and current.status == "playing" and all(x.status == "over" for x in tables):
            if t.round >= settings.rounds:
                await self.hub.db(self.store.advance, t.id, t.rev, time.time(), finish=t.round, status="over",
                                  analyse=analyse)  # fmt: skip
            elif t.status == "paused":
                await self.hub.db(self.store.advance, t.id, t.rev, time.time(), finish=t.round, analyse=analyse)
            else:
                await self._next_round(t, settings, finish=t.round)
        elif current is not None and current.status == "done" and t.status == "running":
            await self._next_round(t, settings, finish=None)  # gone on after a pause

    async def begin(self, t: StoredTournament) -> None:
        settings = arena_settings(t.settings)
        await self._next_round(t, settings, finish=None, first=True)

    async def _next_round(self, t: StoredTournament, settings: arena.Settings, finish: int | None,
                          first: bool = False) -> None:  # fmt: skip
        """Pair round `t.round + 1` and open its tables, in the one step that (with `finish`)
        ends the round before. Conflict when another process took the step first."""
        hub = self.hub
        entrants = arena_entrants(t, settings)
        number = t.round + 1
        try:
            plan = arena.plan_round(settings, entrants, number, seed=t.seed, plans=plans_of(t), results=results_of(t))
        except OptionError as e:
            raise HubError(409, f"the round cannot be paired: {e}") from None
        game = stichkit.load_game(t.game, **t.options)  # as the arena checked them (no file but the shipped)
        takeover = tournament_bot(self.hub, settings.fill_bot, t.game)
        now = time.time()
        tables = []
        for tp in plan.tables:
            tid = new_table_id()
            players = {p for g in tp.games for p in g.seats if p is not None}
            tokens = {p: new_token() for p in sorted(players) if self._human(t, p, number)}
            first_game = tp.games[0]
            seats = self._seats(t, settings, tid, tokens, first_game.seats, number)
            stored = StoredTable(
                id=tid, name=f"{t.name} · {number}.{tp.number}", game=game.name, options=dict(game.options),
                private=True,
                settings=TableSettings("hand", GRACE, "bot:" + takeover.label, settings.move_time, hints=False,
                                       takebacks=False, rated=settings.rated).as_dict(),
                status="playing", game_no=1, rev=1, created_at=now, updated_at=now, seats=seats,
                seed=first_game.seed, started_at=now, opened_by=TABLE_OPENER + t.id,
            )  # fmt: skip
            tables.append(NewRoundTable(tp.number, stored, [int(p) for p in tp.entrants if p.isdigit()],
                                        [g.seed for g in tp.games], tokens))  # fmt: skip
        if len(hub.tables) + len(tables) > hub.settings.max_tables:
            raise HubError(503, f"this server holds {hub.settings.max_tables} tables already; the round waits")
        await hub.db(self.store.advance, t.id, t.rev, now, finish=finish, start=(number, plan.to_json(), tables),
                     status="running" if first else None, analyse=finish is not None and t.game == "jass")  # fmt: skip
        for nt in tables:
            live = LiveTable(nt.table, game, hub.seat_bots(nt.table.id, nt.table.seats), takeover, now)
            hub.tables[live.id] = live
            await hub.owner.claim([live.id])
            await hub.peers.notify(live)
            hub.scheduler.schedule(live)
        log.info("tournament %s: round %d begun at %d tables", t.id, number, len(tables))

    def _seats(self, t: StoredTournament, settings: arena.Settings, table_id: str, tokens: dict[str, str],
               lineup: tuple[str | None, ...], round_no: int) -> list[Seat]:  # fmt: skip
        """The seats of one game: each player at their seat of the plan (a person with their
        token, a bot entrant, a replaced player's bot), the fill bot where the plan has nobody."""
        by_id = {player_id(e): e for e in t.entrants}
        seats = []
        for p in lineup:
            e = by_id.get(p) if p is not None else None
            if e is None:
                seats.append(Seat("bot", bot=settings.fill_bot, name=settings.fill_bot))
            elif e.kind == "bot":
                seats.append(Seat("bot", bot=e.bot, name=e.name))
            elif p not in tokens:
                seats.append(Seat("bot", bot=e.replaced_by, name=f"{e.name} ({e.replaced_by})"))
            else:
                seats.append(Seat("human", name=e.name, token_hash=hash_token(table_id, tokens[p]), account=e.account,
                                  person=e.person))  # fmt: skip
        began(seats)
        return seats

    def _human(self, t: StoredTournament, pid: str, round_no: int) -> bool:
        e = next((x for x in t.entrants if player_id(x) == pid), None)
        gone = e is not None and e.replaced_round is not None and e.replaced_round <= round_no
        return e is not None and e.kind == "human" and not gone

    async def archive_finished(self, now: float) -> None:
        """The round tables this process runs whose games are all over and kept in the tournament
        (or whose tournament is over) leave memory and play: archived, not swept, since their
        games are the tournament's record (their records, replays and analyses stay). They count
        toward --max-tables no more and no process loads them again. A table someone still has
        open is left to them for up to `ARCHIVE_GRACE` seconds after its last move."""
        hub = self.hub
        candidates = [
            t for t in hub.tables.values()
            if t.opened_by is not None and t.opened_by.startswith(TABLE_OPENER) and t.status == "over"
            and t.pending is None and hub.owner.owns(t.id)
        ]  # fmt: skip
        if not candidates:
            return
        done = await hub.db(self.store.finished_tables, [t.id for t in candidates])
        for t in candidates:
            if t.id in done and t.status == "over" and (not t.anyone_here() or now - t.updated_at >= ARCHIVE_GRACE):
                await hub.archive(t, "its round's games are over and kept in the tournament")
