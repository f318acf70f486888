"""A rated Jass game in the browser: a newcomer registers and logs in through the account window,
opens a rated Jass table in the lobby and plays it by clicking what the page offers, with three
other account holders over the WebSocket; at the end the profile shows the game, the rating
moved, its chart, and the links to the replay and the analysis, and the leaderboard lists the
four. Before leaving a rated game the page says that leaving loses it."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import threading
from typing import Any

import httpx

from tests.server.harness import Client

from .conftest import NewPage, Server
from .driver import play_to_end, table_id

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


def register_and_log_in(page: Any, server: Server, name: str) -> None:
    """Through the account window, as a newcomer: register, log out, log in again."""
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile")
    for form, then in (("register-form", "#logout"), ("login-form", None)):
        page.click("#btn-account")
        page.wait_for_selector("dialog#account[open]")
        page.fill(f"#{form} input[name=name]", name)
        page.fill(f"#{form} input[name=password]", PASSWORD)
        page.click(f"#{form} button[type=submit]")
        page.wait_for_selector("dialog#account", state="detached")
        page.wait_for_function("(n) => document.querySelector('#btn-account .label').textContent === n", arg=name)
        if then:
            page.click("#btn-account")
            page.click(then)
            page.wait_for_function("() => document.querySelector('#btn-account .label').textContent === 'Anmelden'")


def open_rated_jass(page: Any, target: int) -> str:
    """The lobby's form: Jass, every seat a person, to `target` points, "Gewertet"."""
    page.click('.game-tile[data-game="jass"]')
    for seat in (1, 2, 3):
        page.select_option(f'select[name="seat{seat}"]', "human")
    page.select_option('select[name="opt:target"]', "other")
    page.fill('input[name="opt:target-other"]', str(target))
    page.click("details.more summary")
    page.check('input[name="rated"]')
    page.click("#open-table")
    page.wait_for_url(re.compile(r"/tables/"), timeout=30_000)
    return table_id(page)


def test_a_rated_jass_game_moves_the_rating_on_the_profile(server: Server, new_page: NewPage) -> None:
    """Anna registers and logs in in the page, opens a rated Jass table in the lobby, plays it to
    the end with three other account holders, and finds the rating moved on her profile."""
    others = [account(server, n) for n in ("Beat", "Cilgia", "Dario")]
    name = f"Anna{secrets.token_hex(3)}"
    try:
        page = new_page(prefs={"name": ""})
        register_and_log_in(page, server, name)
        table = open_rated_jass(page, 150)
        info = server.get(f"/api/tables/{table}")
        assert info["settings"]["rated"] and info["seats"][0]["name"] == name
        tokens = [p.post(f"/api/tables/{table}/join", json={}).json()["token"] for p in others]
        page.wait_for_selector(".bottom-seat.mine")
        done: list[Any] = []
        rest = bots_of_flesh(server, table, tokens, done)
        play_to_end(page, random.Random(1), max_moves=400)
        rest.join(120)
        assert done == [True], done
        result = server.get(f"/api/tables/{table}")["result"]
        won = 0 in result["winners"]

        page.goto(f"{server.url}/players/{name}")
        page.wait_for_selector('.profile-games tr[data-game="jass"]')
        shown = (page.text_content('.profile-games tr[data-game="jass"] td.rating') or "").strip()
        assert shown and shown != "–", shown  # a rating, not the dash of an unrated game
        assert page.query_selector('.profile-games tr[data-game="jass"] svg.rating-chart') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="replay=1"]') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="analyse=1"]') is not None
        rating = server.get(f"/api/players/{name}")["games"][0]["rating"]["rating"]
        assert (rating > 0) == won  # everyone began at 0: a win lifts it, a loss lowers it

        page.click("#nav-leaders")
        page.wait_for_selector(".leaderboard")
        page.click('.leader-tabs a[href="/leaderboard/jass"]')
        page.wait_for_selector(".leaderboard h2")
        assert "Bestenliste: Jass" in (page.text_content(".leaderboard h2") or "")
        board = server.get("/api/leaderboard/jass?min_games=1")["players"]
        assert {name, *(p.name for p in others)} <= {x["name"] for x in board}  # type: ignore[attr-defined]
    finally:
        for p in others:
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
