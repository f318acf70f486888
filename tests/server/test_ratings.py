"""Rated tables against real servers: only account holders sit there, each game's end changes its
players' ratings once (Jass by team, the other games by place), a player who leaves for good is
rated as having lost, and profiles and leaderboards read it back; across two processes on
PostgreSQL too."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from typing import Any

from stichkit.server.ratings import Finisher, Placing, initial, placings, rate

from .harness import Client, Server, run
from .people import Person


def open_rated(p: Person, game: str, players: int, settings: dict[str, Any] | None = None,
               **options: Any) -> dict[str, Any]:  # fmt: skip
    body = {"game": game, "seats": ["human"] * players, "rated": True, "options": options, **(settings or {})}
    r = p.http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def sit(p: Person, table: str) -> str:
    r = p.http.post(f"/api/tables/{table}/join", json={})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


async def play_to_end(c: Client, rng: random.Random, m: dict[str, Any] | None = None) -> dict[str, Any]:
    """Random legal moves to the game's end, from `m` (a state not yet answered) or the next state."""
    m = m if m is not None else await c.state(timeout=30)
    while m["table"]["status"] != "over":
        if m["legal"]:
            await c.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})
        m = await c.state(timeout=60)
    return m


def play_rated(servers: list[Server], table: str, tokens: list[str], seed: int) -> dict[str, Any]:
    """Each seat plays random legal moves through its server (round robin) to the end."""
    rng = random.Random(seed)

    async def go() -> dict[str, Any]:
        clients = [await Client.open(servers[i % len(servers)], table, tok) for i, tok in enumerate(tokens)]
        ends = await asyncio.gather(*(play_to_end(c, rng) for c in clients))
        for c in clients:
            await c.close()
        return ends[0]

    return dict(run(go()))


def profile(server: Server, name: str) -> dict[str, Any]:
    r = server.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def line(prof: dict[str, Any], game: str) -> dict[str, Any]:
    return next(g for g in prof["games"] if g["game"] == game)


def test_places_and_team_ratings_follow_the_rules() -> None:
    """Free-for-all: winners share first, equal points share a place, a leaver is last. Jass: the
    partners of a team that stayed together move together; a leaver's partner is not rated."""
    result = {"scores": [30, 50, 50, 10], "winners": [1, 2]}
    f = [Finisher(s, 100 + s, left=False) for s in range(4)]
    assert [p.place for p in placings("stichwahl", result, 4, f)] == [3, 1, 1, 4]
    # Differenzler's scores are its penalties negated: the least penalty wins, as more points elsewhere
    penalties = {"scores": [-10, -3, -3, -20], "winners": [1, 2]}
    assert [p.place for p in placings("differenzler", penalties, 4, f)] == [3, 1, 1, 4]
    f[1] = Finisher(1, 101, left=True)
    placed = placings("stichwahl", result, 4, f)
    # the leaver's seat (a winner by the takeover bot's play) counts for nobody: the others move up
    assert [(p.place, p.won, p.left) for p in placed] == [(2, False, False), (4, False, True), (1, True, False),
                                                          (3, False, False)]  # fmt: skip
    start = {100 + s: initial() for s in range(4)}
    jass = [Placing(100 + s, s, 1 if s % 2 == 0 else 2, s % 2 == 0, False) for s in range(4)]
    after = rate("jass", jass, start)
    assert after[100] == after[102] and after[101] == after[103] and after[100].mu > after[101].mu
    # Coiffeur is played by the same two teams; a tie there shares the place
    tie = placings("coiffeur", {"scores": [9, 9, 9, 9], "winners": [0, 1, 2, 3]}, 4, f[:1] + f[2:])
    assert {p.place for p in tie} == {1}
    coiffeur = rate("coiffeur", [Placing(100 + s, s, 1 if s % 2 else 2, s % 2 == 1, False) for s in range(4)], start)
    assert coiffeur[101] == coiffeur[103] and coiffeur[101].mu > coiffeur[100].mu
    jass[3] = Placing(103, 3, 3, False, True)
    after = rate("jass", jass, start)
    assert 101 not in after and after[103].mu < start[103].mu and after[100].mu > start[100].mu


def test_a_rated_jass_game_moves_the_team_ratings_once(players_server: Server) -> None:
    people = [Person(players_server, n) for n in ("Ann", "Bea", "Cem", "Dan")]
    try:
        t = open_rated(people[0], "jass", 4, target=150)
        assert (
            t["settings"]["rated"] is True and t["settings"]["hints"] is False and t["settings"]["takebacks"] is False
        )
        tokens = [sit(p, t["id"]) for p in people]
        end = play_rated([players_server], t["id"], tokens, seed=11)
        winners = set(end["table"]["result"]["winners"])
        profs = [profile(players_server, p.name) for p in people]
        lines = [line(pr, "jass") for pr in profs]
        assert all(x["played"] == 1 and x["rating"]["games"] == 1 for x in lines)
        for seat, x in enumerate(lines):
            assert x["won"] == int(seat in winners)
            assert (x["rating"]["rating"] > 0) == (seat in winners)  # everyone began at 0
        assert lines[0]["rating"] == lines[2]["rating"] and lines[1]["rating"] == lines[3]["rating"]
        recent = profs[0]["recent"][0]
        assert recent["table"] == t["id"] and recent["rated"] and recent["analysis"].endswith("&analyse=1")
        # The game's analysis, once done, gives each player's points lost per card on the profile.
        seats = [{"seat": i, "decisions": 36, "errors": i, "lost": 10 * i} for i in range(4)]
        document = {"table": t["id"], "game_no": 1, "status": "done", "analysis": {"seats": seats}}
        with sqlite3.connect(players_server.db.removeprefix("sqlite:///")) as conn:
            conn.execute(
                "INSERT INTO analyses (table_id, game_no, document, created_at, status, claim) "
                "VALUES (?, 1, ?, '2026-11-28 20:00:00.000000', 'done', 0)",
                (t["id"], json.dumps(document)),
            )
        errors = profile(players_server, people[3].name)["jass_errors"]
        assert errors == {"games": 1, "cards": 36, "errors": 3, "lost": 30, "per_card": round(30 / 36, 3)}
        profs[0] = profile(players_server, people[0].name)
        assert profs[0]["jass_errors"]["lost"] == 0
        # a second look finds the same: the game was rated once, not once per look
        assert profile(players_server, people[0].name) == profs[0]
        board = players_server.get("/api/leaderboard/jass?min_games=1").json()
        names = [x["name"] for x in board["players"]]
        assert {p.name for p in people} <= set(names)
        assert players_server.get("/api/leaderboard/jass?min_games=2").json()["players"] == [
            x for x in board["players"] if x["games"] >= 2
        ]
    finally:
        for p in people:
            p.close()


def test_leaving_a_rated_game_for_good_is_a_loss(players_server: Server) -> None:
    ann, bea = Person(players_server, "Ann"), Person(players_server, "Bea")
    try:
        t = open_rated(ann, "stichling", 2)
        ta, tb = sit(ann, t["id"]), sit(bea, t["id"])

        r = bea.http.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {tb}"})
        assert r.status_code == 200, r.text  # during play: the takeover bot plays Bea's seat to the end

        async def go() -> None:
            ca = await Client.open(players_server, t["id"], ta)
            end = await play_to_end(ca, random.Random(5))
            await ca.close()
            assert end["table"]["settings"]["rated"]

        run(go())
        a, b = (
            line(profile(players_server, ann.name), "stichling"),
            line(profile(players_server, bea.name), "stichling"),
        )
        assert b["left"] == 1 and b["won"] == 0 and b["rating"]["rating"] < a["rating"]["rating"]
        assert profile(players_server, bea.name)["recent"][0]["left"] is True
    finally:
        ann.close()
        bea.close()


def test_being_away_and_back_costs_nothing(players_server: Server) -> None:
    """Bea's connection drops past the grace time: the takeover bot plays her seat meanwhile, she
    comes back, and the game is rated by its result, not as a loss."""
    ann, bea = Person(players_server, "Ann"), Person(players_server, "Bea")
    try:
        t = open_rated(ann, "stichling", 2, settings={"grace": 0.5, "takeover": "game"})
        ta = sit(ann, t["id"])

        async def go() -> None:
            # Ann is at the table before the game begins, so only Bea's seat can be taken over
            # (on a loaded machine Ann's first connection could come later than the grace time)
            ca = await Client.open(players_server, t["id"], ta)
            await ca.state(timeout=30)
            tb = await asyncio.to_thread(sit, bea, t["id"])
            cb = await Client.open(players_server, t["id"], tb)
            hers = (await cb.state(timeout=30))["seat"]
            await cb.close()  # gone for longer than the grace time
            rng = random.Random(8)
            m = await ca.state(timeout=30, status="playing")
            while not m["table"]["seats"][hers]["takeover"] and m["table"]["status"] != "over":
                if m["type"] == "state" and m["legal"]:  # a `table` message (presence, takeover) has no moves
                    await ca.send({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]})
                m = await ca.until(lambda x: x["type"] in ("state", "table"), timeout=60)
            cb = await Client.open(players_server, t["id"], tb)  # back: the seat is still hers
            await cb.send({"type": "reclaim"})
            # Ann goes on from the state the loop stopped at, if it was one (her turn, or the end)
            await asyncio.gather(play_to_end(ca, rng, m if m["type"] == "state" else None),
                                 play_to_end(cb, random.Random(9)))  # fmt: skip
            await ca.close()
            await cb.close()

        run(go())
        b = line(profile(players_server, bea.name), "stichling")
        assert b["left"] == 0 and b["rating"]["games"] == 1
        assert profile(players_server, bea.name)["recent"][0]["left"] is False
    finally:
        ann.close()
        bea.close()


def test_rated_tables_refuse_guests_and_bots(players_server: Server) -> None:
    ann = Person(players_server, "Ann")
    try:
        before = len(players_server.get("/api/tables").json()["tables"])
        guest = players_server.post("/api/tables", {"game": "stichling", "seats": ["human", "human"], "rated": True})
        assert guest.status_code == 403 and "account holders" in guest.json()["error"]
        bot = ann.http.post("/api/tables", json={"game": "stichling", "seats": ["human", "bot:random"], "rated": True})
        assert bot.status_code == 400 and "seats people only" in bot.json()["error"]
        shared = ann.http.post("/api/tables", json={"game": "stichling", "seats": ["human", "human"], "rated": True,
                                                    "shared_screen": True})  # fmt: skip
        assert shared.status_code == 400 and "one person at each seat" in shared.json()["error"]
        assert len(players_server.get("/api/tables").json()["tables"]) == before
        t = open_rated(ann, "stichling", 2)
        refused = players_server.post(f"/api/tables/{t['id']}/join", {"name": "Gast"})
        assert refused.status_code == 403 and "account holders only" in refused.json()["error"]
        assert players_server.get(f"/api/tables/{t['id']}").json()["seats"][0]["claimed"] is False
        unknown = players_server.get("/api/leaderboard/poker")
        assert unknown.status_code == 400 and "unknown game 'poker'" in unknown.json()["error"]
        assert players_server.get("/api/players/nobody-such").status_code == 404
    finally:
        ann.close()


def test_a_rated_game_across_two_processes_is_rated_once(postgres_pair: tuple[Server, Server]) -> None:
    """Two players on two processes of one PostgreSQL database: the game's end, stored by one
    process, rates it once; both processes answer the same profiles; a player who leaves through
    one process is rated as a leaver by the other's end of the game."""
    import psycopg

    a, b = postgres_pair
    ann, bea = Person(a, "Ann"), Person(b, "Bea")
    try:
        t = open_rated(ann, "stichling", 2)
        tokens = [sit(ann, t["id"]), sit(bea, t["id"])]
        play_rated([a, b], t["id"], tokens, seed=3)
        for name in (ann.name, bea.name):
            pa, pb = profile(a, name), profile(b, name)
            assert pa == pb and line(pa, "stichling")["rating"]["games"] == 1
        with psycopg.connect(a.db) as conn:
            rows = conn.execute("SELECT count(*) FROM played WHERE table_id = %s", (t["id"],)).fetchone()
            assert rows == (2,)
        # Bea leaves a second rated game through b while Ann plays it to the end through a
        t2 = open_rated(ann, "stichling", 2)
        t2a, t2b = sit(ann, t2["id"]), sit(bea, t2["id"])
        left = bea.at(b).post(f"/api/tables/{t2['id']}/leave", headers={"Authorization": f"Bearer {t2b}"})
        assert left.status_code == 200, left.text
        play_rated([a], t2["id"], [t2a], seed=4)
        gone = line(profile(a, bea.name), "stichling")
        assert gone["rating"]["games"] == 2 and gone["left"] == 1
    finally:
        ann.close()
        bea.close()


def test_an_unrated_game_counts_on_the_profile_without_a_rating(players_server: Server) -> None:
    ann, bea = Person(players_server, "Ann"), Person(players_server, "Bea")
    try:
        r = ann.http.post("/api/tables", json={"game": "stichling", "seats": ["human", "human"]})
        t = r.json()
        tokens = [sit(ann, t["id"]), sit(bea, t["id"])]
        play_rated([players_server], t["id"], tokens, seed=9)
        x = line(profile(players_server, ann.name), "stichling")
        assert x["played"] == 1 and x["rating"] is None and x["history"] == []
        db = players_server.db.removeprefix("sqlite:///")
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*) FROM ratings WHERE game = 'stichling' AND account_id IN "
                                "(SELECT id FROM accounts WHERE name = ?)", (ann.name,)).fetchone() == (0,)  # fmt: skip
    finally:
        ann.close()
        bea.close()
