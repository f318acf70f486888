"""A hub in this process, on a SQLite file, and a fake connection: for tests that reach into the
hub (a failing store, another process's notice, a slow bot) where a real server cannot be steered."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from stichkit.server.hub import Hub, NewTable
from stichkit.server.settings import Settings
from stichkit.server.table import LiveTable


class Listener:
    """A connection (a spectator unless given a seat): what the hub sends it."""

    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.who = "address:127.0.0.1"  # the client, for the limits on what one client may claim
        self.hint_task: Any = None
        self.account: int | None = None  # the account it was opened as (a ban closes it)
        self.closing = False
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)

    def send_obj(self, obj: dict[str, Any]) -> None:
        self.send(json.dumps(obj))

    def error(self, code: str, reason: str, ref: Any = None, why: Any = None) -> None:
        self.send_obj({"type": "error", "code": code, "reason": reason})

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        self.closing = True

    @property
    def sent(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.texts]

    def chats(self) -> list[str]:
        return [m["text"] for m in self.sent if m["type"] == "chat"]

    def history(self) -> list[str]:
        return [h["text"] for m in self.sent if m["type"] == "chat_history" for h in m["messages"]]


@contextlib.asynccontextmanager
async def running(tmp_path: Path, table: str | None = None, game: str = "stichling",
                  seats: tuple[str, ...] = ("human", "human"), options: dict[str, Any] | None = None,
                  **settings: Any) -> AsyncIterator[tuple[Hub, LiveTable]]:  # fmt: skip
    """A hub on the test's SQLite file and a table at it: `table` read from the database, or a
    new table (by default Stichling for two humans); the hub stops at the end."""
    hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'hub.db'}", bot_workers=1, **settings))
    await hub.start()
    try:
        if table is None:
            t = await hub.create_table(
                NewTable(game=game, options=options or {}, seats=list(seats), private=False, name=None,
                         takeover="hand", grace=60.0, takeover_bot="bot:heuristic", move_time=None)
            )  # fmt: skip
        else:
            t = hub.tables[table]
        yield hub, t
    finally:
        await hub.stop()
