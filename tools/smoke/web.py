"""What `stich serve` must give a newcomer, checked from outside against a running server (by
tools/smoke/run.py, from the development environment: the server runs from the environment under
test): the lobby answers, a table of bots plays to its end, a human joins and plays a game to its
end, every route answers good input without a 500, and the page loads in Chromium without a
script error, opens a table and seats its player."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
BROWSER = threading.Lock()  # one Chromium at a time, however many servers are checked at once


class Failed(Exception):
    """A check failed; the message says which and what was seen."""


class Walk:
    """HTTP calls that must answer as expected, remembering which routes they reached."""

    def __init__(self, base: str, say: Callable[[str], None], transport: httpx.BaseTransport | None = None) -> None:
        self.base = base
        self.say = say
        # the header every browser sends with the page's own requests (the accounts' cross-site check)
        self.headers = {"Sec-Fetch-Site": "same-origin"}
        self.http = httpx.Client(base_url=base, timeout=30, transport=transport, headers=self.headers)
        self.reached: set[tuple[str, str]] = set()
        self.chat: dict[str, Any] = {}  # the human's table, token and chat line, for the report

    def call(self, method: str, route: str, expect: int = 200, *, body: Any = None, token: str | None = None,
             params: dict[str, Any] | None = None, **path: str) -> httpx.Response:  # fmt: skip
        url = route.format(**path)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.http.request(method, url, json=body, headers=headers, params=params)
        self.reached.add((method, route))
        self.say(f"{method} {url} -> {r.status_code}")
        if r.status_code != expect:
            raise Failed(f"{method} {url} answered {r.status_code}, not {expect}: {r.text[:500]}")
        return r

    def until(self, what: str, check: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise Failed(f"{what}: not within {timeout:.0f} s")
            time.sleep(0.2)


def lobby(w: Walk, unavailable: set[str]) -> dict[str, Any]:
    """The page and the catalog answer; the catalog offers the engine's bots and names the ones
    this install cannot load."""
    page = w.call("GET", "/")
    if "text/html" not in page.headers.get("content-type", "") or "<script" not in page.text:
        raise Failed("GET / is not the page")
    catalog: dict[str, Any] = w.call("GET", "/api/games").json()
    offered = {b["name"] for b in catalog["bots"]}
    if not {"random", "heuristic", "ismcts"} <= offered:
        raise Failed(f"the catalog offers only {sorted(offered)}")
    missing = {b["name"] for b in catalog.get("unavailable_bots", [])}
    if offered & unavailable or not unavailable <= missing:
        seen = f"bots offered {sorted(offered)}, unavailable {sorted(missing)}"
        raise Failed(f"{seen}; expected {sorted(unavailable)} among the unavailable")
    w.say(f"catalog: {len(catalog['games'])} games, bots {sorted(offered)}, unavailable {sorted(missing)}")
    return catalog


def bot_table(w: Walk) -> str:
    """A Jass game of four bots, played to its end."""
    table = w.call("POST", "/api/tables", 201, body={"game": "jass", "seats": ["bot:random"] * 4}).json()
    over = lambda: w.http.get(f"/api/tables/{table['id']}").json()["status"] == "over"
    w.until("a table of bots plays to its end", over, 180)
    return str(table["id"])


def human_table(w: Walk) -> str:
    """A person joins a Jass table with three bots and plays over the WebSocket to the end."""
    body = {"game": "jass", "seats": ["human", "bot:random", "bot:random", "bot:random"], "options": {"target": 300}}
    table = w.call("POST", "/api/tables", 201, body=body).json()
    seat = w.call("POST", "/api/tables/{table_id}/join", body={"name": "Smoke"}, table_id=table["id"]).json()
    moves = asyncio.run(play(w, table["id"], seat["token"]))
    w.chat.update(table=table["id"], token=seat["token"])
    info = w.call("GET", "/api/tables/{table_id}", table_id=table["id"]).json()
    if info["status"] != "over" or info["seats"][0]["name"] != "Smoke":
        raise Failed(f"after the human's {moves} moves the table is {info['status']}: {info}")
    w.say(f"a human played {moves} moves to the end: {info['result']}")
    return str(table["id"])


async def play(w: Walk, table: str, token: str) -> int:
    ws_base = "ws" + w.base.removeprefix("http")
    w.reached.add(("WS", "/ws/tables/{table_id}"))
    moves = 0
    answered: set[tuple[int, int, int]] = set()
    seat = [Subprotocol("stichkit"), Subprotocol(f"stichkit.token.{token}")]  # the token, as the page sends it
    async with websockets.connect(f"{ws_base}/ws/tables/{table}", open_timeout=30, subprotocols=seat) as ws:
        await ws.send(json.dumps({"type": "chat", "text": "Guet Jass!"}))
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] == "error":
                raise Failed(f"the server refused a move: {msg}")
            if msg["type"] == "chat":
                w.chat["line"] = msg["id"]
            if msg["type"] != "state":
                continue
            if msg["table"]["status"] == "over":
                return moves
            turn = (msg["game_no"], msg["line"], msg["version"])
            if msg["legal"] and turn not in answered:  # a state may come again at the same version
                answered.add(turn)
                act = {"type": "act", "action": msg["legal"][0], "version": msg["version"], "game": msg["game_no"]}
                await ws.send(json.dumps(act))
                moves += 1
    raise Failed(f"the human's game did not end within 180 s ({moves} moves)")


def every_route(w: Walk, finished: str, routes: set[tuple[str, str]]) -> None:
    """The routes not reached yet, each with good input; then every route must have been reached."""
    for route in ("/api/tables/{table_id}/games", "/api/tables/{table_id}/record", "/api/tables/{table_id}/replay",
                  "/api/tables/{table_id}/analysis"):  # fmt: skip
        if route.endswith("analysis"):
            w.call("POST", route, table_id=finished)
        w.call("GET", route, table_id=finished)
    w.call("GET", "/api/tables", params={"status": "waiting"})
    two = w.call("POST", "/api/tables", 201, body={"game": "stichling", "seats": ["human", "human"]}).json()
    seat = w.call("POST", "/api/tables/{table_id}/join", body={"name": "Sepp"}, table_id=two["id"]).json()
    w.call("POST", "/api/tables/{table_id}/seat", body={"seat": 1}, token=seat["token"], table_id=two["id"])
    w.call("POST", "/api/tables/{table_id}/leave", body={}, token=seat["token"], table_id=two["id"])
    w.call("GET", "/api/health")
    w.call("GET", "/tables/{table_id}", table_id=two["id"])
    js = w.call("GET", "/static/{path}", path="js/app.js")
    if "javascript" not in js.headers.get("content-type", ""):
        raise Failed(f"/static/js/app.js is served as {js.headers.get('content-type')}")
    for route in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        w.call("GET", route)
    accounts(w)
    quick_play(w)
    tournament(w)
    all_reached(w, routes)


def accounts(w: Walk) -> None:
    """A guest asks who they are; two players register, befriend, change a password, report a
    chat line, look at profiles and the leaderboard, log out and in, and one deletes the account."""
    w.call("GET", "/api/account/session")
    suffix = f"{time.monotonic_ns() % 10**6:06d}"
    anna, sepp, password = f"Anna{suffix}", f"Sepp{suffix}", "Smoke-pass-1"
    with httpx.Client(base_url=w.base, timeout=30, headers=w.headers) as other:
        r = other.post("/api/account/register", json={"name": sepp, "password": password})
        if r.status_code != 201:
            raise Failed(f"a second account: {r.status_code} {r.text[:300]}")
    w.call("POST", "/api/account/register", 201, body={"name": anna, "password": password})
    if w.call("GET", "/api/account").json()["account"]["name"] != anna:
        raise Failed("the account registered is not the one logged in")
    w.call("POST", "/api/account/password", body={"password": password, "new_password": password + "!"})
    password += "!"
    w.call("POST", "/api/friends", 201, body={"name": sepp})
    w.call("GET", "/api/friends")
    w.call("DELETE", "/api/friends/{name}", name=sepp)
    if "line" not in w.chat:
        raise Failed("the human's chat line never came back from the table")
    w.call("POST", "/api/tables/{table_id}/chat/{chat_id}/report", 201, body={"reason": "smoke"},
           token=w.chat["token"], table_id=w.chat["table"], chat_id=str(w.chat["line"]))  # fmt: skip
    for route in ("/api/players/{name}", "/players/{name}"):
        w.call("GET", route, name=anna)
    for route in ("/api/leaderboard/{game}", "/leaderboard/{game}"):
        w.call("GET", route, game="jass")
    w.call("GET", "/leaderboard")
    w.call("POST", "/api/mutes", 201, body={"name": sepp})
    if w.call("GET", "/api/mutes").json()["muted"] != [sepp]:
        raise Failed("the muted name is not kept for the account")
    w.call("DELETE", "/api/mutes/{name}", name=sepp)
    w.call("POST", "/api/account/logout-everywhere")
    w.call("POST", "/api/account/login", body={"name": anna, "password": password})
    w.call("POST", "/api/account/logout")
    w.call("POST", "/api/account/login", body={"name": anna, "password": password})
    w.call("DELETE", "/api/account", body={"password": password})


def quick_play(w: Walk) -> None:
    """Quick play as a guest: the queues, a place, its news, bots after the wait; a second place
    left again."""
    w.call("GET", "/api/quick")
    me = w.call("POST", "/api/quick", 201, body={"name": "Smoke", "game": "stichling", "players": 2, "wait": 1}).json()
    w.call("GET", "/api/quick/me", token=me["ticket"])
    time.sleep(1.2)  # the wait chosen: then bots are offered
    if w.call("POST", "/api/quick/bots", body={"bot": "random"}, token=me["ticket"]).json()["status"] != "matched":
        raise Failed("quick play with bots after the wait did not seat the player")
    again = w.call("POST", "/api/quick", 201, body={"name": "Smoke", "game": "stichwahl", "players": 3}).json()
    w.call("POST", "/api/quick/leave", token=again["ticket"])


def tournament(w: Walk) -> None:
    """A tournament as its organiser runs it: opened, two bots and a player entered (one taken
    out and entered again), started, paused and resumed, the player replaced by a bot, ended."""
    body = {"name": "Smoke Cup", "game": "stichling", "format": "swiss", "options": {"players": 2}, "rounds": 2,
            "fill_bot": "random"}  # fmt: skip
    t = w.call("POST", "/api/tournaments", 201, body=body).json()
    w.call("GET", "/api/tournaments")
    w.call("GET", "/tournaments")
    w.call("GET", "/tournaments/{tournament_id}", tournament_id=t["id"])
    for name in ("Bot A", "Bot B"):
        w.call("POST", "/api/tournaments/{tournament_id}/bots", body={"bot": "random", "name": name},
               tournament_id=t["id"])  # fmt: skip
    w.call("POST", "/api/tournaments/{tournament_id}/register", body={"name": "Smoke"}, tournament_id=t["id"])
    w.call("POST", "/api/tournaments/{tournament_id}/unregister", body={}, tournament_id=t["id"])
    me = w.call("POST", "/api/tournaments/{tournament_id}/register", body={"name": "Smoke"}, tournament_id=t["id"])
    w.call("POST", "/api/tournaments/{tournament_id}/start", tournament_id=t["id"])
    w.call("GET", "/api/tournaments/{tournament_id}/rev", tournament_id=t["id"])
    w.call("POST", "/api/tournaments/{tournament_id}/pause", tournament_id=t["id"])
    w.call("POST", "/api/tournaments/{tournament_id}/resume", tournament_id=t["id"])
    w.call("POST", "/api/tournaments/{tournament_id}/replace", body={"entrant": me.json()["entrant"]},
           tournament_id=t["id"])  # fmt: skip
    done = w.call("POST", "/api/tournaments/{tournament_id}/end", tournament_id=t["id"]).json()
    shown = w.call("GET", "/api/tournaments/{tournament_id}", tournament_id=t["id"]).json()
    if done["status"] != "over" or shown["status"] != "over" or len(shown["entrants"]) != 3:
        raise Failed(f"the tournament did not end as its organiser asked: {shown}")


def all_reached(w: Walk, routes: set[tuple[str, str]]) -> None:
    missed = routes - w.reached
    if missed:
        raise Failed(f"routes the smoke does not walk (add them to tools/smoke/web.py): {sorted(missed)}")


def app_routes() -> set[tuple[str, str]]:
    """(method, path) of every route of the server as this tree defines it: the routes of each
    module of stichkit.server.routers, and those the application adds itself (docs, files)."""
    import importlib
    import pkgutil

    from starlette.routing import Mount, Route, WebSocketRoute

    import stichkit.server.routers as package
    from stichkit.server.app import create_app
    from stichkit.server.settings import Settings

    routes = list(create_app(Settings(db="sqlite://")).routes)
    for module in pkgutil.iter_modules(package.__path__):
        router = getattr(importlib.import_module(f"{package.__name__}.{module.name}"), "router", None)
        routes += router.routes if router is not None else []
    out = set()
    for r in routes:
        if isinstance(r, WebSocketRoute):
            out.add(("WS", r.path))
        elif isinstance(r, Mount):
            out.add(("GET", r.path + "/{path}"))
        elif isinstance(r, Route):
            out |= {(m, r.path) for m in (r.methods or ()) if m != "HEAD"}
    return out


def page(base: str, chromium: str, say: Callable[[str], None]) -> str:
    """The lobby in Chromium: no script error, the form built from the catalog; opening a table
    from it seats its player there (the id of that table)."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with BROWSER, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            tab.on("pageerror", lambda e: errors.append(f"script error: {e}"))
            tab.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            tab.goto(base + "/")
            tab.wait_for_selector("#new-table select[name=seat1] option", state="attached", timeout=30_000)
            levels = tab.locator("#new-table select[name=seat1] option").count()
            tab.fill("#new-table input[name=name]", "Smoke")
            tab.click("#open-table")
            tab.wait_for_url(re.compile(r".*/tables/[^/]+$"), timeout=30_000)
            tab.wait_for_load_state("networkidle", timeout=30_000)
            table = tab.url.rsplit("/", 1)[1]
            notice = tab.locator(".notice").all_inner_texts()
        finally:
            browser.close()
    if errors or notice:
        raise Failed(f"the page in Chromium: {errors + notice}")
    say(f"Chromium: the lobby offered {levels} choices for seat 2, opened table {table}")
    return table


def check_server(base: str, chromium: str | None, say: Callable[[str], None], *, unavailable: set[str],
                 walk_every_route: bool) -> None:  # fmt: skip
    """Everything above; the page only where there is a Chromium (`chromium`: its path)."""
    w = Walk(base, say)
    lobby(w, unavailable)
    bot_table(w)
    finished = human_table(w)
    if chromium is not None:
        opened = page(base, chromium, say)
        seats = w.call("GET", "/api/tables/{table_id}", table_id=opened).json()["seats"]
        if not (seats[0]["claimed"] and seats[0]["name"] == "Smoke"):
            raise Failed(f"the table opened in the page does not seat its player: {seats[0]}")
    if walk_every_route:
        every_route(w, finished, app_routes())
