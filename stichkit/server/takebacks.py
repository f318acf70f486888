"""Moves taken back: a player's last decision and every later one (the bots' replies). Alone with
bots this happens at once; where other players sit, they are asked first, and the last yes takes
the moves back. A takeback is stored like a move, before anyone hears of it: the game's later
actions are deleted and its `line` counts one more.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from .connection import Client
from .hub_protocol import RoomHub
from .messages import STATE, TABLE, News
from .model import TakebackRequest
from .refusals import Refusal, refuse_answer, refuse_takeback
from .table import LiveTable


class Takebacks:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def take_back(self, t: LiveTable, client: Client, version: int, game_no: int | None, ref: Any) -> None:
        """Undo the client's last decision and every later one: at once for a player alone with
        bots; where other players sit, they are asked first (see `answer`)."""
        seat = client.seat
        async with t.lock:
            refusal = refuse_takeback(t, seat, version, game_no)
            if refusal is not None:
                client.error(*refusal, ref=ref)
                return
            assert seat is not None
            to_version = t.takeback_to(seat)
            assert to_version is not None
            if t.takeback_voters(seat):
                ask = TakebackRequest(seat, t.game_no, t.line, to_version, round(time.time(), 3))
                refusal = await self.set_request(t, ask.text())
            else:
                refusal = await self._take_back_to(t, seat, to_version, None)
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def answer(self, t: LiveTable, client: Client, accept: bool, ref: Any) -> None:
        """A player's answer to the open takeback request: the last yes takes the moves back; a
        no (or the asker's withdrawal) closes the request."""
        seat = client.seat
        async with t.lock:
            for _ in range(3):  # an answer given elsewhere at the same moment: read it, try again
                refusal = refuse_answer(t, seat, accept)
                if refusal is not None:
                    break
                r = t.open_takeback()
                assert r is not None and seat is not None
                if not accept:
                    refusal = await self.set_request(t, replace(r, no=seat).text())
                elif seat in r.yes:
                    return  # said already
                elif all(i in r.yes or i == seat for i in t.takeback_voters(r.seat)):
                    refusal = await self._take_back_to(t, r.seat, r.to, t.takeback_text)
                else:
                    refusal = await self.set_request(t, replace(r, yes=(*r.yes, seat)).text())
                if refusal is None or refusal[0] != "stale":
                    break
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def set_request(self, t: LiveTable, text: str) -> Refusal | None:
        """Store the takeback request's new text (asked, answered, withdrawn), then show it to
        everyone. Lock held."""
        now = time.time()

        def shown(_: None) -> News:
            t.set_takeback(text)
            t.updated_at = now
            return TABLE

        hub = self.hub
        write = hub.db(hub.store.set_takeback, t.id, t.game_no, t.line, t.takeback_text, text, now)
        stale = "the takeback request or the game changed meanwhile; look again"
        return await hub.store_then_tell(t, write, shown, "the takeback request", stale=stale)

    async def _take_back_to(self, t: LiveTable, seat: int, to_version: int, request: str | None) -> Refusal | None:
        """Take the game back to `to_version` decisions, for `seat` (with `request`, the one
        every other player agreed to). Stored first, like a move; a bot thinking is stopped. Lock held."""
        now = time.time()

        def taken(_: None) -> News:
            if t.pending is not None:
                t.pending.cancel()
                t.pending = None
            undone = t.version - to_version
            t.take_back_to(to_version)
            t.last = {"seat": seat, "version": to_version, "by": "takeback", "undone": undone}
            t.last_hint = None
            t.moved_at = t.updated_at = t.human_at = now
            return STATE

        hub = self.hub
        write = hub.db(hub.store.take_back, t.id, t.game_no, t.line, t.version, to_version, now, request, seat)
        stale = "the game changed meanwhile; the table is at version {version}"
        return await hub.store_then_tell(t, write, taken, "the takeback", stale=stale)
