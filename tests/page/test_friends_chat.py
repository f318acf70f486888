"""Friends and chat in the browser: two account holders add each other in the lobby's friends
panel and see each other online at a table; a player mutes another's chat lines and reports one,
which reaches the operator; a logged-in player's mute follows the account to another browser."""

from __future__ import annotations

import asyncio
import io
import secrets
import threading
from typing import Any

from stichkit.cli.main import build_parser
from stichkit.server.admin import run as run_admin
from tests.server.harness import Client

from .conftest import NewPage, Server

PASSWORD = "correct horse battery"


class Sockets:
    """What the WebSocket client of tests/server needs of a server: its ws:// address."""

    def __init__(self, server: Server) -> None:
        self.ws = server.url.replace("http://", "ws://")


def logged_in(new_page: NewPage, server: Server, prefix: str, **kw: Any) -> tuple[Any, str]:
    """A page whose browser registered an account (the cookie is the browser's)."""
    page = new_page(**kw)
    name = f"{prefix}{secrets.token_hex(3)}"
    r = page.context.request.post(server.url + "/api/account/register", data={"name": name, "password": PASSWORD},
                                  headers={"Sec-Fetch-Site": "same-origin"})  # fmt: skip
    assert r.status == 201, r.text()
    return page, name


def test_two_friends_see_each_other_at_a_table(server: Server, new_page: NewPage) -> None:
    anna, a = logged_in(new_page, server, "Anna")
    ben, b = logged_in(new_page, server, "Ben")
    anna.goto(server.url + "/")
    anna.wait_for_selector(f'#my-profile[href="/players/{a}"]')
    assert not anna.is_disabled('input[name="rated"]')  # logged in: a rated table may be opened
    anna.fill('.friend-form input[name="friend"]', b)
    anna.click('.friend-form button[type="submit"]')
    anna.wait_for_selector(f'#friend-asked a[href="/players/{b}"]')
    ben.goto(server.url + "/")
    ben.click(f'#friend-asking button[data-accept="{a}"]')
    ben.wait_for_selector(f'#friend-list li[data-friend="{a}"]')
    t = ben.context.request.post(server.url + "/api/tables", data={"game": "stichling", "seats": ["human", "human"]},
                                 headers={"Sec-Fetch-Site": "same-origin"}).json()  # fmt: skip
    assert ben.context.request.post(f"{server.url}/api/tables/{t['id']}/join", data={},
                                    headers={"Sec-Fetch-Site": "same-origin"}).status == 200  # fmt: skip
    anna.reload()
    friend = anna.wait_for_selector(f'#friend-list li[data-friend="{b}"]')
    assert friend.query_selector(".presence.on") is not None
    assert friend.query_selector(f'a[href="/tables/{t["id"]}"]') is not None


def say(server: Server, table: str, token: str, line: str) -> None:
    """A chat line said at the table over the WebSocket, by the seat of `token`."""

    async def go() -> None:
        c = await Client.open(Sockets(server), table, token)  # type: ignore[arg-type]
        await c.send({"type": "chat", "text": line})
        await c.until(lambda m: m["type"] == "chat")
        await c.close()

    said = threading.Thread(target=lambda: asyncio.run(go()))  # Playwright holds this thread's loop
    said.start()
    said.join(30)


def test_muting_and_reporting_a_chat_line(server: Server, new_page: NewPage) -> None:
    table = server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"]})["id"]
    rude = server.post(f"/api/tables/{table}/join", {"name": "Rude"})
    me = server.post(f"/api/tables/{table}/join", {"name": "Anna"})
    page = new_page(seats={table: {"seat": me["seat"], "token": me["token"], "name": "Anna"}})
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector(".chat-form:not([hidden])")
    line = f"potato {secrets.token_hex(3)}"
    say(server, table, rude["token"], line)
    li = page.wait_for_selector(f'#chat li:has-text("{line}")')
    page.once("dialog", lambda d: d.accept("rude words"))
    li.query_selector('[data-cmd="report"]').click()
    page.wait_for_selector(".toast")
    out = io.StringIO()
    assert run_admin(build_parser().parse_args(["admin", "--db", server.db, "reports"]), out) == 0
    assert line in out.getvalue() and "reported by Anna: 'rude words'" in out.getvalue()
    page.click('#chat [data-cmd="mute"][data-name="Rude"]')
    page.wait_for_selector('#chat li.chat-muted:has-text("Rude ist stumm geschaltet")')
    assert line not in (page.text_content("#chat") or "")
    page.reload()  # the browser remembers
    page.wait_for_selector("#chat li.chat-muted")
    page.click('#chat [data-cmd="unmute"]')
    page.wait_for_selector(f'#chat li:has-text("{line}")')


def test_a_mute_follows_the_account_to_another_browser(server: Server, new_page: NewPage) -> None:
    """Anna, logged in on her laptop, mutes Rude at their table; on her phone (another browser,
    the same account) the table shows Rude's lines folded at once; she shows them again there,
    and the laptop shows them again after a reload. The browsers themselves keep nothing of it."""
    laptop, name = logged_in(new_page, server, "Anna")
    table = server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"]})["id"]
    rude = server.post(f"/api/tables/{table}/join", {"name": "Rude"})
    same = {"Sec-Fetch-Site": "same-origin"}
    assert laptop.context.request.post(f"{server.url}/api/tables/{table}/join", data={}, headers=same).status == 200
    line = f"potato {secrets.token_hex(3)}"
    say(server, table, rude["token"], line)
    laptop.goto(f"{server.url}/tables/{table}")
    laptop.wait_for_selector(f'#chat li:has-text("{line}")')
    laptop.click('#chat [data-cmd="mute"][data-name="Rude"]')
    laptop.wait_for_selector('#chat li.chat-muted:has-text("Rude ist stumm geschaltet")')
    assert laptop.context.request.get(f"{server.url}/api/mutes", headers=same).json()["muted"] == ["Rude"]

    phone = new_page(width=390, height=844)
    r = phone.context.request.post(server.url + "/api/account/login", data={"name": name, "password": PASSWORD},
                                   headers=same)  # fmt: skip
    assert r.status == 200, r.text()
    phone.goto(f"{server.url}/tables/{table}")
    phone.wait_for_selector(".bottom-seat.mine")  # the account's seat, followed to this browser
    phone.wait_for_selector('#chat li.chat-muted:has-text("Rude ist stumm geschaltet")')
    assert line not in (phone.text_content("#chat") or "")
    phone.click('#chat [data-cmd="unmute"][data-name="Rude"]')
    phone.wait_for_selector(f'#chat li:has-text("{line}")')
    assert phone.context.request.get(f"{server.url}/api/mutes", headers=same).json()["muted"] == []

    laptop.reload()
    laptop.wait_for_selector(f'#chat li:has-text("{line}")')
    assert laptop.query_selector("#chat li.chat-muted") is None
    for page in (laptop, phone):  # the account's mute, not the browser's
        assert page.evaluate("() => JSON.parse(localStorage.getItem('stichkit.prefs') || '{}').muted || []") == []
