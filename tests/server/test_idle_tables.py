"""What one connection can leave behind: chat is kept up to a number of lines per table, and a
waiting table at which nothing happens is swept even while a page has it open."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from stichkit.server.connection import CLOSE_SWEPT

from .inprocess import Listener, running


def test_a_table_keeps_only_its_newest_chat_lines(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path, chat_kept=5, chat_history=50) as (hub, t):
            await hub.join(t, "Anna", 0)
            await hub.join(t, "Ben", 1)
            ear = Listener(seat=0)
            ear.token_hash = t.seats[0].token_hash  # type: ignore[attr-defined]
            for i in range(12):
                await hub.chat(t, ear, f"line {i}")  # type: ignore[arg-type]
            assert [line.text for line in await hub.db(hub.store.chat, t.id, 50)] == [f"line {i}" for i in range(7, 12)]

    asyncio.run(go())
    with sqlite3.connect(tmp_path / "hub.db") as db:
        assert db.execute("SELECT count(*) FROM chat").fetchone()[0] == 5


def test_a_waiting_table_open_but_idle_is_swept(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path, sweep_idle=60.0, seats=("human", "human")) as (hub, t):
            await hub.join(t, "Anna", 0)
            page = Listener()
            t.clients.add(page)  # type: ignore[arg-type]
            t.local_watchers += 1  # a page has the table open
            assert t.anyone_here()
            now = time.time()
            assert not hub.scheduler._sweepable(t, now + 30)  # a table waiting for a friend is kept
            assert hub.scheduler._sweepable(t, now + 61)  # nothing for a minute: gone, open or not
            await hub.scheduler._sweep(now + 61)
            assert t.id not in hub.tables
            assert page.closed[0] == CLOSE_SWEPT  # type: ignore[attr-defined]
            assert await hub.db(hub.store.load_table, t.id) is None

    asyncio.run(go())


def test_a_game_in_play_is_not_swept_for_idling(tmp_path: Path) -> None:
    """A slow game with its players there stays (a game nobody plays is the abandoned rule's)."""

    async def go() -> None:
        async with running(tmp_path, sweep_idle=60.0, seats=("human", "human")) as (hub, t):
            await hub.join(t, "Anna", 0)
            await hub.join(t, "Ben", 1)
            assert t.status == "playing"
            t.local[0] += 1  # Anna has it open
            assert not hub.scheduler._sweepable(t, time.time() + 3600)

    asyncio.run(go())
