"""A scripted slow client: half-sent requests and a pile of connections from one address do not
shut anyone else out. The slow client comes from 127.0.0.2, everyone else from 127.0.0.3 (any
127.x address reaches a server on loopback; 127.0.0.1 is the trusted proxy's, not limited)."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from stichkit.server.guard import Counter

from .harness import Client, Server, run

SLOW, OTHER = "127.0.0.2", "127.0.0.3"
LIMIT, TIMEOUT = 10, 2.0


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d: Path = tmp_path_factory.mktemp("guarded")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "1",
               "--max-connections-per-client", str(LIMIT), "--request-timeout", str(TIMEOUT))  # fmt: skip
    s.start()
    yield s
    s.stop()


def half_sent(server: Server, head: bytes = b"GET /api/health HTTP/1.1\r\nHost: x\r\n") -> socket.socket:
    """A connection from the slow address that sends part of a request, and then nothing."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(SLOW, 0))
    s.sendall(head)
    return s


def closed_within(s: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before it closed the connection (None: still open after `seconds`)."""
    s.settimeout(seconds)
    got = b""
    try:
        while chunk := s.recv(4096):
            got += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return got


def other() -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=OTHER), timeout=5)


def test_half_sent_requests_time_out_and_nobody_else_waits(guarded: Server) -> None:
    slow = [half_sent(guarded) for _ in range(3 * LIMIT)]
    try:
        beyond = [closed_within(s, 1.0) for s in slow[LIMIT:]]
        assert all(x is not None for x in beyond), "connections beyond the limit are closed at once"
        started = time.monotonic()
        with other() as c:  # meanwhile everyone else is served as usual, over HTTP and WebSocket
            assert c.get(guarded.http + "/api/health").status_code == 200
        assert time.monotonic() - started < 2

        table = guarded.open_table("stichling", ["human", "bot:random"])["id"]

        async def watch() -> None:
            ws = Client(await websockets.connect(f"{guarded.ws}/ws/tables/{table}", local_addr=(OTHER, 0)), "other")
            assert (await ws.state())["seat"] is None
            await ws.close()

        run(watch())
        answers = [closed_within(s, TIMEOUT + 3) for s in slow[:LIMIT]]  # the half-sent heads time out
        assert all(a is not None and a.startswith(b"HTTP/1.1 408 ") for a in answers), answers[:2]
        assert b"did not arrive within 2 seconds" in (answers[0] or b"")
    finally:
        for s in slow:
            s.close()
    time.sleep(0.3)
    # the slow address's slots are free again
    with httpx.Client(transport=httpx.HTTPTransport(local_address=SLOW), timeout=5) as c:
        assert c.get(guarded.http + "/api/health").status_code == 200


def test_a_body_that_stops_arriving_is_dropped(guarded: Server) -> None:
    s = half_sent(guarded, b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                           b"content-length: 100\r\n\r\n{\"game\": ")  # fmt: skip
    try:
        started = time.monotonic()
        assert closed_within(s, TIMEOUT + 3) is not None
        assert time.monotonic() - started < TIMEOUT + 3
    finally:
        s.close()


def test_open_websockets_count_against_their_client(guarded: Server) -> None:
    table = guarded.open_table("stichling", ["human", "bot:random"])["id"]

    async def go() -> None:
        sockets = [await websockets.connect(f"{guarded.ws}/ws/tables/{table}", local_addr=(SLOW, 0))
                   for _ in range(LIMIT)]  # fmt: skip
        with pytest.raises((OSError, websockets.InvalidHandshake, EOFError, asyncio.TimeoutError)):
            await websockets.connect(f"{guarded.ws}/ws/tables/{table}", local_addr=(SLOW, 0), open_timeout=3)
        for ws in sockets:
            await ws.close()
        await asyncio.sleep(0.3)
        again = await websockets.connect(f"{guarded.ws}/ws/tables/{table}", local_addr=(SLOW, 0))
        await again.close()

    run(go())
    assert "holds 10 connections, the most one client may" in guarded.log.read_text()


def test_the_connection_count_forgets_an_address_that_left() -> None:
    """Each address counted (and warned about) is forgotten once its last connection ends, so
    many addresses coming and going leave nothing behind."""
    counter = Counter(limit=1, trusted=frozenset())
    for i in range(50):
        first, second = asyncio.BaseTransport(), asyncio.BaseTransport()
        address = f"10.0.{i}.1"
        assert counter.admit(first, address)
        assert not counter.admit(second, address)  # at its limit: refused, and warned about once
        counter.release(first)
        counter.release(second)  # never counted: nothing to release
    assert counter.open == {} and counter._warned == {} and counter._held == {}
