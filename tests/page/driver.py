"""Driving the table page like a person: read what the page offers (highlighted cards, buttons),
click one, wait for the table to answer. Nothing here talks to the game engine."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server

# What the page offers its player: choice buttons, pickable trick cards, legal hand cards.
OFFERS = ".choices .choice[data-action], .trick-pick, .hand-card.legal"
READY = """(offers) => {
  const p = document.querySelector('.table-page');
  if (!p) return false;
  if (p.dataset.phase === 'over') return 'over';
  return document.querySelector(offers) ? 'act' : false;
}"""


def version(page: Any) -> int:
    v = page.eval_on_selector(".table-page", "p => p.dataset.version")
    return int(v) if v not in (None, "") else -1


def phase(page: Any) -> str:
    return str(page.eval_on_selector(".table-page", "p => p.dataset.phase"))


def table_id(page: Any) -> str:
    m = re.search(r"/tables/([^/?#]+)", page.url)
    assert m, f"not at a table: {page.url}"
    return m.group(1)


def wait_ready(page: Any, timeout: float = 30_000) -> str:
    """Wait until the page offers a move ('act') or shows the game's end ('over')."""
    return str(page.wait_for_function(READY, arg=OFFERS, timeout=timeout).json_value())


def click_and_wait(page: Any, target: Any) -> None:
    """Click (an element handle or a selector), then wait for the table to move on, a card to be
    picked (Stichling) or a refusal. A selector is looked up afresh, as the table redraws often."""
    before = version(page)
    if isinstance(target, str):
        try:
            page.locator(target).first.click(timeout=5_000)
        except PlaywrightTimeout:
            return  # the table moved on and took this offer away: look again
    else:
        target.click()
    page.wait_for_function(
        """(before) => {
          const p = document.querySelector('.table-page');
          if (p && Number(p.dataset.version) !== before) return true;
          if (document.querySelector('.hand-card.selected')) return true;
          const m = document.querySelector('#message');
          return !!(m && m.classList.contains('error') && m.textContent);
        }""",
        arg=before,
        timeout=30_000,
    )


def offers(page: Any) -> list[str]:
    """Selectors of what the page offers now; once a Stichling card is picked, only its places."""
    return page.evaluate(
        """(sel) => {
          const picked = !!document.querySelector('.hand-card.selected');
          const els = [...document.querySelectorAll(picked ? '.choices .choice[data-action]' : sel)];
          return els.map(e => e.dataset.action ? `.choices .choice[data-action="${e.dataset.action}"]`
            : e.dataset.trickAction ? `.trick-pick[data-trick-action="${e.dataset.trickAction}"]`
            : `.hand-card.legal[data-card="${e.dataset.card}"]`);
        }""",
        OFFERS,
    )


def play_one(page: Any, rng: random.Random) -> str:
    """Make one move the way a player reads the page: pick one of the offered cards or buttons
    (answers its selector, or "" when the game ended before the page offered anything)."""
    for _ in range(50):  # the table may be redrawing right now
        choices = offers(page)
        if choices:
            break
        if phase(page) == "over":
            return ""  # the offer seen a moment ago went with the bots' last moves: nothing to do
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"the page offers nothing to do: {page.inner_html('#me-area')[:3000]}")
    target = rng.choice(choices)
    click_and_wait(page, target)
    return target


def play_to_end(page: Any, rng: random.Random, max_moves: int = 600) -> int:
    """Play until the page shows the end of the game; answers the number of moves made."""
    for moves in range(max_moves):
        if wait_ready(page) == "over":
            return moves
        play_one(page, rng)
    raise AssertionError(f"the game did not end within {max_moves} moves")


def open_from_lobby(
    page: Any,
    server: Server,
    game: str,
    *,
    name: str = "Anna",
    players: int | None = None,
    seats: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> str:
    """Open a table through the lobby form, as a newcomer would; answers the table's id."""
    page.goto(server.url + "/")
    page.click(f'.game-tile[data-game="{game}"]')
    page.fill('input[name="name"]', name)
    if players is not None:
        page.select_option('select[name="players"]', str(players))
    for i, seat in enumerate(seats or [], start=1):
        page.select_option(f'select[name="seat{i}"]', seat)
    for key, value in (options or {}).items():
        el = page.query_selector(f'[name="opt:{key}"]')
        assert el is not None, f"the lobby has no field for the option {key}"
        kind = el.evaluate("e => e.tagName + ':' + (e.type || '')")
        if kind.endswith("radio"):
            page.click(f'label:has([name="opt:{key}"][value="{value}"])')
            continue
        offered = el.evaluate("e => e.tagName === 'SELECT' ? [...e.options].map(o => o.value) : []")
        if kind.startswith("SELECT") and str(value) not in offered and "other" in offered:
            el.select_option("other")  # a target the menu does not list: "another number"
            page.fill(f'[name="opt:{key}-other"]', str(value))
        elif kind.startswith("SELECT"):
            el.select_option(str(value))
        elif kind.endswith("checkbox"):
            el.set_checked(bool(value))
        else:
            el.fill(str(value))
    page.click("#open-table")
    page.wait_for_url(re.compile(r"/tables/"), timeout=30_000)
    page.wait_for_selector(".table-page")
    return table_id(page)


def open_by_api(
    server: Server, game: str, seats: list[str], options: dict[str, Any] | None = None, name: str = "Anna"
) -> tuple[str, dict[str, Any]]:
    """Open a table with the HTTP API and claim its first human seat: (table id, stored seat)."""
    table = server.post("/api/tables", {"game": game, "options": options or {}, "seats": seats})
    joined = server.post(f"/api/tables/{table['id']}/join", {"name": name, "seat": seats.index("human")})
    return table["id"], {"seat": joined["seat"], "token": joined["token"], "name": name}


def displayed_cards(page: Any) -> tuple[int, list[str]]:
    """The version on screen and every card drawn face up on the page."""
    return page.evaluate(
        """() => [Number(document.querySelector('.table-page')?.dataset.version ?? -1),
                 [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)]"""
    )
