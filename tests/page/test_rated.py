"""A rated Jass game in the browser: four account holders at a rated table, one of them in
Chromium clicking what the page offers, three over the WebSocket; at the end the player's
profile shows the game, the rating moved, its chart, and the links to the replay and the
analysis, and the leaderboard lists the four."""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
from typing import Any

import httpx

from tests.server.harness import Client

from .conftest import NewPage, Server
from .driver import play_to_end

PASSWORD = "correct horse battery"


class Sockets:
    """What the WebSocket client of tests/server needs of a server: its ws:// address."""

    def __init__(self, server: Server) -> None:
        self.ws = server.url.replace("http://", "ws://")


def account(server: Server, prefix: str) -> httpx.Client:
    """A registered, logged-in account holder (a browser's headers, its own cookies)."""
    b = httpx.Client(base_url=server.url, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})
    name = f"{prefix}{secrets.token_hex(3)}"
    r = b.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    b.name = name  # type: ignore[attr-defined]
    return b


def bots_of_flesh(server: Server, table: str, tokens: list[str], done: list[Any]) -> threading.Thread:
    """Three players over the WebSocket, each making random legal moves until the game is over."""

    async def one(token: str, rng: random.Random) -> None:
        c = await Client.open(Sockets(server), table, token)  # type: ignore[arg-type]
        m = await c.state(timeout=60)
        while m["table"]["status"] != "over":
            if m["legal"]:
                await c.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})
            m = await c.state(timeout=120)
        await c.close()

    async def all_three() -> None:
        await asyncio.gather(*(one(tok, random.Random(i)) for i, tok in enumerate(tokens)))

    def run() -> None:
        try:
            asyncio.run(all_three())
            done.append(True)
        except BaseException as e:  # the test says what went wrong
            done.append(e)

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th


def test_a_rated_jass_game_moves_the_rating_on_the_profile(server: Server, new_page: NewPage) -> None:
    people = [account(server, n) for n in ("Anna", "Beat", "Cilgia", "Dario")]
    try:
        anna = people[0]
        r = anna.post("/api/tables", json={"game": "jass", "seats": ["human"] * 4, "rated": True,
                                           "options": {"target": 150}})  # fmt: skip
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        tokens = [p.post(f"/api/tables/{table}/join", json={}).json()["token"] for p in people]
        page = new_page(seats={table: {"seat": 0, "token": tokens[0], "name": anna.name}})  # type: ignore[attr-defined]
        page.context.add_cookies([{"name": c.name, "value": c.value, "url": server.url} for c in anna.cookies.jar])
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector(".bottom-seat.mine")
        done: list[Any] = []
        others = bots_of_flesh(server, table, tokens[1:], done)
        play_to_end(page, random.Random(1), max_moves=400)
        others.join(120)
        assert done == [True], done
        result = server.get(f"/api/tables/{table}")["result"]
        won = 0 in result["winners"]

        page.goto(f"{server.url}/players/{anna.name}")  # type: ignore[attr-defined]
        page.wait_for_selector('.profile-games tr[data-game="jass"]')
        shown = (page.text_content('.profile-games tr[data-game="jass"] td.rating') or "").strip()
        assert shown and shown != "–", shown  # a rating, not the dash of an unrated game
        assert page.query_selector('.profile-games tr[data-game="jass"] svg.rating-chart') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="replay=1"]') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="analyse=1"]') is not None
        rating = server.get(f"/api/players/{anna.name}")["games"][0]["rating"]["rating"]  # type: ignore[attr-defined]
        assert (rating > 0) == won  # everyone began at 0: a win lifts it, a loss lowers it

        page.click("#nav-leaders")
        page.wait_for_selector(".leaderboard")
        page.click('.leader-tabs a[href="/leaderboard/jass"]')
        page.wait_for_selector(".leaderboard h2")
        assert "Bestenliste: Jass" in (page.text_content(".leaderboard h2") or "")
        board = server.get("/api/leaderboard/jass?min_games=1")["players"]
        assert {p.name for p in people} <= {x["name"] for x in board}  # type: ignore[attr-defined]
    finally:
        for p in people:
            p.close()


def test_leaving_a_rated_game_is_announced_as_a_loss(server: Server, new_page: NewPage) -> None:
    """Before a player leaves a rated game, the page says that leaving loses it for the rating."""
    people = [account(server, n) for n in ("Erna", "Fritz")]
    try:
        r = people[0].post("/api/tables", json={"game": "stichling", "seats": ["human"] * 2, "rated": True})
        table = r.json()["id"]
        tokens = [p.post(f"/api/tables/{table}/join", json={}).json()["token"] for p in people]
        page = new_page(seats={table: {"seat": 0, "token": tokens[0], "name": people[0].name}})  # type: ignore[attr-defined]
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector('.table-page[data-phase] [data-cmd="leave"]:not([hidden])')
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click('[data-cmd="leave"]')
        page.wait_for_function("() => true")
        assert asked and "gewerteter Tisch" in asked[0] and "verliert" in asked[0]
        assert server.get(f"/api/tables/{table}")["seats"][0]["claimed"]  # dismissed: still seated
    finally:
        for p in people:
            p.close()
