"""A rated Jass game in the browser, four people in four browsers: each registers through the
account window (logging in there is tests/page/test_accounts.py's), one opens a rated Jass table
in the lobby, the other three join by its invite link, and all four play it to the end by
clicking what their pages offer; at the end the profile shows the game, the rating moved, its chart, and the links to
the replay and the analysis, and the leaderboard lists the four. Before leaving a rated game the
page says that leaving loses it."""

from __future__ import annotations

import random
import re
import secrets
import time
from typing import Any

import httpx

from .conftest import NewPage, Server
from .driver import OFFERS, READY, play_one, table_id

PASSWORD = "correct horse battery"
TARGET = 50  # points: the game ends within the first deal, so the test stays short


def account(server: Server, prefix: str) -> httpx.Client:
    """A registered, logged-in account holder (a browser's headers, its own cookies)."""
    b = httpx.Client(base_url=server.url, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})
    name = f"{prefix}{secrets.token_hex(3)}"
    r = b.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    b.name = name  # type: ignore[attr-defined]
    return b


def register(page: Any, server: Server, name: str) -> None:
    """Through the account window, as a newcomer: register (and stay logged in); the header then
    names the account."""
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile")
    page.click("#btn-account")
    page.wait_for_selector("dialog#account[open]")
    page.fill("#register-form input[name=name]", name)
    page.fill("#register-form input[name=password]", PASSWORD)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("dialog#account", state="detached")
    page.wait_for_function("(n) => document.querySelector('#btn-account .label').textContent === n", arg=name)


def join_by_link(page: Any, link: str, name: str) -> None:
    """A logged-in player opens the invite link and takes the first free seat, under the account's
    name (the join form offers it)."""
    page.goto(link)
    page.wait_for_selector('form.join-form input[name="name"]')
    assert page.input_value('form.join-form input[name="name"]') == name
    page.click('form.join-form button[type="submit"]')
    # seated: "(du)" in the list of seats while others are awaited, the own seat once play begins
    page.wait_for_function("""() => document.querySelector('.bottom-seat.mine')
        || [...document.querySelectorAll('.seat-list li')].some((li) => li.textContent.includes('(du)'))""")


def play_together(pages: list[Any], rng: random.Random, seconds: float = 180) -> list[int]:
    """Each page moves when it offers a move, until the game is over: answers each page's moves."""
    deadline = time.monotonic() + seconds
    moves = [0] * len(pages)
    while time.monotonic() < deadline:
        states = [p.evaluate(READY, OFFERS) for p in pages]
        if "over" in states:
            return moves
        acting = [i for i, state in enumerate(states) if state == "act"]
        for i in acting:
            moves[i] += bool(play_one(pages[i], rng))
        if not acting:
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the game did not end within {seconds} s (moves made per page: {moves})")


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
    """Anna registers in her browser and opens a rated Jass table in the lobby; Beat,
    Cilgia and Dario register in theirs and join by her invite link; the four play it to the end,
    and each finds the game, and the rating moved, on the profile."""
    tag = secrets.token_hex(3)
    names = [f"{n}{tag}" for n in ("Anna", "Beat", "Cilgia", "Dario")]
    pages = [new_page(prefs={"name": ""}) for _ in names]
    for page, name in zip(pages, names, strict=True):
        register(page, server, name)
    table = open_rated_jass(pages[0], TARGET)
    info = server.get(f"/api/tables/{table}")
    assert info["settings"]["rated"] and info["seats"][0]["name"] == names[0]
    pages[0].wait_for_selector("#invite-link")
    link = pages[0].input_value("#invite-link")
    for page, name in zip(pages[1:], names[1:], strict=True):
        join_by_link(page, link, name)
    info = server.get(f"/api/tables/{table}")
    assert [s["name"] for s in info["seats"]] == names and info["status"] == "playing"

    moves = play_together(pages, random.Random(1))
    assert all(moves), moves  # each of the four played (the game may end within the first deal)
    for page in pages:
        page.wait_for_selector(".table-page[data-phase=over]")
    info = server.get(f"/api/tables/{table}")
    assert info["status"] == "over", info["status"]
    result = info["result"]

    for seat, (page, name) in enumerate(zip(pages, names, strict=True)):
        won = seat in result["winners"]
        rating = server.get(f"/api/players/{name}")["games"][0]["rating"]["rating"]
        assert (rating > 0) == won, (name, rating, result)  # everyone began at 0: a win lifts it
        if seat > 1:
            continue  # the profile page of one player of each team
        page.goto(f"{server.url}/players/{name}")
        page.wait_for_selector('.profile-games tr[data-game="jass"]')
        shown = (page.text_content('.profile-games tr[data-game="jass"] td.rating') or "").strip()
        assert shown and shown != "–", shown  # a rating, not the dash of an unrated game
        assert page.query_selector('.profile-games tr[data-game="jass"] svg.rating-chart') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="replay=1"]') is not None
        assert page.query_selector(f'.recent-games li[data-table="{table}"] a[href$="analyse=1"]') is not None

    page = pages[0]
    page.click("#nav-leaders")
    page.wait_for_selector(".leaderboard")
    page.click('.leader-tabs a[href="/leaderboard/jass"]')
    page.wait_for_selector(".leaderboard h2")
    assert "Bestenliste: Jass" in (page.text_content(".leaderboard h2") or "")
    board = server.get("/api/leaderboard/jass?min_games=1")["players"]
    assert set(names) <= {x["name"] for x in board}


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
