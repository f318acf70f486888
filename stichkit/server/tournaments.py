"""Tournaments at the server: an organiser opens one, people (and bots) register, and the server
plays its rounds at ordinary tables, one table per table of the round's plan.

The rules of a tournament (its settings, the pairing of each round, the games' seeds, the
standings with their tie-breaks) are the arena's (stichkit.arena.tournaments, read through
tournament_arena.py); here they are stored (db/tournaments.py) and played. `Tournaments` is what
the hub and the routes call, and the organiser's room (open, start, pause, go on, end, a gone
player replaced); each other concern has its own:

- tournament_entrants.py: registering, bots entered by the organiser, teams, withdrawing;
- tournament_rounds.py: the steps every process takes once a second: results kept, next games,
  a round ended and the next one paired with its tables opened, round tables archived;
- tournament_shown.py: the tournament as shown to anyone and to the asker, and which games are
  sealed (a duplicate round in play);
- tournament_analyses.py: a Jass tournament's games analysed by the server itself;
- tournament_common.py: what they all ask alike (the tournament read, the organiser checked, a
  bot spec checked, the opener's quota).

A person is who they are everywhere in the server (identity.person: an account, else the
browser's identity cookie): the organiser is the person who opened the tournament, and a player
finds their table by it. Each player gets a seat token at each of their tables, kept for them and
shown to them alone. The tables of a round are private (not in the lobby's list).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import stichkit
from stichkit.arena import tournaments as arena
from stichkit.core import OptionError

from . import catalog
from .db.accounts import Account
from .db.store import Conflict
from .db.tournaments import TournamentStore
from .errors import HubError
from .hub_protocol import RoomHub
from .model import StoredTournament
from .tokens import hash_token, new_table_id, new_token
from .tournament_analyses import TournamentAnalyses
from .tournament_arena import arena_settings, player_id
from .tournament_common import check_organiser, load, quota_of, tournament_bot
from .tournament_entrants import Registration
from .tournament_rounds import Rounds
from .tournament_shown import Shown

__all__ = ["NewTournament", "Tournaments", "arena_settings"]


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


class Tournaments:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        # The rooms, one per concern (see the module's docstring).
        self.entrants = Registration(hub)
        self.rounds = Rounds(hub)
        self.view = Shown(hub)
        self.analyses = TournamentAnalyses(hub)  # the Jass games' analyses, queued by the server
        # The doors the routes call that another room answers.
        self.register = self.entrants.register
        self.enter_bot = self.entrants.enter_bot
        self.unregister = self.entrants.unregister
        self.document = self.view.document
        self.shown = self.view.shown
        self.sealed = self.view.sealed

    @property
    def store(self) -> TournamentStore:
        return self.hub.tournament_store

    async def load(self, tournament_id: str) -> StoredTournament:
        return await load(self.hub, tournament_id)

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
            tournament_bot(self.hub, req.fill_bot, settings.game)
        except OptionError as e:
            raise HubError(400, str(e)) from None
        stored = StoredTournament(
            id=new_table_id(), name=req.name, game=settings.game, options=dict(settings.options),
            format=settings.format, settings={**settings.to_json(), "name": req.name, "max_entrants": largest},
            status="registering", round=0, seed=random.SystemRandom().getrandbits(62), organiser=person,
            opened_by=client, invitation=new_token() if settings.registration == "invitation" else None,
            start_at=req.start_at, ended_early=False, rev=1, created_at=now, updated_at=now,
        )  # fmt: skip
        await hub.db(self.store.create, stored, quota_of(self.hub, client), [])
        return await self.load(stored.id)

    async def start(self, tournament_id: str, person: str) -> StoredTournament:
        """The organiser starts the tournament now: its first round is paired and its tables open."""
        for _ in range(5):  # a registration (or the start time) may come first: read again
            t = await self.load(tournament_id)
            check_organiser(t, person)
            if t.status != "registering":
                raise HubError(409, f"the tournament is {t.status}: only one that takes registrations can be started")
            try:
                await self.rounds.begin(t)
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
            check_organiser(t, person)
            if t.status == "over":
                raise HubError(409, "the tournament is over already")
            try:
                # the games finished by now wait for the server's analyses
                await self.hub.db(self.store.set_status, t.id, t.rev, "over", time.time(), True, t.game == "jass")
                return await self.load(tournament_id)
            except Conflict:
                continue
        raise HubError(503, "the tournament kept changing; try again")

    async def _set_status(self, tournament_id: str, person: str, before: str, after: str) -> StoredTournament:
        for _ in range(5):
            t = await self.load(tournament_id)
            check_organiser(t, person)
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
        check_organiser(t, person)
        if t.status not in ("running", "paused"):
            raise HubError(409, "a player is replaced while the tournament is played")
        e = next((x for x in t.entrants if x.number == number), None)
        if e is None:
            raise HubError(404, f"no entrant {number} in this tournament")
        if e.kind != "human" or e.replaced_by is not None:
            raise HubError(409, f"entrant {number} is {'a bot' if e.kind != 'human' else 'replaced already'}")
        try:
            spec = tournament_bot(self.hub, bot, t.game).label
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

    # -- the list, and the look once a second -------------------------------------------------

    async def listing(self, limit: int) -> list[dict[str, Any]]:
        return await self.hub.db(self.store.listing, limit)

    async def tick(self, now: float) -> None:
        """Once a second: the background analyses due, and each tournament's step."""
        await self.analyses.look(now)
        await self.rounds.tick(now)
