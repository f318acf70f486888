"""What a player sees of the table, measured in Chromium: the hand at every kind of decision of
every game and at four window sizes; a phone's table holding still through a whole deal; every
number at a deal's end agreeing with the engine's view; trump (or the rules in force) in view on a
phone. The page is fed the server's messages by positions.py, so each decision comes at once."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import NewPage, Server
from .positions import DECISIONS, Stage, at_decision, deal_ends, game_of, new_state, one_deal, two_ways
from .test_table_live import other_language

# The windows the hand is measured at, and how tall its cards must be there.
WINDOWS = [((1280, 800), 80), ((1366, 768), 80), ((1920, 1080), 80), ((390, 844), 56)]

HAND = """() => {
  const cards = [...document.querySelectorAll('#hand .hand-card')].map(e => e.getBoundingClientRect());
  const choices = document.querySelector('#choices');
  const hand = document.querySelector('#hand').getBoundingClientRect();
  const inHand = choices && document.querySelector('#me-area').contains(choices);
  // what its box cuts off: a plate of fixed height, the strip with trump, a button (shown at all)
  const boxes = '.felt .seat, #brief .brief-info, #brief .brief-line, #choices .choice';
  const clipped = [...document.querySelectorAll(boxes)]
    .filter(e => e.getClientRects().length
      && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1))
    .map(e => `${e.className}${e.dataset.seat ? ' ' + e.dataset.seat : ''}: ${e.scrollWidth}x${e.scrollHeight}`
      + ` in ${e.clientWidth}x${e.clientHeight} "${e.innerText.replace(/\\s+/g, ' ').slice(0, 60)}"`);
  return { heights: cards.map(r => r.height), bottom: Math.max(...cards.map(r => r.bottom)), top: hand.top,
           choicesInHandArea: !!inHand, buttons: document.querySelectorAll('#choices .choice').length,
           height: innerHeight, clipped };
}"""


@pytest.mark.parametrize("table", list(DECISIONS))
def test_the_hand_keeps_its_size_through_every_decision(table: str, server: Server, new_page: NewPage) -> None:
    """Choosing trump, a first bonus card or a rule card, a full trick of three rows: the hand's
    cards stay at least 80 px tall on a desktop and 56 px on a phone, whole in the window; the
    decision's buttons take the middle of the table, not the hand's room."""
    page = new_page(1280, 800)
    first = at_decision(table, DECISIONS[table][0])
    stage = Stage(page, server.url, table, first)
    clipped: list[str] = []
    for kind in DECISIONS[table]:
        state = first if kind == DECISIONS[table][0] else at_decision(table, kind)
        stage.feed(state, fresh=True)
        if game_of(table) == "stichling" and kind == "play":
            card = two_ways([a.text for a in state.legal_actions()])
            page.click(f'#hand .hand-card[data-card="{card}"]')  # the card first, then its place: buttons come
            page.wait_for_selector("#choices .choice")
        for (w, h), least in WINDOWS:
            page.set_viewport_size({"width": w, "height": h})
            stage.frame()
            got = page.evaluate(HAND)
            where = f"{table} {kind} at {w}x{h}"
            assert got["heights"] and min(got["heights"]) >= least, f"{where}: cards {min(got['heights']):.0f} px tall"
            assert got["bottom"] <= got["height"] + 1, f"{where}: the hand goes below the window"
            assert not got["choicesInHandArea"], f"{where}: the buttons sit with the hand"
            clipped.extend(f"{where}: {c}" for c in got["clipped"])
        page.set_viewport_size({"width": 1280, "height": 800})
    assert not clipped, "cut off:\n" + "\n".join(clipped)


# Where the hand and every seat plate are, to the pixel; and what a plate or the strip cuts off.
PLACES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; };
  const out = { hand: box(document.querySelector('#hand')), brief: box(document.querySelector('#brief')) };
  for (const s of document.querySelectorAll('.felt .seat')) out['seat' + s.dataset.seat] = box(s);
  const cut = [...document.querySelectorAll('.felt .seat, #brief .brief-info, #brief .brief-line')]
    .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.dataset.seat ?? 'brief'} "${e.innerText.replace(/\\s+/g, ' ').slice(0, 60)}"`);
  return { places: out, cut };
}"""


# every game, and the variants that put more on the plates (a Weis announced, open predictions)
WHOLE_DEALS = ["jass", "jass-swisslos", "coiffeur", "coiffeur-around", "differenzler", "differenzler-open", "stichwahl",
               "stichling", "stichmeister", "stichmeister-5"]  # fmt: skip


@pytest.mark.parametrize("table", WHOLE_DEALS)
def test_on_a_phone_nothing_moves_while_a_deal_is_played(table: str, server: Server, new_page: NewPage) -> None:
    """Every state of a whole deal, the taken tricks and the deal's summary between them: the
    hand's top and every seat plate stay where they were, within 4 px, and no plate of its fixed
    height nor the strip with trump cuts off what it holds."""
    page = new_page(390, 844, prefs={"speed": "normal"})
    states = list(one_deal(table, seed=3))
    stage = Stage(page, server.url, table, states[0])
    seen: list[dict[str, list[int]]] = []
    cut: set[str] = set()

    def shot() -> None:
        got = page.evaluate(PLACES)
        seen.append(got["places"])
        cut.update(got["cut"])

    for state in states:
        stage.feed(state, wait=False)
        stage.settle(len(state.history()), each=shot)
    assert len(seen) >= len(states)
    for key in seen[0]:
        xs = [s[key][0] for s in seen if key in s]
        ys = [s[key][1] for s in seen if key in s]
        moved = f"{table}: {key} moved: x {sorted(set(xs))}, y {sorted(set(ys))}"
        assert max(xs) - min(xs) <= 4 and max(ys) - min(ys) <= 4, moved
    assert not cut, f"{table}: cut off: {sorted(cut)}"


# Every number a deal's end shows: the summary's totals, the side panel's scores, the seats' chips.
NUMBERS = """() => {
  const num = (e) => Number(e.textContent.trim());
  const total = document.querySelector('.deal-summary tr.total, .deal-summary tbody tr:last-child');
  return {
    summary: !!document.querySelector('.deal-summary'),
    totals: total ? [...total.querySelectorAll('td')].slice(1).map(num) : null,
    panel: Object.fromEntries([...document.querySelectorAll('#info [data-score]')].map(e => [e.dataset.score, num(e)])),
    chips: Object.fromEntries([...document.querySelectorAll('.felt .seat')]
      .map(s => [s.dataset.seat, num(s.querySelector('.seat-score'))])),
    turn: document.querySelectorAll('.felt .seat.turn').length,
    dealPoints: [...document.querySelectorAll('#info .team-points small, #info .player-score small')]
      .map(e => e.textContent),
  };
}"""


STAGES: dict[int, Stage] = {}


def engine_numbers(table: str, after: Any) -> tuple[list[int], dict[str, int], dict[str, int]]:
    """The totals, the side panel's scores and the chips as the engine's view after the deal has them."""
    view = after.view(0)
    scores = list(view["penalties"] if game_of(table) == "differenzler" else view["scores"])
    teams = game_of(table) in ("jass", "coiffeur")
    chips = {str(s): scores[s % 2] if teams else scores[s] for s in range(after.game.num_players)}
    return scores, {str(i): v for i, v in enumerate(scores)}, chips


@pytest.mark.parametrize("table", WHOLE_DEALS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_at_a_deals_end_every_number_agrees_with_the_engine(
    table: str, seed: int, server: Server, new_page: NewPage
) -> None:
    """Random games of every game, up to three deal ends each: while the deal's summary is shown,
    its totals, the side panel and the seats' chips say the engine's scores after the deal, and
    nobody is to move; then the new deal shows the same numbers."""
    # one page for all of the test's examples (the fixture is the same for each of them)
    if id(new_page) not in STAGES:
        first = next(deal_ends(table, 0))[0]
        STAGES[id(new_page)] = Stage(new_page(1280, 800, prefs={"speed": "normal"}), server.url, table, first)
    stage = STAGES[id(new_page)]
    page = stage.page
    for before, after in deal_ends(table, seed):
        stage.feed(before, fresh=True)
        stage.feed(after, wait=False)
        totals, panel, chips = engine_numbers(table, after)
        where = f"{table} seed {seed} at version {len(after.history())}"
        # the deal's last trick, announced: its numbers are the engine's after the deal already
        page.wait_for_selector(".deal-summary, #banner:not([hidden])", timeout=10_000)
        if not page.query_selector(".deal-summary"):
            held = page.evaluate(NUMBERS)
            shows = f"{where}: the last trick shows {held}"
            assert (held["panel"], held["chips"], held["turn"]) == (panel, chips, 0), shows
            page.click("#banner")  # a tap goes on at once
        page.wait_for_selector(".deal-summary", timeout=2_000)
        got = page.evaluate(NUMBERS)
        if game_of(table) != "stichmeister":  # Stich-Meister's summary is the round's own points
            assert got["totals"] == totals, f"{where}: the summary says {got['totals']}, the engine {totals}"
        else:
            assert got["totals"] == list(after.view(0)["last_round"]["points"]), where
        assert got["panel"] == panel, f"{where}: the side panel says {got['panel']}, the engine {panel}"
        assert got["chips"] == chips, f"{where}: the seats say {got['chips']}, the engine {chips}"
        assert got["turn"] == 0, f"{where}: someone is to move during the summary"
        if game_of(table) == "jass" and not after.is_terminal():
            deal = after.view(0)["previous_deals"][-1]["total"]
            assert got["dealPoints"] == [f" (+{p} dieses Spiel)" for p in deal], got["dealPoints"]
        stage.settle(len(after.history()))
        shown = page.evaluate(NUMBERS)
        assert shown["panel"] == panel and shown["chips"] == chips, f"{where}: after the summary"


@pytest.mark.parametrize("table", ["jass", "coiffeur", "differenzler", "stichwahl", "stichmeister"])
def test_a_phone_shows_trump_and_the_rules_in_force_and_the_log_is_one_tap_away(
    table: str, server: Server, new_page: NewPage
) -> None:
    page = new_page(390, 844)
    state = at_decision(table, "play")
    stage = Stage(page, server.url, table, state)
    stage.feed(state)
    box = page.eval_on_selector("#brief", "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]")
    assert box[0] >= 0 and box[1] <= 844, f"{table}: the strip with trump is not in view: {box}"
    brief = page.inner_text("#brief")
    view = state.view(0)
    if table in ("jass", "differenzler"):
        assert (
            "TRUMPF" in brief.upper()
            and page.evaluate("t => document.querySelector('#info .trump-row b').textContent", view["trump"]) in brief
        )
    elif table == "coiffeur":
        assert "ANGESAGT" in brief.upper() and page.inner_text("#info .trump-row b") in brief
    elif table == "stichwahl":
        names = {"O": "Orca", "P": "Pottwal", "N": "Narwal", "B": "Blauwal"}
        assert names[view["trump"]] in brief and ("9 oben" if view["marker"] == 9 else "1 oben") in brief
    else:
        shown = [int(x) for x in page.eval_on_selector_all("#brief .rule-chip", "es => es.map(e => e.textContent)")]
        assert sorted(shown) == sorted(r["number"] for r in view["active_rules"])
    page.click("#brief .brief-log")
    page.wait_for_selector("dialog#log-dialog")
    assert page.is_visible("dialog#log-dialog")


def to_the_end(table: str, seed: int) -> Any:
    state = new_state(table, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("table", ["jass", "coiffeur", "differenzler", "stichwahl", "stichling", "stichmeister"])
def test_no_text_of_the_other_language_shows(table: str, server: Server, new_page: NewPage) -> None:
    """German, then English: a decision with its log, the dialogs (tricks, scores, the table's
    panel, the log), a deal's summary and the game's result hold no word of the other language;
    the winners are named, not called "Sie"."""
    page = new_page(1280, 800, prefs={"speed": "normal", "jassDeck": "swiss"})
    play = at_decision(table, "play")
    stage = Stage(page, server.url, table, play)
    before, after = next(deal_ends(table, 1))
    end = to_the_end(table, 2)
    for lang in ("de", "en"):
        page.evaluate("async (l) => (await import('/static/js/prefs.js')).set('lang', l)", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)

        def check(where: str, text: str, lang: str = lang) -> None:
            found = other_language(text, lang)
            assert not found, f"{table} in {lang}, {where}: {found} in {text[:400]!r}"

        stage.feed(play, fresh=True)
        check("a decision", page.inner_text("body"))
        for key, dialog in (("s", "#dialog"), ("p", "#dialog"), (None, "#dialog"), (None, "#log-dialog")):
            if key:
                page.keyboard.press(key)
            else:
                page.evaluate("w => window.stage.openDialog(w)", "info" if dialog == "#dialog" else "log")
            page.wait_for_selector(f"dialog{dialog}")
            check(f"the dialog {key or dialog}", page.inner_text(f"dialog{dialog}"))
            page.keyboard.press("Escape")
        if table == "jass":  # the page's own windows: help and settings
            for button, dialog in (("#btn-help", "#help"), ("#btn-settings", "#settings")):
                page.click(button)
                page.wait_for_selector(f"dialog{dialog}")
                check(f"the window {dialog}", page.inner_text(f"dialog{dialog}"))
                page.keyboard.press("Escape")
        stage.feed(before, fresh=True)
        stage.feed(after, wait=False)
        page.wait_for_selector(".deal-summary, #banner:not([hidden])")
        check("a taken trick or a summary", page.inner_text("body"))
        stage.settle(len(after.history()))
        check("the next deal, with the log", page.inner_text("body"))
        stage.feed(end, fresh=True)
        page.wait_for_selector(".result .winners")
        check("the result", page.inner_text("body"))
        winners = page.inner_text(".result .winners")
        assert "Sie" not in winners and "Them" not in winners, winners


CHOICE_TEXTS = "() => [...document.querySelectorAll('#choices .choice')].map(b => [b.dataset.action, b.textContent])"


def test_multipliers_show_at_the_trump_choice_and_beside_trump(server: Server, new_page: NewPage) -> None:
    """With option multipliers, each trump button says what its mode counts, and once trump is
    named the trump row says what the deal counts (docs/jass.md, "Multipliers")."""
    import stichkit

    game = stichkit.load_game("jass", profile="schieber", multipliers="swisslos", first_forehand=0)
    state = game.new_state(seed=5)
    page = new_page(1280, 800)
    stage = Stage(page, server.url, "jass", state)
    stage.feed(state, fresh=True)
    page.wait_for_selector("#choices .choice")
    texts = dict(page.evaluate(CHOICE_TEXTS))
    factors = state.view(0)["multipliers"]
    for mode in ("D", "H", "S", "C", "obe", "une"):
        assert texts[f"trump:{mode}"].strip().endswith(f"×{factors[mode]}"), texts
    assert "×" not in texts["push"]
    state.apply("trump:obe")
    stage.feed(state)
    badge = page.wait_for_selector(".trump-row .badge.multiplier")
    assert badge.get_attribute("data-multiplier") == "3"
    assert "×3" in badge.text_content()
    assert badge.is_visible()


def test_a_jass_of_fixed_deals_counts_them_and_calls_equal_totals_a_draw(server: Server, new_page: NewPage) -> None:
    """Option deals (a Passe of 12): the side panel says which deal of how many and shows no
    target (there is none: it said "/ null" beside a full bar), the phone's strip says the deal
    and what trump counts, the deal's summary names the deal; equal totals at the end are a
    draw, said as one, in both languages (it named one team the winner)."""
    import stichkit

    from .test_table_live import switch

    game = stichkit.load_game("jass", profile="schieber", deals=12, multipliers="swisslos", first_forehand=0)
    state = game.new_state(seed=4)
    state.apply("trump:obe")
    page = new_page(1280, 800, prefs={"speed": "normal"})  # a deal's summary is shown
    stage = Stage(page, server.url, "jass-swisslos", state)
    stage.feed(state, fresh=True)
    info = page.text_content("#info") or ""
    assert "Spiel 1 von 12" in info and "null" not in info, info
    assert page.locator("#info .team-score .bar").count() == 0
    assert [t.strip() for t in page.eval_on_selector_all("#info .team-points", "es => es.map(e => e.innerText)")] == [
        "0 (+0 dieses Spiel)"
    ] * 2
    page.set_viewport_size({"width": 390, "height": 844})
    stage.frame()
    brief = page.inner_text("#brief .brief-info")
    assert "Obenabe" in brief and "×3" in brief and "SPIEL 1/12" in brief.upper(), brief
    fits = page.eval_on_selector("#brief .brief-info", "e => e.scrollWidth <= e.clientWidth")
    assert fits, f"the strip cuts off {brief!r}"
    page.set_viewport_size({"width": 1280, "height": 800})
    rng = random.Random(4)
    while state.view(None)["deal_number"] == 0:
        before = state.clone()
        state.apply(rng.choice(state.legal_actions()))
    stage.feed(before, fresh=True)
    stage.feed(state, wait=False)
    page.wait_for_selector(".deal-summary, #banner:not([hidden])")
    if not page.query_selector(".deal-summary"):
        page.click("#banner")
    summary = page.wait_for_selector(".deal-summary h3")
    assert summary.text_content() == "Abrechnung – Spiel 1 von 12"
    # equal totals after two deals (seed 203, random play): a draw
    drawn = stichkit.load_game("jass", profile="schieber", deals=2).new_state(seed=203)
    rng = random.Random(203)
    while not drawn.is_terminal():
        drawn.apply(rng.choice(drawn.legal_actions()))
    assert drawn.winners() == [0, 1, 2, 3] and drawn.scores()[0] == drawn.scores()[1]
    for lang, said in (("de", "Unentschieden: Beide Teams haben gleich viele Punkte."),
                       ("en", "A draw: both teams have the same score.")):  # fmt: skip
        switch(page, lang)
        stage.feed(drawn, fresh=True)
        page.wait_for_selector(".result .winners")
        assert page.text_content(".result .winners") == said
        result = page.inner_text(".result")
        assert not any(w in result for w in ("gewonnen!", "Diesmal nicht", "You won", "Not this time")), result
    switch(page, "de")


def test_a_weis_is_announced_from_the_table(server: Server, new_page: NewPage) -> None:
    """weis="announce": at the first card a player holding a Weis sees a button that names its
    points beside the playable cards; once announced, everybody's table says who announced what."""
    import stichkit

    deal = {"hands": [
        ["D6", "D7", "D8", "D9", "HA", "SA", "CA", "HK", "SQ"],
        ["D10", "H6", "H8", "S10", "C10", "HQ", "SK", "CK", "DQ"],
        ["C6", "C7", "C8", "H7", "S9", "DJ", "HJ", "SJ", "DA"],
        ["S6", "S7", "S8", "H9", "H10", "DK", "C9", "CJ", "CQ"],
    ]}  # fmt: skip
    game = stichkit.load_game("jass", profile="schieber", weis="announce", first_forehand=0)
    state = game.new_state(seed=1, deal=deal)
    state.apply("trump:H")
    page = new_page(1280, 800)
    stage = Stage(page, server.url, "jass", state)
    stage.feed(state, fresh=True)
    button = page.wait_for_selector('#choices .choice[data-action="weis"]')
    assert "50" in button.text_content() and button.is_visible()
    assert page.locator("#hand .hand-card").count() == 9
    state.apply("weis")
    stage.feed(state)
    said = page.wait_for_selector('[data-announced="0"]')
    assert "50" in said.text_content() and said.is_visible()
    assert page.locator('#choices .choice[data-action="weis"]').count() == 0
    badge = page.wait_for_selector('[data-announced-badge="0"]')  # on the seat's plate, also on a phone
    assert "50" in badge.text_content()
    page.set_viewport_size({"width": 390, "height": 844})
    stage.frame()
    assert badge.is_visible()


TAFEL = """() => [...document.querySelectorAll('svg.jasstafel')].map(s => ({
  score: Number(s.dataset.score), visible: s.getBoundingClientRect().width > 40,
  hundred: s.querySelectorAll('.stroke[data-line="hundred"]').length,
  hundredFives: s.querySelectorAll('.stroke.five[data-line="hundred"]').length,
  fifty: s.querySelectorAll('.stroke[data-line="fifty"]').length,
  twenty: s.querySelectorAll('.stroke[data-line="twenty"]').length,
  rest: s.querySelector('.rest').textContent }))"""


def test_the_jass_score_on_a_jasstafel(server: Server, new_page: NewPage) -> None:
    """Chosen in the settings, each team's score is also chalked as on a Jasstafel: a stroke for
    each 100 on the bottom line, for each 50 on the diagonal, for each 20 on the top line, every
    fifth across the four before it, and the rest under 20 as a number."""
    import stichkit

    game = stichkit.load_game("jass", profile="schieber")
    state = game.new_state(seed=8)
    rng = random.Random(8)
    while min(state.scores()) < 520:  # both teams past five hundreds: a crossed bundle each
        state.apply(rng.choice(state.legal_actions()))
    page = new_page(1280, 800, prefs={"jassTafel": True})
    stage = Stage(page, server.url, "jass", state)
    stage.feed(state, fresh=True)
    page.wait_for_selector("svg.jasstafel")
    shown = page.evaluate(TAFEL)
    scores = state.view(0)["scores"]
    assert [t["score"] for t in shown] == scores
    for t in shown:
        s = t["score"]
        assert t["visible"]
        assert t["hundred"] == s // 100 and t["hundredFives"] == s // 100 // 5
        assert t["fifty"] == s % 100 // 50 and t["twenty"] == s % 50 // 20
        assert t["rest"] == str(s % 50 % 20)
        assert 100 * t["hundred"] + 50 * t["fifty"] + 20 * t["twenty"] + int(t["rest"]) == s
    plain = new_page(1280, 800)  # not chosen: the numbers alone, until the player chooses it
    Stage(plain, server.url, "jass", state).feed(state, fresh=True)
    assert plain.locator("svg.jasstafel").count() == 0
    plain.click("#btn-settings")
    plain.check('#settings-form input[name="tafel"]')
    plain.keyboard.press("Escape")
    plain.wait_for_selector("svg.jasstafel")
    assert plain.evaluate(TAFEL) == shown


def test_stoeck_is_called_from_the_table(server: Server, new_page: NewPage) -> None:
    """stoeck="announce": before the second of trump King and Queen the holder sees "Stöck!"
    beside the cards; once said, that card is the only one to play."""
    import stichkit

    hands = [
        ["HK", "HQ", "D6", "D7", "S6", "S7", "C6", "C7", "C8"],
        ["H6", "H7", "D8", "D9", "S8", "S9", "C9", "C10", "CJ"],
        ["H8", "H9", "D10", "DJ", "S10", "SJ", "CQ", "CK", "CA"],
        ["H10", "HJ", "HA", "DQ", "DK", "DA", "SQ", "SK", "SA"],
    ]
    game = stichkit.load_game("jass", profile="schieber", weis="off", stoeck="announce", first_forehand=0)
    state = game.new_state(seed=1, deal={"hands": hands})
    state.apply("trump:H")
    state.apply("HK")
    while not (state.current_player == 0 and any(a.text == "stoeck" for a in state.legal_actions())):
        state.apply(next(a for a in state.legal_actions() if a.text != "HQ"))
    page = new_page(1280, 800)
    stage = Stage(page, server.url, "jass", state)
    stage.feed(state, fresh=True)
    button = page.wait_for_selector('#choices .choice[data-action="stoeck"]')
    assert "Stöck" in button.text_content() and button.is_visible()
    state.apply("stoeck")
    stage.feed(state)
    page.wait_for_selector('#choices .choice[data-action="stoeck"]', state="detached")
    playable = page.evaluate("() => [...document.querySelectorAll('#hand .hand-card.legal')].map(e => e.dataset.card)")
    assert playable == ["HQ"]  # the Queen alone


@pytest.mark.parametrize("lang", ["de", "en"])
def test_coiffeur_pushed_around_the_table_says_who_pushed_and_who_must_announce(
    lang: str, server: Server, new_page: NewPage
) -> None:
    """push="around" (Swisslos): a seat pushed to by the player before it may push on, and the
    page says who pushed; once everybody has pushed, the first seat must announce: no push button,
    and the prompt says so. Both languages; the buttons fit the table at a desktop and a phone."""
    import stichkit

    from .test_table_live import switch

    texts = {
        "de": ("Ueli hat zu dir geschoben", "Alle haben geschoben: Du musst ansagen."),
        "en": ("Ueli pushed to you", "Everybody pushed: you must announce a mode."),
    }
    game = stichkit.load_game("coiffeur", push="around")
    state = game.new_state(seed=2)
    for _ in range(3):  # deal 3's forehand is seat 1: it is asked first, seat 0 next
        while state.view(None)["deal_number"] < 3 and not state.is_terminal():
            state.apply(state.legal_actions()[0])
    assert state.current_player == 1 and state.view(None)["forehand"] == 1
    state.apply("push")
    page = new_page(1280, 800)
    stage = Stage(page, server.url, "coiffeur", state)
    switch(page, lang)
    stage.feed(state, fresh=True)
    page.wait_for_selector('#choices .choice[data-action="push"]')
    prompt = page.text_content(".prompt") or ""
    assert prompt.lower().startswith(texts[lang][0].lower()), prompt
    for _ in range(3):  # seats 0, 3 and 2 push on: the choice is back with seat 1
        state.apply("push")
    assert state.current_player == 1 and state.view(None)["pushed_by"] == [1, 0, 3, 2]
    state.apply("trump:obe")  # seat 1 announces for team 1; play the deal out to the next one
    while state.view(None)["deal_number"] == 3:
        state.apply(state.legal_actions()[0])
    while state.current_player != 0 or "push" in [a.text for a in state.legal_actions()]:
        state.apply("push")  # deal 4: seat 0 is forehand, asked first; 0, 3, 2, 1 push: back to 0
    assert state.view(None)["pushed_by"] == [0, 3, 2, 1]
    stage.feed(state, fresh=True)
    page.wait_for_selector("#choices .choice")
    assert page.locator('#choices .choice[data-action="push"]').count() == 0
    assert (page.text_content(".prompt") or "").strip() == texts[lang][1]
    body = page.inner_text("body")
    assert not other_language(body, lang), other_language(body, lang)
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        stage.frame()
        boxes = page.eval_on_selector_all(
            "#choices .choice",
            "es => es.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.bottom]; })",
        )
        assert boxes and all(left >= 0 and right <= w + 1 and bottom <= h + 1 for left, right, bottom in boxes), boxes


# The prediction's stepper: each part's box, the number, the confirm button's action and the error.
STEPPER = """() => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height, width: r.width }; };
  const q = (s) => document.querySelector(s);
  const confirm = q('.number-choice .confirm');
  return {
    steps: [...document.querySelectorAll('.number-choice .step')]
      .map(e => ({ text: e.textContent, label: e.getAttribute('aria-label'), ...box(e) })),
    input: { value: q('.number-input').value, label: q('.number-input').getAttribute('aria-label'),
             ...box(q('.number-input')) },
    range: q('.number-range').textContent, rangeBox: box(q('.number-range')),
    confirm: { action: confirm.dataset.action || null, disabled: confirm.disabled, text: confirm.textContent,
               ...box(confirm) },
    error: q('.number-error').textContent,
    hand: box(q('#hand')), numbers: document.querySelectorAll('.choice.number').length,
    width: innerWidth, height: innerHeight,
  };
}"""

PREDICT_TEXTS = {
    "de": ("erlaubt: 0 bis 157", "Ansagen", "„200“ ist keine Ansage: Sag eine ganze Zahl von 0 bis 157 an.",
           ["10 weniger", "1 weniger", "1 mehr", "10 mehr"]),
    "en": ("allowed: 0 to 157", "Predict", "“200” is no prediction: predict a whole number from 0 to 157.",
           ["10 less", "1 less", "1 more", "10 more"]),
}  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_differenzler_prediction_is_a_stepper(lang: str, server: Server, new_page: NewPage) -> None:
    """The prediction is one number with − and + by 1 and by 10, typed or stepped, the allowed
    range beside it: no grid of 158 buttons. Only a legal number can be sent (the button is
    disabled and the engine's refusal is said otherwise); the keyboard does all of it (digits,
    arrows, Page Up/Down, Enter). It fits a desktop and a phone, above the hand, in both languages."""
    from .test_table_live import switch

    state = at_decision("differenzler", "predict")
    page = new_page(1280, 800)
    stage = Stage(page, server.url, "differenzler", state)
    switch(page, lang)
    stage.feed(state, fresh=True)
    page.wait_for_selector(".number-choice .number-input")
    range_text, confirm, refusal, labels = PREDICT_TEXTS[lang]
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        stage.frame()
        got = page.evaluate(STEPPER)
        where = f"{lang} {w}x{h}"
        assert got["numbers"] == 0, f"{where}: number buttons are drawn"
        assert [s["text"] for s in got["steps"]] == ["−10", "−1", "+1", "+10"], where
        assert [s["label"] for s in got["steps"]] == labels, where
        assert got["range"] == range_text and got["input"]["value"] == "40", where
        assert got["confirm"]["action"] == "predict:40" and got["confirm"]["text"].strip() == f"↵ {confirm} 40", where
        parts = [*got["steps"], got["input"], got["confirm"], got["rangeBox"]]
        for p in parts:  # whole in the window, above the hand, big enough to tap
            assert p["left"] >= 0 and p["right"] <= w + 1 and p["bottom"] <= h + 1, f"{where}: {p}"
            assert p["bottom"] <= got["hand"]["top"] + 1, f"{where}: {p} reaches into the hand"
        assert min(p["height"] for p in [*got["steps"], got["input"]]) >= 44, f"{where}: {got['steps']}"
        row = {round(p["top"]) for p in [*got["steps"], got["input"]]}
        assert max(row) - min(row) <= 2, f"{where}: the stepper is not one row: {row}"
        assert got["steps"][1]["right"] <= got["input"]["left"] <= got["input"]["right"] <= got["steps"][2]["left"]
    for step, want in (("10", 50), ("1", 51), ("-1", 50), ("-10", 40), ("-10", 30)):
        page.click(f'.number-choice .step[data-step="{step}"]')
        assert page.evaluate(STEPPER)["confirm"]["action"] == f"predict:{want}"
    page.fill(".number-input", "200")
    got = page.evaluate(STEPPER)
    assert got["confirm"]["disabled"] and got["confirm"]["action"] is None and got["error"] == refusal
    page.click(".number-choice .confirm", force=True)
    page.press(".number-input", "Enter")
    assert page.evaluate("() => window.stageSent.filter(m => m.type === 'act').length") == 0  # nothing sent
    page.fill(".number-input", "x7")
    assert page.evaluate(STEPPER)["confirm"]["disabled"]
    page.click(".number-choice .step[data-step='1']")  # from a number that is none: the start, stepped
    assert page.evaluate(STEPPER)["input"]["value"] == "41"
    page.fill(".number-input", "157")
    assert page.evaluate(STEPPER)["confirm"]["action"] == "predict:157" and not page.evaluate(STEPPER)["error"]
    page.press(".number-input", "ArrowUp")  # not past the range
    assert page.input_value(".number-input") == "157"
    page.press(".number-input", "PageDown")
    page.press(".number-input", "ArrowDown")
    page.press(".number-input", "Home")
    page.press(".number-input", "PageUp")
    assert page.input_value(".number-input") == "10"
    page.locator("#hand").click(position={"x": 1, "y": 1}, force=True)  # focus away from the number
    page.keyboard.press("3")  # a digit at the table goes into the number
    page.keyboard.press("3")
    assert page.input_value(".number-input") == "33"
    page.keyboard.press("Enter")
    sent = page.evaluate("() => window.stageSent.filter(m => m.type === 'act').map(m => m.action)")
    assert sent == ["predict:33"], sent
