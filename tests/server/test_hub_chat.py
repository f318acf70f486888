"""A chat line said through another process reaches this process's connections even when the
first read of it fails: the line stays due, and the regular resync reads it again.

In-process, on SQLite: the other process is played by writing the line to the database directly,
as its hub would, and the notice it would send is this hub's `sync(table, chat=True)`."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from stichkit.server.hub import Hub, NewTable
from stichkit.server.settings import Settings


class Listener:
    """A connection that only listens: what the table sends it."""

    seat = None

    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def chats(self) -> list[str]:
        return [m["text"] for m in map(json.loads, self.texts) if m["type"] == "chat"]


def test_a_chat_line_whose_read_failed_is_read_at_the_next_resync(tmp_path: Path) -> None:
    async def go() -> None:
        hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'chat.db'}", bot_workers=1))
        await hub.start()
        try:
            t = await hub.create_table(
                NewTable(game="stichling", options={}, seats=["human", "human"], private=False, name=None,
                         takeover="hand", grace=60.0, takeover_bot="bot:heuristic", move_time=None)
            )  # fmt: skip
            ear = Listener()
            t.clients.add(ear)  # type: ignore[arg-type]
            # said through another process: in the database, and a notice
            await hub.db(hub.store.add_chat, t.id, 0, "Ann", "hoi", time.time())
            real_chat = hub.store.chat
            calls = {"n": 0}

            def failing_once(*args: Any) -> Any:
                calls["n"] += 1
                if calls["n"] == 1:
                    raise OSError("the database went away for a moment")
                return real_chat(*args)

            hub.store.chat = failing_once  # type: ignore[method-assign]
            with pytest.raises(OSError):
                await hub.sync(t.id, chat=True)
            assert ear.chats() == []
            revisions = await hub.db(hub.store.revisions)
            assert t.rev == revisions[t.id], "the revision is read: a resync by revision alone would not look again"
            await hub._resync_all()  # what the ticker does every resync_interval
            assert ear.chats() == ["hoi"]
            await hub._resync_all()
            assert ear.chats() == ["hoi"], "read once, shown once"
        finally:
            await hub.stop()

    asyncio.run(go())
