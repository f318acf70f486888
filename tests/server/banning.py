"""A ban given mid-game by `stich admin` (a process of its own) to a player at a rated table:
what the tests of bans on one process (SQLite) and on two (PostgreSQL) both check."""

from __future__ import annotations

import asyncio
import io
import random

import httpx
import pytest
import websockets

from stichkit.cli.main import build_parser
from stichkit.server.admin import run as run_admin

from .harness import Client, Server, wait_until
from .test_ratings import play_to_end


def ban(db: str, name: str, *flags: str) -> str:
    """`stich admin --db DB ban NAME`, as the operator runs it beside the server: what it printed."""
    out = io.StringIO()
    assert run_admin(build_parser().parse_args(["admin", "--db", db, "ban", name, *flags]), out) == 0
    return out.getvalue()


async def refused_handshake(srv: Server, table: str, token: str) -> int:
    """The HTTP status of a WebSocket handshake the server refuses (as the seat of `token`)."""
    with pytest.raises(websockets.InvalidStatus) as e:
        await Client.open(srv, table, token)
    return int(e.value.response.status_code)


def banned_at_play(servers: tuple[Server, Server], bad: httpx.Client, good: httpx.Client, bad_name: str) -> str:
    """A rated game of two account holders: the one to be banned connected through the second
    server, the other through the first; `stich admin ban` (another process) bans the first
    account mid-game. Its connection closes, its token is refused by both servers, its seat is
    the takeover bot's, the game goes on to the end, and counts as a loss for the banned account.
    The page with which it watched another table (its login, no seat; through the second server,
    the table the first's) closes too; a guest's beside it stays open. The table's id."""
    a, b = servers
    t = good.post("/api/tables", json={"game": "stichling", "seats": ["human", "human"], "rated": True}).json()["id"]
    tg = good.post(f"/api/tables/{t}/join", json={"seat": 0}).json()["token"]
    tb = bad.post(f"/api/tables/{t}/join", json={"seat": 1}).json()["token"]
    assert wait_until(lambda: b.get(f"/api/tables/{t}").json()["status"] == "playing", 15)  # b heard of it
    other = good.post("/api/tables", json={"game": "stichling", "seats": ["human", "human"]}).json()["id"]

    async def go() -> None:
        cb = await Client.open(b, t, tb)
        await cb.state()
        watching = await Client.open(b, other, headers={"Cookie": f"stich_session={bad.cookies['stich_session']}"})
        guest = await Client.open(b, other)
        for c in (watching, guest):
            assert (await c.state())["seat"] is None  # they watch
        said = await asyncio.to_thread(ban, a.db, bad_name, *(("--redis", a.redis) if a.redis else ()))
        assert "1 seat(s)" in said, said
        with pytest.raises(websockets.ConnectionClosed):
            await cb.until(lambda m: False, timeout=30)
        assert cb.closed is not None and cb.closed[0] == 4401, cb.closed  # revoked (the reason: where it was done)
        with pytest.raises(websockets.ConnectionClosed):
            await watching.until(lambda m: False, timeout=30)
        assert watching.closed == (4401, "this account is banned"), watching.closed
        await guest.send({"type": "ping", "id": 1})
        assert (await guest.until(lambda m: m["type"] == "pong"))["ref"] == 1
        await guest.close()
        for server in (a, b):
            seat = server.get(f"/api/tables/{t}").json()["seats"][1]
            assert not seat["claimed"] and seat["takeover"]["mode"] == "game", seat
            assert await refused_handshake(server, t, tb) == 403
            r = server.post(f"/api/tables/{t}/leave", {}, headers={"Authorization": f"Bearer {tb}"})
            assert r.status_code == 401, r.text
        cg = await Client.open(a, t, tg)
        end = await play_to_end(cg, random.Random(7))  # the takeover bot plays the banned seat
        await cg.close()
        assert end["table"]["status"] == "over"

    asyncio.run(go())
    return t
