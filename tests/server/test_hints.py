"""Hints: a seat asks, at its turn, what the game's hint bot would play (pimc in Jass, heuristic
elsewhere, as `hint` in the terminal). The answer goes to that connection alone, changes nothing,
and is refused with a reason wherever a move would be, or where the table plays without hints."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from stichkit import bots

from .harness import Client, Server, run
from .inprocess import Listener, running

JASS = ["human", "bot:random", "bot:random", "bot:random"]


async def my_turn(client: Client) -> dict[str, Any]:
    return await client.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=60)


def is_hint_or_error(m: dict[str, Any]) -> bool:
    return m["type"] in ("hint", "error")


def test_a_seat_gets_a_legal_hint_at_its_turn_told_to_it_alone(server: Server) -> None:
    assert bots.hint_bot("jass") == ("pimc", {"time": 0.5})
    assert bots.hint_bot("coiffeur") == ("pimc", {"time": 0.5})  # as strong as ismcts there, and quicker
    assert bots.hint_bot("differenzler") == ("ismcts", {"time": 0.5})
    t = server.open_table("jass", JASS, options={"target": 300})
    token = server.join(t["id"], "Ida")["token"]

    async def go() -> None:
        me = await Client.open(server, t["id"], token)
        watcher = await Client.open(server, t["id"])
        m = await my_turn(me)
        await me.send({"type": "hint", "version": m["version"], "id": 7})
        hint = await me.until(is_hint_or_error, timeout=60)
        assert hint == {"type": "hint", "game": m["game_no"], "version": m["version"], "action": hint["action"],
                        "ref": 7}  # fmt: skip
        assert hint["action"] in m["legal"]
        # asked again at the same version: the same answer, at once
        await me.send({"type": "hint", "version": m["version"]})
        again = await me.until(is_hint_or_error, timeout=5)
        assert again["type"] == "hint" and again["action"] == hint["action"]
        # nobody else hears of it, and the table has not moved
        await watcher.drain()
        assert not [x for x in watcher.msgs if x["type"] == "hint"]
        info = server.get(f"/api/tables/{t['id']}").json()
        assert info["version"] == m["version"]
        # the hint is a move like any other
        await me.send({"type": "act", "action": hint["action"], "version": m["version"]})
        after = await me.state(version=m["version"] + 1)
        # a move made while a hint is being worked out is not held up by it (pimc thinks 0.5 s);
        # after choosing trump, the forehand leads at once
        m = after if after["legal"] else await my_turn(me)
        while len(m["legal"]) < 2:  # one legal card: pimc answers at once, without thinking
            await me.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
            m = await my_turn(me)
        await me.send({"type": "hint", "version": m["version"]})
        await me.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
        first = await me.until(lambda x: x["type"] == "hint" or (x["type"] == "state" and x["version"] > m["version"]))
        assert first["type"] == "state", first
        late = await me.until(is_hint_or_error, timeout=60)
        assert late["type"] == "hint" and late["version"] == m["version"]  # the page sees it is for a past turn
        await me.close()
        await watcher.close()

    run(go())


def test_a_hint_is_refused_where_a_move_would_be_and_where_hints_are_off(server: Server) -> None:
    t = server.open_table("stichwahl", ["human", "human"], options={"target": 30})
    tokens = [server.join(t["id"], n)["token"] for n in ("Ida", "Jon")]
    quiet = server.open_table("stichwahl", ["human", "bot:heuristic"], options={"target": 30}, hints=False)
    alone = server.join(quiet["id"], "Kai")["token"]
    assert server.get(f"/api/tables/{quiet['id']}").json()["settings"]["hints"] is False

    async def refused(client: Client, msg: dict[str, Any]) -> str:
        await client.send(msg)
        answer = await client.until(is_hint_or_error, timeout=20)
        assert answer["type"] == "error", answer
        return str(answer["code"])

    async def go() -> None:
        players = [await Client.open(server, t["id"], tok) for tok in tokens]
        first = await players[0].state()
        mover = 0 if first["legal"] else 1
        m = first if mover == 0 else await players[1].state()
        waiting, moving = players[1 - mover], players[mover]
        assert await refused(waiting, {"type": "hint", "version": m["version"]}) == "not_your_turn"
        assert await refused(moving, {"type": "hint", "version": m["version"] + 1}) == "stale"
        assert await refused(moving, {"type": "hint"}) == "bad_message"
        assert await refused(moving, {"type": "hint", "version": "1"}) == "bad_message"
        watcher = await Client.open(server, t["id"])
        assert await refused(watcher, {"type": "hint", "version": m["version"]}) == "spectator"
        # two at once: the second waits for nothing, it is told that one is being worked out
        await moving.send({"type": "hint", "version": m["version"]})
        await moving.send({"type": "hint", "version": m["version"]})
        answers = [await moving.until(is_hint_or_error) for _ in range(2)]
        assert sorted(a["type"] for a in answers) == ["error", "hint"]
        assert [a["code"] for a in answers if a["type"] == "error"] == ["busy"]
        assert next(a for a in answers if a["type"] == "hint")["action"] in m["legal"]
        kai = await Client.open(server, quiet["id"], alone)
        mk = await my_turn(kai)
        assert await refused(kai, {"type": "hint", "version": mk["version"]}) == "no_hints"
        for c in [*players, watcher, kai]:
            await c.close()

    run(go())


def test_the_hint_bot_keeps_to_the_servers_clock_and_a_failure_frees_the_connection(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path, max_bot_time=0.2) as (hub, t):
            # an operator's cap below the hint bot's half second: the hint bot thinks 0.2 s
            assert dict(hub.hint_bot("jass").params)["time"] == "0.2"
            assert hub.hint_bot("stichwahl").spec.name == "ismcts"
            assert dict(hub.hint_bot("stichwahl").params)["time"] == "0.2"
            for name in ("Ida", "Jon"):
                await hub.join(t, name, None)
            assert t.status == "playing" and t.turn is not None
            asker = Listener(t.turn)

            async def broken(*args: Any) -> str:
                raise RuntimeError("the workers are gone")

            hub.bots.decide_record = broken  # type: ignore[method-assign]
            await hub.hint(t, asker, t.version, None, None)  # type: ignore[arg-type]
            await asker.hint_task
            assert asker.sent[-1]["code"] == "unavailable" and asker.hint_task is None
            # the same seat in a second tab while the first one's hint is worked out: busy too (a
            # seat keeps at most one bot worker busy), then the answer once it is known
            go_on = asyncio.Event()

            async def slow(bot: Any, record: Any, seat: int, who: str) -> str:
                await go_on.wait()
                return str(t.state.legal_actions()[0].text)

            hub.bots.decide_record = slow  # type: ignore[method-assign]
            tab = Listener(asker.seat)
            await hub.hint(t, asker, t.version, None, None)  # type: ignore[arg-type]
            await hub.hint(t, tab, t.version, None, None)  # type: ignore[arg-type]
            assert tab.sent[-1]["code"] == "busy" and tab.hint_task is None
            go_on.set()
            await asker.hint_task
            assert asker.sent[-1]["type"] == "hint"
            await hub.hint(t, tab, t.version, None, None)  # type: ignore[arg-type]
            assert tab.sent[-1] == asker.sent[-1] and not t.hints_due
            del hub.bots.decide_record  # the real one: a new question is worked out by the hint bot
            t.last_hint = None
            await hub.hint(t, asker, t.version, None, None)  # type: ignore[arg-type]
            await asker.hint_task
            assert asker.sent[-1]["type"] == "hint"
            assert asker.sent[-1]["action"] in [a.text for a in t.state.legal_actions()]

    run(go())
