"""The tournament page in Chromium, at a desktop and a phone size: opening a tournament and
registering through the page, being taken to one's table when a round begins, and the live and
final standings, whose every number is the API's."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPage, Server
from .test_layout import shots_dir
from .test_table_live import other_language, switch

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# The page's standings, cell by cell, and whether anything is wider than the window.
STANDINGS = """() => {
  const rows = [...document.querySelectorAll('#tour-standings tbody tr')].map(tr => ({
    entrant: tr.dataset.entrant,
    cells: [...tr.querySelectorAll('td, th')].map(c => c.textContent.trim()),
  }));
  const root = document.querySelector('.tournament');
  return { rows, rev: root ? Number(root.dataset.rev) : null, status: root ? root.dataset.status : null,
           sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth };
}"""


def sideways(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth"))


def api(page: Any, server: Server, method: str, path: str, body: Any = None) -> Any:
    """A call to the server as this browser's person (its cookies)."""
    req = page.context.request
    r = req.get(server.url + path) if method == "GET" else req.post(server.url + path, data=body or {})
    assert r.ok, f"{method} {path}: {r.status} {r.text()}"
    return r.json()


def number(value: float, lang: str = "de") -> str:
    """A number as the page writes it: at most 2 decimals, thousands apart (de-CH ’, en-GB ,)."""
    whole = abs(value - round(value)) < 1e-9
    text = f"{round(value):,}" if whole else f"{value:,.2f}".rstrip("0").rstrip(".")
    return text.replace(",", "’") if lang == "de" else text


@pytest.mark.parametrize("size", SIZES)
def test_open_register_and_be_taken_to_the_table(server: Server, new_page: NewPage, size: str, tmp_path: Path) -> None:
    width, height = SIZES[size]
    boss = new_page(width=width, height=height)
    boss.goto(server.url + "/tournaments")
    boss.wait_for_selector("#tour-open")
    assert boss.text_content("#tour-open-title") == "Ein Turnier eröffnen"
    assert not sideways(boss), f"{size}: the tournaments page scrolls sideways"
    boss.fill("#tour-open input[name=name]", f"Passe am Freitag {size}")
    boss.select_option("#tour-open select[name=game]", "coiffeur")
    assert not boss.is_visible("#tour-deals")  # Coiffeur's deals are its rows
    boss.select_option("#tour-open select[name=game]", "jass")
    boss.select_option("#tour-open select[name=format]", "passe")
    assert "jeder spielt einmal mit jedem" in boss.text_content("#tour-open-rule")
    assert boss.text_content("#tour-deals").strip() == "Spiele pro Runde (Passe: 12)"
    boss.fill("#tour-open input[name=rounds]", "1")
    boss.fill("#tour-open input[name=deals_per_round]", "12")  # a club's Passe
    boss.click("#tour-open-button")
    boss.wait_for_url(re.compile(r"/tournaments/[^/]+$"))
    tid = boss.url.rsplit("/", 1)[1]
    boss.wait_for_selector("#tour-organiser")
    assert boss.text_content("#tour-name") == f"Passe am Freitag {size}"
    opened = api(boss, server, "GET", f"/api/tournaments/{tid}")
    assert opened["settings"]["deals_per_round"] == 12 and opened["options"]["deals"] == 12
    assert "Passe mit wechselnden Partnern" in boss.text_content("#tour-meta")
    meta = "Jass (Schieber) · Passe mit wechselnden Partnern · 1 Runde · Anmeldung offen"
    assert boss.text_content("#tour-meta") == meta
    for n in (1, 2, 3):  # three bots fill the table
        boss.click("#tour-bot button[type=submit]")
        boss.wait_for_function(f"() => document.querySelectorAll('#tour-entrants li').length === {n}")

    # a player registers on the page (German), and sees it said
    beat = new_page(width=width, height=height, prefs={"name": "Beat"})
    beat.goto(f"{server.url}/tournaments/{tid}")
    beat.wait_for_selector("#tour-register")
    assert beat.input_value("#tour-register input[name=name]") == "Beat"
    assert beat.is_visible("#tour-register-button")
    beat.click("#tour-register-button")
    beat.wait_for_selector("#tour-you")
    assert beat.text_content("#tour-you").strip() == "Du spielst als Beat."
    assert beat.is_visible("#tour-leave")
    assert "Beat" in beat.text_content("#tour-entrants")
    assert not sideways(beat), f"{size}: the tournament page scrolls sideways"
    boss.wait_for_function("() => document.querySelectorAll('#tour-entrants li').length === 4")
    boss.screenshot(path=shots_dir(tmp_path) / f"tournament-organiser-{size}.png", full_page=True)
    beat.screenshot(path=shots_dir(tmp_path) / f"tournament-registered-{size}.png", full_page=True)
    doc = api(beat, server, "GET", f"/api/tournaments/{tid}")
    assert doc["you"]["name"] == "Beat" and [e["name"] for e in doc["entrants"]][-1] == "Beat"

    # the organiser starts; the player's page takes them to their table, seated
    boss.click("#tour-start")
    beat.wait_for_url(re.compile(r"/tables/[^/?]+$"), timeout=30_000)
    table = beat.url.rsplit("/", 1)[1]
    doc = api(beat, server, "GET", f"/api/tournaments/{tid}")
    assert doc["you"]["table"]["id"] == table
    beat.wait_for_selector("#hand .card", timeout=30_000)  # seated: the page shows the player's hand
    assert not sideways(beat), f"{size}: the table scrolls sideways"
    # back on the tournament page the player is not sent away again, and has a link to the table
    beat.goto(f"{server.url}/tournaments/{tid}")
    beat.wait_for_selector("#tour-your-table")
    time.sleep(2.5)  # a poll or more
    assert "/tournaments/" in beat.url
    assert beat.get_attribute("#tour-your-table", "href") == f"/tables/{table}"
    assert beat.text_content("#tour-your-table") == "Zu deinem Tisch (1)"
    api(boss, server, "POST", f"/api/tournaments/{tid}/end")


@pytest.mark.parametrize("size", SIZES)
def test_live_and_final_standings_are_the_apis(server: Server, new_page: NewPage, size: str, tmp_path: Path) -> None:
    width, height = SIZES[size]
    boss = new_page(width=width, height=height, prefs={"lang": "en"})
    spec = {"name": "Bots' evening", "game": "jass", "format": "passe", "rounds": 3, "options": {"target": 200}}
    tid = api(boss, server, "POST", "/api/tournaments", spec)["id"]
    for bot in ("random", "heuristic", "random", "heuristic"):
        api(boss, server, "POST", f"/api/tournaments/{tid}/bots", {"bot": bot})
    boss.goto(f"{server.url}/tournaments/{tid}")
    boss.wait_for_selector("#tour-standings")
    assert boss.text_content("#tour-standings-title") == "Standings"
    heads = boss.eval_on_selector_all("#tour-standings thead th", "ths => ths.map(th => th.innerText.trim())")
    legend = boss.inner_text(".tour-breaks")
    if size == "desktop":
        assert heads == ["#", "Player", "Points", "Wins", "Conceded", "Games"]
        assert legend == "Wins: games won · Conceded: the opponents' points (fewer is better)"
    else:  # short names on a phone, said in full below the table
        assert heads == ["#", "Player", "Pts", "W", "Con.", "G"]
        assert legend == "W = Wins: games won · Con. = Conceded: the opponents' points (fewer is better)"

    api(boss, server, "POST", f"/api/tournaments/{tid}/start")
    api(boss, server, "POST", f"/api/tournaments/{tid}/pause")  # round 1 is played; round 2 waits
    seen_live = compare_until(boss, server, tid, lambda doc: doc["rounds_played"][0]["status"] == "done")
    assert seen_live["status"] == "paused" and not seen_live["final"]
    assert boss.text_content("#tour-standings-title").startswith("Standings")
    api(boss, server, "POST", f"/api/tournaments/{tid}/resume")
    final = compare_until(boss, server, tid, lambda doc: doc["final"])
    assert boss.text_content("#tour-standings-title") == "Final standings"
    assert boss.text_content("#tour-final").startswith("The tournament is over. Won by:")
    # every game of the tournament with its replay
    games = sum(len(x["games"]) for r in final["rounds_played"] for x in r["tables"])
    assert boss.eval_on_selector_all(".tour-replay", "as => as.length") == games == 3
    href = boss.get_attribute(".tour-replay", "href")
    assert re.fullmatch(r"/tables/[^/]+\?replay=1", href or "")
    # the whole page in each language, with no word of the other
    assert not other_language(boss.inner_text("main"), "en")
    switch(boss, "de")
    assert boss.text_content("#tour-standings-title") == "Schlussrangliste"
    assert boss.text_content("#tour-final").startswith("Das Turnier ist beendet. Gewonnen:")
    assert not other_language(boss.inner_text("main"), "de")
    assert not sideways(boss)

    # the second table: the players by points lost per card, once a game is analysed
    assert "Noch keine Partie analysiert" in boss.inner_text("#tour-errors-title + p")
    assert boss.eval_on_selector_all(".tour-analyse", "as => as.length") == games
    analyse_first_game(server, final)
    boss.reload()
    boss.wait_for_selector("#tour-errors tbody tr")
    rows = api(boss, server, "GET", f"/api/tournaments/{tid}")["jass_errors"]
    assert len(rows) == 4
    cells = boss.eval_on_selector_all(
        "#tour-errors tbody tr", "trs => trs.map(tr => [...tr.children].map(c => c.textContent.trim()))"
    )
    assert cells == [
        [str(i + 1), r["name"], number(r["per_card"], "de"), str(r["lost"]), str(r["cards"]), str(r["games"])]
        for i, r in enumerate(rows)
    ]
    assert not sideways(boss)
    boss.screenshot(path=shots_dir(tmp_path) / f"tournament-final-{size}.png", full_page=True)


def analyse_first_game(server: Server, doc: dict[str, Any]) -> None:
    """An analysis of the tournament's first game kept as the server keeps one (made up numbers:
    the solver takes minutes)."""
    from stichkit.server.db.engine import make_engine, parse_db_url
    from stichkit.server.db.store import Store

    table = doc["rounds_played"][0]["tables"][0]["table"]
    seats = [{"seat": s, "decisions": 36, "errors": s, "lost": 7 * s + 3} for s in range(4)]
    engine = make_engine(parse_db_url(server.db))
    try:
        Store(engine).save_analysis(table, 1, {"status": "done", "analysis": {"seats": seats}}, time.time())
    finally:
        engine.dispose()


def compare_until(
    page: Any, server: Server, tid: str, done: Any, lang: str = "en", timeout: float = 90.0
) -> dict[str, Any]:
    """Until `done(doc)`: whenever the page shows the API's revision, its standings are the API's,
    number by number. The document it ended on."""
    deadline = time.monotonic() + timeout
    compared = 0
    while time.monotonic() < deadline:
        doc = api(page, server, "GET", f"/api/tournaments/{tid}")
        try:
            page.wait_for_function(f"() => Number(document.querySelector('.tournament').dataset.rev) >= {doc['rev']}",
                                   timeout=5000)  # fmt: skip
        except Exception:
            continue
        shown = page.evaluate(STANDINGS)
        assert not shown["sideways"], "the tournament page scrolls sideways"
        if shown["rev"] != doc["rev"]:
            continue  # it moved on meanwhile
        assert [r["entrant"] for r in shown["rows"]] == [s["entrant"] for s in doc["standings"]]
        for row, s in zip(shown["rows"], doc["standings"], strict=True):
            rank, name, score, *breaks, games = row["cells"]
            assert int(rank) == s["rank"]
            assert name.startswith(s["name"])
            assert score == number(s["score"], lang)
            assert breaks == [number(b["value"], lang) for b in s["tiebreaks"]]
            assert games.split()[0] == str(s["games"])
        compared += 1
        if done(doc):
            assert compared
            return doc
        time.sleep(0.5)
    raise AssertionError(f"the tournament did not get there within {timeout} s")


def test_a_logged_in_player_registers_under_the_accounts_name(server: Server, new_page: NewPage) -> None:
    """For a tournament of account holders: the page says so to a guest, and a logged-in player
    registers under the user name (the field fixed), on a phone."""
    from .test_friends_chat import logged_in

    boss = new_page()
    spec = {"name": "Club evening", "game": "jass", "format": "passe", "registration": "accounts"}
    tid = api(boss, server, "POST", "/api/tournaments", spec)["id"]
    guest = new_page(width=390, height=844)
    guest.goto(f"{server.url}/tournaments/{tid}")
    guest.wait_for_selector("#tour-register")
    assert "Nur mit Konto" in guest.inner_text("#tour-register")
    guest.click("#tour-register-button")
    guest.wait_for_function("() => document.querySelector('#tour-message').textContent.length > 0")
    assert guest.text_content("#tour-message") == (
        "Hier darfst du dich nicht anmelden: das Turnier nimmt nur Spieler mit Konto oder mit Einladungslink."
    )
    page, name = logged_in(new_page, server, "Heidi", width=390, height=844)
    page.goto(f"{server.url}/tournaments/{tid}")
    page.wait_for_selector("#tour-register")
    field = page.locator("#tour-register input[name=name]")
    assert field.input_value() == name and field.get_attribute("readonly") is not None
    page.click("#tour-register-button")
    page.wait_for_selector("#tour-you")
    assert page.text_content("#tour-you").strip() == f"Du spielst als {name}."
    assert not sideways(page) and not sideways(guest)
