"""The table at a real server, as players meet it: the lobby offering the Schieber first with menus
that fit; a trick's winner announced, held long enough to read and gone at a tap; "Zurücknehmen"
only once the player has a move to take back; a joiner learning nothing of the deal before play;
a spectator seeing what a spectator can use; refusals and every text in the page's language."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import NewPage, Server
from .driver import open_by_api, open_from_lobby, play_one, version, wait_ready

STATIC = Path(__file__).resolve().parents[2] / "stichkit" / "server" / "static"
DOCS = Path(__file__).resolve().parents[2] / "docs"

# Words that give a text of the other language away (names of cards, suits and Jass terms such as
# Weis, Stöck, Puur, Ober or Banner are the same in both and are not listed).
GERMAN = (
    r"(?<![-\w])(und|der|die|das|ist|nicht|mit|von|dein|deine|Spiel|Karte|Karten|Punkte|Stich|Stiche|Trumpf"
    r"|wählt|spielt|macht|Tisch|Verlauf|Regeln?|Runde|Durchgang|Platz|frei|Gegner|Wir|schaut|Abgelehnt|Nachricht"
    r"|Senden|Weiter|weiter|Tipp|Zurücknehmen|noch|keiner|beginnt|angesagt|Geber)(?![-\w])"
)
ENGLISH = (
    r"(?<![-\w])(the|and|of|is|you|your|Your|Trick|Tricks|Points|Seat|Round|Deal|Table|Play|card|cards|turn|Log"
    r"|Send|Hint|Take back|waiting|takes|plays|names|Refused|watching|begins|Us|Them|Dealer)(?![-\w])"
)


def other_language(text: str, lang: str) -> list[str]:
    """Words of the language not chosen in `text`."""
    return sorted(set(re.findall(GERMAN if lang == "en" else ENGLISH, text)))


def switch(page: Any, lang: str) -> None:
    page.click(f'.lang-switch [data-lang="{lang}"]')
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


# What each menu of the lobby shows when any of its options is chosen: the text's width against
# the room the closed menu gives it (its width less the padding and the arrow).
MENUS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const sel of document.querySelectorAll('#new-table select')) {
    if (!sel.getClientRects().length) continue;
    const st = getComputedStyle(sel);
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const room = sel.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
    for (const o of sel.options) {
      const w = ctx.measureText(o.textContent).width;
      if (w > room) out.push(`${sel.name}: "${o.textContent}" ${Math.round(w)} > ${Math.round(room)} px`);
    }
  }
  return { clipped: out, sideways: document.documentElement.scrollWidth > innerWidth };
}"""


# Every rule of the lobby's form shown by its raw name: a label that is the option's name (or none),
# a choice with no text of its own in the page's language ("ausmachregel", "stoeck-weis-stich" were
# shown so); numbers and "another number" are written by the lobby itself.
RAW = """async () => { const { LANGS } = await import('/static/js/i18n.js');
  const texts = LANGS[document.documentElement.lang], out = [];
  for (const el of document.querySelectorAll('#new-table [name^="opt:"]')) {
    if (el.type === 'radio') continue;  // the profile's cards: a title and a line each
    const name = el.name.slice(4), label = el.closest('label');
    const text = label ? (label.querySelector('.row-label') || label).textContent.trim() : '';
    if (!text || text === name) out.push(`the label of ${name}: "${text}"`);
    if (el.tagName === 'SELECT')
      for (const o of el.options)
        if (!/^[0-9]+$/.test(o.value) && o.value !== 'other' && !(`opt.${name}.${o.value}` in texts))
          out.push(`${name}: "${o.textContent}"`);
  }
  return out; }"""


def test_the_lobby_offers_the_schieber_first_and_its_menus_fit(server: Server, new_page: NewPage) -> None:
    """Jass opens as Swiss players expect: the Schieber (to 1000 or 2500) is the first choice, the
    rule sheet's game one choice away, named as such; every menu of every game shows its whole
    text at a desktop and a phone size; the deck is chosen at the table."""
    page = new_page(1280, 800, prefs={"jassDeck": "swiss"})
    page.goto(server.url + "/")
    page.wait_for_selector(".lobby")
    assert page.eval_on_selector(".game-tile", "e => e.dataset.game") == "jass"
    choices = page.eval_on_selector_all(".profile-choice", "es => es.map(e => e.innerText.split('\\n')[0])")
    assert choices == ["Schieber", "Regelblatt"]
    assert page.is_checked('.profile-choice input[value="schieber"]')
    targets = page.eval_on_selector_all('select[name="opt:target"] option', "os => os.map(o => o.value)")
    assert targets == ["1000", "2500", "other"] and page.input_value('select[name="opt:target"]') == "2500"
    page.click('.profile-choice:has(input[value="seed"])')
    targets = page.eval_on_selector_all('select[name="opt:target"] option', "os => os.map(o => o.value)")
    assert targets == ["1000", "1500", "2000", "other"]
    legend = page.text_content("fieldset.seats legend") or ""
    assert legend == "Am Tisch" and "Wer sitzt wo" not in (page.text_content("body") or "")
    for lang in ("en", "de"):  # the lobby in each language, its rules opened: not a word of the other
        switch(page, lang)
        for game in GAMES:  # and every rule in words, none by its raw name or value
            page.click(f'.game-tile[data-game="{game}"]')
            for d in page.query_selector_all("#new-table details"):
                d.evaluate("d => d.open = true")
            assert not other_language(page.inner_text("body"), lang), other_language(page.inner_text("body"), lang)
            assert not page.evaluate(RAW), f"{game} in {lang}: {page.evaluate(RAW)}"
        page.click('.game-tile[data-game="jass"]')
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        for game in GAMES:
            page.click(f'.game-tile[data-game="{game}"]')
            for d in page.query_selector_all("#new-table details"):
                d.evaluate("d => d.open = true")
            menus = page.evaluate(MENUS)
            assert not menus["clipped"], f"{game} at {w}x{h}: {menus['clipped']}"
            assert not menus["sideways"], f"{game} at {w}x{h}: the lobby scrolls sideways"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click('.game-tile[data-game="coiffeur"]')  # a sheet's short name in the menu, its rows under it
    page.select_option('select[name="opt:sheet"]', "10-rows")
    assert "Slalom ×7, Guschti ×8" in (page.text_content('[data-about="sheet"]') or "")
    # a Jass of fixed deals: a Passe of 12 from the menu, or another number
    passe = open_from_lobby(page, server, "jass", seats=["bot:random"] * 3, options={"deals": 12})
    assert server.get(f"/api/tables/{passe}")["options"]["deals"] == 12
    other = open_from_lobby(page, server, "jass", seats=["bot:random"] * 3, options={"deals": 5})
    assert server.get(f"/api/tables/{other}")["options"]["deals"] == 5
    table = open_from_lobby(
        page, server, "jass", seats=["bot:random"] * 3, options={"profile": "schieber", "target": 1000}
    )
    options = server.get(f"/api/tables/{table}")["options"]
    assert (options["profile"], options["target"]) == ("schieber", 1000) and "deals" not in options
    assert page.text_content("#crumb") == "Jass (Schieber) – Anna"  # the game said once
    wait_ready(page)
    picker = page.eval_on_selector_all("#info [data-deck]", "es => es.map(e => e.textContent)")
    assert picker[:2] == ["Deutschschweizer", "Französisch"]
    names = " ".join(page.eval_on_selector_all(".hand-card", "es => es.map(e => e.getAttribute('aria-label'))"))
    assert re.search(r"\b(Schellen|Rosen|Schilten|Eichel)-", names), names
    page.click('#info [data-deck="french"]')
    page.wait_for_function("() => document.querySelector('#info [data-deck=french]').ariaPressed === 'true'")
    names = " ".join(page.eval_on_selector_all(".hand-card", "es => es.map(e => e.getAttribute('aria-label'))"))
    assert re.search(r"\b(Ecken|Herz|Schaufel|Kreuz)-", names), names


GAMES = ("jass", "coiffeur", "differenzler", "stichwahl", "stichling", "stichmeister")
BANNER = "#banner:not([hidden])"


def test_a_trick_is_announced_and_a_takeback_offered_only_for_own_moves(server: Server, new_page: NewPage) -> None:
    """Jass against bots at the normal pace: the table names who took each trick and for how much
    (as the engine's view has it), holds it long enough to read, and goes on at once at a tap; the
    card that led is marked. "Zurücknehmen" comes only once the player has made a move; the log
    follows a change of language."""
    seats = ["human", "bot:random", "bot:random", "bot:random"]
    # seat 1 is forehand: it leads whether it names trump or pushes to seat 3, and seat 0 plays
    # next (with seat 2 as forehand a push would hand the trump choice to this player)
    table, seat = open_by_api(server, "jass", seats, {"profile": "schieber", "first_forehand": 1})
    page = new_page(1280, 800, seats={table: seat}, prefs={"speed": "normal", "jassDeck": "swiss"})
    page.goto(f"{server.url}/tables/{table}")
    assert wait_ready(page) == "act"
    assert version(page) > 0  # seat 1 (or 3) named trump and seat 1 led: none of it mine
    assert page.query_selector('[data-cmd="takeback"]') is None, "nothing of mine to take back yet"
    # the card that led this trick is marked, at the leader's seat
    leader = page.evaluate("() => window.stichkitTable.shown.view.trick_leader")
    led = page.eval_on_selector(".center .played.led", "e => [Number(e.dataset.seat), !!e.querySelector('.led-mark')]")
    assert led == [leader, True]
    rng = random.Random(11)
    timed = tapped = False
    while not (timed and tapped):
        assert wait_ready(page, 60_000) == "act"
        play_one(page, rng)
        page.wait_for_selector(BANNER, timeout=20_000)
        said = page.text_content("#banner .banner-text") or ""
        last = page.evaluate("() => window.stichkitTable.latest.view.last_trick")
        winner = page.evaluate("s => window.stichkitTable.view.seatName(s)", last["winner"])
        # the dash stays with the name (a no-break space before it): a line breaks after it
        expected = (
            f"Dein Stich\u00a0– {last['points']} Punkte"
            if last["winner"] == 0
            else f"Stich für {winner}\u00a0– {last['points']} Punkte"
        )
        assert said == expected
        start = time.monotonic()
        if not timed:  # left alone, it stays long enough to read
            page.wait_for_selector(BANNER, state="detached", timeout=10_000)
            assert time.monotonic() - start >= 1.6
            timed = True
        else:  # a tap on the table goes on at once
            page.click("#center")
            page.wait_for_selector(BANNER, state="detached", timeout=1_000)
            tapped = True
    assert wait_ready(page, 60_000) == "act"
    assert page.query_selector('[data-cmd="takeback"]') is not None, "my own move may be taken back"
    german = page.inner_text("#log")
    assert "spielt" in german and not other_language(german, "de")
    switch(page, "en")
    english = page.inner_text("#log")
    assert "plays" in english and not other_language(english, "en"), other_language(english, "en")
    switch(page, "de")


def test_a_joiner_learns_nothing_of_the_deal_and_a_spectator_sees_what_a_spectator_can_use(
    server: Server, new_page: NewPage
) -> None:
    table = server.post("/api/tables", {"game": "jass", "seats": ["human", "human", "bot:random", "bot:random"]})["id"]
    server.post(f"/api/tables/{table}/join", {"name": "Anna", "seat": 0})
    ben = new_page(prefs={"name": "Ben"})
    ben.goto(f"{server.url}/tables/{table}")
    ben.wait_for_selector("form.join-form")
    felt = ben.inner_text("#felt") + ben.inner_text("#info")
    assert not re.search(r"Vorhand|Trumpf|am Zug", felt), felt  # who holds the start card stays unsaid
    assert ben.query_selector(".seat.turn, .hand-card, .played") is None
    assert "Es fehlt noch 1 Mitspieler." in felt
    joined = server.post(f"/api/tables/{table}/join", {"name": "Ben", "seat": 1})
    server.request("POST", f"/api/tables/{table}/leave", {}, token=joined["token"])  # Ben stands up: a bot plays on
    carla = new_page(prefs={"name": "Carla"})
    carla.goto(f"{server.url}/tables/{table}")
    carla.wait_for_selector(".seat .take-seat")
    assert not carla.is_visible(".chat-form input"), "a spectator cannot chat"
    assert not carla.is_visible('[data-cmd="leave"]'), "a spectator has no seat to leave"
    shown = carla.query_selector_all('[data-cmd="hint"], [data-cmd="takeback"], .hand-card.legal, #choices .choice')
    assert not [b for b in shown if b.is_visible()], "a spectator has no move to ask about, take back or make"
    assert carla.is_visible('.seat[data-seat="1"] .take-seat')
    for w, h in ((390, 844), (1280, 800)):  # the button whole, inside its plate, the plate cutting nothing off
        carla.set_viewport_size({"width": w, "height": h})
        carla.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        fit = carla.eval_on_selector(
            '.seat[data-seat="1"]',
            """s => { const p = s.getBoundingClientRect(), b = s.querySelector('.take-seat').getBoundingClientRect();
               const t = s.querySelector('.take-seat');
               return { inside: b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom,
                        whole: s.scrollWidth <= s.clientWidth + 1 && s.scrollHeight <= s.clientHeight + 1,
                        text: t.scrollWidth <= t.clientWidth + 1 }; }""",
        )
        assert fit == {"inside": True, "whole": True, "text": True}, f"{w}x{h}: the free seat's plate: {fit}"
    status = carla.inner_text("#status").split("\n")
    assert any(x.startswith("Du schaust zu") for x in status) and "Platz nehmen" in status, status  # each its own
    # a spectator's chat (as an old page or a script would send it) is refused in the page's words
    carla.evaluate("() => window.stichkitTable.socket.send({ type: 'chat', text: 'hoi' })")
    carla.wait_for_function("() => document.querySelector('#message').textContent.startsWith('Abgelehnt')")
    assert carla.text_content("#message") == "Abgelehnt: Zuschauer können das nicht – nimm zuerst Platz."
    switch(carla, "en")
    carla.evaluate("() => window.stichkitTable.socket.send({ type: 'chat', text: 'hoi' })")
    carla.wait_for_function("() => document.querySelector('#message').textContent.startsWith('Refused')")
    assert carla.text_content("#message") == "Refused: Spectators cannot do that – take a seat first."
    switch(carla, "de")
    # "Platz nehmen" at the free seat: Carla sits down there
    carla.click('.seat[data-seat="1"] .take-seat')
    assert carla.input_value('dialog form[data-form="join-dialog"] select[name="seat"]') == "1"
    carla.click('dialog form[data-form="join-dialog"] button[type="submit"]')
    carla.wait_for_selector(".bottom-seat.mine")
    assert carla.is_visible(".chat-form input") and carla.is_visible('[data-cmd="leave"]')


# What gives a deal away before play, in each game's words: who begins or deals, trump, the
# marker, the rules chosen, the tiles, whose turn it is.
DEAL_WORDS = r"Vorhand|Geber|Trumpf|Marker|oben|Regeln in dieser Runde|Kärtchen|am Zug|spielt aus|aufgedeckt"


@pytest.mark.parametrize("game", GAMES)
def test_no_game_tells_a_joiner_anything_of_the_deal(game: str, server: Server, new_page: NewPage) -> None:
    """Jass's waiting table is checked above with a spectator; every game's, as the joiner sees it
    before play begins: no card, no turn, nobody's start, no trump, marker, rules or tiles."""
    players = {"stichling": 2, "stichwahl": 3, "stichmeister": 3}.get(game, 4)
    seats = ["human", "human"] + ["bot:random"] * (players - 2)
    table = server.post("/api/tables", {"game": game, "seats": seats})["id"]
    server.post(f"/api/tables/{table}/join", {"name": "Anna", "seat": 0})
    ben = new_page(prefs={"name": "Ben"})
    ben.goto(f"{server.url}/tables/{table}")
    ben.wait_for_selector("form.join-form")
    shown = ben.inner_text("#felt") + "\n" + ben.inner_text("#info")
    assert not re.search(DEAL_WORDS, shown), f"{game}: {shown}"
    assert ben.query_selector(".seat.turn, .hand-card, .played, #felt [data-card], #info [data-card]") is None


def refusal_codes() -> list[str]:
    """The refusal codes of docs/server.md's table of WebSocket errors."""
    text = (DOCS / "server.md").read_text()
    table = text[text.index("  | code | when |") : text.index("- `hint`, `{")]
    return re.findall(r"^  \| `([a-z_]+)` \|", table, re.M)


def test_every_text_is_in_both_languages_and_no_refusal_is_half_english(server: Server, new_page: NewPage) -> None:
    """Both languages have the same texts, every text the page's code asks for is there, and each
    refusal the server can send reads in the page's own words, in both languages."""
    page = new_page()
    page.goto(server.url + "/")
    langs = page.evaluate("async () => { const m = await import('/static/js/i18n.js'); return m.LANGS; }")
    assert set(langs["de"]) == set(langs["en"]), set(langs["de"]) ^ set(langs["en"])
    asked = set()
    for f in STATIC.glob("js/**/*.js"):
        asked |= set(re.findall(r"""\b(?:t|line)\(\s*"([a-zA-Z][\w.:=-]*)"[,)]""", f.read_text()))
    missing = sorted(k for k in asked if k not in langs["de"])
    assert not missing, f"texts asked for and missing: {missing}"
    codes = refusal_codes()
    assert "spectator" in codes and len(codes) > 15
    for lang in ("de", "en"):
        said = page.evaluate(
            """async ([codes, lang]) => { const prefs = await import('/static/js/prefs.js');
               const { refusalText } = await import('/static/js/refusals.js');
               prefs.set('lang', lang); return codes.map(refusalText); }""",
            [codes, lang],
        )
        for code, text in zip(codes, said, strict=True):
            assert langs[lang].get(f"refuse.{code}") == text, f"{lang}: no text of its own for {code}"
            assert not other_language(text, lang), f"{lang} {code}: {text}"
    limits = sorted(set(re.findall(r"429 `(client_[a-z_]+)`", (DOCS / "server.md").read_text())))
    assert limits, "docs/server.md names the limits a 429 answers with"
    for lang in ("de", "en"):
        said = page.evaluate(
            """async ([codes, lang]) => { const prefs = await import('/static/js/prefs.js');
               const { httpRefusal } = await import('/static/js/refusals.js');
               prefs.set('lang', lang); return codes.map((code) => httpRefusal('open', { status: 429, code })); }""",
            [limits, lang],
        )
        for code, text in zip(limits, said, strict=True):  # the limit reached, not "HTTP 429"
            assert langs[lang].get(f"refuse.limit.{code}") == text, f"{lang}: no text of its own for {code}"
            assert not other_language(text, lang), f"{lang} {code}: {text}"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_card_names_are_written_as_players_write_them(lang: str, server: Server, new_page: NewPage) -> None:
    """Every card of every game (and of every Jass deck) is named with a capital letter ("Gelb 12",
    "Rosen-Ober"), as hints and reasons show it."""
    page = new_page()
    page.goto(server.url + "/")
    names = page.evaluate(
        """async (lang) => {
          const jass = await import('/static/js/cards/jass.js');
          const sl = await import('/static/js/cards/stichling.js');
          const sm = await import('/static/js/cards/stichmeister.js');
          const sw = await import('/static/js/cards/stichwahl.js');
          const i18n = await import('/static/js/i18n.js');
          const out = [];
          for (const deck of jass.DECKS)
            for (const s of jass.SUITS) for (const r of jass.RANKS) out.push(jass.cardName(s + r, deck, lang));
          for (const c of sl.COLOURS) for (let v = 1; v <= 12; v++) out.push(sl.cardName(c + v, lang));
          for (const s of sm.SUITS) for (let v = 1; v <= 15; v++) out.push(sm.cardName(s + v, lang));
          for (const f of sw.FAMILIES) for (let v = 1; v <= 9; v++) out.push(sw.cardName(f + v, null, lang, i18n.t));
          return out;
        }""",
        lang,
    )
    lower = [n for n in names if not re.match(r"[A-ZÄÖÜ0-9]", n)]
    assert len(names) > 200 and not lower, lower[:10]
    if lang == "de":
        assert "Gelb 12" in names and "Rosen-Ober" in names and "Eichel-Ass" in names


def test_the_lobby_offers_coiffeur_pushed_around_the_table(server: Server, new_page: NewPage) -> None:
    """Coiffeur's option push: the partner (the default) or around the table (Swisslos), named in
    the page's language, fitting its menu at a desktop and a phone; chosen, the table plays it."""
    page = new_page(1280, 800)
    page.goto(server.url + "/")
    page.wait_for_selector(".lobby")
    page.click('.game-tile[data-game="coiffeur"]')
    offered = page.eval_on_selector_all('select[name="opt:push"] option', "os => os.map(o => [o.value, o.textContent])")
    assert offered == [
        ["partner", "zum Partner (wie im Schieber)"],
        ["around", "reihum zum Nächsten (Swisslos)"],
    ]
    assert page.input_value('select[name="opt:push"]') == "partner"
    switch(page, "en")
    if not page.query_selector('select[name="opt:push"]'):
        page.click('.game-tile[data-game="coiffeur"]')
    label = page.text_content('label:has(select[name="opt:push"]) .row-label')
    assert label == "Pushing"
    english = page.eval_on_selector_all('select[name="opt:push"] option', "os => os.map(o => o.textContent)")
    assert english == ["to the partner (as in the Schieber)", "on to the next player (Swisslos)"]
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        clipped = [c for c in page.evaluate(MENUS)["clipped"] if c.startswith("opt:push")]
        assert not clipped, f"{w}x{h}: {clipped}"
    switch(page, "de")
    page.set_viewport_size({"width": 1280, "height": 800})
    table = open_from_lobby(page, server, "coiffeur", seats=["bot:random"] * 3, options={"push": "around"})
    assert server.get(f"/api/tables/{table}")["options"]["push"] == "around"
