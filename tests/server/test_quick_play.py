"""Quick play against real servers: players who wait in a queue are seated together at a new
table, through one process on SQLite or through two processes on one PostgreSQL database, each
player exactly once; after the wait they chose they may fill the empty seats with bots; the
queues say how many wait; whatever is wrong is refused with the reason, and changes nothing."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from stichkit.server.quickplay import QuickPlay

from .harness import Client, Server, run
from .people import Person


def queue(server: Server, name: str, game: str = "stichling", players: int = 2, **more: Any) -> dict[str, Any]:
    r = server.post("/api/quick", {"name": name, "game": game, "players": players, **more})
    assert r.status_code == 201, r.text
    return dict(r.json())


def news(server: Server, ticket: str) -> dict[str, Any]:
    r = server.get("/api/quick/me", headers={"Authorization": f"Bearer {ticket}"})
    assert r.status_code == 200, r.text
    return dict(r.json())


def matched(servers: list[Server], ticket: str, timeout: float = 20) -> dict[str, Any]:
    """Ask for news (through each server in turn) until the ticket is matched."""
    deadline = time.monotonic() + timeout
    i = 0
    while time.monotonic() < deadline:
        m = news(servers[i % len(servers)], ticket)
        if m["status"] == "matched":
            return m
        i += 1
        time.sleep(0.2)
    raise AssertionError(f"ticket not matched in {timeout} s: {m}")


def waiting_in(server: Server, game: str, players: int) -> int:
    found = [q for q in server.get("/api/quick").json()["queues"] if (q["game"], q["players"]) == (game, players)]
    return int(found[0]["waiting"]) if found else 0


async def seated(server: Server, m: dict[str, Any]) -> dict[str, Any]:
    """The state the matched seat's token opens: the seat it names, in a game under way."""
    c = await Client.open(server, m["table"], m["token"])
    state = await c.state()
    await c.close()
    return state


def test_two_guests_are_seated_together(server: Server) -> None:
    ann = queue(server, "Ann")
    assert ann["status"] == "waiting" and ann["waiting"] == 1 and ann["bots_offered"] is False
    assert waiting_in(server, "stichling", 2) == 1
    bea = queue(server, "Bea")
    assert bea["status"] == "matched"  # the second player completes the table at once
    a = matched([server], ann["ticket"])
    assert a["table"] == bea["table"] and {a["seat"], bea["seat"]} == {0, 1}
    assert waiting_in(server, "stichling", 2) == 0
    info = server.get(f"/api/tables/{a['table']}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["Ann", "Bea"]
    assert info["settings"]["move_time"] is not None  # strangers: a move timer
    for m in (a, bea):
        state = run(seated(server, m))
        assert state["seat"] == m["seat"] and state["table"]["status"] == "playing"
    assert news(server, ann["ticket"]) == a  # asked again (an answer lost on the way): the same seat


def test_after_the_wait_bots_fill_the_empty_seats(server: Server) -> None:
    me = queue(server, "Cem", game="jass", players=4, wait=1)
    ticket = {"Authorization": f"Bearer {me['ticket']}"}
    early = server.post("/api/quick/bots", {"bot": "random"}, headers=ticket)
    if early.status_code == 409:  # the wait of one second had not passed yet
        assert "after the 1 s you chose to wait" in early.json()["error"]
    time.sleep(1.1)
    assert news(server, me["ticket"])["bots_offered"] is True
    bad = server.post("/api/quick/bots", {"bot": "nosuchbot"}, headers=ticket)
    assert bad.status_code == 400 and "nosuchbot" in bad.json()["error"]
    m = server.post("/api/quick/bots", {"bot": "random"}, headers=ticket).json()
    assert m["status"] == "matched" and m["seat"] == 0
    info = server.get(f"/api/tables/{m['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert info["options"]["profile"] == "schieber" and info["settings"]["move_time"] is None
    assert run(seated(server, m))["seat"] == 0


def test_leaving_the_queue_and_bad_requests(server: Server) -> None:
    me = queue(server, "Dora", game="stichwahl", players=3)
    ticket = {"Authorization": f"Bearer {me['ticket']}"}
    left = server.post("/api/quick/leave", headers=ticket)
    assert left.json() == {"status": "left"}
    assert waiting_in(server, "stichwahl", 3) == 0
    gone = server.get("/api/quick/me", headers=ticket)
    assert gone.status_code == 404 and "no such place in the queue" in gone.json()["error"]
    before = server.get("/api/quick").json()
    refusals = [
        ({"name": "Eve", "game": "poker", "players": 2}, 400, "unknown game 'poker'"),
        ({"name": "Eve", "game": "jass", "players": 3}, 400, "jass is played by 4 players"),
        ({"name": "", "game": "jass", "players": 4}, 400, "must not be empty"),
        ({"game": "jass", "players": 4}, 400, "a guest needs a name"),
        ({"name": "Eve", "game": "jass", "players": 4, "wait": 0}, 400, "wait"),
        ({"name": "Eve", "game": "jass", "players": 4, "rated": True}, 403, "account"),
        ({"name": "Eve", "game": "jass", "players": "4"}, 400, "players"),
    ]
    for body, status, reason in refusals:
        r = server.post("/api/quick", body)
        assert r.status_code == status and reason in r.json()["error"], (body, r.text)
    assert server.get("/api/quick/me").status_code == 401
    assert "ticket" in server.get("/api/quick/me").json()["error"]
    assert server.get("/api/quick").json() == before  # nothing joined


def test_a_player_who_stops_asking_leaves_the_queue(tmp_path: Path) -> None:
    """A page closed while waiting asks no more: after `quick_timeout` its player is matched with
    nobody, and the queue no longer counts them."""
    from stichkit.server.hub import Hub
    from stichkit.server.settings import Settings

    async def go() -> None:
        hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=1, quick_timeout=0.5))
        await hub.start()
        try:
            q: QuickPlay = hub.quick
            gone = await q.join("Gus", "stichling", 2, False, 30)
            assert (await q.counts())[0]["waiting"] == 1
            await asyncio.sleep(0.7)
            assert await q.counts() == []
            fresh = await q.join("Hal", "stichling", 2, False, 30)
            assert fresh["status"] == "waiting" and fresh["waiting"] == 1  # not seated with Gus
            await q.tick(time.time() + 100)  # the sweep forgets Gus
            with pytest.raises(Exception, match="no such place in the queue"):
                await q.status(gone["ticket"])
        finally:
            await hub.stop()

    run(go())


def test_a_full_server_keeps_players_waiting(tmp_path: Path) -> None:
    """A server that holds all the tables it may does not refuse a player who joins the queue
    after the fact: both wait, counted, and are seated once a table is free."""
    from stichkit.server.hub import Hub, NewTable
    from stichkit.server.settings import Settings

    async def go() -> None:
        hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'full.db'}", bot_workers=1, max_tables=1))
        await hub.start()
        try:
            only = await hub.create_table(NewTable(game="stichling", options={}, seats=["human", "human"],
                                                   private=False, name=None, takeover="hand", grace=60.0,
                                                   takeover_bot="bot:heuristic", move_time=None))  # fmt: skip
            q: QuickPlay = hub.quick
            first = await q.join("Ida", "stichling", 2, False, 30)
            second = await q.join("Jon", "stichling", 2, False, 30)
            assert (first["status"], second["status"]) == ("waiting", "waiting")
            assert second["waiting"] == 2
            await hub.drop(only)  # a table is free again
            await q.tick(time.time() + 1)
            assert (await q.status(first["ticket"]))["status"] == "matched"
        finally:
            await hub.stop()

    run(go())


def crowd_across(servers: list[Server], players: int, people: int) -> None:
    """`people` join the same queue at once, alternately through each server: each is seated once,
    at a table of `players` people, and no table has a seat twice."""
    with ThreadPoolExecutor(people) as pool:
        tickets = list(pool.map(lambda i: queue(servers[i % len(servers)], f"P{i}", players=players)["ticket"],
                                range(people)))  # fmt: skip
        found = list(pool.map(lambda tk: matched(servers, tk, 30), tickets))
    tables = Counter(m["table"] for m in found)
    assert len(tables) == people // players and set(tables.values()) == {players}
    assert len({(m["table"], m["seat"]) for m in found}) == people
    for table in tables:
        infos = [s.get(f"/api/tables/{table}").json() for s in servers]  # every process knows the table
        assert all(i["status"] == "playing" for i in infos)
        assert sorted(s["name"] for s in infos[0]["seats"]) == sorted(m["name"] for m in found if m["table"] == table)
    for s in servers:
        assert waiting_in(s, "stichling", players) == 0


def test_a_crowd_on_sqlite_is_seated_once_each(server: Server) -> None:
    crowd_across([server], players=2, people=8)


def test_two_processes_match_players_into_one_table(postgres_pair: tuple[Server, Server]) -> None:
    """Players waiting through two processes on one PostgreSQL database are seated together: a
    table opened by one process is played through both, and a crowd arriving at once is seated
    once each (exactly one process forms each table)."""
    a, b = postgres_pair
    ann = queue(a, "Ann")
    assert waiting_in(b, "stichling", 2) == 1  # b sees a's queue
    bea = queue(b, "Bea")
    m = [matched([a], ann["ticket"]), matched([b], bea["ticket"])]
    assert m[0]["table"] == m[1]["table"] and {x["seat"] for x in m} == {0, 1}

    async def play_both() -> None:
        ca = await Client.open(a, m[0]["table"], m[0]["token"])
        cb = await Client.open(b, m[1]["table"], m[1]["token"])
        for c in (ca, cb):
            st = await c.state()
            if st["legal"]:
                await c.send({"type": "act", "action": st["legal"][0], "version": st["version"]})
        # a move made through one process reaches the other
        await cb.state(timeout=20, version=1)
        await ca.state(timeout=20, version=1)
        await ca.close()
        await cb.close()

    run(play_both())
    crowd_across([a, b], players=2, people=10)


def test_rated_quick_play_is_for_account_holders(players_server: Server) -> None:
    """Two logged-in players meet in a rated queue under their user names, and their seats follow
    their accounts; an account waits in one queue at a time."""
    ann, bea = Person(players_server, "Ann"), Person(players_server, "Bea")
    try:
        first = ann.http.post("/api/quick", json={"name": "x", "game": "stichling", "players": 3, "rated": True})
        assert first.status_code == 201, first.text
        again = ann.http.post("/api/quick", json={"name": "x", "game": "stichling", "players": 2, "rated": True})
        assert again.json()["status"] == "waiting"
        gone = ann.http.get("/api/quick/me", headers={"Authorization": f"Bearer {first.json()['ticket']}"})
        assert gone.status_code == 404  # the earlier place was given up
        m = bea.http.post("/api/quick", json={"game": "stichling", "players": 2, "rated": True}).json()
        assert m["status"] == "matched"
        info = players_server.get(f"/api/tables/{m['table']}").json()
        assert [s["name"] for s in info["seats"]] == [ann.name, bea.name]
        assert all(s["account"] for s in info["seats"])
        assert info["settings"]["rated"] is True and info["settings"]["hints"] is False  # a rated table
        mine = ann.http.get("/api/account").json()
        assert m["table"] in [s["table_id"] for s in mine["seats"]]  # the seat follows Ann's account
    finally:
        ann.close()
        bea.close()
