"""A person plays whole games in the page against bots, only by clicking what the page offers;
an illegal card shows the reason in the page's language; the keyboard alone can play."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from .conftest import NewPage, Server
from .driver import (
    click_and_wait,
    displayed_cards,
    offers,
    open_by_api,
    open_from_lobby,
    phase,
    play_one,
    play_to_end,
    table_id,
    version,
    wait_ready,
)

# Short games: a low target where the game has one, few players where that makes it shorter.
GAMES: dict[str, dict[str, Any]] = {
    "jass": {"options": {"target": 300}, "players": None},
    "differenzler": {"options": {"deals": 1}, "players": None},
    "coiffeur": {"options": {"rows": "slalom1 D2"}, "players": None},
    "stichwahl": {"options": {"target": 6}, "players": 3},
    "stichling": {"options": {}, "players": 2},
    "stichmeister": {"options": {}, "players": 3},
}


def shown_scores(page: Any) -> dict[int, int]:
    return {
        int(k): int(v)
        for k, v in page.eval_on_selector_all(
            "#info [data-score]", "els => els.map(e => [e.dataset.score, e.textContent])"
        )
    }


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_against_bots_by_clicking(game: str, server: Server, new_page: NewPage) -> None:
    page = new_page()
    spec = GAMES[game]
    n = spec["players"] or 4
    table = open_from_lobby(
        page, server, game, players=spec["players"], seats=["bot:random"] * (n - 1), options=spec["options"]
    )
    moves = play_to_end(page, random.Random(game))
    assert moves >= 1
    assert phase(page) == "over"
    result = server.get(f"/api/tables/{table}")["result"]
    assert page.is_visible(".result .winners")
    shown = shown_scores(page)
    if game in ("jass", "coiffeur"):
        assert shown == {0: result["scores"][0], 1: result["scores"][1]}
    elif game == "differenzler":  # the penalties, which scores() gives negated
        assert shown == {s: -x for s, x in enumerate(result["scores"])}
    else:
        assert shown == dict(enumerate(result["scores"]))
    winners = page.text_content(".result .winners") or ""
    assert "Gewonnen" in winners
    # a finished Jass game offers its analysis beside the replay (docs/page.md)
    analyse = page.query_selector('.result a[href*="analyse=1"]')
    assert (analyse is not None) == (game == "jass")
    if analyse is not None:
        assert analyse.text_content() == "Analysieren"
        assert analyse.get_attribute("href") == f"/tables/{table}?replay=1&analyse=1"
    # the score sheet of every deal opens from the side panel
    page.click("#btn-scores")
    assert page.is_visible("dialog#dialog .score-table")
    page.keyboard.press("Escape")


def test_an_illegal_card_shows_the_reason_in_german_and_plays_nothing(server: Server, new_page: NewPage) -> None:
    """The page writes the reason from the engine's reason_code and reason_params, not its English."""
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    rng = random.Random(7)
    for _ in range(200):
        assert wait_ready(page) == "act", "the game ended before a card was illegal"
        illegal = page.query_selector_all(".hand-card.illegal")
        if illegal and phase(page) == "play":
            break
        play_one(page, rng)
    else:
        raise AssertionError("no illegal card came up in 200 moves")
    hand_before = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.card)")
    before = version(page)
    click_and_wait(page, illegal[0])
    message = page.text_content("#message") or ""
    assert message.startswith("Nicht erlaubt: ")
    german = r"Du musst .+ angeben|Untertrumpfen ist nicht erlaubt|Trumpf ist ausgespielt: Du musst Trumpf angeben"
    assert re.search(german, message), message
    assert not re.search(r"\bmust\b|may not|cannot|undertrump", message), message
    assert version(page) == before
    assert page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.card)") == hand_before
    # a legal card is then played as usual and the message goes away
    click_and_wait(page, ".hand-card.legal")
    assert version(page) > before
    assert not (page.text_content("#message") or "").strip()


# The shared must_follow code of three games, in each game's words: one card code and suit each.
FOLLOW = {"jass": ("H", "H6"), "stichwahl": ("O", "O3"), "stichmeister": ("K", "K4")}


def test_follow_suit_reads_in_each_games_words(server: Server, new_page: NewPage) -> None:
    """German players "bedienen" (the rulebooks of Stichwahl and Stich-Meister), Jass players
    "angeben" (the page's Jass text); English says "follow" for all. Written by the page's own
    reasonText for each game's module, in both languages, the cards by their short names (a
    Stichwahl card's full name lists its pearls and bonus, with commas of its own)."""
    page = new_page()
    page.goto(server.url)
    texts = page.evaluate(
        """async (follow) => {
          const common = await import("/static/js/games/common.js");
          const i18n = await import("/static/js/i18n.js");
          const prefs = await import("/static/js/prefs.js");
          const out = {};
          for (const lang of ["de", "en"]) {
            prefs.set("lang", lang);
            for (const [name, [suit, card]] of Object.entries(follow)) {
              const game = (await import(`/static/js/games/${name}.js`)).default;
              // Stichwahl's card data as the catalog gives it: a full name would add pearls and bonus
              const data = { cards: { O3: { pearls: 2, bonus: "pearl" } } };
              const ctx = { has: i18n.has, t: i18n.t, lang, deck: "seed", n: 4, data, name: String };
              ctx.cardName = (c) => game.cardName(c, ctx);
              out[`${lang} ${name}`] = common.reasonText(game, ctx, "must_follow", { suit, cards: [card] });
            }
          }
          return out;
        }""",
        {name: list(codes) for name, codes in FOLLOW.items()},
    )
    assert texts == {
        "de jass": "Du musst Zug angeben: Zug-Sechs.",
        "de stichwahl": "Du musst Orca bedienen: Orca 3.",
        "de stichmeister": "Du musst Koi bedienen: Koi 4.",
        "en jass": "You must follow Zug (train): Six of Zug (train).",
        "en stichwahl": "You must follow Orca: Orca 3.",
        "en stichmeister": "You must follow Koi: Koi 4.",
    }, texts
    assert not page.js_errors


def test_the_keyboard_alone_plays(server: Server, new_page: NewPage) -> None:
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    played = 0
    while played < 6:
        assert wait_ready(page) == "act"
        before = version(page)
        if page.query_selector(".choices .choice[data-action]"):
            page.keyboard.press("1")  # the first button: a trump
        else:
            page.keyboard.press("ArrowRight")  # focus goes to the first legal card
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused and page.evaluate("document.activeElement.classList.contains('legal')")
            page.keyboard.press("Enter")
        page.wait_for_function("(b) => Number(document.querySelector('.table-page').dataset.version) > b", arg=before)
        played += 1
    # S opens the tricks of this deal, Escape closes it
    page.keyboard.press("s")
    assert page.is_visible("dialog#dialog .tricks-list, dialog#dialog .muted")
    page.keyboard.press("Escape")
    assert not page.is_visible("dialog#dialog")


def test_the_jass_lobby_offers_the_master_bot_and_it_plays(server: Server, new_page: NewPage) -> None:
    """pimc, the strongest Jass bot (docs/benchmarks.md), is a level of the lobby for the games that
    play Jass's cards (Jass, Differenzler, Coiffeur): it solves their deals, so the other games do
    not offer it."""
    page = new_page()
    page.goto(server.url + "/")
    levels = 'select[name="seat1"] option'
    page.click('.game-tile[data-game="stichwahl"]')
    assert "bot:pimc" not in page.eval_on_selector_all(levels, "os => os.map(o => o.value)")
    page.click('.game-tile[data-game="jass"]')
    offered = dict(page.eval_on_selector_all(levels, "os => os.map(o => [o.value, o.textContent])"))
    assert offered["bot:pimc"] == "Bot: Meister (rechnet durch)"
    table = open_from_lobby(page, server, "jass", seats=["bot:pimc"] * 3, options={"target": 300})
    info = server.get(f"/api/tables/{table}")
    assert [s["name"] for s in info["seats"][1:]] == ["pimc"] * 3
    page.wait_for_selector(".seat .bot-tag")  # the seats come with the table's first message
    titles = page.eval_on_selector_all(".seat .bot-tag", "els => els.map(e => e.getAttribute('title'))")
    assert titles == ["Bot (Meister)"] * 3
    rng = random.Random(13)
    for _ in range(2):  # the bots choose trump or play between the person's moves
        assert wait_ready(page, timeout=60_000) == "act"
        play_one(page, rng)
    wait_ready(page, timeout=60_000)
    assert version(page) >= 5, "the master bots did not move"


def test_a_hint_outlines_what_the_bot_would_play_and_says_it(server: Server, new_page: NewPage) -> None:
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    for asked_by in ("button", "key"):
        assert wait_ready(page) == "act"
        before = version(page)
        if asked_by == "button":
            page.click('[data-cmd="hint"]')
        else:
            page.keyboard.press("t")
        page.wait_for_selector(".hinted", timeout=30_000)
        said = page.text_content("#message") or ""
        assert said.startswith("Tipp: "), said
        hinted = page.query_selector_all(".hinted")
        assert len(hinted) == 1
        # the hinted card or button is one of the legal ones, and named in the message
        words = """el => { const c = el.cloneNode(true);
                     c.querySelectorAll('kbd, svg, img, [aria-hidden="true"]').forEach((k) => k.remove());
                     return c.textContent.replace(/\\s+/g, ' ').trim(); }"""
        name = hinted[0].get_attribute("aria-label") or hinted[0].get_attribute("title") or hinted[0].evaluate(words)
        assert name and name.strip() in said, (name, said)
        assert not said.removeprefix("Tipp: ")[:1].isdigit(), said  # a button's key number is not said
        click_and_wait(page, hinted[0])
        assert version(page) > before
    # a table opened in the lobby with "Tipps erlaubt" and "Zurücknehmen erlaubt" unticked shows
    # neither button
    quiet = new_page()
    quiet.goto(server.url + "/")
    quiet.click('.game-tile[data-game="jass"]')
    quiet.fill('input[name="name"]', "Anna")
    for i in (1, 2, 3):
        quiet.select_option(f'select[name="seat{i}"]', "bot:random")
    quiet.click("details.more summary")
    quiet.uncheck('input[name="hints"]')
    quiet.uncheck('input[name="takebacks"]')
    quiet.click("#open-table")
    quiet.wait_for_url(re.compile(r"/tables/"), timeout=30_000)
    settings = server.get(f"/api/tables/{table_id(quiet)}")["settings"]
    assert settings["hints"] is False and settings["takebacks"] is False
    assert wait_ready(quiet) == "act"
    assert quiet.query_selector('[data-cmd="hint"]') is None
    play_one(quiet, random.Random(2))
    assert wait_ready(quiet) == "act"
    assert quiet.query_selector('[data-cmd="takeback"]') is None


def test_a_move_taken_back_shows_the_earlier_table_again(server: Server, new_page: NewPage) -> None:
    """Alone with bots, the player takes its last move back (button, then key Z): the page shows
    the table as it was before that move, says so in the log, and play goes on from there."""
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    rng = random.Random(5)
    for asked_by in ("button", "key"):
        assert wait_ready(page) == "act"
        before = displayed_cards(page)
        offered = sorted(offers(page))
        play_one(page, rng)
        assert wait_ready(page) == "act"
        assert version(page) > before[0]
        if asked_by == "button":
            page.click('[data-cmd="takeback"]')
        else:
            page.keyboard.press("z")
        page.wait_for_function("(v) => Number(document.querySelector('.table-page').dataset.version) === v",
                               arg=before[0])  # fmt: skip
        assert wait_ready(page) == "act"
        assert displayed_cards(page) == before and sorted(offers(page)) == offered
        assert "Anna hat Züge zurückgenommen." in (page.text_content("#log") or "")
        assert server.get(f"/api/tables/{table}")["version"] == before[0]
    play_one(page, rng)  # and play goes on
    assert version(page) > before[0]
