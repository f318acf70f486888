"""Accounts against a real server: register, log in and out, sessions, a new password, a deleted
account, seats that follow the account; and hostile input, each refused with a reason and with
nothing changed."""

from __future__ import annotations

import asyncio
import io
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher

from stichkit.cli.main import build_parser
from stichkit.server import credentials
from stichkit.server.admin import run as run_admin

from .banning import banned_at_play
from .harness import Client, Server

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: its limits are counted per address, and every test comes from one."""
    d: Path = tmp_path_factory.mktemp("accounts")
    limits = ["--register-limit", "1000/hour", "--login-address-limit", "1000/minute", "--login-limit", "4/minute"]
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "1", *limits,
               "--allowed-origin", "https://jass.example")  # fmt: skip
    s.start()
    yield s
    s.stop()


def browser(srv: Server) -> httpx.Client:
    """One browser: its own cookies, and the headers a browser sends with the page's requests."""
    return httpx.Client(base_url=srv.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})


def unique(prefix: str = "p") -> str:
    return f"{prefix}{secrets.token_hex(4)}"


def register(b: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    r = b.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r


def count_accounts(srv: Server) -> int:
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
        return int(conn.execute("SELECT count(*) FROM accounts").fetchone()[0])


def test_register_log_out_and_in_again(srv: Server) -> None:
    name = unique("Anna")
    with browser(srv) as b:
        r = register(b, name)
        assert r.json()["account"]["name"] == name
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
        assert b.get("/api/account").json()["account"]["name"] == name
        assert b.post("/api/account/logout").status_code == 200
        assert b.get("/api/account").status_code == 401
        r = b.post("/api/account/login", json={"name": name.upper(), "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert r.json()["account"]["name"] == name  # the name as registered, whatever the case typed
        assert b.get("/api/account").status_code == 200


def test_a_session_ended_stays_ended_with_its_old_cookie(srv: Server) -> None:
    with browser(srv) as b:
        register(b, unique())
        old = dict(b.cookies)
        b.post("/api/account/logout")
        b.cookies.update(old)
        r = b.get("/api/account")
        assert r.status_code == 401 and "log in" in r.json()["error"]


def test_log_out_everywhere_ends_every_device(srv: Server) -> None:
    name = unique()
    with browser(srv) as phone, browser(srv) as laptop:
        register(phone, name)
        assert laptop.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 200
        r = laptop.post("/api/account/logout-everywhere")
        assert r.json()["sessions_ended"] == 2
        assert phone.get("/api/account").status_code == 401
        assert laptop.get("/api/account").status_code == 401


def test_wrong_name_and_wrong_password_get_the_same_answer(srv: Server) -> None:
    name = unique()
    with browser(srv) as b:
        register(b, name)
        b.post("/api/account/logout")
        wrong_password = b.post("/api/account/login", json={"name": name, "password": "not the password"})
        no_such_name = b.post("/api/account/login", json={"name": unique(), "password": "not the password"})
        assert wrong_password.status_code == no_such_name.status_code == 401
        assert wrong_password.json() == no_such_name.json() == {"error": "wrong user name or password"}
        assert "set-cookie" not in wrong_password.headers


def test_wrong_passwords_at_the_limit_lock_the_name_for_any_password(srv: Server) -> None:
    """The limit counts the name's wrong passwords (4 a minute here): the fifth try is refused,
    the right password too, and an unknown name is refused the same way."""
    name, nobody = unique(), unique()
    with browser(srv) as b:
        register(b, name)
        b.post("/api/account/logout")
        for who in (name, nobody):
            for _ in range(4):
                assert b.post("/api/account/login", json={"name": who, "password": "wrong-wrong"}).status_code == 401
            r = b.post("/api/account/login", json={"name": who, "password": PASSWORD})
            assert r.status_code == 429 and "too many attempts" in r.json()["error"]
            assert int(r.headers["retry-after"]) > 0
        assert b.get("/api/account").status_code == 401  # the right password opened nothing


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "must not be empty"),
        ("ab", "not 2 characters"),
        ("x" * 21, "not 21 characters"),
        ("x" * 5000, "at most 200"),
        ("<script>", "LESS-THAN SIGN"),
        ("two words", "a space"),
        ("zero\u200bwidth", "ZERO WIDTH SPACE"),
        ("\u041dans", "look alike"),  # a Cyrillic En among Latin letters
        (".dot", "begins and ends"),
    ],
)
def test_bad_user_names_are_refused_with_what_is_allowed(srv: Server, name: str, why: str) -> None:
    before = count_accounts(srv)
    with browser(srv) as b:
        r = b.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 400 and why in r.json()["error"], r.text
        assert "set-cookie" not in r.headers
    assert count_accounts(srv) == before


def test_a_name_that_looks_like_anothers_is_not_available(srv: Server) -> None:
    base = unique("pau")
    with browser(srv) as b:
        register(b, base + "l")
    before = count_accounts(srv)
    for alike in (base + "1", base + "I", (base + "L").upper(), "".join(chr(ord(c) + 0xFEE0) for c in base + "l")):
        with browser(srv) as b:
            r = b.post("/api/account/register", json={"name": alike, "password": PASSWORD})
            assert r.status_code == 409 and "not available" in r.json()["error"], (alike, r.text)
    assert count_accounts(srv) == before


def test_passwords_too_short_or_too_long_are_refused(srv: Server) -> None:
    before = count_accounts(srv)
    with browser(srv) as b:
        for pw, why in (("short", "at least 8"), ("y" * 300, "at most 256")):
            r = b.post("/api/account/register", json={"name": unique(), "password": pw})
            assert r.status_code == 400 and why in r.json()["error"]
    assert count_accounts(srv) == before


@pytest.mark.parametrize("kind", ["forged", "altered", "unsigned", "another secret", "huge"])
def test_forged_and_altered_cookies_open_nothing(srv: Server, kind: str) -> None:
    name = unique()
    with browser(srv) as b:
        register(b, name)
        real = b.cookies["stich_session"]
        secret, _, signature = real.partition(".")
        bad = {
            "forged": secrets.token_urlsafe(32) + "." + signature,
            "altered": secret[:-1] + ("A" if secret[-1] != "A" else "B") + "." + signature,
            "unsigned": secret,
            # well made, by the server's own signer, under a secret that is not the server's
            "another secret": credentials.new_session("not the server's secret")[0],
            "huge": "x" * 3000,
        }[kind]
        b.cookies.clear()
        b.cookies.set("stich_session", bad)
        assert b.get("/api/account").status_code == 401
        r = b.post("/api/account/password", json={"password": PASSWORD, "new_password": "something new"})
        assert r.status_code == 401
        assert "set-cookie" not in r.headers
        b.cookies.clear()
        r = b.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200  # the password stands


def test_an_expired_session_opens_nothing(srv: Server) -> None:
    with browser(srv) as b:
        register(b, unique())
        with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
            conn.execute("UPDATE sessions SET expires_at = '2020-01-01 00:00:00.000000'")
        r = b.get("/api/account")
        assert r.status_code == 401


def test_cross_site_posts_are_refused_and_change_nothing(srv: Server) -> None:
    name = unique()
    with browser(srv) as b:
        register(b, name)
        for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                        {"Sec-Fetch-Site": None, "Origin": "https://evil.example"}):  # fmt: skip
            hdrs = {k: v for k, v in headers.items() if v is not None}
            b.headers.pop("Sec-Fetch-Site", None)
            for path, body in (("/api/account/password", {"password": PASSWORD, "new_password": "hijacked!"}),
                               ("/api/account/logout-everywhere", None)):  # fmt: skip
                r = b.post(path, json=body, headers=hdrs)
                assert r.status_code == 403 and "may not use the login" in r.json()["error"], r.text
            r = b.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=hdrs)
            assert r.status_code == 403
            r = b.post("/api/account/login", json={"name": name, "password": PASSWORD}, headers=hdrs)
            assert r.status_code == 403  # nobody is logged in by another site
            b.headers["Sec-Fetch-Site"] = "same-origin"
        assert b.get("/api/account").status_code == 200  # still logged in, the same password
    with browser(srv) as b:
        assert b.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 200


def test_the_origins_the_login_takes_are_the_websockets(srv: Server) -> None:
    """Where a browser sends no Sec-Fetch-Site, the login is used for the server's own origin and
    for those the operator names (--allowed-origin), as the WebSocket lets them in (origins.py)."""
    with browser(srv) as b:
        register(b, unique())
        b.headers.pop("Sec-Fetch-Site", None)
        own = "http://" + srv.http.split("://", 1)[1].rstrip("/")
        for origin in (own, "https://jass.example", "https://JASS.example/"):
            assert b.get("/api/account/session", headers={"Origin": origin}).json()["account"] is not None, origin
        for origin in ("https://evil.example", "null", "https://jass.example.evil.example"):
            assert b.get("/api/account/session", headers={"Origin": origin}).json()["account"] is None, origin


def test_a_new_password_ends_the_other_sessions(srv: Server) -> None:
    name = unique()
    with browser(srv) as here, browser(srv) as there:
        register(here, name)
        there.post("/api/account/login", json={"name": name, "password": PASSWORD})
        r = here.post("/api/account/password", json={"password": "not it at all", "new_password": "new password 1"})
        assert r.status_code == 403 and "nothing was changed" in r.json()["error"]
        assert there.get("/api/account").status_code == 200
        r = here.post("/api/account/password", json={"password": PASSWORD, "new_password": "new password 1"})
        assert r.status_code == 200, r.text
        assert here.get("/api/account").status_code == 200
        assert there.get("/api/account").status_code == 401
    with browser(srv) as b:
        assert b.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 401
        assert b.post("/api/account/login", json={"name": name, "password": "new password 1"}).status_code == 200


def test_a_logged_in_player_sits_under_the_user_name_and_the_seat_follows_the_account(srv: Server) -> None:
    name = unique("Sepp")
    t = srv.open_table("jass", ["human", "bot:random", "human", "bot:random"], options={"target": 300})
    with browser(srv) as phone, browser(srv) as laptop:
        register(phone, name)
        r = phone.post(f"/api/tables/{t['id']}/join", json={"name": "whatever"})
        assert r.status_code == 200, r.text
        seat = r.json()["seat"]
        info = srv.get(f"/api/tables/{t['id']}").json()
        assert info["seats"][seat]["name"] == name and info["seats"][seat]["account"] is True
        laptop.post("/api/account/login", json={"name": name, "password": PASSWORD})
        held = laptop.get("/api/account").json()["seats"]
        assert {"table_id": t["id"], "seat": seat, "game": "jass", "status": "waiting", "name": ""} in held

        async def back_at_the_table() -> None:
            # The laptop has no token: its login's cookie seats it.
            c = await Client.open(srv, t["id"], headers={"Cookie": f"stich_session={laptop.cookies['stich_session']}"})
            m = await c.state()
            assert m["seat"] == seat
            await c.close()

        asyncio.run(back_at_the_table())


def test_a_deleted_account_leaves_its_games_under_a_neutral_name(srv: Server) -> None:
    name = unique("Gone")
    t = srv.open_table("stichling", ["human", "bot:random"], options={})
    with browser(srv) as b:
        register(b, name)
        b.post(f"/api/tables/{t['id']}/join", json={"name": "x"})
        r = b.request("DELETE", "/api/account", json={"password": "wrong password"})
        assert r.status_code == 403 and count_accounts(srv) > 0
        assert srv.get(f"/api/tables/{t['id']}").json()["seats"][0]["account"] is True
        r = b.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        assert b.get("/api/account").status_code == 401
        seat = srv.get(f"/api/tables/{t['id']}").json()["seats"][0]
        assert (seat["name"], seat["account"], seat["claimed"]) == ("(deleted)", False, True)
    games = srv.get(f"/api/tables/{t['id']}/games").json()["games"]
    assert games[0]["seats"][0]["name"] == "(deleted)" and "account" not in games[0]["seats"][0]
    with browser(srv) as b:
        assert b.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 401
        register(b, name)  # the name is free again


def test_a_deleted_account_that_took_a_seat_during_play_leaves_that_game_too(srv: Server) -> None:
    """Whoever takes a freed seat during play is listed in the game's `names`; deleting that
    account renames it there as well, and nobody else's name."""
    t = srv.open_table("stichling", ["human", "human"], options={})
    first, other = srv.join(t["id"], "Anfang", 0), srv.join(t["id"], "Bleibt", 1)
    assert srv.get(f"/api/tables/{t['id']}").json()["status"] == "playing"
    r = srv.post(f"/api/tables/{t['id']}/leave", {}, headers={"Authorization": f"Bearer {first['token']}"})
    assert r.status_code == 200, r.text
    name = unique("Spaet")
    with browser(srv) as b:
        register(b, name)
        r = b.post(f"/api/tables/{t['id']}/join", json={"seat": 0})
        assert r.status_code == 200, r.text
        seats = srv.get(f"/api/tables/{t['id']}/games").json()["games"][0]["seats"]
        assert seats[0]["names"] == ["Anfang", name], seats
        assert b.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    seats = srv.get(f"/api/tables/{t['id']}/games").json()["games"][0]["seats"]
    assert seats[0]["names"] == ["Anfang", "(deleted)"] and "joined" not in seats[0], seats
    assert seats[1]["names"] == ["Bleibt"] and other["seat"] == 1


def test_a_deleted_account_s_chat_lines_are_renamed_at_the_table_and_in_the_database(srv: Server) -> None:
    """Its lines said at a table go under the neutral name at once: a page connected there gets
    the chat again, renamed; one that connects afterwards gets it renamed; the database keeps no
    line under the name (and none tied to the account)."""
    name = unique("Sagt")
    t = srv.open_table("stichling", ["human", "human"])
    guest = srv.join(t["id"], "Gast", 1)
    with browser(srv) as b:
        register(b, name)
        token = b.post(f"/api/tables/{t['id']}/join", json={"seat": 0}).json()["token"]

        async def go() -> None:
            me, other = await Client.open(srv, t["id"], token), await Client.open(srv, t["id"], guest["token"])
            await me.send({"type": "chat", "text": "hoi zäme"})
            said = await other.until(lambda m: m["type"] == "chat")
            assert said["name"] == name
            await other.send({"type": "chat", "text": "sali"})
            await other.until(lambda m: m["type"] == "chat" and m["text"] == "sali")
            r = await asyncio.to_thread(b.request, "DELETE", "/api/account", json={"password": PASSWORD})
            assert r.status_code == 200, r.text
            again = await other.until(lambda m: m["type"] == "chat_history")
            assert [(x["name"], x["text"]) for x in again["messages"]] == [("(deleted)", "hoi zäme"), ("Gast", "sali")]
            late = await Client.open(srv, t["id"], guest["token"])  # a page that connects again
            history = await late.until(lambda m: m["type"] == "chat_history")
            assert [x["name"] for x in history["messages"]] == ["(deleted)", "Gast"]
            for c in (me, other, late):
                await c.close()

        asyncio.run(go())
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
        rows = conn.execute("SELECT name, account_id FROM chat WHERE table_id = ?", (t["id"],)).fetchall()
    assert sorted(rows) == [("(deleted)", None), ("Gast", None)]


def test_a_ban_ends_the_sessions_and_refuses_the_next_login(srv: Server) -> None:
    name = unique("Bad")
    with browser(srv) as b:
        register(b, name)
        out = io.StringIO()
        assert (
            run_admin(build_parser().parse_args(["admin", "--db", srv.db, "ban", name, "--reason", "spam"]), out) == 0
        )
        assert b.get("/api/account").status_code == 401
        r = b.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert r.status_code == 403 and r.json()["error"] == "this account is banned: spam"
        r = b.post("/api/account/login", json={"name": name, "password": "not the password"})
        assert r.json()["error"] == "wrong user name or password"  # a ban is told only to whoever knows the password


def test_a_ban_gives_up_the_account_s_seats_and_counts_as_leaving(srv: Server) -> None:
    bad_name = unique("Bad")
    with browser(srv) as bad, browser(srv) as good:
        register(bad, bad_name)
        register(good, unique("Good"))
        t = banned_at_play((srv, srv), bad, good, bad_name)
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
        sql = (
            'SELECT played.won, played."left" FROM played JOIN accounts ON accounts.id = played.account_id'
            " WHERE accounts.name = ? AND table_id = ?"
        )
        row = conn.execute(sql, (bad_name, t)).fetchone()
    assert row == (0, 1)


def test_the_other_device_leaves_the_seat_by_its_login(srv: Server) -> None:
    name = unique("Lea")
    t = srv.open_table("stichling", ["human", "human"])
    with browser(srv) as phone, browser(srv) as laptop, browser(srv) as guest:
        register(phone, name)
        phone.post(f"/api/tables/{t['id']}/join", json={"name": "x", "seat": 1})
        r = guest.post(f"/api/tables/{t['id']}/leave")
        assert r.status_code == 401  # no token, no login: no seat
        laptop.post("/api/account/login", json={"name": name, "password": PASSWORD})
        r = laptop.post(f"/api/tables/{t['id']}/seat", json={"seat": 0})
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        r = laptop.post(f"/api/tables/{t['id']}/leave", headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403  # another site cannot make the account leave
        assert srv.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == name
        r = laptop.post(f"/api/tables/{t['id']}/leave")
        assert r.status_code == 200 and r.json()["seat"] == 0
        assert laptop.get("/api/account").json()["seats"] == []


def test_another_sites_join_is_a_guests_and_binds_no_account(srv: Server) -> None:
    t = srv.open_table("stichling", ["human", "human"])
    with browser(srv) as b:
        register(b, unique())
        r = b.post(f"/api/tables/{t['id']}/join", json={"name": "Lure"}, headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 200
        seat = srv.get(f"/api/tables/{t['id']}").json()["seats"][r.json()["seat"]]
        assert (seat["name"], seat["account"]) == ("Lure", False)
        assert b.get("/api/account").json()["seats"] == []
        r = b.post(f"/api/tables/{t['id']}/join", json={}, headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 400 and "name" in r.json()["error"]  # and a guest needs a name


def test_a_password_hashed_with_older_parameters_is_hashed_anew_at_login(srv: Server) -> None:
    name = unique("Old")
    with browser(srv) as b:
        register(b, name)
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE accounts SET password_hash = ? WHERE name = ?", (weak, name))
    with browser(srv) as b:
        assert b.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 200
    with sqlite3.connect(srv.db.removeprefix("sqlite:///")) as conn:
        (now,) = conn.execute("SELECT password_hash FROM accounts WHERE name = ?", (name,)).fetchone()
    assert now != weak and not PasswordHasher().check_needs_rehash(now)
    assert PasswordHasher().verify(now, PASSWORD)


def test_a_guest_asking_who_they_are_is_answered_not_refused(srv: Server) -> None:
    """The page asks at every load who is logged in: a guest (no cookie, or a forged one) is an
    answer, `account: null`, not a 401 that every browser logs as an error; a logged-in browser
    gets what GET /api/account gives."""
    with browser(srv) as b:
        assert b.get("/api/account/session").json() == {"account": None, "seats": []}
        b.cookies.set("stich_session", "forged.value")
        assert b.get("/api/account/session").json() == {"account": None, "seats": []}
    with browser(srv) as b:
        name = unique("Gast")
        register(b, name)
        assert b.get("/api/account/session").json() == b.get("/api/account").json()
        assert b.get("/api/account/session").json()["account"]["name"] == name
