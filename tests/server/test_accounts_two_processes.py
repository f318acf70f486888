"""Accounts across two server processes on one PostgreSQL database, with Redis: a login made
through one process is a login at the other, logging out through either ends it at both, the
rate limit counts the attempts made through both, and a seat taken through one follows the
account to a device connected to the other."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator

import httpx
import pytest

from .banning import banned_at_play
from .harness import Client, Server, postgres_database, redis_url

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    tmp = tmp_path_factory.mktemp("accounts2")
    redis = redis_url()
    flags = ["--bot-delay", "0", "--bot-workers", "1", "--login-limit", "6/minute", "--register-limit", "100/hour"]
    with postgres_database() as db:
        a = Server(db, tmp / "a.log", *flags, redis=redis)
        b = Server(db, tmp / "b.log", *flags, redis=redis)
        a.start()
        b.start()
        try:
            yield a, b
        finally:
            a.stop()
            b.stop()


def browser(srv: Server) -> httpx.Client:
    return httpx.Client(base_url=srv.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})


def test_a_session_made_on_one_process_is_known_and_ended_on_the_other(pair: tuple[Server, Server]) -> None:
    a, b = pair
    name = "Two" + secrets.token_hex(3)
    with browser(a) as on_a:
        assert on_a.post("/api/account/register", json={"name": name, "password": PASSWORD}).status_code == 201
        cookie = on_a.cookies["stich_session"]
        with browser(b) as on_b:
            on_b.cookies.set("stich_session", cookie)
            assert on_b.get("/api/account").json()["account"]["name"] == name
            assert on_b.post("/api/account/logout").status_code == 200
        assert on_a.get("/api/account").status_code == 401


def test_the_login_limit_counts_attempts_through_both_processes(pair: tuple[Server, Server]) -> None:
    a, b = pair
    name = "Lim" + secrets.token_hex(3)
    with browser(a) as on_a, browser(b) as on_b:
        on_a.post("/api/account/register", json={"name": name, "password": PASSWORD})
        for i in range(6):  # 6 a minute: three through each
            r = (on_a if i % 2 else on_b).post("/api/account/login", json={"name": name, "password": "wrong one!"})
            assert r.status_code == 401
        for c in (on_a, on_b):
            r = c.post("/api/account/login", json={"name": name, "password": PASSWORD})
            assert r.status_code == 429, r.text


def test_a_seat_taken_through_one_process_follows_the_account_to_the_other(pair: tuple[Server, Server]) -> None:
    a, b = pair
    name = "Seat" + secrets.token_hex(3)
    t = a.open_table("stichling", ["human", "bot:random"])
    with browser(a) as phone, browser(b) as laptop:
        phone.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert phone.post(f"/api/tables/{t['id']}/join", json={"name": "x"}).json()["seat"] == 0
        laptop.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert [s["table_id"] for s in laptop.get("/api/account").json()["seats"]] == [t["id"]]

        async def back() -> None:
            c = await Client.open(b, t["id"], headers={"Cookie": f"stich_session={laptop.cookies['stich_session']}"})
            m = await c.state()
            assert m["seat"] == 0
            await c.close()

        asyncio.run(back())


def test_deleting_an_account_renames_its_seats_on_both_processes(pair: tuple[Server, Server]) -> None:
    a, b = pair
    name = "Del" + secrets.token_hex(3)
    t = a.open_table("stichling", ["human", "human"])
    with browser(a) as on_a:
        on_a.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert on_a.post(f"/api/tables/{t['id']}/join", json={}).json()["seat"] == 0
        assert b.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == name
        assert on_a.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    for server in (a, b):  # b hears of it by its notice (at the latest by its resync)
        deadline = time.monotonic() + 15
        while (seat := server.get(f"/api/tables/{t['id']}").json()["seats"][0])["name"] != "(deleted)":
            assert time.monotonic() < deadline, f"{server.http} still shows {seat}"
            time.sleep(0.1)
        assert (seat["account"], seat["claimed"]) == (False, True)
    game = b.get(f"/api/tables/{t['id']}/games").json()["games"][0]["seats"][0]
    assert game["name"] == "(deleted)" and "account" not in game


def test_deleting_an_account_renames_its_chat_lines_on_both_processes(pair: tuple[Server, Server]) -> None:
    """A line said through a reaches a guest connected through b under the account's name; once
    the account is deleted through a, b's connection gets the chat again under the neutral name,
    a connection made afterwards through b too, and PostgreSQL keeps no line under the name."""
    import psycopg

    a, b = pair
    name = "Chat" + secrets.token_hex(3)
    t = a.open_table("stichling", ["human", "human"])
    guest = b.join(t["id"], "Gast", 1)
    with browser(a) as on_a:
        on_a.post("/api/account/register", json={"name": name, "password": PASSWORD})
        token = on_a.post(f"/api/tables/{t['id']}/join", json={"seat": 0}).json()["token"]

        async def go() -> None:
            me, other = await Client.open(a, t["id"], token), await Client.open(b, t["id"], guest["token"])
            await me.send({"type": "chat", "text": "hoi"})
            said = await other.until(lambda m: m["type"] == "chat")
            assert said["name"] == name
            r = await asyncio.to_thread(on_a.request, "DELETE", "/api/account", json={"password": PASSWORD})
            assert r.status_code == 200, r.text
            again = await other.until(lambda m: m["type"] == "chat_history")
            assert [x["name"] for x in again["messages"]] == ["(deleted)"]
            late = await Client.open(b, t["id"], guest["token"])
            history = await late.until(lambda m: m["type"] == "chat_history")
            assert [x["name"] for x in history["messages"]] == ["(deleted)"]
            for c in (me, other, late):
                await c.close()

        asyncio.run(go())
    with psycopg.connect(a.db) as conn:
        rows = conn.execute("SELECT name, account_id FROM chat WHERE table_id = %s", (t["id"],)).fetchall()
    assert rows == [("(deleted)", None)]


def test_a_ban_by_stich_admin_gives_up_the_seats_a_process_holds(pair: tuple[Server, Server]) -> None:
    """`stich admin ban` is a third process: told through Redis, the process that owns the table
    makes the banned account leave its seat, the process it is connected through closes its
    connection, and both refuse its token; the takeover bot ends the game, a loss for it."""
    import psycopg

    a, b = pair
    bad_name = "Ban" + secrets.token_hex(3)
    with browser(a) as bad, browser(a) as good:
        for c, n in ((bad, bad_name), (good, "Fair" + secrets.token_hex(3))):
            assert c.post("/api/account/register", json={"name": n, "password": PASSWORD}).status_code == 201
        t = banned_at_play((a, b), bad, good, bad_name)
    with psycopg.connect(a.db) as conn:
        sql = (
            "SELECT played.won, played.left FROM played JOIN accounts ON accounts.id = played.account_id"
            " WHERE accounts.name = %s AND table_id = %s"
        )
        row = conn.execute(sql, (bad_name, t)).fetchone()
    assert row == (False, True)
