"""Every page runs under the server's Content-Security-Policy without one violation: the lobby,
a table in play with its windows, and a finished game's replay. (The `new_page` fixture fails any
test whose page logs a violation; here each page is also walked on purpose, with the browser's
own violation events counted.)"""

from __future__ import annotations

import random
import time
from typing import Any

from .conftest import NewPage, Server
from .driver import open_by_api, play_one, wait_ready

VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
"""


def violations(page: Any) -> list[str]:
    return list(page.evaluate("window.__violations"))


def test_every_page_runs_under_the_policy_without_a_violation(server: Server, new_page: NewPage) -> None:
    table, seat = open_by_api(server, "jass", ["human", "bot:random", "bot:random", "bot:random"])
    page = new_page(seats={table: seat})
    page.context.add_init_script(VIOLATIONS)
    policies = []

    def seen(r: Any) -> None:
        if r.request.resource_type == "document":
            policies.append(r.headers.get("content-security-policy"))

    page.on("response", seen)

    page.goto(server.url + "/")  # the lobby
    page.wait_for_selector(".game-tile")
    page.click("#btn-help")
    page.keyboard.press("Escape")
    assert violations(page) == []

    page.goto(f"{server.url}/tables/{table}")  # a table in play: a few moves, both windows, the chat
    rng = random.Random(3)
    for _ in range(3):
        wait_ready(page)
        play_one(page, rng)
    page.click("#btn-settings")
    page.keyboard.press("Escape")
    page.click("#btn-help")
    page.keyboard.press("Escape")
    assert violations(page) == []

    done = server.post("/api/tables", {"game": "stichling", "seats": ["bot:random", "bot:random"]})["id"]
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{done}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.2)
    page.goto(f"{server.url}/tables/{done}?replay=1")  # a finished game's replay
    page.wait_for_selector("#replay-bar .replay-controls")
    page.click("#replay-bar button >> nth=-1")
    assert violations(page) == []

    assert len(policies) == 3 and all(p and "script-src 'self';" in p for p in policies), policies
