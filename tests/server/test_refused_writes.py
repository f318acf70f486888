"""Every change of a table is stored before anyone hears of it, the same way for each kind of
change: when the database fails, the change is answered `unavailable` (a 503 over HTTP) and
changes nothing, and nobody is told; when another process stored a change first, it is answered
`stale` and the table catches up with what that process stored.

In-process, on SQLite: the failing database is a store method that raises, the other process a
move written straight into the database."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from stichkit.server.db.store import Move
from stichkit.server.errors import HubError
from stichkit.server.model import StoredAction

from .inprocess import Listener, running


def failing(*args: Any) -> Any:
    raise OSError("the database went away for a moment")


def test_what_the_database_fails_to_store_changes_nothing_and_is_answered_unavailable(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
            await hub.join(t, "Ann", 0)
            await hub.join(t, "Ben", 1)
            ear = Listener()
            t.clients.add(ear)  # type: ignore[arg-type]
            seat = t.turn
            assert seat is not None and t.status == "playing"
            me = Listener(seat)
            before = (t.version, t.rev, t.state.view(None))

            hub.store.append_moves = failing  # type: ignore[method-assign]
            await hub.act(t, me, t.legal_for(seat)[0], t.version, None, None)  # type: ignore[arg-type]
            assert me.sent[-1]["code"] == "unavailable", me.sent
            hub.store.add_chat = failing  # type: ignore[method-assign]
            await hub.chat(t, me, "hoi")  # type: ignore[arg-type]
            assert me.sent[-1]["code"] == "unavailable", me.sent

            assert (t.version, t.rev, t.state.view(None)) == before
            assert ear.sent == [], "nobody hears of what was not stored"
            del hub.store.append_moves, hub.store.add_chat  # the database is back
            await hub.act(t, me, t.legal_for(seat)[0], t.version, None, None)  # type: ignore[arg-type]
            await hub.chat(t, me, "hoi")  # type: ignore[arg-type]
            assert t.version == before[0] + 1
            assert [m["type"] for m in ear.sent] == ["state", "chat"]

    asyncio.run(go())


def test_a_seat_the_database_fails_to_store_is_a_503_and_nobody_sits(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
            hub.store.claim_seat = failing  # type: ignore[method-assign]
            with pytest.raises(HubError) as refused:
                await hub.join(t, "Ann", 0)
            assert refused.value.status == 503 and "could not be saved" in str(refused.value)
            assert t.seats[0].token_hash is None and t.status == "waiting"
            del hub.store.claim_seat
            assert (await hub.join(t, "Ann", 0))[0] == 0

    asyncio.run(go())


def test_a_move_another_process_stored_first_is_stale_and_the_table_catches_up(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path) as (hub, t):
            await hub.join(t, "Ann", 0)
            await hub.join(t, "Ben", 1)
            ear = Listener()
            t.clients.add(ear)  # type: ignore[arg-type]
            seat = t.turn
            assert seat is not None
            legal = t.legal_for(seat)
            theirs = StoredAction(t.version + 1, seat, legal[-1], "human", time.time())
            assert await hub.db(hub.store.append_moves, [Move(t.id, t.game_no, theirs, t.line)]) == [None]
            me = Listener(seat)
            await hub.act(t, me, legal[0], t.version, None, None)  # type: ignore[arg-type]
            assert me.sent[-1]["code"] == "stale" and "version 1" in me.sent[-1]["reason"], me.sent
            assert t.version == 1 and t.state.history()[-1][1].text == legal[-1]
            assert [(m["type"], m["version"]) for m in ear.sent] == [("state", 1)]

    asyncio.run(go())
