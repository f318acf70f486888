"""What one client may claim of the server (tables, bot seats, hints, analyses), what one table's
bots may think, and tables only bots play swept once nobody watches: against real servers, one
client on 127.0.0.1 and another on 127.0.0.2 (Linux answers every 127.x address on loopback)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import stichkit
from stichkit.server.analysis import Analyses
from stichkit.server.clients import client_key
from stichkit.server.quotas import BotTime, LimitReached

from .harness import Client, Server, postgres_database, run, wait_until
from .inprocess import Listener, running
from .stored_games import played

OTHER = "127.0.0.2"  # a second visitor's address
JASS = {"profile": "schieber", "target": 150, "first_forehand": 0}


def other_visitor(server: Server) -> httpx.Client:
    """An HTTP client that connects from 127.0.0.2: another client as the server counts them."""
    return httpx.Client(base_url=server.http, timeout=30, transport=httpx.HTTPTransport(local_address=OTHER))


def bots_table(seats: int = 2, game: str = "stichling", bot: str = "bot:random", **fields: Any) -> dict[str, Any]:
    return {"game": game, "seats": [bot] * seats, **fields}


def test_the_client_key_is_the_account_else_the_address_and_an_ipv6_client_its_64() -> None:
    assert client_key("203.0.113.7") == "address:203.0.113.7"
    assert client_key("::ffff:203.0.113.7") == "address:203.0.113.7"  # IPv4 through an IPv6 socket
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9") == "address:2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("203.0.113.7", account="42") == "account:42"  # an account wherever it connects from
    assert client_key(None) == client_key("") == "address:unknown"


def test_one_client_cannot_fill_the_server_and_a_refusal_names_the_limit(tmp_path: Path) -> None:
    """One visitor at its limits is refused with 429 and the limit's code, while another visitor
    still opens tables: one client can no longer answer everyone else 503 (max_tables 5 here)."""
    server = Server(f"sqlite:///{tmp_path / 'limits.db'}", tmp_path / "server.log", "--bot-delay", "0",
                    "--max-tables", "5", "--client-tables", "3", "--client-bot-seats", "4").start()  # fmt: skip
    try:
        first = server.post("/api/tables", {"game": "jass", "seats": ["human", "bot:heuristic", "human",
                                                                       "bot:heuristic"]})  # fmt: skip
        assert first.status_code == 201, first.text
        too_many_bots = server.post("/api/tables", {"game": "jass", "seats": ["human"] + ["bot:random"] * 3})
        assert too_many_bots.status_code == 429
        assert too_many_bots.json()["code"] == "client_bot_seats"
        assert "2 bot seats and this one 3" in too_many_bots.json()["error"]
        for _ in range(2):
            r = server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"]})
            assert r.status_code == 201, r.text
        refused = server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"]})
        assert refused.status_code == 429
        body = refused.json()
        assert body["code"] == "client_tables" and "you have 3 tables" in body["error"] and "(3)" in body["error"]
        with other_visitor(server) as other:
            two_humans = {"game": "stichling", "seats": ["human", "human"]}
            for _ in range(2):
                assert other.post("/api/tables", json=two_humans).status_code == 201
            full = other.post("/api/tables", json=two_humans)
            assert full.status_code == 503 and full.json()["code"] == "max_tables"  # the server is full now
        assert len(server.get("/api/tables").json()["tables"]) == 5  # refusals stored nothing
    finally:
        server.stop()


def test_a_client_at_its_limit_gives_up_its_oldest_finished_table_nobody_has_open(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'room.db'}", tmp_path / "server.log", "--bot-delay", "0",
                    "--client-tables", "2").start()  # fmt: skip
    try:
        # two bots' Stichwahl games to 3 pearls: over in moments, and nobody has them open
        done = [server.open_table("stichwahl", ["bot:random"] * 2, options={"target": 3})["id"] for _ in range(2)]
        assert wait_until(lambda: all(server.get(f"/api/tables/{t}").json()["status"] == "over" for t in done), 60)
        newest = server.open_table("stichling", ["human", "human"])["id"]  # the oldest finished one made room
        assert server.get(f"/api/tables/{done[0]}").status_code == 404
        assert server.get(f"/api/tables/{done[1]}").status_code == 200
        # a waiting table is never given up: with one finished table and one waiting, the next
        # gives up the finished one, and the one after that is refused
        server.open_table("stichling", ["human", "human"])
        assert server.get(f"/api/tables/{done[1]}").status_code == 404
        assert server.get(f"/api/tables/{newest}").status_code == 200
        refused = server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"]})
        assert refused.status_code == 429 and refused.json()["code"] == "client_tables"
    finally:
        server.stop()


def test_tables_only_bots_play_are_swept_once_nobody_watches(tmp_path: Path) -> None:
    # Ten seconds unwatched: long enough that the watched table's spectator is surely there before
    # (on a loaded machine opening a table and connecting to it can take seconds), short enough
    # to wait for.
    server = Server(f"sqlite:///{tmp_path / 'sweep.db'}", tmp_path / "server.log", "--bot-delay", "0.05",
                    "--sweep-unwatched", "10").start()  # fmt: skip

    async def scene() -> None:
        long_game = {"options": {"target": 2500}}
        watched = server.open_table("jass", ["bot:random"] * 4, **long_game)["id"]
        c = await Client.open(server, watched)  # at once: ten seconds unwatched, and it would be swept
        await c.state(timeout=60)
        unwatched = server.open_table("jass", ["bot:random"] * 4, **long_game)["id"]
        given_up = server.open_table("stichling", ["human", "bot:random"])["id"]
        token = server.join(given_up, "Pia")["token"]
        assert server.post(f"/api/tables/{given_up}/leave", headers={"Authorization": f"Bearer {token}"}).is_success

        def alive(t: str) -> bool:
            return bool(server.get(f"/api/tables/{t}").status_code == 200)

        # unwatched bots, and a game whose only player left it to the takeover bot: swept
        assert await asyncio.to_thread(wait_until, lambda: not alive(unwatched) and not alive(given_up), 90)
        assert alive(watched)
        await c.close()
        assert await asyncio.to_thread(wait_until, lambda: not alive(watched), 90)  # nobody watches it now

    try:
        run(scene())
    finally:
        server.stop()


def test_two_processes_count_one_clients_tables_together(tmp_path: Path) -> None:
    """Tables opened at once through two processes on one PostgreSQL: the count in the database,
    under a lock per client, lets exactly the limit through."""
    with postgres_database() as db:
        flags = ("--bot-delay", "0", "--bot-workers", "1", "--client-tables", "3")
        a = Server(db, tmp_path / "a.log", *flags).start()
        b = Server(db, tmp_path / "b.log", *flags).start()
        try:
            body = {"game": "stichling", "seats": ["human", "human"]}
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(lambda i: (a, b)[i % 2].post("/api/tables", body), range(8)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [201] * 3 + [429] * 5, [r.text for r in answers]
            assert {r.json().get("code") for r in answers if r.status_code == 429} == {"client_tables"}
        finally:
            a.stop()
            b.stop()


def test_one_client_has_only_so_many_hints_in_work(tmp_path: Path) -> None:
    async def go() -> None:
        async with running(tmp_path, client_hints=1) as (hub, t):
            for name in ("Ida", "Jon"):
                await hub.join(t, name, None)
            other = await hub.create_table(t_copy(hub, t))
            for name in ("Kai", "Lea"):
                await hub.join(other, name, None)
            go_on = asyncio.Event()

            async def slow(bot: Any, record: Any, seat: int, who: str) -> str:
                await go_on.wait()
                return str(t.state.legal_actions()[0].text)

            hub.bots.decide_record = slow  # type: ignore[method-assign]
            here, there, elsewhere = Listener(t.turn), Listener(other.turn), Listener(other.turn)
            elsewhere.who = "address:127.0.0.2"
            await hub.hint(t, here, t.version, None, None)  # type: ignore[arg-type]
            await hub.hint(other, there, other.version, None, None)  # type: ignore[arg-type]
            assert there.sent[-1]["code"] == "client_hints" and "(1)" in there.sent[-1]["reason"]
            await hub.hint(other, elsewhere, other.version, None, None)  # type: ignore[arg-type]
            assert elsewhere.sent == []  # another client: being worked out
            tasks = [here.hint_task, elsewhere.hint_task]
            go_on.set()
            await asyncio.gather(*tasks)
            assert here.sent[-1]["type"] == "hint"
            assert hub.in_flight.held("hint", here.who) == 0  # given back
            await hub.hint(other, there, other.version, None, None)  # type: ignore[arg-type]
            assert there.sent[-1]["type"] == "hint"  # the same question again: answered at once

    run(go())


def t_copy(hub: Any, t: Any) -> Any:
    from stichkit.server.hub import NewTable

    return NewTable(game=t.game.name, options={}, seats=["human", "human"], private=False, name=None,
                    takeover="hand", grace=60.0, takeover_bot="bot:heuristic", move_time=None)  # fmt: skip


def test_one_client_has_only_so_many_analyses_waiting() -> None:
    state = stichkit.replay(played("jass", JASS, 3, ("trump:obe",), moves=9).record())

    async def go() -> None:
        analyses = Analyses(waiting=4, per_client=1)
        try:
            assert await analyses.begin(("a", 1), state, client="address:127.0.0.1") is not None
            with pytest.raises(LimitReached) as refused:
                await analyses.begin(("a", 2), state, client="address:127.0.0.1")
            assert refused.value.code == "client_analyses" and refused.value.status == 429
            assert await analyses.begin(("a", 2), state, client="address:127.0.0.2") is not None
        finally:
            analyses.close()

    run(go())


def test_a_tables_bots_think_only_so_long_a_minute() -> None:
    async def go() -> None:
        clock = BotTime(per_minute=1.0)
        assert await clock.claim("t1", 0.5) == 0.0
        assert await clock.claim("t1", 0.5) == 0.0
        with pytest.raises(TimeoutError):  # the table's minute is used up: its next bot waits
            await asyncio.wait_for(clock.claim("t1", 0.5), 0.6)
        assert await clock.claim("t2", 0.5) == 0.0  # another table thinks on
        assert await clock.claim("t1", None) == 0.0  # a bot without a clock (milliseconds) claims nothing
        assert await BotTime(per_minute=0).claim("t1", 5.0) == 0.0  # 0: no limit

    run(go())


def test_bots_asked_for_in_quick_play_count_among_the_askers(tmp_path: Path) -> None:
    """Quick play's bots after the wait make a table too: it is the asker's, held to its limits."""
    server = Server(f"sqlite:///{tmp_path / 'quick.db'}", tmp_path / "server.log", "--bot-delay", "0",
                    "--client-bot-seats", "2").start()  # fmt: skip
    try:
        tickets = []
        for game, players in (("stichling", 2), ("jass", 4)):
            r = server.post("/api/quick", {"name": "Cem", "game": game, "players": players, "wait": 1})
            assert r.status_code == 201, r.text
            tickets.append({"Authorization": f"Bearer {r.json()['ticket']}"})
            time.sleep(1.1)  # the wait chosen: bots are offered now
            if players == 2:
                one_bot = server.post("/api/quick/bots", {"bot": "heuristic"}, headers=tickets[-1])
                assert one_bot.status_code == 200 and one_bot.json()["status"] == "matched", one_bot.text
                assert server.post("/api/quick/leave", headers=tickets[-1]).status_code == 200
        three_bots = server.post("/api/quick/bots", {"bot": "heuristic"}, headers=tickets[-1])
        assert three_bots.status_code == 429, three_bots.text
        assert three_bots.json()["code"] == "client_bot_seats"
        assert "1 bot seats and this one 3" in three_bots.json()["error"]
    finally:
        server.stop()
