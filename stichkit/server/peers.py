"""The other processes serving the same database. Each change is told to them by a notice once it
is stored (`notify`); a notice heard makes this process read the change from the database and
tell its own connections (`sync`). Presence (who has a table open) travels the same way, with a
heartbeat. Whatever happens to notices, the database holds the truth: every `resync_interval`
the tables' revisions are compared, and a table that differs is read again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from stichkit.core import IllegalActionError

from .connection import dumps
from .hub_protocol import RoomHub
from .messages import broadcast, broadcast_state, broadcast_table
from .model import StoredTable
from .table import LiveTable

log = logging.getLogger("stichkit.server")


class Peers:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self._seen: dict[str, float] = {}  # each other process: when it was last heard of
        self._last = {"beat": 0.0, "resync": time.time()}

    # -- telling them ------------------------------------------------------------------------

    async def notify(self, t: LiveTable, chat: bool = False) -> None:
        hub = self.hub
        if hub.notifier.shared:
            msg: dict[str, Any] = {"k": "changed", "i": hub.instance, "t": t.id}
            if chat:
                msg["chat"] = 1
            await hub.notifier.publish(msg)

    async def notify_chat_renamed(self, table_id: str) -> None:
        """The table's stored chat lines were renamed: the other processes send them again."""
        hub = self.hub
        if hub.notifier.shared:
            await hub.notifier.publish({"k": "chat_renamed", "i": hub.instance, "t": table_id})

    async def publish_presence(self, t: LiveTable) -> None:
        hub = self.hub
        if hub.notifier.shared:
            await hub.notifier.publish({"k": "presence", "i": hub.instance, "t": t.id, "s": t.local,
                                        "w": t.local_watchers})  # fmt: skip

    async def tick(self, now: float) -> None:
        """Once a tick: the heartbeat (each `heartbeat`), and the revisions compared (each
        `resync_interval`)."""
        hub = self.hub
        if hub.notifier.shared and now - self._last["beat"] >= hub.settings.heartbeat:
            self._last["beat"] = now
            await hub.notifier.publish({"k": "hb", "i": hub.instance})
            self._expire(now)
        if hub.notifier.shared and now - self._last["resync"] >= hub.settings.resync_interval:
            self._last["resync"] = now
            await self.resync_all()

    # -- hearing from them -------------------------------------------------------------------

    async def on_notice(self, msg: dict[str, Any]) -> None:
        hub = self.hub
        kind, sender = msg.get("k"), msg.get("i")
        if kind == "reconnected":  # notices may have been lost meanwhile
            await self.resync_all()
            return
        if sender == hub.instance or not isinstance(sender, str):
            return
        if kind == "banned":  # from `stich admin ban`, no server process: its seats leave now
            await hub.bans.enforce()
            return
        now = time.time()
        self._seen[sender] = now
        table_id = msg.get("t")
        if kind == "hello":
            for t in hub.tables.values():
                if t.clients:
                    await self.publish_presence(t)
        elif kind == "changed" and isinstance(table_id, str):
            await self.sync(table_id, chat=bool(msg.get("chat")))
        elif kind == "chat_renamed" and isinstance(table_id, str):
            if (there := hub.tables.get(table_id)) is not None:
                await hub.presence.chat_again(there)
        elif kind == "presence" and isinstance(table_id, str):
            there = hub.tables.get(table_id)
            seats, watchers = msg.get("s"), msg.get("w")
            if there is None or not isinstance(seats, list) or len(seats) != there.n or not isinstance(watchers, int):
                return
            there.peers[sender] = ([int(x) for x in seats], watchers)
            there.refresh_presence(now)
            broadcast_table(there, now)

    def _expire(self, now: float) -> None:
        gone = {p for p, seen in self._seen.items() if now - seen > self.hub.settings.peer_timeout}
        for p in gone:
            del self._seen[p]
            log.info("process %s went silent; its connections no longer count", p)
        for t in self.hub.tables.values():
            stale = [p for p in t.peers if p not in self._seen]
            if stale:
                for p in stale:
                    del t.peers[p]
                t.refresh_presence(now)
                broadcast_table(t, now)

    # -- catching up with the database -------------------------------------------------------

    async def resync_all(self) -> None:
        hub = self.hub
        revs = await hub.db(hub.store.revisions)
        for table_id, rev in revs.items():
            t = hub.tables.get(table_id)
            if t is None or t.rev != rev or t.chat_due:
                await self.sync(table_id, chat=True)  # a lost notice may have been a chat line
        for table_id in [i for i in hub.tables if i not in revs]:
            await self.sync(table_id)

    async def sync(self, table_id: str, chat: bool = False) -> None:
        """Catch up with the database: a table made, changed or swept by another process."""
        hub = self.hub
        t = hub.tables.get(table_id)
        if t is None:
            stored = await hub.db(hub.store.load_table, table_id)
            if stored is not None and table_id not in hub.tables:
                t = hub.restore(stored)
                if t is not None:
                    await hub.owner.claim([t.id])
                    hub.scheduler.schedule(t)
            return
        t.chat_due = t.chat_due or chat
        if t.syncing:  # one catch-up at a time; ask for another round
            t.resync = True
            return
        t.syncing = True
        try:
            while True:
                t.resync = False
                async with t.lock:
                    await self.sync_locked(t)
                if t.chat_due:
                    t.chat_due = False  # before the read: a chat notice during it asks for another
                    try:
                        lines = await hub.db(hub.store.chat, t.id, hub.settings.chat_history, t.last_chat_id)
                    except BaseException:
                        # The revision is read already, so the next resync would not look again:
                        # the line stays due, and the resync reads it (see resync_all).
                        t.chat_due = True
                        raise
                    for line in lines:
                        if line.id > t.last_chat_id:
                            t.last_chat_id = line.id
                            broadcast(t, dumps({"type": "chat", **line.message()}))
                if not t.resync:
                    break
        finally:
            t.syncing = False

    async def sync_locked(self, t: LiveTable) -> None:
        """Read the table's changes since this process last saw it, and tell its connections.
        Lock held."""
        hub = self.hub
        stored = await hub.db(hub.store.load_table, t.id, (t.game_no, t.line, t.version))
        now = time.time()
        if stored is None:
            await hub.drop(t)
            return
        if stored.complete:  # a rematch, or moves taken back, elsewhere
            self._reload(t, stored, now)
        else:
            for a in stored.actions:
                try:
                    t.apply_stored(a)
                except (IllegalActionError, ValueError):
                    log.exception("table %s: stored action %d does not apply; reloading", t.id, a.version)
                    full = await hub.db(hub.store.load_table, t.id)
                    if full is None:
                        await hub.drop(t)
                        return
                    self._reload(t, full, now)
                    break
                if t.state.is_terminal():
                    t.status = "over"
                broadcast_state(t, now, t.last)
            changed = [vars(s) for s in stored.seats] != [vars(s) for s in t.seats] or stored.status != t.status
            if stored.takeback != t.takeback_text:  # asked, answered or withdrawn elsewhere
                t.set_takeback(stored.takeback)
                if not changed:
                    broadcast_table(t, now)
            if changed:
                t.seats = stored.seats
                t.seat_bots = hub.seat_bots(t.id, stored.seats)
                if stored.status != t.status:
                    t.moved_at = now
                started = stored.status == "playing" and t.status == "waiting"
                t.status = stored.status
                moved = t.recount()
                t.refresh_presence(now)
                if started:  # another process seated the last player: the game begins here too
                    broadcast_state(t, now, t.last)
                else:  # a player who changed seats through another process: its state as the new seat
                    broadcast_table(t, now, refresh=moved)
        t.rev = stored.rev
        t.updated_at = stored.updated_at
        hub.scheduler.schedule(t)

    def _reload(self, t: LiveTable, stored: StoredTable, now: float) -> None:
        """The whole game read again, and shown: the next game, or the same game on a new line
        (moves taken back), which pages show as a takeback (they would drop a lower version)."""
        takeback = stored.game_no == t.game_no and stored.line != t.line
        self.hub.reload(t, stored, now)
        if takeback:
            t.last = {"seat": None, "version": t.version, "by": "takeback"}
        broadcast_state(t, now, t.last)
