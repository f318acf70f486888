"""When people leave: grace time, bot takeover for the hand or for good, taking the seat back,
leaving for good, the move timer; and after a game, the rematch with the seats rotated."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
import websockets

import stichkit

from .harness import Client, Server, run

Pred = Callable[[dict[str, Any]], bool]


async def play_until(c: Client, done: Pred, rng: random.Random, timeout: float = 60) -> dict[str, Any]:
    """Play the client's seat at random (when it may) until a state satisfies `done`."""
    m = c.last_state()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done(m):
        if m["legal"]:
            await c.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})
        m = await c.state(timeout=deadline - loop.time())
    return m


def seat_of(m: dict[str, Any], i: int) -> dict[str, Any]:
    return dict(m["table"]["seats"][i])


def hand(m: dict[str, Any]) -> int:
    return int(m["view"]["deal_number"])


def open_two(server: Server, **fields: Any) -> tuple[str, list[str]]:
    t = server.open_table("stichling", ["human", "human"], **fields)
    return t["id"], [server.join(t["id"], name)["token"] for name in ("Ueli", "Vreni")]


async def taken_over(
    server: Server, table: str, tok0: str, tok1: str, rng: random.Random
) -> tuple[Client, dict[str, Any]]:
    """Both players connect, Vreni's laptop closes, Ueli plays on until a bot has her seat: his
    client and the first state that shows the takeover."""
    a = await Client.open(server, table, tok0)
    b = await Client.open(server, table, tok1)
    await a.state()
    await b.state()
    await b.close()
    m = await play_until(a, lambda m: seat_of(m, 1)["takeover"] is not None, rng)
    return a, m


def test_when_the_last_seat_is_taken_every_connection_gets_the_state_at_once(server: Server) -> None:
    """Two seated players and two spectators wait at the table; the third player joins without
    connecting. Everyone connected gets a `state` of the running game at once, the player to move
    with its legal actions, without sending anything."""
    t = server.open_table("stichling", ["human", "human", "human"], options={"first_player": 0})
    tokens = [server.join(t["id"], name)["token"] for name in ("Anna", "Beat")]

    async def go() -> None:
        seated = [await Client.open(server, t["id"], tok) for tok in tokens]
        watchers = [await Client.open(server, t["id"]) for _ in range(2)]
        everyone = [*seated, *watchers]
        for c in everyone:
            first = await c.state()
            assert first["table"]["status"] == "waiting" and first["legal"] == []
            await c.drain(0.2)
        server.join(t["id"], "Chasper")
        playing = lambda m: m["type"] == "state" and m["table"]["status"] == "playing"
        got = await asyncio.gather(*(c.until(playing, timeout=5) for c in everyone))
        assert [m["seat"] for m in got] == [0, 1, None, None]
        assert got[0]["table"]["turn"] == 0 and got[0]["legal"] and got[0]["legal"] == got[0]["view"]["legal_actions"]
        assert all(m["legal"] == [] for m in got[1:]) and all(m["version"] == 0 for m in got)
        assert [s["name"] for s in got[2]["table"]["seats"]] == ["Anna", "Beat", "Chasper"]
        for c in everyone:
            await c.close()

    run(go())


def test_an_absent_player_is_replaced_for_the_hand_and_gets_the_seat_back(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, takeover="hand", grace=1)
    rng = random.Random(1)

    async def go() -> None:
        a, m = await taken_over(server, table, tok0, tok1, rng)
        assert seat_of(m, 1)["takeover"] == {"mode": "hand", "bot": "heuristic"}
        assert seat_of(m, 1)["connected"] is False
        m = await play_until(a, lambda m: m["last"] is not None and m["last"]["by"] == "takeover", rng)
        assert m["last"]["seat"] == 1
        taken_in = hand(m)

        # She comes back mid-hand: the bot keeps the seat, her moves are refused, until she reclaims it.
        b = await Client.open(server, table, tok1)
        st = await b.state()
        assert st["legal"] == [] and seat_of(st, 1)["takeover"] is not None
        await b.send({"type": "act", "action": "G1", "version": st["version"], "id": 9})
        e = await b.until(lambda m: m["type"] == "error")
        assert e["code"] in ("takeover", "not_your_turn", "stale")
        await b.send({"type": "reclaim"})
        back = await b.until(lambda m: m["type"] == "state" and seat_of(m, 1)["takeover"] is None)
        assert back["seat"] == 1

        # Both play on; no bot moves for her any more.
        async def both(c: Client, stop: Pred) -> dict[str, Any]:
            return await play_until(c, stop, rng)

        target = back["version"] + 12
        results = await asyncio.gather(
            both(a, lambda m: m["version"] >= target), both(b, lambda m: m["version"] >= target)
        )
        assert all(m["last"]["by"] == "human" for m in results)
        assert taken_in >= 0
        await a.close()
        await b.close()

    run(go())


def test_hand_takeover_ends_by_itself_when_the_next_hand_begins(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, takeover="hand", grace=0.5)
    rng = random.Random(2)

    async def go() -> None:
        a, m = await taken_over(server, table, tok0, tok1, rng)
        taken_in = hand(m)
        b = await Client.open(server, table, tok1)  # back, but without reclaiming
        await b.state()
        m = await play_until(a, lambda m: hand(m) > taken_in, rng)
        assert seat_of(m, 1)["takeover"] is None, "the seat is hers again from the next hand on"
        await a.close()
        await b.close()

    run(go())


def test_game_takeover_keeps_the_seat_across_hands(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, takeover="game", grace=0.5)
    rng = random.Random(3)

    async def go() -> None:
        a, m = await taken_over(server, table, tok0, tok1, rng)
        assert seat_of(m, 1)["takeover"]["mode"] == "game"
        b = await Client.open(server, table, tok1)
        await b.state()
        start = hand(m)
        m = await play_until(a, lambda m: hand(m) > start or m["table"]["status"] == "over", rng)
        assert seat_of(m, 1)["takeover"] is not None
        await b.send({"type": "reclaim"})
        await b.until(lambda m: m["type"] == "state" and seat_of(m, 1)["takeover"] is None)
        await a.close()
        await b.close()

    run(go())


def test_with_takeover_off_the_table_waits(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, takeover="off", grace=0)

    async def go() -> None:
        a = await Client.open(server, table, tok0)
        b = await Client.open(server, table, tok1)
        m = await a.state()
        await b.state()
        await b.close()
        if m["legal"]:  # make it Vreni's turn
            await a.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
            m = await a.state(version=m["version"] + 1)
        waited = m["version"]
        await asyncio.sleep(1.5)
        info = server.get(f"/api/tables/{table}").json()
        assert info["version"] == waited and info["seats"][1]["takeover"] is None
        await a.close()

    run(go())


def test_a_player_who_leaves_is_replaced_for_good_and_the_seat_can_be_taken(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, takeover="off")
    rng = random.Random(4)

    async def go() -> None:
        a = await Client.open(server, table, tok0)
        b = await Client.open(server, table, tok1)
        await a.state()
        await b.state()
        r = server.post(f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {tok1}"})
        assert r.status_code == 200
        with pytest.raises(websockets.ConnectionClosed):  # her connection is closed: the token is void
            await b.until(lambda m: False, timeout=10)
        assert b.closed is not None and b.closed[0] == 4401
        m = await play_until(a, lambda m: m["last"] is not None and m["last"]["by"] == "takeover", rng)
        assert seat_of(m, 1)["claimed"] is False and seat_of(m, 1)["takeover"]["mode"] == "game"
        joined = server.join(table, "Walter")
        assert joined["seat"] == 1
        w = await Client.open(server, table, joined["token"])
        st = await w.state()
        assert seat_of(st, 1)["name"] == "Walter" and seat_of(st, 1)["takeover"] is None
        over: Pred = lambda m: m["table"]["status"] == "over"
        await asyncio.gather(play_until(a, over, rng), play_until(w, over, rng))
        await a.close()
        await w.close()

    run(go())
    # The token that was given up opens nothing any more.
    r = server.post(f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {tok1}"})
    assert r.status_code == 401
    # The record names who began at each seat, and in `names` everyone who held it, in order.
    want = [
        {"seat": 0, "kind": "human", "name": "Ueli", "bot": None, "names": ["Ueli"]},
        {"seat": 1, "kind": "human", "name": "Vreni", "bot": None, "names": ["Vreni", "Walter"]},
    ]
    assert server.get(f"/api/tables/{table}/record").json()["seats"] == want
    assert server.get(f"/api/tables/{table}/replay").json()["seats"] == want


def test_a_finished_games_record_and_replay_name_whoever_sat(server: Server) -> None:
    """The seats are stored when the table opens, before anyone sits; the names come with the
    players. Someone who sits down and leaves again before play does not stay in the record."""
    t = server.open_table("stichwahl", ["human", "human", "bot:random"], options={"target": 3})
    gone = server.join(t["id"], "Anna", seat=0)["token"]
    assert server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {gone}"}).status_code == 200
    tokens = [server.join(t["id"], name, seat=i)["token"] for i, name in enumerate(("Berta", "Carl"))]
    rng = random.Random(6)

    async def go() -> None:
        players = [await Client.open(server, t["id"], tok) for tok in tokens]
        for c in players:
            await c.state()
        over: Pred = lambda m: m["table"]["status"] == "over"
        await asyncio.gather(*(play_until(c, over, rng) for c in players))
        for c in players:
            await c.close()

    run(go())
    record = server.get(f"/api/tables/{t['id']}/record").json()
    replay = server.get(f"/api/tables/{t['id']}/replay").json()
    games = server.get(f"/api/tables/{t['id']}/games").json()["games"]
    for seats in (record["seats"], replay["seats"]):
        assert [(s["seat"], s["kind"], s["name"]) for s in seats] == [(0, "human", "Berta"), (1, "human", "Carl"),
                                                                      (2, "bot", "random")]  # fmt: skip
        assert [s.get("names") for s in seats] == [["Berta"], ["Carl"], None]
    assert [s["name"] for s in games[0]["seats"]] == ["Berta", "Carl", "random"]
    assert stichkit.replay(record).record() == {k: v for k, v in record.items() if k not in ("seats", "takebacks")}


def test_the_move_timer_moves_for_a_silent_player(server: Server) -> None:
    table, (tok0, tok1) = open_two(server, move_time=1, takeover="off")

    async def go() -> None:
        a = await Client.open(server, table, tok0)
        b = await Client.open(server, table, tok1)
        m = await a.state()
        turn = m["table"]["turn"]
        assert m["table"]["deadline"] is not None and 0 < m["table"]["time_left"] <= 1
        timed = await a.state(timeout=10, version=m["version"] + 1)
        assert timed["last"] == {"seat": turn, "version": m["version"] + 1, "by": "timer"}
        assert timed["table"]["deadline"] is not None  # the next player's clock runs
        await a.close()
        await b.close()

    run(go())


def test_a_rematch_rotates_the_seats_and_keeps_the_finished_game(server: Server) -> None:
    t = server.open_table("stichwahl", ["human", "human", "bot:random"], options={"target": 3})
    tokens = [server.join(t["id"], name)["token"] for name in ("Xaver", "Yvonne")]
    rng = random.Random(5)

    async def go() -> None:
        a, b = [await Client.open(server, t["id"], tok) for tok in tokens]
        await a.state()
        await b.state()
        over: Pred = lambda m: m["table"]["status"] == "over"
        first = await asyncio.gather(play_until(a, over, rng), play_until(b, over, rng))
        assert first[0]["table"]["rematch"] is None
        await a.send({"type": "rematch"})
        offer = await b.until(lambda m: m["type"] == "table" and m["table"]["rematch"] is not None)
        assert offer["table"]["rematch"] == {"votes": [0, 2], "needed": [0, 1]}
        await b.send({"type": "rematch"})
        new_a = await a.state(game_no=2)
        new_b = await b.state(game_no=2)
        assert new_a["version"] == 0 and new_a["table"]["status"] == "playing"
        assert (new_a["seat"], new_b["seat"]) == (1, 2)  # every player one seat further
        names = [s["name"] for s in new_a["table"]["seats"]]
        assert names == ["random", "Xaver", "Yvonne"]
        assert all(s["rematch"] is False for s in new_a["table"]["seats"] if s["kind"] == "human")
        await asyncio.gather(play_until(a, over, rng), play_until(b, over, rng))
        for c in (a, b):
            await c.close()

    run(go())
    games = server.get(f"/api/tables/{t['id']}/games").json()["games"]
    assert [(g["game_no"], g["status"]) for g in games] == [(1, "over"), (2, "over")]
    assert [s["name"] for s in games[1]["seats"]] == ["random", "Xaver", "Yvonne"]
    one = server.get(f"/api/tables/{t['id']}/record", params={"game": 1}).json()
    two = server.get(f"/api/tables/{t['id']}/record").json()  # the latest finished game
    assert one["seed"] != two["seed"] and one["result"] == games[0]["result"]
