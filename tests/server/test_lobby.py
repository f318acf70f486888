"""The lobby over HTTP: the catalog, opening tables, listing, joining and leaving, and every
refusal with its clear reason."""

from __future__ import annotations

from typing import Any

import stichkit

from .harness import Client, Server, run


def test_the_catalog_describes_every_game_with_its_player_counts_and_options(server: Server) -> None:
    r = server.get("/api/games")
    assert r.status_code == 200
    cat = r.json()
    games = {g["name"]: g for g in cat["games"]}
    assert sorted(games) == list(stichkit.game_names())
    assert games["jass"]["players"] == [4]
    assert games["stichwahl"]["players"] == [2, 3, 4]
    assert games["stichling"]["players"] == [2, 3, 4, 5]
    assert games["stichmeister"]["players"] == [3, 4, 5]
    jass = {o["name"]: o for o in games["jass"]["options"]}
    assert jass["profile"] == {"name": "profile", "default": "seed", "doc": "rule profile", "type": "choice",
                               "choices": ["seed", "schieber"]}  # fmt: skip
    assert jass["target"]["type"] == "integer" and jass["target"]["minimum"] == 1 and jass["target"]["default"] == 1000
    assert jass["stoeck"]["type"] == "choice" and jass["stoeck"]["choices"] == [True, False, "announce"]
    # a menu of the named sets; the API takes a custom mapping as text too (docs/jass.md, "Multipliers")
    assert jass["multipliers"]["type"] == "choice" and jass["multipliers"]["open"] is True
    assert jass["multipliers"]["choices"] == ["none", "swisslos", "one-to-four"]
    assert jass["ausmachregel"]["choices"] == ["stoeck-weis-stich", "in-order"]
    for g in games.values():
        names = {o["name"] for o in g["options"]}
        assert "players" not in names  # the seats give it
        assert not names & {"cards", "rule_cards"}  # files on the server's disk
        for o in g["options"]:
            assert o["doc"] and "default" in o
    assert games["jass"]["data"] is None
    assert len(games["stichwahl"]["data"]["cards"]) == 36
    rule_cards = games["stichmeister"]["data"]["rule_cards"]
    assert len(rule_cards) == 60 and rule_cards["41"]["kind"] == "scoring" and rule_cards["41"]["text_en"]
    bots = {b["name"]: b for b in cat["bots"]}
    assert {"random", "heuristic", "ismcts"} <= set(bots) and "open" not in bots and "remote" not in bots
    assert "time" in {p["name"] for p in bots["ismcts"]["params"]}
    settings = {s["name"]: s for s in cat["settings"]}
    assert settings["takeover"]["choices"] == ["hand", "game", "off"]
    assert settings["move_time"]["default"] is None


def test_a_table_opens_waits_for_its_humans_and_starts(server: Server) -> None:
    t = server.open_table("stichwahl", ["human", "bot:heuristic", "human"], name="Tuesday", options={"target": 12})
    assert t["status"] == "waiting" and t["players"] == 3 and t["name"] == "Tuesday"
    assert t["options"]["players"] == 3 and t["options"]["target"] == 12
    assert t["invite"] == f"/tables/{t['id']}"
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "human"]
    assert [s["claimed"] for s in t["seats"]] == [False, True, False]
    a = server.join(t["id"], "Anna")
    assert a["seat"] == 0 and len(a["token"]) >= 40
    assert server.get(f"/api/tables/{t['id']}").json()["status"] == "waiting"
    b = server.join(t["id"], "Ben", seat=2)
    assert b["seat"] == 2
    info = server.get(f"/api/tables/{t['id']}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]] == ["Anna", "heuristic", "Ben"]
    assert all("token" not in s and "token_hash" not in s for s in info["seats"])


def test_a_table_opened_without_a_name_has_none(server: Server) -> None:
    """The server speaks no language: it stores no made-up name, and the page names such a table in
    its reader's language (tests/page/test_layout.py)."""
    t = server.open_table("jass", ["human", "bot:random", "bot:random", "bot:random"])
    assert t["name"] == ""
    assert server.get(f"/api/tables/{t['id']}").json()["name"] == ""


def test_joining_is_refused_for_bot_seats_taken_seats_and_full_tables(server: Server) -> None:
    t = server.open_table("stichling", ["human", "bot:random"])
    r = server.post(f"/api/tables/{t['id']}/join", {"name": "Cleo", "seat": 1})
    assert r.status_code == 409 and "bot" in r.json()["error"]
    r = server.post(f"/api/tables/{t['id']}/join", {"name": "Cleo", "seat": 5})
    assert r.status_code == 400 and "0..1" in r.json()["error"]
    server.join(t["id"], "Cleo")
    r = server.post(f"/api/tables/{t['id']}/join", {"name": "Dora", "seat": 0})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = server.post(f"/api/tables/{t['id']}/join", {"name": "Dora"})
    assert r.status_code == 409 and "no human seat is free" in r.json()["error"]
    r = server.post("/api/tables/nosuchtable/join", {"name": "Dora"})
    assert r.status_code == 404 and "no table" in r.json()["error"]


def test_bad_tables_are_refused_with_what_is_allowed(server: Server) -> None:
    cases = [
        ({"game": "skat", "seats": ["human"] * 3}, "unknown game 'skat'"),
        ({"game": "jass", "seats": ["human"] * 3}, "jass is played by 4 players"),
        ({"game": "stichling", "seats": ["human"] * 6}, "2 or 3 or 4 or 5"),
        ({"game": "stichling", "seats": ["human"] * 3, "options": {"players": 4}}, "disagrees with the 3 seats"),
        ({"game": "jass", "seats": ["human"] * 4, "options": {"target": -5}}, "target"),
        ({"game": "jass", "seats": ["human"] * 4, "options": {"color": "red"}}, "has no option 'color'"),
        ({"game": "stichwahl", "seats": ["human"] * 4, "options": {"cards": "/etc/passwd"}}, "names a file"),
        ({"game": "stichmeister", "seats": ["human"] * 4, "options": {"rule_cards": "/x.toml"}}, "names a file"),
        ({"game": "jass", "seats": ["human", "robot", "human", "human"]}, "'human' or 'bot:SPEC'"),
        ({"game": "jass", "seats": ["human", "bot:wizard", "human", "human"]}, "unknown bot 'wizard'"),
        ({"game": "jass", "seats": ["human", "bot:ismcts:speed=9", "human", "human"]}, "no parameter 'speed'"),
        ({"game": "jass", "seats": ["human", "bot:ismcts:time=60", "human", "human"]}, "over this server's limit"),
        ({"game": "jass", "seats": ["human", "bot:open", "human", "human"]}, "sees every hand"),
        (
            {"game": "jass", "seats": ["human", "bot:remote:http://127.0.0.1:9/x", "human", "human"]},
            "calls another server",
        ),
        ({"game": "jass", "seats": ["human"] * 4, "takeover_bot": "human"}, "takeover_bot must be a bot"),
        ({"game": "jass", "seats": ["human"] * 4, "takeover": "never"}, "takeover"),
        ({"game": "jass", "seats": ["human"] * 4, "grace": -1}, "grace"),
        ({"game": "jass", "seats": ["human"] * 4, "move_time": 0}, "move_time"),
        ({"game": "jass", "seats": ["human"] * 4, "name": "x" * 41}, "name: at most 40"),
        ({"game": "jass", "seats": ["human"] * 4, "name": "tab\tle\x00"}, "printable"),
        ({"game": "jass", "seats": []}, "seats"),
        ({"game": "jass", "seats": ["human"] * 4, "private": "yes"}, "private"),
        ({"game": "jass", "seats": ["human"] * 4, "owner": "me"}, "owner"),
        ({"seats": ["human"] * 4}, "game: Field required"),
    ]
    for body, reason in cases:
        r = server.post("/api/tables", body)
        assert r.status_code == 400, (body, r.text)
        assert reason in r.json()["error"], (body, r.json())
    r = server.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = server.post("/api/tables", [1, 2, 3])
    assert r.status_code == 400
    r = server.post("/api/tables/x/join", {"name": ""})
    assert r.status_code in (400, 404)


def test_private_tables_are_not_listed_but_reachable_by_their_link(server: Server) -> None:
    pub = server.open_table("jass", ["human", "bot:random", "bot:random", "bot:random"])
    priv = server.open_table("jass", ["human", "bot:random", "bot:random", "bot:random"], private=True)
    listed = {t["id"] for t in server.get("/api/tables").json()["tables"]}
    assert pub["id"] in listed and priv["id"] not in listed
    waiting = server.get("/api/tables", params={"status": "waiting"}).json()["tables"]
    assert all(t["status"] == "waiting" for t in waiting)
    assert server.get(f"/api/tables/{priv['id']}").json()["private"] is True
    assert server.join(priv["id"], "Eve")["seat"] == 0
    assert server.get("/api/tables", params={"status": "lost"}).status_code == 400


def test_leaving_frees_the_seat_and_makes_the_token_worthless(server: Server) -> None:
    t = server.open_table("stichling", ["human", "human"])
    a = server.join(t["id"], "Finn")
    r = server.post(f"/api/tables/{t['id']}/leave")
    assert r.status_code == 401 and "Authorization: Bearer" in r.json()["error"]
    r = server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": "Bearer nonsense"})
    assert r.status_code == 401
    r = server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {a['token']}"})
    assert r.status_code == 200 and r.json()["seat"] == 0
    info = server.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][0]["claimed"] is False and info["status"] == "waiting"
    r = server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {a['token']}"})
    assert r.status_code == 401
    assert server.join(t["id"], "Gus")["seat"] == 0


def test_records_are_secret_until_the_game_ends(server: Server) -> None:
    t = server.open_table("jass", ["human", "bot:random", "bot:random", "bot:random"])
    for path in ("record", "replay"):
        r = server.get(f"/api/tables/{t['id']}/{path}")
        assert r.status_code == 403 and "over" in r.json()["error"]
        assert server.get(f"/api/tables/{t['id']}/{path}", params={"game": 1}).status_code == 403
        assert server.get(f"/api/tables/{t['id']}/{path}", params={"game": 7}).status_code == 404
        assert server.get(f"/api/tables/nosuch/{path}").status_code == 404
    games = server.get(f"/api/tables/{t['id']}/games").json()["games"]
    assert [(g["game_no"], g["status"]) for g in games] == [(1, "playing")]


def test_unknown_routes_and_methods_answer_json_errors(server: Server) -> None:
    r = server.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()
    r = server.get("/api/tables/abc/join")
    assert r.status_code == 405 and "error" in r.json()


def test_a_body_over_64_kib_is_refused_before_it_is_read(server: Server) -> None:
    big = b'{"game": "jass", "seats": ["human"], "name": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    r = server.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 65536 bytes" in r.json()["error"]
    assert server.get("/api/health").json()["ok"] is True


def test_bad_paths_and_parameters_get_clear_errors(server: Server) -> None:
    t = server.open_table("stichling", ["human", "human"])
    cases = [
        (f"/api/tables/{t['id']}/record?game=abc", 400, "game"),
        (f"/api/tables/{t['id']}/replay?game=0", 400, "game"),
        (f"/api/tables/{t['id']}/games", 200, None),
        ("/api/tables?limit=0", 400, "limit"),
        ("/api/tables?limit=many", 400, "limit"),
        ("/api/tables/" + "x" * 300, 404, "no table"),
        ("/api/tables/nosuch/games", 404, "no table"),
    ]
    for path, status, reason in cases:
        r = server.get(path)
        assert r.status_code == status, (path, r.text)
        if reason:
            assert reason in r.json()["error"], (path, r.json())
    for body in ({}, {"name": 5}, {"name": "Ann", "seat": "1"}, {"name": "Ann", "extra": 1}, {"name": "\u0000"}):
        r = server.post(f"/api/tables/{t['id']}/join", body)
        assert r.status_code == 400 and r.json()["error"], (body, r.text)
    assert server.get(f"/api/tables/{t['id']}").json()["seats"][0]["claimed"] is False  # nothing changed


def test_nothing_of_the_deal_is_shown_before_the_game_begins(server: Server) -> None:
    """The deal is made when the table is opened. A player who saw a hand in the waiting room,
    left and took another seat would know two hands of the game that then begins; and even the
    spectator's view names Jass's forehand, the holder of the start card (Käse-7). So nobody, seated
    or watching, gets a view or a player to move before play begins; each seat sees its own hand
    from the first state of play on."""
    t = server.open_table("jass", ["human", "bot:random", "human", "bot:random"])

    async def first_state(token: str | None) -> dict[str, Any]:
        c = await Client.open(server, t["id"], token)
        m = await c.state()
        await c.close()
        return m

    eve = server.join(t["id"], "Eve", 0)["token"]
    for waiting in (run(first_state(eve)), run(first_state(None))):
        assert waiting["table"]["status"] == "waiting" and waiting["view"] is None and waiting["legal"] == []
        assert waiting["table"]["turn"] is None
    assert server.get(f"/api/tables/{t['id']}").json()["turn"] is None
    assert server.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {eve}"}).status_code == 200
    eve = server.join(t["id"], "Eve", 2)["token"]
    assert run(first_state(eve))["view"] is None
    server.join(t["id"], "Bob", 0)
    playing = run(first_state(eve))
    assert playing["table"]["status"] == "playing" and len(playing["view"]["hand"]) == 9
    assert playing["table"]["turn"] == playing["view"]["current_player"] is not None


def test_before_play_a_player_moves_to_a_free_seat_with_its_token(server: Server) -> None:
    t = server.open_table("jass", ["human", "bot:random", "human", "bot:random"], options={"first_forehand": 0})
    eve = server.join(t["id"], "Eve", 0)["token"]

    def move(to: object, token: str = eve) -> Any:
        return server.post(f"/api/tables/{t['id']}/seat", {"seat": to}, headers={"Authorization": f"Bearer {token}"})

    async def go() -> None:
        c = await Client.open(server, t["id"], eve)
        assert (await c.state())["seat"] == 0
        r = move(2)
        assert r.status_code == 200 and r.json() == {"table": t["id"], "seat": 2}
        moved = await c.state(timeout=10)  # the same connection, now as seat 2
        assert moved["seat"] == 2 and moved["view"] is None
        await c.close()

    run(go())
    seats = server.get(f"/api/tables/{t['id']}").json()["seats"]
    claimed = [(s["name"], s["claimed"]) for s in seats]
    assert claimed == [(None, False), ("random", True), ("Eve", True), ("random", True)]
    # refused with what is wrong, and nothing changes
    assert move(1).status_code == 409 and "bot" in move(1).json()["error"]
    assert move(9).status_code == 400 and "0..3" in move(9).json()["error"]
    assert move("2").status_code == 400
    assert move(0, "nonsense").status_code == 401
    bob = server.join(t["id"], "Bob", 0)["token"]  # the last seat: play begins
    assert move(0).status_code == 409 and "waits for players" in move(0).json()["error"]
    assert move(2, bob).status_code == 409
    games = server.get(f"/api/tables/{t['id']}/games").json()["games"]
    assert [s["name"] for s in games[0]["seats"]] == ["Bob", "random", "Eve", "random"]
