"""Nobody learns two hands of one game by changing seats: a person (a browser's identity cookie,
or an account on every device) holds one seat of a table, and a seat given up during play goes to
the takeover bot or to someone new, never to a person who held another seat of that game. A
table of friends at one screen may allow it (`shared_screen`)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from stichkit.server.identity import COOKIE

from .harness import Server, run
from .test_hostile_requests import play_out


@contextmanager
def browser(server: Server) -> Iterator[httpx.Client]:
    """One browser: its own cookie jar, and the header a browser sends with the page's requests."""
    with httpx.Client(base_url=server.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"}) as b:
        yield b


def join(b: httpx.Client, table: str, name: str, seat: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"name": name} if seat is None else {"name": name, "seat": seat}
    return b.post(f"/api/tables/{table}/join", json=body)


def leave(b: httpx.Client, table: str, token: str) -> None:
    r = b.post(f"/api/tables/{table}/leave", json={}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def status(server: Server, table: str) -> str:
    return str(server.get(f"/api/tables/{table}").json()["status"])


def playing_table(server: Server, **settings: Any) -> str:
    return str(server.open_table("jass", ["human", "human", "bot:random", "bot:random"], **settings)["id"])


def test_the_join_sets_a_browser_identity_no_script_can_read(server: Server) -> None:
    table = playing_table(server)
    with browser(server) as anna:
        r = join(anna, table, "Anna")
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Max-Age=34560000" in cookie
        value = anna.cookies[COOKIE]
        assert len(value) == 43
        r = join(anna, playing_table(server), "Anna")  # a known browser keeps its identity
        assert "set-cookie" not in r.headers and anna.cookies[COOKIE] == value


def test_a_seat_left_during_play_is_not_taken_by_a_player_of_another_seat(server: Server) -> None:
    table = playing_table(server)
    with browser(server) as anna, browser(server) as ben, browser(server) as cleo:
        a = join(anna, table, "Anna", 0).json()
        b = join(ben, table, "Ben", 1).json()
        assert status(server, table) == "playing"
        leave(anna, table, a["token"])  # Anna stands up during play: the takeover bot plays seat 0
        r = join(ben, table, "Ben", 0)  # Ben, at seat 1, would see seat 0's hand too
        assert r.status_code == 403, r.text
        assert "you hold seat 1 at this table already" in r.json()["error"]
        leave(ben, table, b["token"])  # nor after giving seat 1 up: he has seen its hand
        r = join(ben, table, "Ben", 0)
        assert r.status_code == 403 and "you held seat 1 in this game" in r.json()["error"], r.text
        assert "takeover bot or to someone new" in r.json()["error"]
        r = join(ben, table, "Ben")  # the lowest free seat he may take: his own again
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        assert join(cleo, table, "Cleo").json()["seat"] == 0  # someone new takes seat 0
        seats = server.get(f"/api/tables/{table}").json()["seats"]
        assert [s["name"] for s in seats[:2]] == ["Cleo", "Ben"]


def test_a_person_holds_one_seat_at_a_time_before_play_too(server: Server) -> None:
    table = playing_table(server)
    with browser(server) as anna:
        assert join(anna, table, "Anna", 0).status_code == 200
        r = join(anna, table, "Anna")
        assert r.status_code == 403 and "you hold seat 0" in r.json()["error"], r.text
    assert status(server, table) == "waiting"  # a program without cookies is someone new each time
    assert server.join(table, "Ben")["seat"] == 1


def test_a_game_played_again_counts_the_seats_of_the_new_game(server: Server) -> None:
    """After a rematch everyone sits one seat further: the seats of the new game are what count."""
    t = server.open_table("stichling", ["human", "human", "human"])["id"]
    with browser(server) as anna, browser(server) as ben, browser(server) as cleo:
        tokens = [join(b, t, name, i).json()["token"] for i, (b, name) in enumerate(
            [(anna, "Anna"), (ben, "Ben"), (cleo, "Cleo")])]  # fmt: skip
        run(play_out(server, t, tokens, ["protocol"] * 3, rematch=True))
        seats = server.get(f"/api/tables/{t}").json()["seats"]
        assert [s["name"] for s in seats] == ["Cleo", "Anna", "Ben"]  # game 2: one seat further
        leave(anna, t, tokens[0])
        leave(cleo, t, tokens[2])
        r = join(anna, t, "Anna", 0)  # she held seat 0 in game 1, but seat 1 in this game
        assert r.status_code == 403 and "you held seat 1 in this game" in r.json()["error"], r.text
        assert join(anna, t, "Anna", 1).status_code == 200
        assert join(cleo, t, "Cleo", 0).status_code == 200


def test_a_shared_screen_table_lets_one_person_play_several_seats(server: Server) -> None:
    table = playing_table(server, shared_screen=True)
    assert server.get(f"/api/tables/{table}").json()["settings"]["shared_screen"] is True
    with browser(server) as family:
        a = join(family, table, "Mama", 0).json()
        assert join(family, table, "Kind", 1).status_code == 200
        assert status(server, table) == "playing"
        leave(family, table, a["token"])
        assert join(family, table, "Papa", 0).status_code == 200


def test_an_account_is_one_person_on_every_device(server: Server) -> None:
    table = playing_table(server)
    name, password = f"p{secrets.token_hex(4)}", "correct horse battery"
    with browser(server) as laptop, browser(server) as phone, browser(server) as friend:
        r = laptop.post("/api/account/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        assert phone.post("/api/account/login", json={"name": name, "password": password}).status_code == 200
        t = join(laptop, table, "x", 1).json()
        join(friend, table, "Friend", 0)
        assert status(server, table) == "playing"
        leave(laptop, table, t["token"])
        r = join(phone, table, "x", 0)  # the same account on another browser is the same person
        assert r.status_code == 403 and "you held seat 1 in this game" in r.json()["error"], r.text
        r = join(phone, table, "x", 1)  # its own seat back
        assert r.status_code == 200, r.text


def test_the_catalog_names_the_setting(server: Server) -> None:
    settings = {s["name"]: s for s in server.get("/api/games").json()["settings"]}
    assert settings["shared_screen"]["default"] is False and settings["shared_screen"]["type"] == "boolean"


def test_a_bad_setting_is_refused(server: Server) -> None:
    r = server.post("/api/tables", {"game": "jass", "seats": ["human"] * 4, "shared_screen": "yes"})
    assert r.status_code == 400 and "shared_screen" in r.json()["error"]


def test_one_browser_waits_in_quick_play_once_and_never_meets_itself(server: Server) -> None:
    """Two tabs of one browser in one queue would otherwise be matched into one table, with two
    hands for one person: the later search takes the earlier's place."""
    ask = {"name": "Anna", "game": "stichwahl", "players": 2}
    with browser(server) as tabs, browser(server) as bea:
        first = tabs.post("/api/quick", json=ask).json()
        second = tabs.post("/api/quick", json=ask).json()
        assert first["status"] == second["status"] == "waiting", second
        gone = tabs.get("/api/quick/me", headers={"Authorization": f"Bearer {first['ticket']}"})
        assert gone.status_code == 404
        theirs = bea.post("/api/quick", json={**ask, "name": "Bea"}).json()
        assert theirs["status"] == "matched", theirs
        seats = server.get(f"/api/tables/{theirs['table']}").json()["seats"]
        assert sorted(s["name"] for s in seats) == ["Anna", "Bea"]
