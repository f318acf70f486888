"""The replay viewer steps through a finished game: forward and back, by deal, to either end,
showing every hand as the server's replay frames hold it."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit.analysis.review import analyse

from ..server.stored_games import played, store_game
from .conftest import NewPage, Server
from .test_table_live import other_language


def finished_game(server: Server, game: str, seats: list[str], options: dict[str, Any]) -> str:
    """A table whose bots have finished a game of at least two deals (the tests step across one).
    Random Jass bots to 300 points end within the first deal in about one game of seventy (a match
    with Weis, or a big Weis), so it plays up to ten games for one with two deals."""
    for _ in range(10):
        table = server.post("/api/tables", {"game": game, "options": options, "seats": seats})["id"]
        deadline = time.monotonic() + 120
        while server.get(f"/api/tables/{table}")["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.2)
        frames = server.get(f"/api/tables/{table}/replay")["frames"]
        if any(f["view"]["deal_number"] >= 1 for f in frames):
            break
    return table


# How far down the bottom player's plate and hand reach.
BOTTOM = """() => Math.max(...[...document.querySelectorAll('.bottom-seat, #hand .card')]
  .map(e => e.getBoundingClientRect().bottom))"""


def frame_shown(page: Any) -> int:
    return int(page.eval_on_selector("#main", "m => m.dataset.frame"))


def hands_shown(page: Any) -> list[str]:
    cards = page.eval_on_selector_all(".open-hand [data-card], .hand [data-card]", "es => es.map(e => e.dataset.card)")
    return sorted(cards)


def test_the_replay_viewer_steps_through_a_finished_game(server: Server, new_page: NewPage) -> None:
    table = finished_game(server, "jass", ["bot:random"] * 4, {"target": 300})
    frames = server.get(f"/api/tables/{table}/replay")["frames"]
    deals = [f["view"]["deal_number"] for f in frames]
    starts = [i for i, d in enumerate(deals) if i == 0 or d != deals[i - 1]]
    assert len(starts) >= 2, "ten games of random bots to 300 points, each over in one deal"

    page = new_page()
    page.goto(f"{server.url}/tables/{table}?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    assert frame_shown(page) == 0
    assert hands_shown(page) == sorted(c for h in frames[0]["hands"] for c in h)  # every hand, face up
    assert len(hands_shown(page)) == 36

    # the buttons say what they do: playing back is not a step forward
    assert page.inner_text('[data-step="play"]').strip() == "Abspielen"
    assert page.inner_text('[data-step="next"]').strip() == "Weiter"
    icons = page.eval_on_selector_all(".replay-controls svg path", "ps => ps.map(p => p.getAttribute('d'))")
    assert len(set(icons)) == len(icons) == 5
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert frame_shown(page) == 5
    assert hands_shown(page) == sorted(c for h in frames[5]["hands"] for c in h)
    said = page.text_content(".replay-move") or ""  # who did what, in words
    assert re.match(r"(Anna|Ueli|Heidi|Sepp|Vreni) (spielt|sagt|schiebt)", said), said
    # the log tells the game so far, the frame's move last but for what followed from it
    log = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
    assert len(log) >= 5 and said in log, (said, log)
    # at 1280x800 the bottom player's plate and hand are in the window
    bottom = page.evaluate(BOTTOM)
    assert bottom <= 800, f"the bottom player is cut off at {bottom} px"
    page.keyboard.press("ArrowLeft")
    assert frame_shown(page) == 4
    # in English the replay, its buttons and its log hold no German word
    page.click('.lang-switch [data-lang="en"]')
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.inner_text('[data-step="play"]').strip() == "Play"
    assert not other_language(page.inner_text("body"), "en"), other_language(page.inner_text("body"), "en")
    page.click('.lang-switch [data-lang="de"]')
    page.wait_for_function("() => document.documentElement.lang === 'de'")

    page.keyboard.press("PageDown")  # the next deal
    assert frame_shown(page) == starts[1]
    assert page.input_value("#replay-deal") == "1"
    page.select_option("#replay-deal", "0")
    assert frame_shown(page) == 0

    page.click('[data-step="next"]')
    assert frame_shown(page) == 1
    page.keyboard.press("End")
    assert frame_shown(page) == len(frames) - 1
    assert page.is_visible(".center-overlay .result")
    page.keyboard.press("Home")
    assert frame_shown(page) == 0

    # the scores of every deal open from the side panel, as at the live table
    page.keyboard.press("End")
    page.click("#btn-scores")
    assert page.is_visible("dialog#dialog .score-table")
    page.keyboard.press("Escape")

    # the game as a file, for stich replay and stich analyse: the server's record, which replays
    with page.expect_download() as download:
        page.click("#replay-download")
    saved = json.loads(Path(download.value.path()).read_text())
    assert download.value.suggested_filename == f"stichkit-{table}-1.json"
    assert saved == server.get(f"/api/tables/{table}/record")
    assert stichkit.replay(saved).is_terminal()


@pytest.mark.parametrize(
    "game,players,options",
    [("coiffeur", 4, {"sheet": "6-rows"}), ("differenzler", 4, {"deals": 2}), ("stichwahl", 4, {}),
     ("stichling", 4, {}), ("stichmeister", 5, {"players": 5}), ("stichmeister", 3, {"players": 3})],
)  # fmt: skip
def test_every_games_replay_shows_the_bottom_player_and_the_log_at_1280x800(
    game: str, players: int, options: dict[str, Any], server: Server, new_page: NewPage
) -> None:
    """Jass's replay is measured above; every other game's too, every hand open (Stich-Meister's
    five, or three of sixteen cards): the bottom player's plate and hand stay in the window at
    every frame of the first deal, and the log tells the moves."""
    table = server.post("/api/tables", {"game": game, "options": options, "seats": ["bot:random"] * players})["id"]
    deadline = time.monotonic() + 180
    while server.get(f"/api/tables/{table}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.3)
    page = new_page(1280, 800)
    page.goto(f"{server.url}/tables/{table}?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    lowest = 0.0

    def logged() -> int:
        return len(page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)"))

    # at least 30 frames, and on until ten moves are told: a Stich-Meister round's setup (rule
    # cards, passing, discarding, as its rule cards ask) may take most of the first 30 frames
    for step in range(150):
        if step >= 30 and logged() >= 10:
            break
        page.keyboard.press("ArrowRight")
        lowest = max(lowest, page.evaluate(BOTTOM))
    assert lowest <= 800, f"{game}: the bottom player is cut off at {lowest} px"
    assert logged() >= 10


def test_a_replay_before_the_end_says_when_it_can_be_seen(server: Server, new_page: NewPage) -> None:
    table = server.post("/api/tables", {"game": "stichwahl", "seats": ["human", "bot:random", "bot:random"]})["id"]
    page = new_page()
    page.goto(f"{server.url}/tables/{table}?replay=1")
    page.wait_for_selector(".notice")
    assert "läuft noch" in (page.text_content(".notice") or "")


def test_stichwahl_and_stichling_show_the_last_trick_across_a_deal(server: Server, new_page: NewPage) -> None:
    """At the first frame of the second deal, no trick of that deal is taken yet: the side panel
    shows the first deal's last trick (the views' last_trick), with who took it."""
    page = new_page()
    for game, seats, options in (
        ("stichling", ["bot:random"] * 2, {}),
        ("stichwahl", ["bot:random"] * 2, {"target": 40}),  # over 32 cards: never reached in one deal
    ):
        table = finished_game(server, game, seats, options)
        frames = server.get(f"/api/tables/{table}/replay")["frames"]
        second = next(i for i, f in enumerate(frames) if f["view"]["deal_number"] == 1)
        last = frames[second]["view"]["last_trick"]
        assert last["deal"] == 0 and frames[second]["view"]["tricks"] == []
        page.goto(f"{server.url}/tables/{table}?replay=1")
        page.wait_for_selector("#replay-bar .replay-controls")
        page.keyboard.press("PageDown")
        page.wait_for_function("n => document.querySelector('#main').dataset.frame === String(n)", arg=second)
        shown = page.eval_on_selector_all("#last [data-card]", "es => es.map(e => e.dataset.card)")
        plays = last["cards"] if game == "stichling" else last["plays"]
        assert shown == [p["card"] for p in plays], game
        assert (page.text_content("#last .trick-note b") or "").strip()  # who took it


def test_jass_shows_a_deals_last_trick_on_the_table_and_in_the_side_panel(server: Server, new_page: NewPage) -> None:
    """The frame after a deal's last card starts the next deal; the viewer holds the last trick on
    the table, and the side panel shows that same trick (not the one before it)."""
    table = finished_game(server, "jass", ["bot:random"] * 4, {"target": 300})
    frames = server.get(f"/api/tables/{table}/replay")["frames"]
    second = next(i for i, f in enumerate(frames) if f["view"]["deal_number"] == 1)
    last = frames[second]["view"]["last_trick"]
    assert last["deal"] == 0
    page = new_page()
    page.goto(f"{server.url}/tables/{table}?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    page.keyboard.press("PageDown")
    page.wait_for_function("n => document.querySelector('#main').dataset.frame === String(n)", arg=second)
    on_table = page.eval_on_selector_all(".trick [data-card]", "es => es.map(e => e.dataset.card)")
    in_panel = page.eval_on_selector_all("#last [data-card]", "es => es.map(e => e.dataset.card)")
    assert sorted(on_table) == sorted(last["cards"])
    assert sorted(in_panel) == sorted(last["cards"])


def test_the_replay_of_a_jass_game_says_what_each_card_cost(server: Server, new_page: NewPage) -> None:
    """'Analysieren' solves the game's cards on the server (a Jass game of Obenabe deals, quick to
    solve); each card's frame then says whether it was a best card, or what it cost and which
    cards were better, and the bar sums up the points each player lost."""
    game = played("jass", {"profile": "schieber", "target": 150, "first_forehand": 0}, 11, ("trump:obe",))
    store_game(server.db, "analysed", game, 11)
    expected = analyse(game, full=False)
    frames = server.get("/api/tables/analysed/replay")["frames"]
    cards = [i for i, f in enumerate(frames) if f["seat"] is not None and ":" not in f["action"]]
    assert len(cards) == len(expected.decisions)
    page = new_page()
    page.goto(f"{server.url}/tables/analysed?replay=1")
    page.wait_for_selector("#replay-analyse")
    page.click("#replay-analyse")
    page.wait_for_selector('#replay-analysis[data-status="done"]', timeout=120_000)
    # the result box's link (?analyse=1) shows the analysis without a click; done already: at once
    linked = new_page()
    linked.goto(f"{server.url}/tables/analysed?replay=1&analyse=1")
    linked.wait_for_selector('#replay-analysis[data-status="done"]', timeout=30_000)
    # the analysis' lines take room from the table, not from the bottom player
    bottom = page.evaluate(BOTTOM)
    assert bottom <= 800, f"the bottom player is cut off at {bottom} px"
    totals = page.text_content("#replay-analysis") or ""
    assert "Punkte verloren (alle Karten offen)" in totals
    lost = [(int(n), int(e)) for n, e in re.findall(r"(\d+) \((\d+) Fehler\)", totals)]
    assert lost == [(seat.lost, seat.errors) for seat in expected.totals()]

    def at(i: int) -> str:
        page.eval_on_selector("#replay-slider", "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }", i)
        return page.text_content("#replay-analysis") or ""

    assert "Keine Karte" in at(1)  # the trump choice
    costly = [k for k, d in enumerate(expected.decisions) if d.loss > 0]
    fine = next(k for k, d in enumerate(expected.decisions) if d.loss == 0)
    assert f"kostete {expected.decisions[costly[0]].loss} Punkte (besser: " in at(cards[costly[0]])
    assert ": beste Karte" in at(cards[fine])
    # "Nächster Fehler" (key E) steps from card to costly card, then round to the first again
    at(0)
    page.click("#replay-next-error")
    assert frame_shown(page) == cards[costly[0]]
    for k in [*costly[1:], costly[0]]:
        page.keyboard.press("e")
        assert frame_shown(page) == cards[k]


def test_the_replay_says_who_took_moves_back(server: Server, new_page: NewPage) -> None:
    game = played("stichling", {}, 5)
    store_game(server.db, "undone", game, 5, takebacks=[0, 2])
    store_game(server.db, "straight", game, 5)
    page = new_page()
    page.goto(f"{server.url}/tables/undone?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    said = page.text_content(".replay-takebacks") or ""
    assert said.startswith("Zurückgenommen: ") and said.endswith(" 2×") and "," not in said, said
    page.goto(f"{server.url}/tables/straight?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    assert page.query_selector(".replay-takebacks") is None
