"""This process's own work at the tables it owns (ownership.py: one process per table): the bots'
moves, moves made when a move timer runs out, seats taken over after the grace time, rematches
agreed to, and sweeping the tables nobody uses. A bot's move is a decision like a person's: it is
made through moves.py, stored before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import logging
import time

from stichkit.core import IllegalActionError

from .botrunner import SeatBot
from .hub_protocol import RoomHub
from .model import TABLE_OPENER
from .pacing import pause
from .table import LiveTable
from .trim import trim

log = logging.getLogger("stichkit.server")


class Scheduler:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self._last = {"claim": 0.0, "sweep": time.time(), "trim": time.time()}

    def schedule(self, t: LiveTable) -> None:
        """Start the bot's move when a bot is to move at a table this process owns."""
        hub = self.hub
        if hub.closing or t.dropped or t.pending is not None or t.status != "playing" or not hub.owner.owns(t.id):
            return
        seat = t.turn
        if seat is None:
            return
        bot = t.bot_for(seat)
        if bot is not None:
            by = "bot" if t.seats[seat].kind == "bot" else "takeover"
            t.pending = asyncio.create_task(self._bot_move(t, seat, bot, by))

    async def _bot_move(self, t: LiveTable, seat: int, bot: SeatBot, by: str) -> None:
        """The bot thinks (in the bot workers, without the table's lock, when it is its table's
        opener's turn for a worker), then its move is made like a person's, if the table is still
        where it was. The move shows after a pause drawn before the bot thinks (pacing.py), the
        same whatever the bot holds: the time a seat takes says nothing about its hand."""
        game_no, line, version = t.game_no, t.line, t.version
        hub = self.hub
        try:
            # A bot's move follows the last move by its pause; a move the timer makes follows the
            # moment the time ran out (as long for every position) by the bot's pause alone.
            start = time.time() if by == "timer" else t.moved_at
            due = start + pause(bot, 0.0 if by == "timer" else hub.settings.bot_delay)
            await hub.bot_time.claim(t.id, bot.clock)  # the table's bots have thought enough this minute: wait
            if (t.game_no, t.line, t.version) != (game_no, line, version):
                return
            try:
                text = await hub.bots.decide(bot, t.state, seat, t.opened_by or "table:" + t.id)
            except Exception:
                log.exception("table %s: bot %s failed; it plays its first legal move", t.id, bot.label)
                text = ""
            wait = due - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
            async with t.lock:
                if (t.game_no, t.line, t.version, t.status, t.turn) != (game_no, line, version, "playing", seat):
                    return
                if by != "timer" and t.bot_for(seat) is None:  # the human took the seat back meanwhile
                    return
                try:
                    t.state.apply(text)
                except IllegalActionError:
                    text = t.state.legal_actions()[0].text
                    t.state.apply(text)
                await hub.moves.commit(t, seat, text, by)
        except asyncio.CancelledError:
            pass
        finally:
            if t.pending is asyncio.current_task():
                t.pending = None
                self.schedule(t)

    async def tick(self, now: float) -> None:
        """Once a tick: the timers of the tables owned here; ownership claimed (each second),
        sweeping (each `sweep_interval`) and the C heap trimmed (each `malloc_trim`, trim.py)."""
        hub = self.hub
        for t in list(hub.tables.values()):
            if hub.owner.owns(t.id):
                await self._tick_table(t, now)
        if now - self._last["claim"] >= 1.0:
            self._last["claim"] = now
            await self.claim()
        if now - self._last["sweep"] >= hub.settings.sweep_interval:
            self._last["sweep"] = now
            await self._sweep(now)
        every = hub.settings.malloc_trim
        if every > 0 and now - self._last["trim"] >= every:
            self._last["trim"] = now
            await asyncio.to_thread(trim)  # it locks each arena in turn, not the event loop

    async def _tick_table(self, t: LiveTable, now: float) -> None:
        """Move timers, grace times and rematches of a table this process owns."""
        if t.status == "playing" and t.pending is None:
            deadline = t.deadline()
            turn = t.turn
            if deadline is not None and turn is not None and now >= deadline:
                t.pending = asyncio.create_task(self._bot_move(t, turn, t.takeover_bot, "timer"))
        if t.status == "playing" and t.settings.takeover != "off":
            due = [
                i for i, s in enumerate(t.seats)
                if s.kind == "human" and s.token_hash and s.takeover is None and t.away_since[i] is not None
                and now - t.away_since[i] >= t.settings.grace  # type: ignore[operator]
            ]  # fmt: skip
            if due:
                async with t.lock:
                    hand = t.hand()
                    mode = t.settings.takeover
                    await self.hub.seats.set_seats(t, {i: {"takeover": mode, "takeover_hand": hand} for i in due})
        if t.status == "over" and t.rematch_ready():
            await self.hub.seats.maybe_rematch(t)

    async def claim(self) -> None:
        """Take over the tables no process owns (their owner stopped or died): catch up with
        what it did last, and go on with their bots."""
        hub = self.hub
        new = await hub.owner.claim(list(hub.tables))
        for table_id in new:
            await hub.peers.sync(table_id)  # the previous owner may have moved since we last heard
            t = hub.tables.get(table_id)
            if t is not None:
                self.schedule(t)

    def _sweepable(self, t: LiveTable, now: float) -> bool:
        s = self.hub.settings
        if t.opened_by is not None and t.opened_by.startswith(TABLE_OPENER):
            return False  # a tournament's table: its games are the tournament's record (archived, tournaments.py)
        if t.anyone_here():
            t.seen_at = now
            if t.humans_here():
                t.human_at = now
            return t.status == "waiting" and now - t.updated_at >= s.sweep_idle  # open, but nothing happens
        idle = now - max(t.updated_at, t.seen_at)
        # Only bots play (bot seats, and seats given up to the takeover bot): nobody is at the
        # table but whoever watches it, so once nobody does it is of no more use.
        only_bots = not any(x.token_hash for x in t.seats)
        if t.status == "waiting":
            return idle >= s.sweep_waiting
        if t.status == "over":
            return idle >= (min(s.sweep_finished, s.sweep_unwatched) if only_bots else s.sweep_finished)
        if only_bots:
            return now - t.seen_at >= s.sweep_unwatched
        has_humans = any(x.kind == "human" for x in t.seats)
        return has_humans and now - t.human_at >= s.sweep_abandoned

    async def _sweep(self, now: float) -> None:
        hub = self.hub
        await hub.db(hub.accounts_store.sweep_sessions, now)  # expired logins: each process may, harmlessly
        for t in list(hub.tables.values()):
            if hub.owner.owns(t.id) and self._sweepable(t, now):
                await hub.sweep(t, "unused")
