"""At the table over the WebSocket: seats and tokens, refused moves, chat, presence, bad input."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sqlite3
from typing import Any

import pytest
import websockets

from stichkit.core import ILLEGAL_CODES
from stichkit.server.tokens import hash_token

from .harness import Client, Server, run


def table_with_players(server: Server, game: str = "stichling", n: int = 2, **fields: Any) -> tuple[str, list[str]]:
    t = server.open_table(game, ["human"] * n, **fields)
    return t["id"], [server.join(t["id"], f"Player{i}")["token"] for i in range(n)]


async def refused_at_handshake(server: Server, table: str, token: str | None) -> int:
    url = f"{server.ws}/ws/tables/{table}" + (f"?token={token}" if token is not None else "")
    with pytest.raises(websockets.InvalidStatus) as e:
        async with websockets.connect(url):
            pass
    return int(e.value.response.status_code)


def sqlite_path(server: Server) -> str:
    return server.db.removeprefix("sqlite:///")


def test_a_wrong_or_foreign_token_is_refused_and_sees_nothing(server: Server) -> None:
    a, (tok_a, _) = table_with_players(server)
    b, (tok_b, _) = table_with_players(server)

    async def go() -> None:
        assert await refused_at_handshake(server, a, "not-a-token") == 403
        assert await refused_at_handshake(server, a, tok_b) == 403  # a token of table b is worthless at a
        assert await refused_at_handshake(server, b, tok_a) == 403
        assert await refused_at_handshake(server, a, "") == 403
        assert await refused_at_handshake(server, "nosuchtable", None) == 404
        c = await Client.open(server, a, tok_a)
        m = await c.recv()
        assert m["type"] == "state" and m["seat"] == 0
        await c.close()

    run(go())


def test_tokens_are_stored_only_as_hashes_bound_to_their_table(server: Server) -> None:
    table, tokens = table_with_players(server, "jass", 4)
    with sqlite3.connect(sqlite_path(server)) as db:
        rows = db.execute("SELECT seat, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table,)).fetchall()
        dump = "\n".join(db.iterdump())
    for token in tokens:
        assert token not in dump
    assert [h for _, h in rows] == [hash_token(table, t) for t in tokens]
    assert hash_token(table, tokens[0]) != hash_token("othertable", tokens[0])
    assert hash_token(table, tokens[0]) != hashlib.sha256(tokens[0].encode()).hexdigest()


async def next_error(c: Client) -> dict[str, Any]:
    return await c.until(lambda m: m["type"] == "error")


def test_refused_moves_change_nothing(server: Server) -> None:
    table, (tok0, tok1) = table_with_players(server, "stichwahl", 2, options={"target": 5})
    waiting = server.open_table("stichling", ["human", "human"])["id"]
    early = server.join(waiting, "Early")["token"]

    async def go() -> None:
        w = await Client.open(server, waiting, early)
        await w.state()
        await w.send({"type": "act", "action": "G1", "version": 0, "id": 1})
        e = await next_error(w)
        assert (e["code"], e["ref"]) == ("waiting", 1) and "every seat" in e["reason"]
        await w.close()

        seats = [await Client.open(server, table, tok) for tok in (tok0, tok1)]
        spectator = await Client.open(server, table)
        states = [await c.state() for c in seats]
        await spectator.state()
        turn = states[0]["table"]["turn"]
        mover, other = seats[turn], seats[1 - turn]
        legal = states[turn]["legal"]
        assert legal and states[1 - turn]["legal"] == []
        v = states[0]["version"]
        tries = [
            (mover, {"type": "act", "action": legal[0], "version": v + 1}, "stale", "not the current version"),
            (mover, {"type": "act", "action": legal[0], "version": v - 1}, "stale", "not the current version"),
            (mover, {"type": "act", "action": legal[0], "version": v, "game": 2}, "stale", "current game 1"),
            (other, {"type": "act", "action": legal[0], "version": v}, "not_your_turn", f"seat {turn}'s turn"),
            (spectator, {"type": "act", "action": legal[0], "version": v}, "spectator", "spectators cannot act"),
            (mover, {"type": "act", "action": "Z99", "version": v}, "illegal", "'Z99' is not a stichwahl action"),
        ]
        for c, msg, code, reason in tries:
            await c.send({**msg, "id": "try"})
            e = await next_error(c)
            assert e["code"] == code and reason in e["reason"] and e["ref"] == "try", (msg, e)
            if code == "illegal":  # the engine's own code and params beside its reason
                assert (e["reason_code"], e["reason_params"]) == ("unknown_action", {"action": "'Z99'"})
            else:
                assert "reason_code" not in e and "reason_params" not in e
        hand = states[turn]["view"]["hand"]
        not_legal = [card for card in hand if card not in legal]
        if not_legal:  # a card of the hand that the rules refuse now: the engine's reason
            await mover.send({"type": "act", "action": not_legal[0], "version": v})
            e = await next_error(mover)
            assert e["code"] == "illegal" and e["reason"]
            assert e["reason_code"] in ILLEGAL_CODES and isinstance(e["reason_params"], dict)
        # The first bonus card named from another seat's hand: "not_held", with the card and the seat.
        assert states[turn]["view"]["phase"] == "first_bonus"
        other_card = states[1 - turn]["view"]["hand"][0]
        await mover.send({"type": "act", "action": f"bonus:{other_card}", "version": v})
        e = await next_error(mover)
        assert (e["code"], e["reason_code"], e["reason_params"]) == ("illegal", "not_held",
                                                                     {"card": other_card, "seat": turn})  # fmt: skip
        info = server.get(f"/api/tables/{table}").json()
        assert info["version"] == v and info["turn"] == turn
        await asyncio.sleep(0.2)
        for c in (*seats, spectator):
            assert [m["version"] for m in c.states()] == [v], "a refused move sent a new state"

        # Play to the end, then a move after the end is refused too.
        async def play(c: Client, seat: int) -> None:
            m = c.last_state()
            while m["table"]["status"] != "over":
                if m["legal"]:
                    await c.send({"type": "act", "action": random.choice(m["legal"]), "version": m["version"]})
                m = await c.state()

        await asyncio.gather(play(seats[0], 0), play(seats[1], 1))
        final = seats[0].last_state()
        await seats[0].send({"type": "act", "action": legal[0], "version": final["version"]})
        e = await next_error(seats[0])
        assert e["code"] == "over" and e["reason"] == "the game is over"
        assert server.get(f"/api/tables/{table}").json()["version"] == final["version"]
        record = server.get(f"/api/tables/{table}/record").json()
        assert len([m for m in record["moves"] if "action" in m]) == final["version"]
        for c in (*seats, spectator):
            await c.close()

    run(go())


def test_bad_messages_get_errors_and_the_table_goes_on(server: Server) -> None:
    table, (tok0, tok1) = table_with_players(server)

    async def go() -> None:
        c = await Client.open(server, table, tok0)
        await c.state()
        cases: list[tuple[Any, str, str]] = [
            ("{not json", "bad_json", "JSON object"),
            ("[1, 2]", "bad_json", "JSON object"),
            ('"act"', "bad_json", "JSON object"),
            ({"type": "dance"}, "unknown_type", "act, chat, rematch, reclaim, ping"),
            ({"no": "type"}, "unknown_type", "unknown message type"),
            ({"type": "act", "action": "G1"}, "bad_message", "version: Field required"),
            ({"type": "act", "action": "G1", "version": "0"}, "bad_message", "version"),
            ({"type": "act", "action": 5, "version": 0}, "bad_message", "action"),
            ({"type": "act", "action": "x" * 65, "version": 0}, "bad_message", "at most 64 characters"),
            ({"type": "chat", "text": ""}, "bad_message", "text: must not be empty"),
            ({"type": "chat", "text": "x" * 501}, "bad_message", "text: at most 500 characters"),
            ({"type": "chat", "text": "a\x00b"}, "bad_message", "printable"),
            ({"type": "chat"}, "bad_message", "text"),
            ({"type": "reclaim"}, "nothing_to_reclaim", "no bot plays your seat"),
            ({"type": "rematch"}, "not_over", "once the game is over"),
            (b"\x00\x01binary", "bad_json", "text frames"),
        ]
        for msg, code, reason in cases:
            await c.send(msg)
            e = await next_error(c)
            assert e["code"] == code and reason in e["reason"], (msg, e)
        await c.send({"type": "ping", "id": "p1"})
        assert (await c.until(lambda m: m["type"] == "pong"))["ref"] == "p1"

        # A 10 MB message closes that connection; nobody else notices.
        big = await Client.open(server, table, tok1)
        await big.state()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await big.send("x" * (10 * 1024 * 1024))
            await big.until(lambda m: False, timeout=20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

        # A flood: errors first, then a closed connection.
        flood = await Client.open(server, table)
        await flood.state()
        for _ in range(400):
            await flood.send({"type": "ping"})
        with pytest.raises(websockets.ConnectionClosed):
            await flood.until(lambda m: False, timeout=20)
        assert flood.closed is not None and flood.closed[0] == 4429
        codes = [m.get("code") for m in flood.msgs if m["type"] == "error"]
        assert codes and set(codes) == {"flood"}
        # At most 5 flood errors in a row: on a slow machine the budget refills while the 400
        # pings go out, so an allowed ping (its pong) may start a new run of errors.
        runs = "".join("e" if m["type"] == "error" else "p" for m in flood.msgs if m["type"] in ("error", "pong"))
        assert max(len(run) for run in runs.split("p")) <= 5, runs

        # The table and the server go on: the seat to move still plays.
        state = c.last_state()
        mover = c if state["legal"] else await Client.open(server, table, tok1)
        s = state if state["legal"] else await mover.state()
        await mover.send({"type": "act", "action": s["legal"][0], "version": s["version"]})
        after = await mover.state(version=s["version"] + 1)
        assert after["last"]["by"] == "human"
        assert server.get("/api/health").json()["ok"] is True

    run(go())


def test_chat_reaches_everyone_and_is_kept(server: Server) -> None:
    table, (tok0, tok1) = table_with_players(server)

    async def go() -> None:
        a = await Client.open(server, table, tok0)
        s = await Client.open(server, table)
        history = await a.until(lambda m: m["type"] == "chat_history")
        assert history["messages"] == []
        await a.send({"type": "chat", "text": "  Grüezi   <b>mitenand</b> "})
        for c in (a, s):
            m = await c.until(lambda m: m["type"] == "chat")
            assert (m["seat"], m["name"], m["text"]) == (0, "Player0", "Grüezi <b>mitenand</b>")
        await s.send({"type": "chat", "text": "hello"})
        e = await next_error(s)
        assert e["code"] == "spectator"
        b = await Client.open(server, table, tok1)
        history = await b.until(lambda m: m["type"] == "chat_history")
        assert [m["text"] for m in history["messages"]] == ["Grüezi <b>mitenand</b>"]
        for c in (a, b, s):
            await c.close()

    run(go())


def test_presence_shows_per_seat(server: Server) -> None:
    table, (tok0, tok1) = table_with_players(server)

    async def go() -> None:
        a = await Client.open(server, table, tok0)
        first = await a.state()
        assert [x["connected"] for x in first["table"]["seats"]] == [True, False]
        assert first["table"]["seats"][1]["away_since"] is not None
        b = await Client.open(server, table, tok1)
        m = await a.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["connected"])
        assert m["table"]["seats"][1]["away_since"] is None
        s = await Client.open(server, table)
        m = await a.until(lambda m: m["type"] == "table" and m["table"]["spectators"] == 1)
        await b.close()
        m = await a.until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
        assert m["table"]["seats"][1]["away_since"] is not None
        assert server.get(f"/api/tables/{table}").json()["seats"][1]["connected"] is False
        await a.close()
        await s.close()

    run(go())


def test_two_connections_of_one_seat_both_get_everything(server: Server) -> None:
    table, tokens = table_with_players(server)

    async def go() -> None:
        tabs = [await Client.open(server, table, tokens[0]) for _ in range(2)]
        other = await Client.open(server, table, tokens[1])
        s0 = await tabs[0].state()
        await tabs[1].state()
        mover = tabs[0] if s0["legal"] else other
        st = s0 if s0["legal"] else await other.state()
        await mover.send({"type": "act", "action": st["legal"][0], "version": st["version"]})
        for tab in tabs:
            m = await tab.state(version=st["version"] + 1)
            assert m["seat"] == 0
        for c in (*tabs, other):
            await c.close()

    run(go())


def test_bots_play_a_whole_game_and_its_record_replays(server: Server) -> None:
    import stichkit

    # the search bot gets a short clock: a bot with only an iteration budget is given the server's
    # --max-bot-time (5 s) as its clock, and its moves are paced to that clock (pacing.py), which
    # made this game take two minutes
    t = server.open_table("stichwahl", ["bot:heuristic", "bot:random", "bot:ismcts:iterations=30:time=0.2"],
                          options={"target": 8})  # fmt: skip
    assert t["status"] == "playing"

    async def go() -> dict[str, Any]:
        s = await Client.open(server, t["id"])
        return await s.state(timeout=120, status="over")

    final = run(go())
    assert {m["by"] for m in [final["last"]]} == {"bot"}
    record = server.get(f"/api/tables/{t['id']}/record").json()
    state = stichkit.replay(record)
    assert state.is_terminal() and record["result"] == final["table"]["result"]
    replay = server.get(f"/api/tables/{t['id']}/replay").json()
    frames = replay["frames"]
    assert [f["version"] for f in frames] == list(range(final["version"] + 1))
    assert frames[-1]["view"] == state.view(None)
    assert frames[-1]["hands"] == [state.view(s)["hand"] for s in range(3)]
    assert [f["action"] for f in frames[1:]] == [m["action"] for m in record["moves"] if "action" in m]
    assert json.loads(json.dumps(replay)) == server.get(f"/api/tables/{t['id']}/replay?game=1").json()
