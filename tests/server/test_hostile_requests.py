"""Requests an attacker would send: each gets a clear answer and leaves no trace in the log.

Numbers too large for the database, JSON nested past the parser's depth, a chunked body larger
than allowed, handshakes with forged tokens, tokens with whitespace around them, and tokens sent
in the query string instead of the subprotocol.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from .harness import Client, Server, run, wait_until


def seated(server: Server, game: str = "stichling", seats: list[str] | None = None) -> tuple[str, str]:
    t = server.open_table(game, seats or ["human", "bot:random"])
    return t["id"], server.join(t["id"], "Anna")["token"]


async def handshake_status(server: Server, table: str, **connect: object) -> int:
    with pytest.raises(websockets.InvalidStatus) as e:
        async with websockets.connect(f"{server.ws}/ws/tables/{table}", **connect):  # type: ignore[arg-type]
            pass
    return int(e.value.response.status_code)


@pytest.mark.parametrize("route", ["record", "replay", "analysis"])
@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_a_game_number_too_large_for_the_database_is_a_clear_400(server: Server, route: str, number: int) -> None:
    table, _ = seated(server)
    r = server.get(f"/api/tables/{table}/{route}?game={number}")
    assert r.status_code == 400, r.text
    assert "game" in r.json()["error"] and "2147483647" in r.json()["error"]


def test_json_nested_past_the_parsers_depth_is_bad_json_and_the_connection_lives_on(server: Server) -> None:
    table, token = seated(server)

    async def go() -> None:
        c = await Client.open(server, table, token)
        await c.state()
        for text in ("[" * 30_000, '{"type": "act", "action": ' + "[" * 5000 + "]" * 5000 + "}"):
            await c.send(text)
            err = await c.until(lambda m: m["type"] == "error")
            assert err["code"] == "bad_json"
        await c.send({"type": "ping", "id": 7})
        assert (await c.until(lambda m: m["type"] == "pong"))["ref"] == 7
        await c.close()

    run(go())
    assert "RecursionError" not in server.log.read_text()


def test_an_oversized_chunked_body_is_refused_with_413(server: Server) -> None:
    def body() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024  # 100 KiB in chunks, no Content-Length

    r = httpx.post(server.http + "/api/tables", content=body(), headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text
    assert "at most 65536 bytes" in r.json()["error"]
    assert server.get("/api/health").status_code == 200


def test_a_refused_handshake_logs_no_error(server: Server) -> None:
    table, _ = seated(server)
    before = server.log.read_text()

    async def go() -> None:
        for forged in ("forged", "x" * 43, ""):
            assert await handshake_status(server, table, subprotocols=["stichkit", f"stichkit.token.{forged}"]) in (
                403,
                400,
            )
        assert await handshake_status(server, table + "?token=forged") == 403

    run(go())
    assert wait_until(lambda: server.get("/api/health").status_code == 200, 5)
    added = server.log.read_text()[len(before) :]
    assert "ERROR" not in added and "Traceback" not in added, added


def test_whitespace_around_a_token_is_ignored_alike_over_http_and_the_websocket(server: Server) -> None:
    for padded in ("  {}  ", "\t{}\n", " {}"):
        table, token = seated(server, seats=["human", "human"])
        server.join(table, "Ben")

        async def go(table: str = table, token: str = token, padded: str = padded) -> None:
            c = await Client.open(server, table, padded.format(token).replace("\n", "%0A").replace("\t", "%09")
                                  .replace(" ", "%20"), via="query")  # fmt: skip
            assert (await c.state())["seat"] == 0
            await c.close()

        run(go())
        # HTTP itself drops whitespace at a header's ends: what is left is between scheme and token
        bearer = "Bearer" + padded.format(token).rstrip().replace("\n", " ")
        r = server.post(f"/api/tables/{table}/leave", {}, headers={"Authorization": bearer})
        assert r.status_code == 200, r.text


def test_the_token_travels_in_a_subprotocol_and_the_query_form_still_works(server: Server) -> None:
    table, token = seated(server, seats=["human", "human"])
    server.join(table, "Ben")

    async def go() -> None:
        by_protocol = await Client.open(server, table, token)
        assert by_protocol.ws.subprotocol == "stichkit"
        assert (await by_protocol.state())["seat"] == 0
        by_query = await Client.open(server, table, token, via="query")
        assert (await by_query.state())["seat"] == 0
        spectator = await Client.open(server, table, subprotocols=["stichkit"])
        assert (await spectator.state())["seat"] is None
        for c in (by_protocol, by_query, spectator):
            await c.close()
        # the token protocol alone: the server could answer only by echoing the token
        assert await handshake_status(server, table, subprotocols=[f"stichkit.token.{token}"]) == 400

    run(go())


# -- a whole game's log ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that logs everything it can (debug: every header and frame)."""
    d: Path = tmp_path_factory.mktemp("chatty")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "1",
               log_level="debug")  # fmt: skip
    s.start()
    yield s
    s.stop()


async def play_out(server: Server, table: str, tokens: list[str], via: list[str], rematch: bool = False) -> None:
    """Every seat plays a random legal action at its turn until the game is over (then, with
    `rematch`, everyone asks for the next game, and it begins)."""
    rng = random.Random(7)
    clients = [await Client.open(server, table, tok, via=v) for tok, v in zip(tokens, via, strict=True)]

    async def seat(c: Client) -> None:
        while True:
            m = await c.until(lambda m: m["type"] == "state", 60)
            if m["table"]["status"] == "over":
                return
            if m["legal"]:
                await c.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})

    await asyncio.wait_for(asyncio.gather(*(seat(c) for c in clients)), 300)
    await clients[0].send({"type": "chat", "text": "gut gespielt"})
    if rematch:
        for c in clients:
            await c.send({"type": "rematch"})
        await clients[0].until(lambda m: m["type"] == "state" and m["game_no"] == 2)
    for c in clients:
        await c.close()


def test_a_whole_games_log_holds_no_token(chatty: Server) -> None:
    t = chatty.open_table("stichling", ["human", "human", "human"])
    tokens = [chatty.join(t["id"], name)["token"] for name in ("Anna", "Ben", "Cleo")]
    run(play_out(chatty, t["id"], tokens, ["protocol", "query", "protocol"]))
    # refused and forged: a token of this table at another, a token with whitespace
    other = chatty.open_table("stichling", ["human", "bot:random"])
    run(handshake_status(chatty, other["id"], subprotocols=["stichkit", f"stichkit.token.{tokens[0]}"]))
    assert chatty.post(f"/api/tables/{t['id']}/leave", {}, headers={"Authorization": f"Bearer {tokens[2]}"}).is_success
    log = chatty.log.read_text()
    assert "WebSocket /ws/tables/" in log and "TEXT" in log  # the log did record the handshakes and frames
    for token in tokens:
        assert token not in log
        assert token[:20] not in log
