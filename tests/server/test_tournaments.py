"""Tournaments through the server (SQLite): the organiser's every action, registration in each of
its ways, the refusals (each with its reason, changing nothing), the quotas, a whole tournament
of bots with a player replaced, and no hidden card in any tournament route."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from stichkit.arena import tournaments as arena
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store
from stichkit.server.db.tournaments import TournamentStore
from stichkit.server.tournaments import arena_settings

from .harness import Client, Server, run, wait_until
from .people import Person

FLAGS = ("--bot-delay", "0", "--bot-workers", "1", "--client-tournaments", "0", "--client-bot-entrants", "0",
         "--register-limit", "10000/hour", "--login-address-limit", "10000/minute",
         "--background-analyses", "0")  # fmt: skip  # the server's own analyses: test_tournament_analyses.py
QUICK = {"game": "stichling", "format": "swiss", "options": {"players": 2}, "rounds": 2, "fill_bot": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d: Path = tmp_path_factory.mktemp("tournaments")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", *FLAGS)
    s.start()
    yield s
    s.stop()


def browser(server: Server) -> httpx.Client:
    """A browser of its own: its identity cookie makes it one person."""
    return httpx.Client(base_url=server.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})


def opened(org: httpx.Client, **fields: Any) -> dict[str, Any]:
    r = org.post("/api/tournaments", json={"name": "Cup", **QUICK, **fields})
    assert r.status_code == 201, r.text
    return dict(r.json())


def stored(server: Server, tid: str) -> Any:
    engine = make_engine(parse_db_url(server.db))
    try:
        return TournamentStore(Store(engine).sessions).load(tid)
    finally:
        engine.dispose()


def arena_standings(t: Any) -> list[arena.Standing]:
    """The arena's standings from the results and plans the tournament stored (players as entrants)."""
    settings = arena_settings(t.settings)
    entrants = [arena.Entrant(str(e.number), e.name) for e in t.entrants]
    results = [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]
    return arena.standings(settings, entrants, results, [arena.RoundPlan.from_json(r.plan) for r in t.rounds])


def finish(client: httpx.Client, tid: str, timeout: float = 120) -> dict[str, Any]:
    doc: dict[str, Any] = {}

    def over() -> bool:
        nonlocal doc
        doc = client.get(f"/api/tournaments/{tid}").json()
        return doc["status"] == "over"

    assert wait_until(over, timeout, every=0.5), json.dumps(doc)[:2000]
    return doc


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"format": "knockout"}, 400, "format"),
        ({"game": "skat"}, 400, "game"),
        ({"format": "passe"}, 400, "Passe rotates partners"),
        ({"rounds": 0}, 400, "rounds"),
        ({"games_per_round": 21}, 400, "games_per_round"),
        ({"options": {"players": 9}}, 400, "players"),
        ({"game": "stichwahl", "format": "free", "options": {"cards": "/etc/passwd"}}, 400, "file on the server"),
        ({"fill_bot": "nosuchbot"}, 400, "nosuchbot"),
        ({"fill_bot": "open"}, 400, "sees every hand"),
        ({"registration": "friends"}, 400, "registration"),
        ({"start_at": 1.0}, 400, "start_at"),
        ({"move_time": 0.5}, 400, "move_time"),
        ({"max_entrants": 100_000}, 400, "max_entrants"),
        ({"rated": True}, 403, "account holder"),
        ({"surprise": 1}, 400, "surprise"),
        ({"name": "\u0000"}, 400, "name"),
    ],
)
def test_bad_settings_are_refused_with_the_reason_and_nothing_is_opened(server: Server, fields: dict[str, Any],
                                                                        status: int, said: str) -> None:  # fmt: skip
    before = server.get("/api/tournaments").json()["tournaments"]
    with browser(server) as org:
        r = org.post("/api/tournaments", json={"name": "Cup", **QUICK, **fields})
    assert r.status_code == status, r.text
    assert said in r.json()["error"], r.text
    assert server.get("/api/tournaments").json()["tournaments"] == before


def test_registration_anyone_accounts_and_invitation(server: Server) -> None:
    with browser(server) as org, browser(server) as ann, browser(server) as bea:
        t = opened(org)
        tid = t["id"]
        assert t["organiser"] and "invitation" not in t
        r = ann.post(f"/api/tournaments/{tid}/register", json={})
        assert r.status_code == 400 and "name" in r.json()["error"]
        assert ann.post(f"/api/tournaments/{tid}/register", json={"name": "Ann"}).status_code == 200
        r = ann.post(f"/api/tournaments/{tid}/register", json={"name": "Ann"})
        assert r.status_code == 409 and "already" in r.json()["error"]
        r = ann.post(f"/api/tournaments/{tid}/register", json={"name": "Ann", "team": "Blue"})
        assert r.status_code == 400 and "team" in r.json()["error"]
        doc = bea.get(f"/api/tournaments/{tid}").json()
        assert [e["name"] for e in doc["entrants"]] == ["Ann"] and doc["you"] is None and not doc["organiser"]
        assert ann.get(f"/api/tournaments/{tid}").json()["you"]["entrant"] == 1
        r = bea.post(f"/api/tournaments/{tid}/unregister", json={"entrant": 1})
        assert r.status_code == 403 and "organiser" in r.json()["error"]
        r = bea.post(f"/api/tournaments/{tid}/unregister", json={})
        assert r.status_code == 404
        assert ann.post(f"/api/tournaments/{tid}/unregister", json={}).status_code == 200
        assert org.get(f"/api/tournaments/{tid}").json()["entrants"] == []
        bea_entry = bea.post(f"/api/tournaments/{tid}/register", json={"name": "Bea"}).json()["entrant"]
        assert org.post(f"/api/tournaments/{tid}/unregister", json={"entrant": bea_entry}).status_code == 200

        accounts = opened(org, registration="accounts")
        r = ann.post(f"/api/tournaments/{accounts['id']}/register", json={"name": "Ann"})
        assert r.status_code == 403 and "account" in r.json()["error"]
        cem = Person(server, "cem")
        r = cem.http.post(f"/api/tournaments/{accounts['id']}/register", json={"name": "ignored"})
        assert r.status_code == 200 and r.json()["name"] == cem.name
        cem.close()

        invited = opened(org, registration="invitation")
        secret = invited["invitation"]["token"]
        assert invited["invitation"]["link"].endswith(secret)
        shown = bea.get(f"/api/tournaments/{invited['id']}")
        assert secret not in shown.text and "invitation" not in shown.json()
        assert secret not in server.get("/api/tournaments").text
        for wrong in (
            {"name": "Bea"},
            {"name": "Bea", "invitation": secret[:-1] + "x"},
            {"name": "Bea", "invitation": "ä€"},
        ):
            r = bea.post(f"/api/tournaments/{invited['id']}/register", json=wrong)
            assert r.status_code == 403 and "invitation" in r.json()["error"]
        r = bea.post(f"/api/tournaments/{invited['id']}/register", json={"name": "Bea", "invitation": secret})
        assert r.status_code == 200
        for x in (tid, accounts["id"], invited["id"]):
            assert org.post(f"/api/tournaments/{x}/end").status_code == 200


def test_jass_swiss_is_played_by_teams_of_two(server: Server) -> None:
    with browser(server) as org:
        t = opened(org, game="jass", options={"target": 100}, rounds=1)
        tid = t["id"]
        r = org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random"})
        assert r.status_code == 400 and "team" in r.json()["error"]
        for name, team in (("A1", "Ash"), ("A2", "Ash"), ("B1", "Birch")):
            entry = {"bot": "random", "name": name, "team": team}
            assert org.post(f"/api/tournaments/{tid}/bots", json=entry).is_success
        r = org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "team": "Ash"})
        assert r.status_code == 409 and "two players already" in r.json()["error"]
        r = org.post(f"/api/tournaments/{tid}/start")
        assert r.status_code == 409 and "Birch" in r.json()["error"]
        assert org.get(f"/api/tournaments/{tid}").json()["status"] == "registering"
        entry = {"bot": "random", "name": "B2", "team": "Birch"}
        assert org.post(f"/api/tournaments/{tid}/bots", json=entry).is_success
        doc = org.post(f"/api/tournaments/{tid}/start").json()
        assert [t["name"] for t in doc["teams"]] == ["Ash", "Birch"]
        assert doc["rounds_played"][0]["tables"][0]["entrants"] in (["Ash", "Birch"], ["Birch", "Ash"])
        done = finish(org, tid)
        assert [s["games"] for s in done["standings"]] == [1, 1]
        game = done["rounds_played"][0]["tables"][0]["games"][0]
        assert org.get(game["analysis"]).status_code == 404  # not begun (no background analyses): a POST begins it


def test_only_the_organiser_runs_it_and_each_action_is_checked(server: Server) -> None:
    with browser(server) as org, browser(server) as other:
        tid = opened(org, rounds=2)["id"]
        for action in ("start", "pause", "resume", "end"):
            r = other.post(f"/api/tournaments/{tid}/{action}")
            assert r.status_code == 403 and "organiser" in r.json()["error"], action
        r = other.post(f"/api/tournaments/{tid}/bots", json={"bot": "random"})
        assert r.status_code == 403
        r = org.post(f"/api/tournaments/{tid}/start")
        assert r.status_code == 409 and "at least 2" in r.json()["error"]
        r = org.post(f"/api/tournaments/{tid}/pause")
        assert r.status_code == 409 and "registering" in r.json()["error"]
        r = org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 1})
        assert r.status_code == 409
        for bad in ({"bot": "bot:random"}, {"bot": ""}, {"bot": "random", "name": "x" * 41}, {"bot": "random", "x": 1}):
            r = org.post(f"/api/tournaments/{tid}/bots", json=bad)
            assert r.status_code == 400, (bad, r.text)
        for name in ("A", "B", "C"):
            assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).is_success
        rev = org.get(f"/api/tournaments/{tid}/rev").json()["rev"]
        doc = org.post(f"/api/tournaments/{tid}/start").json()
        assert doc["status"] == "running" and doc["round"] == 1 and doc["rev"] > rev
        assert len(doc["rounds_played"][0]["byes"]) == 1  # three entrants: one sits out with a bye
        assert org.post(f"/api/tournaments/{tid}/start").status_code == 409
        r = other.post(f"/api/tournaments/{tid}/register", json={"name": "Late"})
        assert r.status_code == 409 and "closed" in r.json()["error"]
        assert org.post(f"/api/tournaments/{tid}/pause").json()["status"] == "paused"
        assert org.post(f"/api/tournaments/{tid}/pause").status_code == 409

        def round_one_done() -> bool:
            d = org.get(f"/api/tournaments/{tid}").json()
            return bool(d["rounds_played"][0]["status"] == "done")

        assert wait_until(round_one_done, 60, every=0.3)
        time.sleep(1.5)  # paused: no second round begins
        assert org.get(f"/api/tournaments/{tid}").json()["round"] == 1
        assert org.post(f"/api/tournaments/{tid}/resume").json()["status"] == "running"
        assert wait_until(lambda: org.get(f"/api/tournaments/{tid}").json()["round"] == 2, 30, every=0.3)
        ended = org.post(f"/api/tournaments/{tid}/end").json()
        assert ended["status"] == "over" and ended["ended_early"] and ended["final"]
        assert org.post(f"/api/tournaments/{tid}/end").status_code == 409
        assert other.get("/api/tournaments/nosuchthing").status_code == 404
        assert other.get("/api/tournaments/" + "x" * 300).status_code == 404


def test_a_whole_tournament_with_a_player_replaced_ends_with_the_arenas_standings(server: Server) -> None:
    with browser(server) as org, browser(server) as ann:
        tid = opened(org, rounds=3, games_per_round=2, move_time=1)["id"]
        for name in ("B0", "B1", "B2"):
            assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).is_success
        assert ann.post(f"/api/tournaments/{tid}/register", json={"name": "Ann"}).is_success
        org.post(f"/api/tournaments/{tid}/start").raise_for_status()
        you = ann.get(f"/api/tournaments/{tid}").json()["you"]
        table = you["table"]
        assert table is not None and table["seat"] in (0, 1) and table["token"]
        seen = server.get(f"/api/tables/{table['id']}").json()
        assert seen["seats"][table["seat"]]["name"] == "Ann" and seen["private"]
        assert table["token"] not in org.get(f"/api/tournaments/{tid}").text  # the token is Ann's alone
        r = org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 2})
        assert r.status_code == 409 and "a bot" in r.json()["error"]
        r = org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 4, "bot": "nosuchbot"})
        assert r.status_code == 400
        doc = org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 4, "bot": "random"}).json()
        assert doc["entrants"][3]["replaced"] == {"bot": "random", "round": 2}
        done = finish(org, tid)
        assert done["final"] and not done["ended_early"] and done["round"] == 3
        for text in (org.get(f"/api/tournaments/{tid}").text, ann.get(f"/api/tournaments/{tid}").text):
            assert "seed" not in text and "token" not in text  # no deal, and no seat token once it is over
        mine = next(s for s in done["standings"] if s["name"] == "Ann")
        assert mine["replaced"] == mine["games"] == 6  # every game of hers: the bot played it out
        t = stored(server, tid)
        results = [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]
        assert len(results) == 3 * 2 * 2
        names = {"1": "B0", "2": "B1", "3": "B2", "4": "Ann"}
        assert done["standings"] == [{**s.to_json(), "name": names[s.entrant]} for s in arena_standings(t)]
        for x in t.tables:  # every game of every round table is there to replay
            assert len(x.results) == 2
            assert server.get(f"/api/tables/{x.table_id}/replay?game=2").status_code == 200
        assert ann.get(f"/api/tournaments/{tid}").json()["you"]["table"] is None


def test_duplicate_rounds_show_no_cards_before_the_round_ends(server: Server) -> None:
    """Every table of a duplicate round plays the same deals: while the round is played, no
    table's games (records, replays, analyses) are shown, and nobody learns another table's id."""
    with browser(server) as org, browser(server) as ann:
        tid = opened(org, game="stichling", format="duplicate", rounds=1, games_per_round=1, move_time=30)["id"]
        for name in ("B0", "B1", "B2"):
            assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).is_success
        assert ann.post(f"/api/tournaments/{tid}/register", json={"name": "Ann"}).is_success
        doc = org.post(f"/api/tournaments/{tid}/start").json()
        mine = ann.get(f"/api/tournaments/{tid}").json()["you"]["table"]["id"]
        t = stored(server, tid)
        others = [x.table_id for x in t.tables if x.table_id != mine]
        assert others
        for text in (json.dumps(doc), ann.get(f"/api/tournaments/{tid}").text, server.get("/api/tournaments").text):
            assert "seed" not in text
            assert all(o not in text for o in others)
        assert all(x["table"] is None for x in doc["rounds_played"][0]["tables"])
        assert all(o not in server.get("/api/tables").text for o in [*others, mine])  # private tables
        assert wait_until(lambda: all(stored(server, tid).tables[i].status == "over"
                                      for i, x in enumerate(t.tables) if x.table_id != mine), 60)  # fmt: skip
        for o in others:  # finished, but Ann is still playing the same cards
            for path in (f"/api/tables/{o}/record", f"/api/tables/{o}/replay", f"/api/tables/{o}/analysis"):
                r = server.get(path)
                assert r.status_code == 403 and "duplicate" in r.json()["error"], (path, r.text)
        org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 4}).raise_for_status()
        done = finish(org, tid)
        assert all(x["table"] for x in done["rounds_played"][0]["tables"])
        assert server.get(f"/api/tables/{others[0]}/record").status_code == 200


def test_the_quotas_hold_a_visitor_to_few_tournaments_and_bots(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'q.db'}", tmp_path / "q.log", "--client-tournaments", "1",
               "--client-bot-entrants", "2", "--tournament-entrants", "3")  # fmt: skip
    s.start()
    try:
        with browser(s) as org:
            r = org.post("/api/tournaments", json={"name": "Big", **QUICK, "max_entrants": 4})
            assert r.status_code == 400 and "at most 3" in r.json()["error"]
            tid = opened(org)["id"]
            r = org.post("/api/tournaments", json={"name": "Two", **QUICK})
            assert r.status_code == 429 and r.json()["code"] == "client_tournaments"
            for _ in range(2):
                assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random"}).is_success
            r = org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random"})
            assert r.status_code == 429 and r.json()["code"] == "client_bot_entrants"
            assert len(org.get(f"/api/tournaments/{tid}").json()["entrants"]) == 2
            org.post(f"/api/tournaments/{tid}/end").raise_for_status()
            assert org.post("/api/tournaments", json={"name": "Two", **QUICK}).status_code == 201
    finally:
        s.stop()


async def play_out(server: Server, table: str, token: str, rng: random.Random) -> None:
    """A player at their table: random legal moves until the game is over."""
    c = await Client.open(server, table, token)
    m = await c.state()
    while m["table"]["status"] != "over":
        if m["legal"]:
            await c.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})
        m = await c.state(timeout=30)
    await c.close()


def test_a_rated_tournament_is_for_accounts_and_rates_its_games(server: Server) -> None:
    org, ann, bea = Person(server, "org"), Person(server, "ann"), Person(server, "bea")
    with browser(server) as guest:
        t = opened(org.http, rated=True, rounds=1, registration="accounts")
        tid = t["id"]
        r = org.http.post(f"/api/tournaments/{tid}/bots", json={"bot": "random"})
        assert r.status_code == 409 and "rated" in r.json()["error"]
        r = guest.post(f"/api/tournaments/{tid}/register", json={"name": "Guest"})
        assert r.status_code == 403 and "account" in r.json()["error"]
        for p in (ann, bea):
            assert p.http.post(f"/api/tournaments/{tid}/register", json={}).json()["name"] == p.name
        doc = org.http.post(f"/api/tournaments/{tid}/start").json()
        assert doc["status"] == "running"
        tables = [p.http.get(f"/api/tournaments/{tid}").json()["you"]["table"] for p in (ann, bea)]
        assert tables[0]["id"] == tables[1]["id"] and {t["seat"] for t in tables} == {0, 1}
        info = server.get(f"/api/tables/{tables[0]['id']}").json()
        assert info["settings"]["rated"] and not info["settings"]["hints"] and not info["settings"]["takebacks"]

        async def both() -> None:
            rng = random.Random(3)
            await asyncio.gather(*(play_out(server, x["id"], x["token"], rng) for x in tables))

        run(both())
        done = finish(org.http, tid, 60)
        assert [s["games"] for s in done["standings"]] == [1, 1]
        game = done["rounds_played"][0]["tables"][0]["games"][0]
        assert "analysis" not in game and server.get(game["record"]).status_code == 200
        for p in (ann, bea):
            games = server.get(f"/api/players/{p.name}").json()["games"]
            assert [(g["game"], g["rating"]["games"]) for g in games] == [("stichling", 1)]
    for p in (org, ann, bea):
        p.close()


def test_a_tournament_starts_at_its_start_time_or_ends_for_want_of_players(server: Server) -> None:
    with browser(server) as org:
        soon = opened(org, rounds=1, start_at=time.time() + 1.5)
        empty = opened(org, rounds=1, start_at=time.time() + 1.5)
        assert soon["start_at"] is not None and soon["status"] == "registering"
        for name in ("A", "B"):
            assert org.post(f"/api/tournaments/{soon['id']}/bots", json={"bot": "random", "name": name}).is_success
        done = finish(org, soon["id"], 60)
        assert not done["ended_early"] and done["started_at"] >= soon["start_at"]
        assert [s["games"] for s in done["standings"]] == [1, 1]
        gone = finish(org, empty["id"], 30)
        assert gone["ended_early"] and gone["round"] == 0


@pytest.mark.parametrize(
    ("fields", "bots"),
    [
        ({"game": "jass", "format": "passe", "options": {"target": 100}}, 5),  # an odd field: the fill bot partners
        ({"game": "stichwahl", "format": "free", "options": {"players": 3, "target": 5}}, 4),
        ({"game": "jass", "format": "duplicate", "options": {"target": 100}}, 8),  # four teams: two tables
    ],
)
def test_every_format_is_played_to_its_end_at_the_server(server: Server, fields: dict[str, Any], bots: int) -> None:
    with browser(server) as org:
        tid = opened(org, **{**fields, "rounds": 2, "fill_bot": "random"})["id"]
        for i in range(bots):
            entry = {"bot": "random", "name": f"B{i}"}
            if fields["format"] == "duplicate":
                entry["team"] = f"T{i // 2}"
            assert org.post(f"/api/tournaments/{tid}/bots", json=entry).is_success, i
        org.post(f"/api/tournaments/{tid}/start").raise_for_status()
        done = finish(org, tid)
        t = stored(server, tid)
        settings = arena_settings(t.settings)
        if settings.team_size == 2:
            entrants = [arena.Entrant(f"t{a.number}", a.team or "", (str(a.number), str(b.number)))
                        for a, b in zip(t.entrants[::2], t.entrants[1::2], strict=True)]  # fmt: skip
        else:
            entrants = [arena.Entrant(str(e.number), e.name) for e in t.entrants]
        results = [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]
        expected = arena.standings(settings, entrants, results, [arena.RoundPlan.from_json(r.plan) for r in t.rounds])
        shown = [{k: v for k, v in s.items() if k != "name"} for s in done["standings"]]
        assert shown == [s.to_json() for s in expected]
        planned = sum(len(tp.games) for r in t.rounds for tp in arena.RoundPlan.from_json(r.plan).tables)
        assert len(results) == planned > 0
        if fields["format"] == "duplicate":  # the same deals at both tables, each played once at each
            for r in t.rounds:
                games = [(x.number, g) for x in t.tables if x.round == r.number for g in x.results]
                assert len({x for x, _ in games}) == 2 and len(games) == 2 * settings.games_per_round
                for deal in range(settings.games_per_round):
                    held = [g for _, g in games if g["deal"] == deal]
                    assert len(held) == 2 and held[0]["rotation"] != held[1]["rotation"]
                seeds = {g.deal: g.seed for tp in arena.RoundPlan.from_json(r.plan).tables for g in tp.games}
                assert all(g.seed == seeds[g.deal] for tp in arena.RoundPlan.from_json(r.plan).tables
                           for g in tp.games)  # fmt: skip


def test_a_killed_server_resumes_the_tournament_where_it_was(tmp_path: Path) -> None:
    """SQLite, one process: killed (SIGKILL) in the middle of a round and started again, it goes
    on from what the database holds, and every planned game is played once."""
    s = Server(f"sqlite:///{tmp_path / 'k.db'}", tmp_path / "k.log", "--bot-delay", "0.03", "--bot-workers", "1")
    s.start()
    try:
        with browser(s) as org:
            tid = opened(org, rounds=2, games_per_round=2)["id"]
            for i in range(4):
                assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": f"B{i}"}).is_success
            org.post(f"/api/tournaments/{tid}/start").raise_for_status()
            assert wait_until(lambda: any(x.results for x in stored(s, tid).tables), 60, every=0.1)
            s.kill()
            mid = stored(s, tid)
            assert mid.round == 1 and mid.status == "running"
            s.start()
            with browser(s) as again:
                done = finish(again, tid)
            t = stored(s, tid)
            assert [r.number for r in t.rounds] == [1, 2] and len(t.tables) == 4
            assert all(len(x.results) == 2 for x in t.tables) and [s["games"] for s in done["standings"]] == [4] * 4
    finally:
        s.stop()


def test_registrations_racing_the_start_are_either_in_the_first_round_or_refused(server: Server) -> None:
    with browser(server) as org:
        tid = opened(org, rounds=1)["id"]
        for name in ("A", "B"):
            assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).is_success
        people = [browser(server) for _ in range(8)]

        def register(i: int) -> int:
            return people[i].post(f"/api/tournaments/{tid}/register", json={"name": f"P{i}"}).status_code

        with ThreadPoolExecutor(9) as pool:
            answers = list(pool.map(register, range(4)))
            started = pool.submit(org.post, f"/api/tournaments/{tid}/start")
            answers += list(pool.map(register, range(4, 8)))
            assert started.result().status_code == 200, started.result().text
        assert set(answers) <= {200, 409}
        t = stored(server, tid)
        plan = arena.RoundPlan.from_json(t.rounds[0].plan)
        seated = {e for table in plan.tables for e in table.entrants} | set(plan.byes)
        assert seated == {str(e.number) for e in t.entrants}
        assert len(t.entrants) == 2 + answers.count(200)
        org.post(f"/api/tournaments/{tid}/end").raise_for_status()
        for p in people:
            p.close()


def test_finished_round_tables_leave_memory_and_keep_their_games(tmp_path: Path) -> None:
    """A round table whose games are over and kept in the tournament is archived: the server holds
    none (so --max-tables counts none: a field of two tables a round plays three rounds at a
    server of two tables), an account holds no seat at one, a restart loads none, and every game's
    record and replay is served. A tournament ended early leaves its tables once their games end."""
    s = Server(f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "a.log", *FLAGS, "--max-tables", "2")
    s.start()
    try:
        with browser(s) as org:
            tid = opened(org, rounds=3)["id"]
            for i in range(3):
                assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": f"B{i}"}).is_success
            ann = Person(s, "ann")  # an account holder, whose seats the account lists
            assert ann.http.post(f"/api/tournaments/{tid}/register", json={}).is_success
            org.post(f"/api/tournaments/{tid}/start").raise_for_status()
            assert len(ann.http.get("/api/account").json()["seats"]) == 1  # her table of round 1
            org.post(f"/api/tournaments/{tid}/replace", json={"entrant": 4}).raise_for_status()
            done = finish(org, tid, 90)
            t = stored(s, tid)
            assert len(t.tables) == 3 * 2 and [len(r["tables"]) for r in done["rounds_played"]] == [2, 2, 2]
            assert wait_until(lambda: s.get("/api/health").json()["tables"] == 0, 10), s.get("/api/health").json()
            doc = org.get(f"/api/tournaments/{tid}").json()
            assert all(x["link"] is None and x["table"] for r in doc["rounds_played"] for x in r["tables"])
            assert ann.http.get("/api/account").json()["seats"] == []  # an archived table holds no seat
            ann.close()
            # ended early in the middle of a round: its tables play their games out, then leave too
            early = opened(org, rounds=3, games_per_round=3)["id"]
            for i in range(2):
                assert org.post(f"/api/tournaments/{early}/bots", json={"bot": "random", "name": f"E{i}"}).is_success
            org.post(f"/api/tournaments/{early}/start").raise_for_status()
            org.post(f"/api/tournaments/{early}/end").raise_for_status()
            assert wait_until(lambda: s.get("/api/health").json()["tables"] == 0, 30), s.get("/api/health").json()
            (x,) = stored(s, early).tables
            assert s.get(f"/api/tables/{x.table_id}/record?game=1").status_code == 200
            for _ in range(2):  # the whole --max-tables is free again
                s.open_table("stichling", ["human", "bot:random"], options={"players": 2})
            s.stop()
            s.start()
            assert s.get("/api/health").json()["tables"] == 2  # the two ordinary tables, no round table
            for x in t.tables:
                assert s.get(f"/api/tables/{x.table_id}").status_code == 404  # no live table any more
                for n in range(1, len(x.results) + 1):
                    for path in (
                        f"/api/tables/{x.table_id}/record?game={n}",
                        f"/api/tables/{x.table_id}/replay?game={n}",
                    ):
                        assert s.get(path).status_code == 200, path
    finally:
        s.stop()
