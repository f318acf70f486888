"""Screenshots of the browser table: every kind of decision of every game, at 1280x800 and 390x844,
and the moments around them (the lobby, a waiting table, a taken trick, a deal's summary, the
result, a spectator, the replay and the analysis). Run by hand, not in CI:

    .venv/bin/python tools/screenshots.py [OUT_DIR]          # default: screenshots/
    .venv/bin/python tools/screenshots.py --docs [OUT_DIR]   # and the five of docs/img from them
    .venv/bin/python tools/screenshots.py --game differenzler [OUT_DIR]   # one game's tables only
    .venv/bin/python tools/screenshots.py --tournament --docs [OUT_DIR]   # the tournament page only

It starts `stich serve` on a fresh SQLite file and drives Debian's Chromium (STICHKIT_TEST_CHROMIUM
or /usr/bin/chromium) with Playwright, as the browser tests do. Decisions come from
tests/page/positions.py (the engine plays until seat 0 faces each one), fed to the page's own
live table; the other moments come from real tables with bots.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.page.conftest import CHROMIUM, CHROMIUM_ARGS, Server, person  # noqa: E402
from tests.page.driver import open_by_api, play_one, wait_ready  # noqa: E402
from tests.page.positions import DECISIONS, Stage, at_decision, deal_ends, game_of, new_state, two_ways  # noqa: E402

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PREFS = {"lang": "de", "speed": "instant", "animations": False, "name": "Anna", "jassDeck": "swiss"}


def new_page(browser: Any, size: str, prefs: dict[str, Any] | None = None, seats: dict[str, Any] | None = None) -> Any:
    page = person(browser, *SIZES[size], {**PREFS, **(prefs or {})}, seats).new_page()
    page.on("pageerror", lambda e: print(f"  page error: {e}"))
    return page


def shoot(browser: Any, url: str, ready: str, name: str, out: Path, prefs: dict[str, Any], full: bool = False) -> None:
    """`url` at both sizes, shot once `ready` shows."""
    for size in SIZES:
        page = new_page(browser, size, prefs=prefs)
        page.goto(url)
        page.wait_for_selector(ready)
        page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=full)
        page.context.close()


ONLY: list[str] = []  # --game NAME: only that game's tables (and no lobby, result or replay)


def wanted(table: str) -> bool:
    return not ONLY or game_of(table) in ONLY


def decisions(browser: Any, server: Server, out: Path) -> None:
    for table, kinds in DECISIONS.items():
        if not wanted(table):
            continue
        for size in SIZES:
            page = new_page(browser, size)
            first = at_decision(table, kinds[0])
            stage = Stage(page, server.url, table, first)
            for kind in kinds:
                state = first if kind == kinds[0] else at_decision(table, kind)
                stage.feed(state, fresh=True)
                if game_of(table) == "stichling" and kind == "play":
                    page.screenshot(path=str(out / f"{table}-{kind}-{size}.png"))
                    card = two_ways([a.text for a in state.legal_actions()])
                    page.click(f'#hand .hand-card[data-card="{card}"]')
                    page.wait_for_selector("#choices .choice")
                    kind = "place"
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{table}-{kind.replace(':', '-')}-{size}.png"))
            page.context.close()


ANNOUNCE_DEAL = {"hands": [
    ["D6", "D7", "D8", "D9", "HA", "SA", "CA", "HK", "SQ"],
    ["D10", "H6", "H8", "S10", "C10", "HQ", "SK", "CK", "DQ"],
    ["C6", "C7", "C8", "H7", "S9", "DJ", "HJ", "SJ", "DA"],
    ["S6", "S7", "S8", "H9", "H10", "DK", "C9", "CJ", "CQ"],
]}  # fmt: skip


def schieber(browser: Any, server: Server, out: Path) -> None:
    """The Schieber's own decisions: trump with multipliers (each mode says what it counts), a Weis
    to announce at the first card, and the table once it is announced."""
    import stichkit

    if not wanted("jass"):
        return
    doubled = stichkit.load_game("jass", profile="schieber", multipliers="swisslos", first_forehand=0)
    trump = doubled.new_state(seed=5)
    announce = stichkit.load_game("jass", profile="schieber", weis="announce", first_forehand=0)
    first = announce.new_state(seed=1, deal=ANNOUNCE_DEAL)
    first.apply("trump:H")
    said = first.clone()
    said.apply("weis")
    said.apply("HA")
    for size in SIZES:
        page = new_page(browser, size)
        stage = Stage(page, server.url, "jass", trump)
        for name, state in (("trump-multipliers", trump), ("announce", first), ("announced", said)):
            stage.feed(state, fresh=True)
            page.wait_for_timeout(150)
            page.screenshot(path=str(out / f"jass-{name}-{size}.png"))
        page.context.close()
    later = stichkit.load_game("jass", profile="schieber").new_state(seed=8)
    rng = random.Random(8)
    while min(later.scores()) < 520:
        later.apply(rng.choice(later.legal_actions()))
    for size in SIZES:  # the score on a Jasstafel, the player's choice in the settings
        page = new_page(browser, size, {"jassTafel": True})
        Stage(page, server.url, "jass", later).feed(later, fresh=True)
        page.wait_for_timeout(150)
        page.screenshot(path=str(out / f"jass-jasstafel-{size}.png"), full_page=True)
        page.context.close()


def last_card(table: str) -> tuple[Any, Any]:
    """A trick in the middle of a deal one card short, another player to complete it: (before, after)."""

    for seed in range(200):
        state = new_state(table, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.view(0)
            if state.current_player != 0 and len(view["hand"]) >= 4:
                after = state.clone()
                after.apply(rng.choice(after.legal_actions()))
                shown = after.view(0)
                if shown.get("round", shown.get("deal_number")) == view.get("round", view.get("deal_number")) and len(
                    shown["tricks"]
                ) > len(view["tricks"]):
                    return state, after
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"{table}: no trick one card short")


def deal_end(browser: Any, server: Server, out: Path) -> None:
    """A trick just taken in the middle of a deal, announced; a deal's last trick and its summary."""
    for table in ("jass", "differenzler", "stichwahl", "stichmeister-5"):
        if not wanted(table):
            continue
        for size in SIZES:
            page = new_page(browser, size, prefs={"speed": "slow"})
            before, after = last_card(table)
            stage = Stage(page, server.url, table, before)
            stage.feed(before)
            stage.feed(after, wait=False)
            page.wait_for_selector("#banner:not([hidden])", timeout=10_000)
            page.wait_for_timeout(100)
            page.screenshot(path=str(out / f"{table}-trick-taken-mid-{size}.png"))
            page.context.close()
    for table in ("jass", "differenzler", "stichwahl", "stichling", "stichmeister"):
        if not wanted(table):
            continue
        for size in SIZES:
            page = new_page(browser, size, prefs={"speed": "slow"})
            before, after = next(deal_ends(table, 5))
            stage = Stage(page, server.url, table, before)
            stage.feed(before)
            stage.feed(after, wait=False)
            page.wait_for_selector("#banner:not([hidden]), .deal-summary", timeout=10_000)
            if page.query_selector("#banner:not([hidden])"):
                page.screenshot(path=str(out / f"{table}-trick-taken-{size}.png"))
                page.evaluate("() => window.stage.skipWait && window.stage.skipWait()")
            page.wait_for_selector(".deal-summary", timeout=10_000)
            page.wait_for_timeout(100)
            page.screenshot(path=str(out / f"{table}-deal-summary-{size}.png"))
            page.context.close()


def live(browser: Any, server: Server, out: Path) -> None:
    """The lobby, a waiting table seen by a joiner, a spectator, a whole game's end, the replay."""
    shoot(browser, server.url + "/", ".lobby .game-tile", "lobby", out, {}, full=True)
    table = server.post("/api/tables", {"game": "jass", "options": {"profile": "schieber"},
                                        "seats": ["human", "human", "bot:random", "bot:random"],
                                        "name": "Jass (Schieber) – Anna"})["id"]  # fmt: skip
    server.post(f"/api/tables/{table}/join", {"name": "Anna", "seat": 0})
    shoot(browser, f"{server.url}/tables/{table}", "form.join-form", "waiting-joiner", out, {"name": "Ben"})
    # a table in play whose second player left: a spectator may take the seat
    ben = server.post(f"/api/tables/{table}/join", {"name": "Ben", "seat": 1})
    server.request("POST", f"/api/tables/{table}/leave", {}, token=ben["token"])
    shoot(browser, f"{server.url}/tables/{table}", ".take-seat", "spectator", out, {"name": "Carla"})
    # a whole game against bots, to its result; then its replay and analysis
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"], {"target": 300})
    page = new_page(browser, "desktop", seats={table: seat})
    page.goto(f"{server.url}/tables/{table}")
    rng = random.Random(4)
    while wait_ready(page, 60_000) != "over":
        play_one(page, rng)
    page.screenshot(path=str(out / "result-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "result-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}/tables/{table}?replay=1")
    page.wait_for_selector("#replay-bar .replay-controls")
    for _ in range(14):
        page.keyboard.press("ArrowRight")
    page.screenshot(path=str(out / "replay-desktop.png"))
    page.click("#replay-analyse")
    try:  # a few deals of random play solve in a minute or so; else the shot shows it working
        page.wait_for_selector('#replay-analysis[data-status="done"]', timeout=120_000)
    except Exception:
        print("  the analysis was not done in two minutes")
    page.screenshot(path=str(out / "analysis-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "replay-phone.png"), full_page=True)
    page.context.close()


def tournament(browser: Any, server: Server, out: Path) -> None:
    """A Passe of bots played to its end: the tournament page with its rounds, the final standings
    and the Jass table of points lost per card (the server analyses the games by itself)."""
    body = {"name": "Passe am Freitag", "game": "jass", "format": "passe", "rounds": 3, "deals_per_round": 2,
            "options": {"weis": "off", "stoeck": False}, "fill_bot": "random"}  # fmt: skip
    page = new_page(browser, "desktop")  # the organiser: a person by the page's cookie
    page.goto(server.url + "/tournaments")
    req = page.context.request

    def call(path: str, data: Any = None) -> Any:
        r = req.get(server.url + path) if data is None else req.post(server.url + path, data=data)
        assert r.ok, f"{path}: {r.status} {r.text()}"
        return r.json()

    tid = call("/api/tournaments", body)["id"]
    for name in ("Anna", "Beat", "Carla", "Dario"):
        call(f"/api/tournaments/{tid}/bots", {"bot": "random", "name": name})
    call(f"/api/tournaments/{tid}/start", {})
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:  # over, and every game analysed (or ten minutes gone)
        doc = call(f"/api/tournaments/{tid}")
        if doc["status"] == "over" and len(doc.get("jass_errors", [])) == 4:
            break
        time.sleep(2)
    else:
        print("  the tournament's analyses were not done in ten minutes")
    page.context.close()
    shoot(browser, f"{server.url}/tournaments/{tid}", "#tour-standings", "tournament", out, {}, full=True)


# The pictures of docs/page.md and the README, and the shots they are made from.
DOCS = {
    "page-jass.png": "jass-trick-taken-mid-desktop.png",
    "page-jass-phone.png": "jass-trump-phone.png",
    "page-stichwahl.png": "stichwahl-prize-desktop.png",
    "page-stichling.png": "stichling-place-desktop.png",
    "page-stichmeister.png": "stichmeister-5-choose-desktop.png",
    "page-tournament.png": "tournament-desktop.png",  # docs/tournaments.md
}


def write_docs(out: Path) -> None:
    """The docs' pictures, in 256 colours (a fifth of the size; a screenshot has few colours)."""
    from PIL import Image

    for name, shot in DOCS.items():
        if not (out / shot).is_file():
            print(f"docs/img/{name}: {shot} was not taken in this run; left as it is")
            continue
        image = Image.open(out / shot).convert("RGB")
        image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.FLOYDSTEINBERG).save(
            ROOT / "docs" / "img" / name, optimize=True
        )
        print(f"docs/img/{name} from {shot}")


def main() -> None:
    docs = "--docs" in sys.argv
    only_tournament = "--tournament" in sys.argv
    args = [a for a in sys.argv[1:] if a not in ("--docs", "--tournament")]
    if "--game" in args:
        i = args.index("--game")
        ONLY.append(args[i + 1])
        del args[i : i + 2]
    out = Path(args[0] if args else ROOT / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    work = Path(out / ".server")
    work.mkdir(exist_ok=True)
    started = time.monotonic()
    server = Server(work)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            parts = (decisions, schieber, deal_end) if ONLY else (decisions, schieber, deal_end, live, tournament)
            for part in (tournament,) if only_tournament else parts:
                print(f"{part.__name__} ...", flush=True)
                part(browser, server, out)
            browser.close()
    finally:
        server.stop()
    shots = sorted(p.name for p in out.glob("*.png"))
    print(f"{len(shots)} screenshots in {out} ({time.monotonic() - started:.0f} s)")
    if docs:
        write_docs(out)


if __name__ == "__main__":
    main()
