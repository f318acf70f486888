"""A chat line said through another process reaches every connection of this process: even when
the first read of it fails (the line stays due, and the regular resync reads it again), and when
someone connects between the line and its notice (the newcomer's history must not hide it from
the others); and a table read anew (a restart) passes on only the lines said since.

In-process, on SQLite: the other process is played by writing the line to the database directly,
as its hub would, and the notice it would send is this hub's `sync(table, chat=True)`."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from .inprocess import Listener, running


def test_a_chat_line_whose_read_failed_is_read_at_the_next_resync(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
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
            await hub.peers.resync_all()  # what the ticker does every resync_interval
            assert ear.chats() == ["hoi"]
            await hub.peers.resync_all()
            assert ear.chats() == ["hoi"], "read once, shown once"

    asyncio.run(go())


def test_a_newcomer_between_a_line_and_its_notice_does_not_hide_the_line_from_the_others(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
            first = Listener()
            await hub.connect(t, first)  # type: ignore[arg-type]
            # said through another process; its notice is still on the way
            await hub.db(hub.store.add_chat, t.id, 0, "Ann", "hoi", time.time())
            second = Listener()
            await hub.connect(t, second)  # type: ignore[arg-type]
            assert second.history() == ["hoi"]
            await hub.sync(t.id, chat=True)  # the notice arrives
            assert first.chats() == ["hoi"]
            assert second.chats() == ["hoi"], "the newcomer gets it again: pages drop it by its id"
            await hub.peers.resync_all()
            assert first.chats() == ["hoi"], "and only once"

    asyncio.run(go())


def test_a_table_read_anew_passes_on_only_the_lines_said_since(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
            await hub.db(hub.store.add_chat, t.id, 0, "Ann", "alt", time.time())
        async with running(tmp_path, t.id) as (hub, again):  # the restart: every table read from the database
            a, b = Listener(), Listener()  # both back at once, as after a restart
            await asyncio.gather(hub.connect(again, a), hub.connect(again, b))  # type: ignore[arg-type]
            assert a.history() == b.history() == ["alt"]
            await hub.db(hub.store.add_chat, t.id, 1, "Ben", "neu", time.time())  # through another process
            await hub.sync(t.id, chat=True)
            assert a.chats() == b.chats() == ["neu"], "the old line is not passed on again"

    asyncio.run(go())
