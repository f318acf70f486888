"""Taking a move back at a browser table: a player undoes its last decision and every later one,
at once when alone with bots, once the other players agree otherwise. Stored like a move (the
newer actions deleted, the table's line one on) and told to every connection as a state of the
earlier version."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import stichkit

from .harness import Client, Server, run
from .inprocess import Listener, running

JASS = ["human", "bot:random", "bot:random", "bot:random"]


async def my_turn(client: Client, timeout: float = 60) -> dict[str, Any]:
    return await client.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=timeout)


async def refused(client: Client, msg: dict[str, Any]) -> str:
    await client.send(msg)
    error = await client.until(lambda m: m["type"] == "error", timeout=10)
    return str(error["code"])


def test_a_player_alone_with_bots_takes_a_move_back_and_plays_on_to_the_end(server: Server) -> None:
    t = server.open_table("jass", JASS, options={"target": 300, "first_forehand": 0})
    token = server.join(t["id"], "Ida")["token"]

    async def go() -> None:
        me = await Client.open(server, t["id"], token)
        watcher = await Client.open(server, t["id"])
        m = await my_turn(me)
        assert m["version"] == 0  # my trump choice comes first: nothing of mine to take back yet
        # the table info says whose seats have a move to take back (the page offers it by this)
        assert [x["moved"] for x in m["table"]["seats"]] == [False] * 4
        assert await refused(me, {"type": "takeback", "version": 0}) == "nothing_to_take_back"
        # my decision, then the bots' replies, until it is my turn again
        await me.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
        later = await my_turn(me)
        assert later["version"] > m["version"]
        assert later["table"]["seats"][0]["moved"] is True
        await me.send({"type": "takeback", "version": later["version"], "game": later["game_no"], "id": "tb"})
        back = await me.state(version=m["version"])
        assert back["last"] == {"seat": 0, "version": m["version"], "by": "takeback",
                                "undone": later["version"] - m["version"]}  # fmt: skip
        assert back["line"] == m["line"] + 1 and back["view"] == m["view"] and back["legal"] == m["legal"]
        assert [x["moved"] for x in back["table"]["seats"]] == [False] * 4
        seen = await watcher.until(lambda x: x["type"] == "state" and x["last"] and x["last"]["by"] == "takeback")
        before = [x for x in watcher.states() if x["version"] == m["version"] and x["line"] == m["line"]]
        assert seen["view"] == before[0]["view"] and seen["legal"] == []
        assert server.get(f"/api/tables/{t['id']}").json()["version"] == m["version"]
        # the old line's version is stale now, like any other
        assert await refused(me, {"type": "act", "action": later["legal"][0], "version": later["version"]}) == "stale"
        # another decision this time, then on to the end of the game
        chosen = back["legal"][-1]
        await me.send({"type": "act", "action": chosen, "version": back["version"]})
        while True:
            x = await me.until(lambda y: y["type"] == "state" and (bool(y["legal"]) or y["table"]["status"] == "over"))
            if x["table"]["status"] == "over":
                break
            await me.send({"type": "act", "action": x["legal"][0], "version": x["version"]})
        await me.close()
        await watcher.close()
        record = server.get(f"/api/tables/{t['id']}/record").json()
        done = stichkit.replay(record)
        assert done.is_terminal()
        mine = [x["action"] for x in record["moves"] if x.get("seat") == 0]
        taken = [a.text for s, a in stichkit.replay(record).history() if s == 0]
        assert mine == taken and chosen in mine
        replay = server.get(f"/api/tables/{t['id']}/replay").json()
        assert [f["version"] for f in replay["frames"]] == list(range(len(replay["frames"])))
        # the game says who took moves back, and how often
        assert record["takebacks"] == replay["takebacks"] == [1, 0, 0, 0]
        assert server.get(f"/api/tables/{t['id']}/games").json()["games"][0]["takebacks"] == [1, 0, 0, 0]

    run(go())


async def takeback_info(client: Client, pred: Any) -> dict[str, Any] | None:
    """The table's `takeback` from the first message (state or table) that satisfies `pred`."""
    m = await client.until(lambda x: x["type"] in ("state", "table") and pred(x["table"]["takeback"]), timeout=10)
    info: dict[str, Any] | None = m["table"]["takeback"]
    return info


def test_with_another_player_a_takeback_waits_for_their_yes(server: Server) -> None:
    t = server.open_table("stichling", ["human", "human"])
    ida = server.join(t["id"], "Ida")["token"]

    async def go() -> None:
        first = await Client.open(server, t["id"], ida)
        m = await first.state()
        assert await refused(first, {"type": "takeback", "version": m["version"]}) == "not_playing"  # waiting
        ole = server.join(t["id"], "Ole")["token"]
        second = await Client.open(server, t["id"], ole)
        watcher = await Client.open(server, t["id"])
        await first.drain()
        await second.drain()
        mover, other = (first, second) if first.last_state()["legal"] else (second, first)
        m = mover.last_state()
        me = m["seat"]
        assert m["table"]["takeback"] is None
        await mover.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
        v = m["version"] + 1
        await mover.state(version=v)
        assert await refused(other, {"type": "takeback", "version": v}) == "nothing_to_take_back"
        assert await refused(mover, {"type": "takeback_answer", "accept": True}) == "no_takeback"
        # asking: nothing is undone yet, everyone sees the request
        await mover.send({"type": "takeback", "version": v, "game": m["game_no"]})
        asked = {"seat": me, "to": m["version"], "undone": 1, "votes": [], "needed": [1 - me], "declined": None}
        for c in (mover, other, watcher):
            info = await takeback_info(c, lambda x: x is not None)
            assert info is not None and info.pop("asked_at") > 0 and info == asked
        assert server.get(f"/api/tables/{t['id']}").json()["version"] == v
        assert await refused(mover, {"type": "takeback", "version": v}) == "takeback_open"
        assert await refused(mover, {"type": "takeback_answer", "accept": True}) == "own_takeback"
        assert await refused(watcher, {"type": "takeback_answer", "accept": True}) == "spectator"
        assert await refused(other, {"type": "takeback_answer", "accept": "yes"}) == "bad_message"
        # a no closes it, and nothing is undone
        await other.send({"type": "takeback_answer", "accept": False})
        assert (await takeback_info(mover, lambda x: x and x["declined"] is not None))["declined"] == 1 - me  # type: ignore[index]
        assert server.get(f"/api/tables/{t['id']}").json()["version"] == v
        # asked again, withdrawn by the asker
        await mover.send({"type": "takeback", "version": v})
        await takeback_info(other, lambda x: x and x["declined"] is None)
        await mover.send({"type": "takeback_answer", "accept": False})
        assert (await takeback_info(other, lambda x: x and x["declined"] is not None))["declined"] == me  # type: ignore[index]
        # asked again; the other player moves meanwhile (the game goes on), then agrees:
        # both moves are undone, back to before the asker's
        await mover.send({"type": "takeback", "version": v})
        await takeback_info(other, lambda x: x and x["declined"] is None)
        o = other.last_state()
        assert o["version"] == v and o["legal"]
        await other.send({"type": "act", "action": o["legal"][0], "version": v})
        assert (await takeback_info(mover, lambda x: x and x["undone"] == 2))["votes"] == []  # type: ignore[index]
        await other.send({"type": "takeback_answer", "accept": True})
        for c in (mover, other, watcher):
            back = await c.until(lambda x: x["type"] == "state" and x["last"] and x["last"]["by"] == "takeback")
            assert back["version"] == m["version"] and back["line"] == m["line"] + 1
            assert back["last"] == {"seat": me, "version": m["version"], "by": "takeback", "undone": 2}
            assert back["table"]["takeback"] is None
        assert mover.last_state()["view"] == m["view"] and mover.last_state()["legal"] == m["legal"]
        counted = server.get(f"/api/tables/{t['id']}/games").json()["games"][0]["takebacks"]
        assert counted == [1 if s == me else 0 for s in range(2)]  # the asker's, once: the no's count nothing
        assert await refused(other, {"type": "takeback_answer", "accept": True}) == "no_takeback"
        assert await refused(mover, {"type": "takeback", "version": "1"}) == "bad_message"
        assert await refused(mover, {"type": "takeback"}) == "bad_message"
        for c in (first, second, watcher):
            await c.close()

    run(go())


def test_a_takeback_needs_every_other_player_and_leaving_answers_no(server: Server) -> None:
    t = server.open_table("stichling", ["human"] * 3, options={"first_player": 0})
    tokens = [server.join(t["id"], name, i)["token"] for i, name in enumerate(("Ida", "Ole", "Uwe"))]

    async def go() -> None:
        ida, ole, uwe = [await Client.open(server, t["id"], tok) for tok in tokens]
        m = await my_turn(ida)
        await ida.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
        v = m["version"] + 1
        await ida.send({"type": "takeback", "version": v})
        await takeback_info(uwe, lambda x: x is not None)
        await ole.send({"type": "takeback_answer", "accept": True})
        await ole.send({"type": "takeback_answer", "accept": True})  # said already: changes nothing
        r = await takeback_info(uwe, lambda x: x is not None and x["votes"] == [1])
        assert r is not None and r.pop("asked_at") > 0
        assert r == {"seat": 0, "to": m["version"], "undone": 1, "votes": [1], "needed": [1, 2], "declined": None}
        assert server.get(f"/api/tables/{t['id']}").json()["version"] == v  # Uwe has not answered
        # Uwe leaves instead of answering: that is a no, or the request would wait for good
        left = server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {tokens[2]}"})
        assert left.status_code == 200
        assert (await takeback_info(ida, lambda x: x is not None and x["declined"] is not None))["declined"] == 2  # type: ignore[index]
        assert server.get(f"/api/tables/{t['id']}").json()["version"] >= v  # nothing undone
        for c in (ida, ole, uwe):
            await c.close()

    run(go())


def test_a_table_without_takebacks_refuses_them(server: Server) -> None:
    t = server.open_table("jass", JASS, options={"target": 300, "first_forehand": 0}, takebacks=False)
    assert server.get(f"/api/tables/{t['id']}").json()["settings"]["takebacks"] is False
    token = server.join(t["id"], "Ida")["token"]

    async def go() -> None:
        me = await Client.open(server, t["id"], token)
        m = await my_turn(me)
        await me.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
        later = await my_turn(me)
        assert await refused(me, {"type": "takeback", "version": later["version"]}) == "no_takebacks"
        assert server.get(f"/api/tables/{t['id']}").json()["version"] == later["version"]
        await me.close()

    run(go())
    assert server.post("/api/tables", {"game": "jass", "seats": JASS, "takebacks": "no"}).status_code == 400


def test_a_takeback_stops_the_bot_thinking_and_survives_a_restart(tmp_path: Path) -> None:
    seats = ("human", "bot:random", "bot:ismcts:time=1", "bot:ismcts:time=1")

    async def first_life() -> tuple[str, int, int, list[str]]:
        async with running(tmp_path, game="jass", seats=seats, options={"target": 300}, bot_delay=0.0) as (hub, t):
            await hub.join(t, "Ida", 0)
            me = Listener(0)
            made = False
            # My decisions until a slow bot (ismcts, 1 s) is thinking after one of them. The table
            # is read under its lock: a bot's move is in the state while it is being stored.
            while True:
                async with t.lock:
                    turn, version, legal, thinking = t.turn, t.version, t.legal_for(0), t.pending
                if turn == 0:
                    await hub.act(t, me, legal[0], version, None, None)  # type: ignore[arg-type]
                    made = True
                elif made and turn in (2, 3) and thinking is not None:
                    break
                await asyncio.sleep(0.01)
            before = version
            await hub.take_back(t, me, version, t.game_no, None)  # type: ignore[arg-type]
            await asyncio.sleep(0.05)  # the cancelled bot task ends at its next step
            assert thinking is not None and thinking.done() and t.pending is not thinking
            assert t.turn == 0 and t.line == 1 and t.version < before
            errors = [m for m in me.sent if m["type"] == "error"]
            assert not errors, errors
            await asyncio.sleep(1.5)  # the cancelled bot's answer, if it comes, changes nothing
            assert t.turn == 0 and t.line == 1
            kept = [a.text for _, a in t.state.history()]
            return t.id, t.version, t.line, kept

    table_id, version, line, kept = run(first_life())

    async def second_life() -> None:
        async with running(tmp_path, table=table_id, bot_delay=0.0) as (hub, t):
            assert (t.version, t.line, t.turn) == (version, line, 0)
            assert [a.text for _, a in t.state.history()] == kept
            me = Listener(0)
            await hub.act(t, me, t.legal_for(0)[0], t.version, None, None)  # type: ignore[arg-type]
            assert t.version == version + 1
            deadline = time.time() + 30
            while t.turn != 0 and time.time() < deadline:  # the bots play on after the restart
                await asyncio.sleep(0.05)
            assert t.turn == 0 and t.version > version + 1

    run(second_life())
