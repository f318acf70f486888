"""A ban at the live tables: a banned account gives up every seat it still holds, as if it left.

`stich admin ban` ends the account's sessions at once (every request asks the database), but a
seat is held by its token, which live tables check in memory. So each process looks for seats
that banned accounts still hold at the tables it owns, every `ban_check` seconds and at once when
a notice says an account was banned (the admin sends one where there is a channel: PostgreSQL's
or Redis), and makes each such seat leave by the way a player leaves (lobby.leave): the token
stops working, the seat's connections close, and during play the takeover bot finishes the game,
which at a rated table counts as a loss for the banned account (ratings.py).

The account's other connections close too, on every process (each looks at its own): a page
that watches a table as the account (its login, not a seat) is closed with 4401, like a seat's.
Watching again takes no login; as the account, it takes one, which the ban refuses.
"""

from __future__ import annotations

import asyncio
import logging

from .connection import CLOSE_REVOKED
from .errors import HubError
from .hub_protocol import RoomHub

log = logging.getLogger("stichkit.server")

BANNED = "this account is banned"


class Bans:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self._last = 0.0
        self._lock = asyncio.Lock()  # one look at a time: a notice may come during a tick's look

    async def tick(self, now: float) -> None:
        if now - self._last >= self.hub.settings.ban_check:
            self._last = now
            await self.enforce()

    async def enforce(self) -> int:
        """Every seat a banned account holds at a table this process owns leaves, and every
        connection of a banned account to this process closes: how many seats left."""
        hub = self.hub
        async with self._lock:
            held = await hub.db(hub.accounts_store.banned_seats)
            left = 0
            for table_id, seat, token_hash in held:
                t = hub.tables.get(table_id)
                if t is None or not hub.owner.owns(table_id):
                    continue  # another process owns it and does the same; a table not live waits
                try:
                    await hub.lobby.leave(t, token_hash, why=BANNED)
                except HubError:
                    continue  # the seat was given up or changed meanwhile
                log.info("table %s: seat %d left, as its account is banned", table_id, seat)
                left += 1
            await self._close_connections()
            return left

    async def _close_connections(self) -> None:
        """Close this process's connections opened as a banned account (a seat's leave closes its
        own too, on the process that owns the table; a watcher's are closed only here)."""
        hub = self.hub
        clients = [c for t in hub.tables.values() for c in t.clients if c.account is not None and not c.closing]
        if not clients:
            return
        banned = await hub.db(hub.accounts_store.banned_among, {c.account for c in clients if c.account is not None})
        for c in clients:
            if c.account in banned:
                c.close(CLOSE_REVOKED, BANNED)
                log.info("a connection of account %s closed, as it is banned", c.account)
