"""A whole tournament of bots through two server processes on one PostgreSQL database, the one that
opened the round's tables killed (SIGKILL) in the middle of a round and started again later: the
other takes the tables over, and each step (a result kept, a table's next game, the next round
paired, the end) is taken once. The final standings are the arena's from the stored results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from stichkit.arena import tournaments as arena
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store
from stichkit.server.db.tournaments import TournamentStore
from stichkit.server.model import StoredTournament
from stichkit.server.tournaments import arena_settings

from .harness import Server, postgres_database, wait_until

FLAGS = ("--bot-delay", "0.03", "--bot-workers", "1", "--client-tournaments", "0", "--client-bot-entrants", "0")
ROUNDS, GAMES, BOTS = 2, 2, 6


def load(db: str, tid: str) -> StoredTournament:
    engine = make_engine(parse_db_url(db))
    try:
        t = TournamentStore(Store(engine).sessions).load(tid)
        assert t is not None
        return t
    finally:
        engine.dispose()


def test_a_tournament_survives_a_killed_process_and_each_step_is_taken_once(tmp_path: Path) -> None:
    with postgres_database() as db:
        a = Server(db, tmp_path / "a.log", *FLAGS).start()
        b = Server(db, tmp_path / "b.log", *FLAGS).start()
        try:
            org = httpx.Client(base_url=a.http, timeout=30)
            body = {"name": "Kill Cup", "game": "stichling", "format": "swiss", "options": {"players": 2},
                    "rounds": ROUNDS, "games_per_round": GAMES, "fill_bot": "random"}  # fmt: skip
            tid = org.post("/api/tournaments", json=body).json()["id"]
            for i in range(BOTS):
                org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": f"Bot {i}"}).raise_for_status()
            org.post(f"/api/tournaments/{tid}/start").raise_for_status()
            # a's tables are in the middle of round 1: some game over, the round not
            assert wait_until(lambda: any(x.results for x in load(db, tid).tables), 60, every=0.1)
            mid = load(db, tid)
            assert mid.round == 1 and mid.rounds[0].status == "playing", mid
            a.kill()
            seen = httpx.get(f"{b.http}/api/tournaments/{tid}", timeout=30).json()
            assert seen["status"] == "running"
            assert wait_until(lambda: load(db, tid).round >= 2, 90, every=0.3), b.log.read_text()[-3000:]
            a.start()  # back, beside b: both look for steps from now on
            done: dict[str, Any] = {}

            def over() -> bool:
                nonlocal done
                done = httpx.get(f"{b.http}/api/tournaments/{tid}", timeout=30).json()
                return done["status"] == "over"

            assert wait_until(over, 180, every=0.5), json.dumps(done)[:2000] + b.log.read_text()[-3000:]
            t = load(db, tid)
            assert [r.number for r in t.rounds] == list(range(1, ROUNDS + 1))
            assert all(r.status == "done" for r in t.rounds) and not t.ended_early
            tables = BOTS // 2
            assert len(t.tables) == ROUNDS * tables  # no round paired twice
            store = Store(make_engine(parse_db_url(db)))
            for x in t.tables:
                assert len(x.results) == GAMES and x.status == "over"
                games = store.games(x.table_id)
                assert [g.game_no for g in games] == list(range(1, GAMES + 1))  # no game begun twice
                for kept, g in zip(x.results, games, strict=True):
                    assert g.result is not None and kept["scores"] == g.result["scores"]
            store.engine.dispose()
            # the finished round tables are archived: neither process holds one, and either serves
            # every game's record and replay from the database
            for server in (a, b):
                assert wait_until(lambda s=server: httpx.get(f"{s.http}/api/health").json()["tables"] == 0, 30), (
                    httpx.get(f"{server.http}/api/health").json()
                )
            for x in t.tables:
                for n in range(1, GAMES + 1):
                    for path in (
                        f"/api/tables/{x.table_id}/record?game={n}",
                        f"/api/tables/{x.table_id}/replay?game={n}",
                    ):
                        assert httpx.get(f"{b.http}{path}", timeout=30).status_code == 200, path
            settings = arena_settings(t.settings)
            entrants = [arena.Entrant(str(e.number), e.name) for e in t.entrants]
            results = [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]
            plans = [arena.RoundPlan.from_json(r.plan) for r in t.rounds]
            expected = arena.standings(settings, entrants, results, plans)
            assert [{k: v for k, v in s.items() if k != "name"} for s in done["standings"]] == [
                s.to_json() for s in expected
            ]
            assert sum(s.games for s in expected) == ROUNDS * BOTS * GAMES
            # every pairing is the arena's from what was played before it
            for r in range(1, ROUNDS + 1):
                before = [g for g in results if g.round < r]
                again = arena.plan_round(settings, entrants, r, seed=t.seed, plans=plans[: r - 1], results=before)
                assert again == plans[r - 1]
        finally:
            b.stop()
            a.stop()
