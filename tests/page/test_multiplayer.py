"""Two people at one table in two browsers: one opens it in the lobby, the other joins by the
invite link; one reloads in the middle of the game and keeps the seat; a spectator watches the
whole game, and no card it may not see ever appears on its page."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from .conftest import NewPage, Server
from .driver import OFFERS, READY, displayed_cards, open_by_api, open_from_lobby, phase, play_one, table_id, wait_ready


def ready_now(page: Any) -> Any:
    return page.evaluate(READY, OFFERS)


def test_two_people_a_reload_and_a_spectator(server: Server, new_page: NewPage) -> None:
    anna = new_page()
    table = open_from_lobby(anna, server, "jass", seats=["bot:random", "human", "bot:random"], options={"target": 300})
    anna.wait_for_selector("#invite-link")
    link = anna.input_value("#invite-link")
    assert link.endswith(f"/tables/{table}")
    assert server.get(f"/api/tables/{table}")["status"] == "waiting"

    ben = new_page(prefs={"name": ""})
    ben.goto(link)
    ben.fill('form.join-form input[name="name"]', "Ben")
    ben.click('form.join-form button[type="submit"]')
    ben.wait_for_selector(".bottom-seat.mine")
    assert "Ben" in (ben.text_content(".bottom-seat .seat-name") or "")
    anna.wait_for_function(
        "() => document.querySelector('.table-page').dataset.phase !== undefined"
        " && !document.querySelector('#invite-link')"
    )

    watcher = new_page()
    watcher.goto(link)
    watcher.wait_for_selector(".table-page[data-phase]")
    assert "Du schaust zu" in (watcher.text_content("#status") or "")

    rng = random.Random(3)
    samples: list[tuple[int, list[str]]] = []
    ben_moves = 0
    reloaded = False
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        states = [ready_now(anna), ready_now(ben)]
        if "over" in states:
            break
        moved = False
        for page, state in ((anna, states[0]), (ben, states[1])):
            if state == "act":
                play_one(page, rng)
                moved = True
                if page is ben:
                    ben_moves += 1
        samples.append(displayed_cards(watcher))
        assert not watcher.query_selector(".hand-card"), "a spectator has no hand to play"
        assert not watcher.query_selector('[data-cmd="takeback"]'), "a spectator has no move to take back"
        if ben_moves >= 8 and not reloaded:
            ben.reload()
            ben.wait_for_selector(".bottom-seat.mine .seat-name")
            assert "Ben" in (ben.text_content(".bottom-seat .seat-name") or "")
            ben.wait_for_selector(".hand .hand-card")
            reloaded = True
        if not moved:
            anna.wait_for_timeout(30)
    else:
        info = server.get(f"/api/tables/{table}")
        shown = [
            (p.text_content("#status"), p.eval_on_selector(".table-page", "e => e.dataset.version"))
            for p in (anna, ben)
        ]
        raise AssertionError(
            f"the game did not end in time: {info['status']} v{info['version']} turn {info['turn']}; pages {shown}"
        )
    assert reloaded, "the game ended before Ben could reload"
    for page in (anna, ben, watcher):
        page.wait_for_selector(".table-page[data-phase=over]")
        assert phase(page) == "over"
    samples.append(displayed_cards(watcher))

    # Every card the spectator's page showed is in the spectator's view of that version.
    frames = server.get(f"/api/tables/{table}/replay")["frames"]
    assert len(samples) > 20
    for version, cards in samples:
        if version < 0:
            continue
        public = json.dumps(frames[version]["view"])
        hidden = [c for c in cards if f'"{c}"' not in public]
        assert not hidden, f"version {version}: the spectator's page shows {hidden}, which its view does not hold"


def test_the_join_form_keeps_the_name_being_typed_when_someone_else_joins(server: Server, new_page: NewPage) -> None:
    """The waiting box is drawn again on every message (the first state, a seat taken): before,
    that emptied the name field under the typing, and the join button then did nothing (the
    field is required). The likeliest way a CI run once lost Ben's join in the test above."""
    table = server.post("/api/tables", {"game": "jass", "seats": ["human", "human", "bot:random", "bot:random"]})["id"]
    ben = new_page(prefs={"name": ""})
    ben.goto(f"{server.url}/tables/{table}")
    ben.wait_for_selector(".table-page[data-phase]")  # the first state is drawn
    ben.fill('form.join-form input[name="name"]', "Be")
    ben.select_option('form.join-form select[name="seat"]', "1")
    server.post(f"/api/tables/{table}/join", {"name": "Carla", "seat": 0})
    # the box is drawn again: seat 1 is no longer offered
    ben.wait_for_function("""() => document.querySelector('form.join-form select[name="seat"]')
        && !document.querySelector('form.join-form select[name="seat"] option[value="0"]')""")
    assert ben.input_value('form.join-form input[name="name"]') == "Be"
    assert ben.evaluate("document.activeElement.name") == "name", "the field being typed in keeps the focus"
    ben.keyboard.type("n")  # the caret stays at the end
    ben.click('form.join-form button[type="submit"]')
    ben.wait_for_selector(".bottom-seat.mine")
    assert "Ben" in (ben.text_content(".bottom-seat .seat-name") or "")
    assert server.get(f"/api/tables/{table}")["status"] == "playing"


def test_a_takeback_between_two_people_waits_for_the_others_yes(server: Server, new_page: NewPage) -> None:
    """Anna takes a card back at a table with Ben: Ben's page asks him, his no leaves the game as it
    is, his yes to her next request brings both pages back to before her card."""
    table = server.post("/api/tables", {"game": "stichling", "options": {"first_player": 0}, "seats": ["human"] * 2})
    seats = {}
    for i, name in enumerate(("Anna", "Ben")):
        joined = server.post(f"/api/tables/{table['id']}/join", {"name": name, "seat": i})
        seats[name] = {"seat": i, "token": joined["token"], "name": name}
    anna, ben = (new_page(seats={table["id"]: seats[n]}) for n in ("Anna", "Ben"))
    for page in (anna, ben):
        page.goto(f"{server.url}/tables/{table['id']}")
    assert wait_ready(anna) == "act"
    before = displayed_cards(anna)
    play_one(anna, random.Random(1))
    assert wait_ready(ben) == "act"
    anna.click('[data-cmd="takeback"]')
    ben.wait_for_selector('[data-cmd="takeback-yes"]')
    assert "Anna möchte einen Zug zurücknehmen." in (ben.text_content("#status") or "")
    anna.wait_for_selector('[data-cmd="takeback-withdraw"]')
    assert "Warten auf Ben" in (anna.text_content("#status") or "")
    ben.click('[data-cmd="takeback-no"]')
    said = "Ben lehnt das Zurücknehmen ab."
    anna.wait_for_function("(s) => document.querySelector('#log').textContent.includes(s)", arg=said)
    assert server.get(f"/api/tables/{table['id']}")["version"] == before[0] + 1
    anna.wait_for_selector('[data-cmd="takeback"]')
    anna.keyboard.press("z")  # asked again, by key
    ben.click('[data-cmd="takeback-yes"]')
    for page in (anna, ben):
        page.wait_for_function(
            "(v) => Number(document.querySelector('.table-page').dataset.version) === v", arg=before[0]
        )
        log = page.text_content("#log") or ""
        assert "Anna hat Züge zurückgenommen." in log and log.count("Anna bittet darum, Züge zurückzunehmen.") == 2
        assert page.query_selector('[data-cmd="takeback-yes"], [data-cmd="takeback-withdraw"]') is None
    assert wait_ready(anna) == "act" and displayed_cards(anna) == before


def test_the_lobby_says_what_a_table_plays_without(server: Server, new_page: NewPage) -> None:
    """Someone about to join sees a table's move timer, and that it plays without hints or takebacks."""
    strict = server.post("/api/tables", {"game": "stichling", "seats": ["human"] * 2, "name": "Streng",
                                         "move_time": 30, "hints": False, "takebacks": False})["id"]  # fmt: skip
    easy = server.post("/api/tables", {"game": "stichling", "seats": ["human"] * 2, "name": "Locker"})["id"]
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(f'li[data-table="{strict}"]')
    about = page.text_content(f'li[data-table="{strict}"]') or ""
    assert "30 s pro Zug" in about and "ohne Tipps" in about and "ohne Zurücknehmen" in about, about
    plain = page.text_content(f'li[data-table="{easy}"]') or ""
    assert "pro Zug" not in plain and "ohne" not in plain, plain


def test_before_play_a_player_moves_to_a_free_seat(server: Server, new_page: NewPage) -> None:
    """Anna opened a Jass table for two friends; before they come she moves to the other human seat
    ("Hierher wechseln"): the page shows her there, and a reload finds her there."""
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "human", "bot:random"])
    page = new_page(seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    page.click('[data-cmd="move-seat"][data-seat="2"]')
    page.wait_for_function("(t) => JSON.parse(localStorage.getItem('stichkit.seats'))[t].seat === 2", arg=table)
    assert server.get(f"/api/tables/{table}")["seats"][2]["name"] == "Anna"
    page.wait_for_selector(".seat-list li.free [data-cmd='move-seat'][data-seat='0']")  # seat 1 is free now
    page.reload()
    page.wait_for_selector(".seat-list")
    assert "(du)" in (page.text_content(".seat-list li:nth-child(3)") or "")


def test_a_table_for_one_screen_is_opened_and_shown_as_such(server: Server, new_page: NewPage) -> None:
    """ "Ein Bildschirm für mehrere" under the more settings: one person may hold several seats of
    the table, and the lobby tells whoever looks."""
    page = new_page()
    page.goto(server.url + "/")
    page.click('.game-tile[data-game="stichling"]')
    page.fill('input[name="name"]', "Mama")
    page.click("details.more summary")
    page.check('input[name="shared_screen"]')
    page.click("#open-table")
    page.wait_for_url(re.compile(r"/tables/"), timeout=30_000)
    table = table_id(page)
    assert server.get(f"/api/tables/{table}")["settings"]["shared_screen"] is True
    lobby = new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f'li[data-table="{table}"]')
    assert "ein Bildschirm für mehrere" in (lobby.text_content(f'li[data-table="{table}"]') or "")
