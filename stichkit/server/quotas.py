"""What one client may claim of the server, and what one table's bots may think.

A visitor who opens tables of search bots claims the bot workers every other table needs. So a
client (clients.py: its address, later its account) may hold only so many tables and bot seats,
have only so many hints and analyses in flight, and each table's bots get so many seconds of
thinking a minute. A refusal is a 429 whose `code` names the limit reached (over the WebSocket,
an error with that code). Tables and bot seats are counted in the database, in the transaction
that opens the table, so they hold across server processes (store.Store.create_table); hints and
analyses in flight are counted where they run, as each process has its own workers.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from dataclasses import dataclass

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from .errors import HubError

TOO_MANY = 429


class LimitReached(HubError):
    """A client (or a table) has reached one of the server's limits: `code` names it."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(TOO_MANY, reason, code)


@dataclass(frozen=True)
class TableQuota:
    """What opening a table may not take one client past (0: no limit), checked where the table is
    stored, against the client's tables as the database holds them."""

    client: str
    tables: int  # tables the client opened that the server holds, whatever their status
    bot_seats: int  # bot seats at the client's tables that wait or play
    new_bot_seats: int  # the bot seats of the table being opened

    def refuse(self, held: int, bot_seats: int) -> LimitReached | None:
        if self.tables and held >= self.tables:
            reason = (
                f"you have {held} tables at this server, the most one visitor may have ({self.tables}); "
                "play at one of them, or wait until one is swept"
            )
            return LimitReached("client_tables", reason)
        if self.bot_seats and bot_seats + self.new_bot_seats > self.bot_seats:
            return LimitReached("client_bot_seats", f"your tables in play have {bot_seats} bot seats and this one "
                                f"{self.new_bot_seats}; one visitor may have {self.bot_seats} at once")  # fmt: skip
        return None


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


class InFlight:
    """Work of each client under way in this process (hints, analyses): taken before it begins,
    given back when it ends."""

    def __init__(self) -> None:
        self._held: Counter[tuple[str, str]] = Counter()

    def take(self, kind: str, client: str, limit: int) -> bool:
        """One more `kind` for `client`, if it holds fewer than `limit` (0: no limit)."""
        if limit and self._held[kind, client] >= limit:
            return False
        self._held[kind, client] += 1
        return True

    def give_back(self, kind: str, client: str) -> None:
        key = (kind, client)
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]  # no client leaves a trace once its work is done

    def held(self, kind: str, client: str) -> int:
        return self._held[kind, client]


TENTHS = 10  # bot time is counted in tenths of a second


class BotTime:
    """Seconds of thinking each table's bots may claim per minute (0: no limit), a sliding window
    per table. A bot's move claims its clock (the most it may think, so the claim says nothing
    about the position) before it begins; when the table has used its minute, its bots wait."""

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self._item = RateLimitItemPerMinute(max(1, round(per_minute * TENTHS)))
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    def cost(self, clock: float | None) -> int:
        return 0 if not clock or not self.per_minute else min(self._item.amount, math.ceil(clock * TENTHS))

    async def claim(self, table_id: str, clock: float | None) -> float:
        """Wait until the table may think for `clock` seconds, and claim them; the seconds waited."""
        cost = self.cost(clock)
        if cost == 0:
            return 0.0
        if self._limiter.hit(self._item, table_id, cost=cost):
            return 0.0
        began = time.monotonic()
        while not self._limiter.hit(self._item, table_id, cost=cost):
            await asyncio.sleep(0.25)
        return time.monotonic() - began
