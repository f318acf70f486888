"""Who plays in a tournament: people registering (under their account's name when logged in;
anyone, account holders only, or whoever has the invitation link), bots the organiser enters
(within their quota), teams of two in team formats, and withdrawing before the start. Every
registration is stored under the tournament's lock and counts its revision up, so a round paired
from an older list of entrants is refused and paired again (db/tournament_entrants.py)."""

from __future__ import annotations

import secrets
import time

from stichkit.core import OptionError

from .db.accounts import Account
from .db.store import Conflict
from .errors import HubError
from .hub_protocol import RoomHub
from .model import Entrant, StoredTournament
from .quotas import TournamentQuota
from .tournament_arena import arena_settings
from .tournament_common import check_organiser, load, quota_of, tournament_bot


class Registration:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def register(self, tournament_id: str, name: str | None, team: str | None, invitation: str | None,
                       account: Account | None, person: str) -> Entrant:  # fmt: skip
        """Register the person asking: under the account's name when logged in. Who may register is
        the tournament's: anyone, accounts only, or whoever has the invitation link."""
        t = await load(self.hub, tournament_id)
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
        t = await load(self.hub, tournament_id)
        check_organiser(t, person)
        if t.settings.get("rated"):
            raise HubError(409, "a rated tournament is for account holders: bots play only for players who are gone")
        try:
            spec = tournament_bot(self.hub, bot, t.game).label
        except OptionError as e:
            raise HubError(400, str(e)) from None
        entrant = Entrant(0, "bot", name or spec, bot=spec, team=self._team(t, team))
        return await self._enter(t, entrant, quota_of(self.hub, client))

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
            return await self.hub.db(self.hub.tournament_store.register, t.id, entrant, largest, time.time(), quota)
        except Conflict as e:
            raise HubError(409, str(e)) from None

    async def unregister(self, tournament_id: str, person: str, number: int | None) -> None:
        """Withdraw before the start: oneself, or (the organiser) entrant `number`."""
        t = await load(self.hub, tournament_id)
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
                check_organiser(t, person)
        try:
            await self.hub.db(self.hub.tournament_store.unregister, t.id, number, time.time())
        except Conflict as e:
            raise HubError(409, "registration is closed: the tournament has begun or ended") from e
