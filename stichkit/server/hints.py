"""Hints: what the game's hint bot (stichkit.bots.hint_bot) would play for the asking seat, only
at its turn, from what the seat may know (bots sample the hidden cards), told to it alone.
Nothing at the table changes, so nothing is stored."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from stichkit.bots import hint_bot

from .botrunner import CLOCKS, SeatBot
from .connection import Client
from .hub_protocol import RoomHub
from .refusals import refuse_act
from .table import LiveTable

log = logging.getLogger("stichkit.server")


class Hints:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def hint(self, t: LiveTable, client: Client, version: int, game_no: int | None, ref: Any) -> None:
        seat = client.seat
        async with t.lock:
            refusal = refuse_act(t, seat, version, game_no)
            if refusal is not None:
                client.error(*refusal, ref=ref)
                return
            assert seat is not None
            if not t.settings.hints:
                client.error("no_hints", "this table plays without hints", ref=ref)
                return
            key = (t.game_no, t.version, seat)
            if t.last_hint is not None and t.last_hint[:3] == key:
                self._send(client, key, t.last_hint[3], ref)
                return
            # one at a time per connection, and per seat (however many tabs ask): a seat keeps at
            # most one bot worker busy with hints
            if client.hint_task is not None or key in t.hints_due:
                client.error("busy", "a hint is being worked out for you already", ref=ref)
                return
            limit = self.hub.settings.client_hints
            if not self.hub.in_flight.take("hint", client.who, limit):
                reason = (f"you have as many hints in work as one visitor may have ({limit}), at other tables "
                          "or in other tabs; ask again when one has come")  # fmt: skip
                client.error("client_hints", reason, ref=ref)
                return
            record = t.state.record()
            t.hints_due.add(key)
            line = t.line
        # worked out beside the connection's other messages: a move made meanwhile is not held up
        client.hint_task = task = asyncio.create_task(self._work_out(t, client, key, line, record, ref))
        # given back however the task ends, also when the connection closes before it began
        task.add_done_callback(lambda _: self.hub.in_flight.give_back("hint", client.who))

    async def _work_out(self, t: LiveTable, client: Client, key: tuple[int, int, int], line: int,
                        record: dict[str, Any], ref: Any) -> None:  # fmt: skip
        try:
            action = await self.hub.bots.decide_record(self.bot(t.game.name), record, key[2], client.who)
        except Exception:
            log.exception("table %s: the hint bot failed", t.id)
            client.error("unavailable", "no hint can be worked out now; try again", ref=ref)
            return
        finally:
            client.hint_task = None
            t.hints_due.discard(key)
        if (t.game_no, t.line) != (key[0], line):  # moves were taken back meanwhile: the version is another position
            client.error("stale", "moves were taken back; ask again", ref=ref)
            return
        t.last_hint = (*key, action)
        self._send(client, key, action, ref)

    def bot(self, game: str) -> SeatBot:
        """The game's hint bot, its clock within this server's --max-bot-time."""
        name, params = hint_bot(game)
        max_time = self.hub.settings.max_bot_time
        for clock in CLOCKS:
            if clock in params and float(params[clock]) > max_time:
                params[clock] = max_time
        return self.hub.seat_bot(":".join([name, *(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                                   for k, v in params.items())]))  # fmt: skip

    @staticmethod
    def _send(client: Client, key: tuple[int, int, int], action: str, ref: Any) -> None:
        msg: dict[str, Any] = {"type": "hint", "game": key[0], "version": key[1], "action": action}
        if ref is not None:
            msg["ref"] = ref
        client.send_obj(msg)
