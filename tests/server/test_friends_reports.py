"""Friends, mutes and chat reports against a real server: friendship is mutual, and only friends
see where each other plays; an account's mutes follow it to every device and process; a reported
chat line reaches the operator's `stich admin reports`, once per reporter; whatever is wrong is
refused with the reason, and changes nothing."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from typing import Any

import httpx

from stichkit.cli.main import build_parser
from stichkit.server.admin import run as run_admin

from .harness import Client, Server, run
from .people import PASSWORD, Person


def friends(p: Person) -> dict[str, Any]:
    r = p.http.get("/api/friends")
    assert r.status_code == 200, r.text
    return dict(r.json())


def admin(server: Server, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = run_admin(build_parser().parse_args(["admin", "--db", server.db, *argv]), out)
    return code, out.getvalue()


def test_friends_see_each_other_online_and_at_which_table(players_server: Server) -> None:
    ann, bea = Person(players_server, "Ann"), Person(players_server, "Bea")
    try:
        r = ann.http.post("/api/friends", json={"name": bea.name})
        assert r.status_code == 201 and r.json()["asked"] == [bea.name] and r.json()["friends"] == []
        assert friends(bea)["asking"] == [ann.name]
        t = players_server.open_table("stichling", ["human", "human"])
        hidden = players_server.open_table("stichling", ["human", "human"], private=True)
        for table in (t["id"], hidden["id"]):
            assert bea.http.post(f"/api/tables/{table}/join", json={}).status_code == 200
        assert friends(ann)["friends"] == []  # a request shows nothing of where Bea plays
        both = bea.http.post("/api/friends", json={"name": ann.name.upper()}).json()  # a name as typed
        assert both["friends"][0]["name"] == ann.name and both["asking"] == []
        seen = friends(ann)["friends"]
        assert [f["name"] for f in seen] == [bea.name] and seen[0]["online"] is True
        tables = {(x["table"], x["private"]) for x in seen[0]["tables"]}
        assert tables == {(t["id"], False), (None, True)}  # the private table's link stays Bea's
        gone = ann.http.delete(f"/api/friends/{bea.name}")
        assert gone.status_code == 200 and gone.json()["friends"] == [] and gone.json()["asking"] == [bea.name]
    finally:
        ann.close()
        bea.close()


def test_friend_requests_that_are_wrong_are_refused(players_server: Server) -> None:
    ann = Person(players_server, "Ann")
    try:
        before = friends(ann)
        for body, status, reason in [
            ({"name": ann.name}, 400, "cannot add yourself"),
            ({"name": "nobody-at-all"}, 404, "no player 'nobody-at-all'"),
            ({"name": ""}, 400, "name"),
            ({"nom": "x"}, 400, "name"),
        ]:
            r = ann.http.post("/api/friends", json=body)
            assert r.status_code == status and reason in r.json()["error"], (body, r.text)
        other_site = httpx.post(players_server.http + "/api/friends", json={"name": "x"}, cookies=ann.http.cookies,
                                headers={"Sec-Fetch-Site": "cross-site"})  # fmt: skip
        assert other_site.status_code == 403
        assert players_server.get("/api/friends").status_code == 401  # a guest has no friends list
        assert ann.http.delete("/api/friends/nobody-at-all").status_code == 404
        assert friends(ann) == before
    finally:
        ann.close()


def test_a_reported_chat_line_reaches_the_operator(players_server: Server) -> None:
    t = players_server.open_table("stichling", ["human", "human"])
    ann, bea = players_server.join(t["id"], "Ann"), players_server.join(t["id"], "Bea")

    async def say() -> int:
        c = await Client.open(players_server, t["id"], ann["token"])
        await c.send({"type": "chat", "text": "you play like a potato"})
        line = await c.until(lambda m: m["type"] == "chat")
        await c.close()
        return int(line["id"])

    line = run(say())
    url = f"/api/tables/{t['id']}/chat/{line}/report"
    as_bea = {"Authorization": f"Bearer {bea['token']}"}
    r = players_server.post(url, {"reason": "rude"}, headers=as_bea)
    assert r.status_code == 201, r.text
    number = r.json()["report"]
    again = players_server.post(url, {"reason": "still rude"}, headers=as_bea)
    assert again.status_code == 409 and "already" in again.json()["error"]
    refusals = [
        (url, {}, {}, 401, "a seat at this table"),
        (url, {}, {"Authorization": "Bearer not-a-token-of-this-table"}, 401, "holds no seat"),
        (f"/api/tables/{t['id']}/chat/999999/report", {}, as_bea, 404, "no chat line 999999"),
        (url, {"reason": "x" * 400}, as_bea, 400, "reason"),
    ]
    for path, body, headers, status, reason in refusals:
        r = players_server.post(path, body, headers=headers)
        assert r.status_code == status and reason in r.json()["error"], (path, r.text)

    code, out = admin(players_server, "reports")
    assert code == 0 and f"#{number} " in out and "'you play like a potato'" in out
    assert "Ann (seat 1" in out and "reported by Bea: 'rude'" in out
    assert admin(players_server, "resolve", str(number)) == (0, f"report {number}: dealt with\n")
    assert f"#{number} " not in admin(players_server, "reports")[1]
    assert f"#{number} " in admin(players_server, "reports", "--all")[1]
    assert admin(players_server, "resolve", str(number))[0] == 1  # dealt with already


def test_a_logged_in_spectator_may_report(players_server: Server) -> None:
    t = players_server.open_table("stichling", ["human", "human"])
    ann = players_server.join(t["id"], "Ann")
    cem = Person(players_server, "Cem")

    async def say() -> int:
        c = await Client.open(players_server, t["id"], ann["token"])
        await c.send({"type": "chat", "text": "hoi"})
        m = await c.until(lambda x: x["type"] == "chat")
        await asyncio.sleep(0)
        await c.close()
        return int(m["id"])

    line = run(say())
    try:
        r = cem.http.post(f"/api/tables/{t['id']}/chat/{line}/report", json={})
        assert r.status_code == 201, r.text
        assert f"reported by {cem.name}" in admin(players_server, "reports")[1]
    finally:
        cem.close()


def test_friends_across_two_processes(postgres_pair: tuple[Server, Server]) -> None:
    """Bea sits and is connected at a table through process b; Ann, asking process a, sees her
    friend there and connected: friendships are in the database, presence crosses processes."""
    a, b = postgres_pair
    ann, bea = Person(a, "Ann"), Person(b, "Bea")
    try:
        assert ann.http.post("/api/friends", json={"name": bea.name}).status_code == 201
        assert bea.http.post("/api/friends", json={"name": ann.name}).status_code == 201
        t = b.open_table("stichling", ["human", "human"])
        token = bea.http.post(f"/api/tables/{t['id']}/join", json={}).json()["token"]

        async def seen_from_a() -> dict[str, Any]:
            c = await Client.open(b, t["id"], token)
            await c.state()
            try:
                for _ in range(100):
                    found = friends(ann)["friends"][0]
                    if found["tables"] and found["tables"][0]["connected"]:
                        return found
                    await asyncio.sleep(0.1)
                raise AssertionError(f"a never saw Bea connected: {found}")
            finally:
                await c.close()

        found = run(seen_from_a())
        assert found["name"] == bea.name and found["online"] and found["tables"][0]["table"] == t["id"]
    finally:
        ann.close()
        bea.close()


def mutes(c: httpx.Client) -> list[str]:
    r = c.get("/api/mutes")
    assert r.status_code == 200, r.text
    return list(r.json()["muted"])


def test_mutes_follow_the_account_to_another_process(postgres_pair: tuple[Server, Server]) -> None:
    """Ann mutes a guest's name and an account's through process a; her login at process b (another
    device) finds both muted, shows one again there, and a sees that too: mutes are the
    account's, in the database, not a browser's."""
    a, b = postgres_pair
    ann, rude = Person(a, "Ann"), Person(a, "Rude")
    elsewhere = ann.at(b)
    try:
        assert mutes(ann.http) == []
        r = ann.http.post("/api/mutes", json={"name": "Spammer  Guest"})  # spaces as a line shows them
        assert r.status_code == 201 and r.json()["muted"] == ["Spammer Guest"]
        assert ann.http.post("/api/mutes", json={"name": rude.name}).json()["muted"] == ["Spammer Guest", rude.name]
        assert ann.http.post("/api/mutes", json={"name": rude.name}).status_code == 201  # again: no change
        assert mutes(elsewhere) == ["Spammer Guest", rude.name]
        assert mutes(rude.http) == []  # another account's list is its own
        r = elsewhere.delete("/api/mutes/Spammer Guest")
        assert r.status_code == 200 and r.json()["muted"] == [rude.name]
        assert mutes(ann.http) == [rude.name]
    finally:
        elsewhere.close()
        ann.close()
        rude.close()


def test_mutes_that_are_wrong_are_refused(players_server: Server) -> None:
    ann = Person(players_server, "Ann")
    try:
        assert ann.http.post("/api/mutes", json={"name": "Rude"}).status_code == 201
        for body, status, reason in [
            ({"name": ann.name}, 400, "cannot mute yourself"),
            ({"name": ""}, 400, "name"),
            ({"name": "a\u202eb"}, 400, "printable"),
            ({"name": "x" * 81}, 400, "at most 80"),
            ({"nom": "x"}, 400, "name"),
        ]:
            r = ann.http.post("/api/mutes", json=body)
            assert r.status_code == status and reason in r.json()["error"], (body, r.text)
        other_site = httpx.post(players_server.http + "/api/mutes", json={"name": "x"}, cookies=ann.http.cookies,
                                headers={"Sec-Fetch-Site": "cross-site"})  # fmt: skip
        assert other_site.status_code == 403
        assert players_server.get("/api/mutes").status_code == 401  # a guest's mutes are the browser's
        r = ann.http.delete("/api/mutes/Nobody")
        assert r.status_code == 404 and "not muted" in r.json()["error"]
        assert mutes(ann.http) == ["Rude"]
        for i in range(199):
            assert ann.http.post("/api/mutes", json={"name": f"n{i}"}).status_code == 201
        r = ann.http.post("/api/mutes", json={"name": "one more"})
        assert r.status_code == 409 and "at most 200" in r.json()["error"]
        assert len(mutes(ann.http)) == 200 and "one more" not in mutes(ann.http)
        r = ann.http.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        with sqlite3.connect(players_server.db.removeprefix("sqlite:///")) as conn:  # gone with the account
            assert conn.execute("SELECT count(*) FROM mutes WHERE name = 'Rude'").fetchone()[0] == 0
    finally:
        ann.close()
