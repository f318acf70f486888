"""Each game's table at a desktop size and at a phone size: screenshots, and a check that no two
cards or panels overlap and that nothing falls outside the window. The screenshots go to
$STICHKIT_SCREENSHOTS when it is set (the pictures in docs/ come from there), else to a
temporary directory."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPage, Server
from .driver import open_by_api, phase, play_one, wait_ready

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# A full table of each game; Stich-Meister with five players, the fullest table there is.
TABLES = {"jass": 4, "coiffeur": 4, "differenzler": 4, "stichwahl": 4, "stichling": 4, "stichmeister": 5}

# Every card and panel on the page, with what is wrong with the layout: pairs that overlap (one
# inside the other is fine: a card on a panel), and boxes outside the window's width.
LAYOUT = """() => {
  const sel = '.card, .panel, .seat, .place, .choice, .status, .hand';
  const els = [...document.querySelectorAll(sel)].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  });
  const name = e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.')
    + (e.dataset.card ? '[' + e.dataset.card + ']' : '');
  const boxes = els.map(e => { const r = e.getBoundingClientRect();
    return { e, l: r.left + scrollX, t: r.top + scrollY, r: r.right + scrollX, b: r.bottom + scrollY }; });
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
    const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (w > 1 && h > 1) overlaps.push(name(a.e) + ' / ' + name(b.e) + ` (${w.toFixed(0)}x${h.toFixed(0)})`);
  }
  const width = document.documentElement.clientWidth;
  const outside = boxes.filter(x => x.l < -1 || x.r > width + 1)
    .map(x => name(x.e) + ` ${x.l.toFixed(0)}..${x.r.toFixed(0)}`);
  const hand = document.querySelector('#hand');
  return { overlaps, outside, count: boxes.length, scrollWidth: document.documentElement.scrollWidth, width,
           handBottom: hand ? hand.getBoundingClientRect().bottom : 0, height: innerHeight };
}"""


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("STICHKIT_SCREENSHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def play_into_a_trick(page: Any, rng: random.Random) -> None:
    """Play until it is the player's turn in the middle of a trick (or of Stichling's places)."""
    for _ in range(80):
        assert wait_ready(page) == "act"
        busy = page.eval_on_selector_all(".center .played", "els => els.length")
        if phase(page) == "play" and busy >= 2 and page.query_selector(".hand-card.legal"):
            return
        play_one(page, rng)
    raise AssertionError("no trick came up")


def check_layout(page: Any, size: str) -> None:
    res = page.evaluate(LAYOUT)
    assert res["count"] > 10
    assert not res["overlaps"], f"{size}: overlapping: {res['overlaps'][:8]}"
    assert not res["outside"], f"{size}: outside the window: {res['outside'][:8]}"
    assert res["scrollWidth"] <= res["width"], f"{size}: the page scrolls sideways"
    if size == "desktop":
        assert res["handBottom"] <= res["height"], "desktop: the hand is below the window"


@pytest.mark.parametrize("game", list(TABLES))
def test_each_table_fits_a_desktop_and_a_phone(game: str, server: Server, new_page: NewPage, tmp_path: Path) -> None:
    seats = ["human"] + ["bot:random"] * (TABLES[game] - 1)
    table, seat = open_by_api(server, game, seats)
    page = new_page(*SIZES["desktop"], seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    play_into_a_trick(page, random.Random(game))
    out = shots_dir(tmp_path)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(400)  # the hand's cards are sized to the new width
        page.screenshot(path=str(out / f"table-{game}-{size}.png"))
        check_layout(page, size)


def test_language_deck_and_animations_switch(server: Server, new_page: NewPage) -> None:
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat}, prefs={"animations": True})
    page.goto(f"{server.url}/tables/{table}")
    wait_ready(page)
    assert page.get_attribute("html", "lang") == "de"
    assert "Auf dem Tisch" in (page.text_content("#info-title") or "")
    # a table opened through the API has no name: the page names it in the reader's language
    assert page.text_content("#crumb") == "Tisch für Jass (Schieber)"
    page.click('.lang-switch [data-lang="en"]')
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert "On the table" in (page.text_content("#info-title") or "")
    assert page.text_content("#crumb") == "Jass (Schieber) table"
    assert "to move" in (page.text_content(".bottom-seat") or "")
    # the Swiss German deck: the cards' names change with it
    page.click("#btn-settings")
    page.check('input[name="deck"][value="swiss"]')
    page.keyboard.press("Escape")
    labels = " ".join(page.eval_on_selector_all(".hand-card", "els => els.map(e => e.getAttribute('aria-label'))"))
    assert any(s in labels for s in ("Bells", "Roses", "Shields", "Acorns")), labels
    # animations off: the page says so on its body, which stops every transition
    assert not page.evaluate("document.body.classList.contains('no-anim')")
    page.click("#btn-settings")
    page.uncheck('input[name="animations"]')
    page.keyboard.press("Escape")
    assert page.evaluate("document.body.classList.contains('no-anim')")
    page.click('.lang-switch [data-lang="de"]')
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert "Auf dem Tisch" in (page.text_content("#info-title") or "")
