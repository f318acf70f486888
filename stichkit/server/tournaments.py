"""Tournaments at the server: an organiser opens one, people (and bots) register, and the server
plays its rounds at ordinary tables, one table per table of the round's plan.

The rules of a tournament (its settings, the pairing of each round, the games' seeds, the
standings with their tie-breaks) are the arena's (stichkit.arena.tournaments); here they are
stored (db/tournaments.py) and played. Every process looks at the tournaments in play once a
second (`tick`) and takes the step that is due: a round begun at the start time, the results of
finished games kept, a table's next game begun, the next round paired once every table of a
round is over, the tournament ended after its last round. A step is stored only from the
revision it was decided on, so of two processes taking it at once one is refused and tries
again from what the other stored; a server that was killed resumes from the database.

A person is who they are everywhere in the server (identity.person: an account, else the
browser's identity cookie): the organiser is the person who opened the tournament, and a player
finds their table by it. Each player gets a seat token at each of their tables, kept for them and
shown to them alone. The tables of a round are private (not in the lobby's list), and no game of a
duplicate round is shown (its record, its replay, its analysis) before the round ends: the other
tables play the same cards. A round table done with is archived (`archive_finished`): out of
every process's memory and --max-tables, its games kept for their records and replays.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stichkit
from stichkit.arena import tournaments as arena
from stichkit.core import OptionError

from . import catalog
from .botrunner import SeatBot, parse_bot_spec
from .db.accounts import Account
from .db.store import Conflict
from .db.tournaments import (
    TABLE_OPENER,
    Entrant,
    NewRoundTable,
    RoundTable,
    StoredTournament,
    TournamentQuota,
    TournamentStore,
)
from .errors import HubError
from .hub_protocol import RoomHub
from .messages import STATE, News
from .model import Seat, StoredTable, began
from .table import LiveTable, TableSettings
from .tokens import hash_token, new_table_id, new_token
from .tournament_analyses import TournamentAnalyses

log = logging.getLogger("stichkit.server")

GRACE = 60.0  # seconds a player may be away before the takeover bot plays their turn
ARCHIVE_GRACE = 60.0  # seconds a finished round table stays for whoever still has it open
SERVER_KEYS = ("name", "max_entrants")  # what the server keeps beside the arena's settings


@dataclass(frozen=True)
class NewTournament:
    """What an organiser asks for (routers/tournaments.py checks its shape; the arena its rules)."""

    name: str
    game: str
    format: str
    options: dict[str, Any]
    rounds: int
    games_per_round: int
    deals_per_round: int | None
    rated: bool
    registration: str
    start_at: float | None
    move_time: float | None
    fill_bot: str
    max_entrants: int | None


def arena_settings(stored: dict[str, Any]) -> arena.Settings:
    """The arena's settings of a stored tournament (the server's own keys left out)."""
    return arena.Settings.from_json({k: v for k, v in stored.items() if k not in SERVER_KEYS})


def player_id(e: Entrant) -> str:
    return str(e.number)


def arena_entrants(t: StoredTournament, settings: arena.Settings) -> list[arena.Entrant]:
    """The entrants as the arena counts them: players, or (in team formats) fixed teams of two,
    registered under one team name. HubError when a team is not complete."""
    if settings.team_size == 1:
        return [arena.Entrant(player_id(e), e.name) for e in t.entrants]
    teams: dict[str, list[Entrant]] = {}
    for e in t.entrants:
        teams.setdefault(e.team or f"#{e.number}", []).append(e)
    out = []
    for name, members in teams.items():
        if len(members) != 2:
            raise HubError(409, f"team {name!r} has {len(members)} player; {settings.game} {settings.format} "
                           "is played by teams of two (both register under one team name)")  # fmt: skip
        out.append(arena.Entrant("t" + player_id(members[0]), name, tuple(player_id(m) for m in members)))
    return out


def plans_of(t: StoredTournament) -> list[arena.RoundPlan]:
    return [arena.RoundPlan.from_json(r.plan) for r in t.rounds]


def results_of(t: StoredTournament) -> list[arena.GamePlayed]:
    return [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]


def standings_of(t: StoredTournament) -> list[arena.Standing]:
    """The standings from the results stored: the arena's, with its tie-breaks."""
    settings = arena_settings(t.settings)
    try:
        entrants = arena_entrants(t, settings)
    except HubError:
        return []  # a team still incomplete before the start: nothing to stand yet
    return arena.standings(settings, entrants, results_of(t), plans_of(t))


class Tournaments:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.next_look = 0.0
        self.analyses = TournamentAnalyses(hub)  # the Jass games' analyses, queued by the server

    @property
    def store(self) -> TournamentStore:
        return self.hub.tournament_store

    async def load(self, tournament_id: str) -> StoredTournament:
        t = None
        if 0 < len(tournament_id) <= 32:
            t = await self.hub.db(self.store.load, tournament_id)
        if t is None:
            raise HubError(404, f"no tournament {tournament_id[:40]!r} here")
        return t

    def _organiser(self, t: StoredTournament, person: str) -> None:
        if not secrets.compare_digest(t.organiser.encode(), person.encode()):
            raise HubError(403, "only the tournament's organiser (who opened it) may do this")

    # -- the organiser -----------------------------------------------------------------------

    async def open(self, req: NewTournament, person: str, client: str, account: Account | None) -> StoredTournament:
        """A new tournament, registering. Its settings are the arena's, checked there; a rated one
        is opened by an account holder. The opener (`client`) is held to the quotas."""
        hub, s = self.hub, self.hub.settings
        if req.rated and account is None:
            raise HubError(403, "a rated tournament is opened by an account holder: log in first")
        largest = s.tournament_entrants if req.max_entrants is None else req.max_entrants
        if largest > s.tournament_entrants:
            raise HubError(400, f"max_entrants: at most {s.tournament_entrants} at this server, not {largest}")
        known = req.game in stichkit.game_names()
        declared = {o.name: o for o in catalog.game_class(req.game).OPTIONS} if known else {}
        for key in req.options:
            if key in declared and catalog.is_server_file(declared[key]):
                raise HubError(400, f"option {key!r} names a file on the server and cannot be set over the web")
        now = time.time()
        if req.start_at is not None and not now < req.start_at < now + 366 * 86400:
            raise HubError(400, "start_at: a time in the coming year (seconds since 1970), or null for a manual start")
        starts = None if req.start_at is None else datetime.fromtimestamp(req.start_at, UTC)
        try:
            settings = arena.Settings(
                game=req.game, format=req.format, options=dict(req.options), rounds=req.rounds,
                games_per_round=req.games_per_round, deals_per_round=req.deals_per_round, rated=req.rated,
                registration=req.registration, starts_at=starts, move_time=req.move_time, fill_bot=req.fill_bot,
            )  # fmt: skip
            self._bot(req.fill_bot, settings.game)
        except OptionError as e:
            raise HubError(400, str(e)) from None
        stored = StoredTournament(
            id=new_table_id(), name=req.name, game=settings.game, options=dict(settings.options),
            format=settings.format, settings={**settings.to_json(), "name": req.name, "max_entrants": largest},
            status="registering", round=0, seed=random.SystemRandom().getrandbits(62), organiser=person,
            opened_by=client, invitation=new_token() if settings.registration == "invitation" else None,
            start_at=req.start_at, ended_early=False, rev=1, created_at=now, updated_at=now,
        )  # fmt: skip
        await hub.db(self.store.create, stored, self._quota(client), [])
        return await self.load(stored.id)

    def _quota(self, client: str) -> TournamentQuota:
        s = self.hub.settings
        return TournamentQuota(client, s.client_tournaments, s.client_bot_entrants)

    def _bot(self, spec: str, game: str) -> SeatBot:
        """A bot for a tournament's seats, as a table's bot seat is checked (OptionError)."""
        s = self.hub.settings
        return parse_bot_spec(spec, s.max_bot_time, game, s.allow_remote_bots)

    async def start(self, tournament_id: str, person: str) -> StoredTournament:
        """The organiser starts the tournament now: its first round is paired and its tables open."""
        for _ in range(5):  # a registration (or the start time) may come first: read again
            t = await self.load(tournament_id)
            self._organiser(t, person)
            if t.status != "registering":
                raise HubError(409, f"the tournament is {t.status}: only one that takes registrations can be started")
            try:
                await self._begin(t)
                return await self.load(tournament_id)
            except Conflict:
                continue
        raise HubError(503, "the tournament kept changing; try again")

    async def pause(self, tournament_id: str, person: str) -> StoredTournament:
        """No new round begins until the organiser goes on; the games in play are played out."""
        return await self._set_status(tournament_id, person, "running", "paused")

    async def resume(self, tournament_id: str, person: str) -> StoredTournament:
        return await self._set_status(tournament_id, person, "paused", "running")

    async def end(self, tournament_id: str, person: str) -> StoredTournament:
        """End the tournament early: the standings are those of the games finished by now; games
        still in play go on at their tables but count no more."""
        for _ in range(5):
            t = await self.load(tournament_id)
            self._organiser(t, person)
            if t.status == "over":
                raise HubError(409, "the tournament is over already")
            try:
                await self.hub.db(self.store.set_status, t.id, t.rev, "over", time.time(), True)
                if t.game == "jass":
                    self.analyses.round_ended(t.id)  # the games finished by now are analysed
                return await self.load(tournament_id)
            except Conflict:
                continue
        raise HubError(503, "the tournament kept changing; try again")

    async def _set_status(self, tournament_id: str, person: str, before: str, after: str) -> StoredTournament:
        for _ in range(5):
            t = await self.load(tournament_id)
            self._organiser(t, person)
            if t.status != before:
                raise HubError(409, f"the tournament is {t.status}, not {before}")
            try:
                await self.hub.db(self.store.set_status, t.id, t.rev, after, time.time())
                return await self.load(tournament_id)
            except Conflict:
                continue
        raise HubError(503, "the tournament kept changing; try again")

    async def replace(self, tournament_id: str, person: str, number: int, bot: str) -> StoredTournament:
        """A bot plays for a player who is gone: at their table now (the takeover bot, for the rest
        of the game) and in every later round (`bot`). Their results from now on are marked."""
        t = await self.load(tournament_id)
        self._organiser(t, person)
        if t.status not in ("running", "paused"):
            raise HubError(409, "a player is replaced while the tournament is played")
        e = next((x for x in t.entrants if x.number == number), None)
        if e is None:
            raise HubError(404, f"no entrant {number} in this tournament")
        if e.kind != "human" or e.replaced_by is not None:
            raise HubError(409, f"entrant {number} is {'a bot' if e.kind != 'human' else 'replaced already'}")
        try:
            spec = self._bot(bot, t.game).label
        except OptionError as err:
            raise HubError(400, str(err)) from None
        try:
            await self.hub.db(self.store.replace, t.id, number, spec, t.round + 1, time.time())
        except Conflict as err:
            raise HubError(409, str(err)) from None
        for x in t.tables:
            if x.round == t.round and x.status == "playing" and player_id(e) in x.tokens:
                await self._take_over(x.table_id, hash_token(x.table_id, x.tokens[player_id(e)]))
        return await self.load(tournament_id)

    async def _take_over(self, table_id: str, token_hash: str) -> None:
        """The takeover bot plays the seat of `token_hash` to the end of its game."""
        live = await self.hub.table(table_id)
        if live is None:
            return
        async with live.lock:
            seat = live.seat_of(token_hash)
            if seat is not None and live.status == "playing":
                await self.hub.seats.set_seats(live, {seat: {"takeover": "game", "takeover_hand": live.hand()}})

    # -- the entrants ------------------------------------------------------------------------

    async def register(self, tournament_id: str, name: str | None, team: str | None, invitation: str | None,
                       account: Account | None, person: str) -> Entrant:  # fmt: skip
        """Register the person asking: under the account's name when logged in. Who may register is
        the tournament's: anyone, accounts only, or whoever has the invitation link."""
        t = await self.load(tournament_id)
        rated = bool(t.settings.get("rated"))
        if (t.settings.get("registration") == "accounts" or rated) and account is None:
            raise HubError(403, "this tournament takes account holders only: log in first")
        given = (invitation or "").encode()  # bytes: compare_digest refuses text beyond ASCII
        if t.invitation is not None and (
            invitation is None or not secrets.compare_digest(given, t.invitation.encode())
        ):
            raise HubError(403, "this tournament takes players by invitation: open the link its organiser sent you")
        if account is None and name is None:
            raise HubError(400, "name: a guest gives the name to play under (or logs in first)")
        shown = account.name if account is not None else name
        assert shown is not None
        entrant = Entrant(0, "human", shown, account=None if account is None else account.id, person=person,
                          team=self._team(t, team))  # fmt: skip
        return await self._enter(t, entrant, None)

    async def enter_bot(self, tournament_id: str, person: str, client: str, bot: str, name: str | None,
                        team: str | None) -> Entrant:  # fmt: skip
        """The organiser enters a bot (to fill the field, or to test), within their quota."""
        t = await self.load(tournament_id)
        self._organiser(t, person)
        if t.settings.get("rated"):
            raise HubError(409, "a rated tournament is for account holders: bots play only for players who are gone")
        try:
            spec = self._bot(bot, t.game).label
        except OptionError as e:
            raise HubError(400, str(e)) from None
        entrant = Entrant(0, "bot", name or spec, bot=spec, team=self._team(t, team))
        return await self._enter(t, entrant, self._quota(client))

    def _team(self, t: StoredTournament, team: str | None) -> str | None:
        if arena_settings(t.settings).team_size == 1:
            if team is not None:
                raise HubError(400, f"team: {t.game} {t.format} is played by single players; leave it out")
            return None
        if team is None:
            raise HubError(400, f"team: {t.game} {t.format} is played by fixed teams of two: give the team's name")
        return team

    async def _enter(self, t: StoredTournament, entrant: Entrant, quota: TournamentQuota | None) -> Entrant:
        largest = int(t.settings.get("max_entrants", self.hub.settings.tournament_entrants))
        try:
            return await self.hub.db(self.store.register, t.id, entrant, largest, time.time(), quota)
        except Conflict as e:
            raise HubError(409, str(e)) from None

    async def unregister(self, tournament_id: str, person: str, number: int | None) -> None:
        """Withdraw before the start: oneself, or (the organiser) entrant `number`."""
        t = await self.load(tournament_id)
        if number is None:
            own = t.entrant_of(person)
            if own is None:
                raise HubError(404, "you are not entered in this tournament")
            number = own.number
        else:
            e = next((x for x in t.entrants if x.number == number), None)
            if e is None:
                raise HubError(404, f"no entrant {number} in this tournament")
            if e.person != person:
                self._organiser(t, person)
        try:
            await self.hub.db(self.store.unregister, t.id, number, time.time())
        except Conflict as e:
            raise HubError(409, "registration is closed: the tournament has begun or ended") from e

    # -- the steps ---------------------------------------------------------------------------

    async def tick(self, now: float) -> None:
        """Once a second: the step due in each tournament in play, whichever process takes it."""
        await self.analyses.look(now)
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

    async def step(self, tournament_id: str, now: float) -> None:
        t = await self.hub.db(self.store.load, tournament_id)
        if t is None or t.status == "over":
            return
        if t.status == "registering":
            if t.start_at is not None and now >= t.start_at:
                try:
                    await self._begin(t)
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

    async def _advance(self, t: StoredTournament, settings: arena.Settings, tables: list[RoundTable]) -> None:
        """The round over once every table is: the next round paired (or, paused, not yet; after
        the last round, the tournament over)."""
        current = t.rounds[-1] if t.rounds else None
        if current is not None and current.status == "playing" and all(x.status == "over" for x in tables):
            if t.round >= settings.rounds:
                await self.hub.db(self.store.advance, t.id, t.rev, time.time(), finish=t.round, status="over")
            elif t.status == "paused":
                await self.hub.db(self.store.advance, t.id, t.rev, time.time(), finish=t.round)
            else:
                await self._next_round(t, settings, finish=t.round)
            if settings.game == "jass":
                self.analyses.round_ended(t.id)  # its games are analysed in the background
        elif current is not None and current.status == "done" and t.status == "running":
            await self._next_round(t, settings, finish=None)  # gone on after a pause

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

    async def _begin(self, t: StoredTournament) -> None:
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
        takeover = self._bot(settings.fill_bot, t.game)
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
                     status="running" if first else None)  # fmt: skip
        for nt in tables:
            live = LiveTable(nt.table, game, hub.seat_bots(nt.table.id, nt.table.seats), takeover, now)
            hub.tables[live.id] = live
            await hub.owner.claim([live.id])
            await hub.peers.notify(live)
            hub.scheduler.schedule(live)
        log.info("tournament %s: round %d begun at %d tables", t.id, number, len(tables))

    def _human(self, t: StoredTournament, pid: str, round_no: int) -> bool:
        e = next((x for x in t.entrants if player_id(x) == pid), None)
        gone = e is not None and e.replaced_round is not None and e.replaced_round <= round_no
        return e is not None and e.kind == "human" and not gone

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

    # -- what is shown -----------------------------------------------------------------------

    async def listing(self, limit: int) -> list[dict[str, Any]]:
        return await self.hub.db(self.store.listing, limit)

    async def document(self, tournament_id: str, person: str) -> dict[str, Any]:
        t = await self.load(tournament_id)
        e = t.entrant_of(person)
        for x in t.tables:  # the asker's table, also when another process opened it a moment ago
            if e is not None and x.round == t.round and x.status == "playing" and player_id(e) in x.tokens:
                await self.hub.table(x.table_id)
        out = self.shown(t, person)
        if t.game == "jass":
            out["jass_errors"] = await self.jass_errors(t)
            if any(r.status != "playing" for r in t.rounds):
                # whichever process shows it, also after a restart, sees its games analysed
                self.analyses.round_ended(t.id)
        return out

    async def jass_errors(self, t: StoredTournament) -> list[dict[str, Any]]:
        """The players by points lost per card in the tournament's analysed games (a game's
        `analysis` link begins one), fewest first: the tournament page's second table. A seat a bot
        played for a gone player is not counted for them, and no game of a duplicate round in play is."""
        sealed = {r.number for r in t.rounds if r.status == "playing"} if t.format == "duplicate" else set()
        seats: dict[tuple[str, int], arena.GamePlayed] = {}
        for x in t.tables:
            if x.round not in sealed:
                for i, result in enumerate(x.results):
                    seats[(x.table_id, i + 1)] = arena.GamePlayed.from_json(result)
        found = await self.hub.db(self.store.analysed_seats, list(seats))
        names = {player_id(e): e.name for e in t.entrants}
        totals: dict[str, list[int]] = {}  # player: games, cards, errors, lost
        for key, rows in found.items():
            game = seats[key]
            for row in rows:
                seat = row.get("seat")
                if not isinstance(seat, int) or not 0 <= seat < len(game.seats) or seat in game.replaced:
                    continue
                pid = game.seats[seat]
                if pid is None or pid not in names:
                    continue  # the fill bot's seat
                total = totals.setdefault(pid, [0, 0, 0, 0])
                for k, v in enumerate((1, row.get("decisions", 0), row.get("errors", 0), row.get("lost", 0))):
                    total[k] += int(v)
        out = [{"entrant": pid, "name": names[pid], "games": g, "cards": c, "errors": n, "lost": lost,
                "per_card": round(lost / c, 3) if c else None} for pid, (g, c, n, lost) in totals.items()]  # fmt: skip
        out.sort(key=lambda r: (r["per_card"] is None, r["per_card"] or 0.0, r["name"]))
        return out

    def shown(self, t: StoredTournament, person: str | None) -> dict[str, Any]:
        """The tournament as anyone sees it, and what is the asker's alone: the organiser's
        invitation link, a player's table and seat token. No seed and no card of a game in play."""
        settings = arena_settings(t.settings)
        names = {player_id(e): e.name for e in t.entrants}
        try:
            entrants = arena_entrants(t, settings)
        except HubError:
            entrants = []
        entrant_names = {e.id: e.name for e in entrants}
        sealed = settings.format == "duplicate"
        rounds = []
        for r in t.rounds:
            plan = arena.RoundPlan.from_json(r.plan)
            open_now = not (sealed and r.status == "playing")
            tables = []
            for x in (x for x in t.tables if x.round == r.number):
                tp = plan.tables[x.number - 1]
                games = []
                for i, g in enumerate(tp.games):
                    done = arena.GamePlayed.from_json(x.results[i]) if i < len(x.results) else None
                    entry: dict[str, Any] = {"game_no": i + 1, "seats": [names.get(p) if p else settings.fill_bot
                                                                        for p in g.seats]}  # fmt: skip
                    if done is not None:
                        entry.update(scores=list(done.scores), winners=list(done.winners), replaced=list(done.replaced))
                        if open_now:
                            entry.update(record=f"/api/tables/{x.table_id}/record?game={i + 1}",
                                         replay=f"/api/tables/{x.table_id}/replay?game={i + 1}")  # fmt: skip
                            if t.game == "jass":  # its double-dummy analysis: points lost per card
                                entry["analysis"] = f"/api/tables/{x.table_id}/analysis?game={i + 1}"
                    games.append(entry)
                tables.append({
                    "number": x.number, "status": x.status, "entrants": [entrant_names.get(e, e) for e in tp.entrants],
                    "table": x.table_id if open_now else None,  # its games' records and replays name it
                    "link": f"/tables/{x.table_id}" if open_now and x.status == "playing" else None,  # archived after
                    "games": games,
                })  # fmt: skip
            rounds.append({"number": r.number, "status": r.status, "started_at": r.started_at, "ended_at": r.ended_at,
                           "byes": [entrant_names.get(b, b) for b in plan.byes], "tables": tables})  # fmt: skip
        table = standings_of(t)
        standing = [{**s.to_json(), "name": entrant_names.get(s.entrant, s.entrant)} for s in table]
        out: dict[str, Any] = {
            "id": t.id, "name": t.name, "game": t.game, "options": t.options, "format": t.format,
            "settings": {k: v for k, v in t.settings.items() if k != "options"}, "status": t.status,
            "round": t.round, "rounds": settings.rounds, "rev": t.rev, "created_at": t.created_at,
            "start_at": t.start_at, "started_at": t.started_at, "ended_at": t.ended_at, "ended_early": t.ended_early,
            "entrants": [self._entrant(e) for e in t.entrants],
            "teams": [{"id": e.id, "name": e.name, "members": [names.get(m) for m in e.members]}
                      for e in entrants if e.members],
            "rounds_played": rounds, "standings": standing, "final": t.status == "over",
            "organiser": person is not None and secrets.compare_digest(t.organiser.encode(), person.encode()),
            "you": self._you(t, person),
        }  # fmt: skip
        if out["organiser"] and t.invitation is not None:
            out["invitation"] = {"token": t.invitation, "link": f"/tournaments/{t.id}?invitation={t.invitation}"}
        return out

    @staticmethod
    def _entrant(e: Entrant) -> dict[str, Any]:
        replaced = None if e.replaced_by is None else {"bot": e.replaced_by, "round": e.replaced_round}
        return {"number": e.number, "id": player_id(e), "name": e.name, "kind": e.kind, "bot": e.bot,
                "team": e.team, "account": e.account is not None, "replaced": replaced}  # fmt: skip

    def _you(self, t: StoredTournament, person: str | None) -> dict[str, Any] | None:
        """The asker's entry and, while a round is played, their table now: its link, their seat in
        the game being played and the seat's token (theirs alone)."""
        e = t.entrant_of(person)
        if e is None:
            return None
        out: dict[str, Any] = {"entrant": e.number, "name": e.name, "table": None}
        pid = player_id(e)
        for x in t.tables:
            if x.round == t.round and pid in x.tokens and x.status == "playing" and t.status != "over":
                live = self.hub.tables.get(x.table_id)
                token = x.tokens[pid]
                seat = None if live is None else live.seat_of(hash_token(x.table_id, token))
                out["table"] = {"id": x.table_id, "link": f"/tables/{x.table_id}", "seat": seat, "token": token,
                                "round": x.round, "number": x.number}  # fmt: skip
        return out

    def sealed(self, table_id: str) -> bool:
        """A game of a duplicate round whose cards are still to be played, at this table or
        another: while the tournament plays the round, or any of its tables plays on (called in a
        database thread)."""
        found = self.store.of_table(table_id)
        if found is None:
            return False
        t = self.store.load(found[0])
        if t is None or t.format != "duplicate":
            return False
        if t.status != "over" and any(r.number == found[1] and r.status == "playing" for r in t.rounds):
            return True
        ids = [x.table_id for x in t.tables if x.round == found[1]]
        return any(status == "playing" for games in self.store.games_of(ids).values() for _, status, _ in games)
