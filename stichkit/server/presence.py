"""Who is at the table: a connection comes (its state, the chat so far) and goes, and what the
seated players say. Presence counts every process's connections (peers.py carries them across)."""

from __future__ import annotations

import time

from .connection import Client, dumps
from .hub_protocol import RoomHub
from .messages import News, broadcast, broadcast_table, state_text, table_info
from .model import ChatLine
from .table import LiveTable


class Presence:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def connect(self, t: LiveTable, client: Client) -> None:
        hub = self.hub
        async with t.lock:
            t.clients.add(client)
            t.count(client, +1)
            now = time.time()
            t.refresh_presence(now)
            info = dumps(table_info(t, now))
            client.send(state_text(t, client.seat, info, None))
            for c in t.clients:
                if c is not client:
                    c.send(f'{{"type":"table","table":{info}}}')
        lines = await hub.db(hub.store.chat, t.id, hub.settings.chat_history)
        client.send_obj({"type": "chat_history", "messages": [line.message() for line in lines]})
        # The history may hold a line another process said that this one has not passed on yet
        # (its notice is on the way), so it does not move the table's chat cursor (set when the
        # table was read): that would keep the line from the table's other connections. This one
        # may get such a line twice, in its history and as a chat (pages drop it by id).
        await hub.peers.publish_presence(t)

    async def disconnect(self, t: LiveTable, client: Client) -> None:
        await client.stop()
        if client not in t.clients:
            return
        t.clients.discard(client)
        t.count(client, -1)
        now = time.time()
        t.seen_at = now  # someone was here until now
        if client.seat is not None:
            t.human_at = now
        t.refresh_presence(now)
        broadcast_table(t, now)
        if not self.hub.closing:
            await self.hub.peers.publish_presence(t)
            await self.hub.seats.maybe_rematch(t)  # the players still here may all have agreed

    async def chat_again(self, t: LiveTable) -> None:
        """The table's chat as stored, again to every connection here (lines renamed: an account
        deleted); pages show the history in place of what they had."""
        lines = await self.hub.db(self.hub.store.chat, t.id, self.hub.settings.chat_history)
        broadcast(t, dumps({"type": "chat_history", "messages": [line.message() for line in lines]}))

    async def chat(self, t: LiveTable, client: Client, text: str) -> None:
        """A seated player says something to the table: stored, then passed on."""
        hub, seat = self.hub, client.seat
        assert seat is not None
        async with t.lock:
            name = t.seats[seat].name or f"seat {seat}"

            def said(line: ChatLine) -> News:
                t.last_chat_id = max(t.last_chat_id, line.id)
                return News(chat=dumps({"type": "chat", **line.message()}))

            account = t.seats[seat].account
            write = hub.db(hub.store.add_chat, t.id, seat, name, text, time.time(), hub.settings.chat_kept, account)
            refusal = await hub.store_then_tell(t, write, said, "the chat message")
        if refusal is not None:
            client.error(*refusal)
