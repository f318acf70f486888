"""A Jass tournament's second table: the players by points lost per card in its analysed games
(each player's seats summed over the games an analysis was kept for)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stichkit.arena import tournaments as arena
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store

from .harness import Server
from .test_tournaments import FLAGS, browser, finish, opened, stored


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d: Path = tmp_path_factory.mktemp("tournament-errors")
    # FLAGS: the server analyses none by itself here; the analyses are written by the test
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", *FLAGS)
    s.start()
    yield s
    s.stop()


def test_jass_players_are_ranked_by_points_lost_per_card_in_analysed_games(server: Server) -> None:
    with browser(server) as org:
        spec = {"game": "jass", "format": "passe", "options": {"target": 200}, "rounds": 2, "fill_bot": "random"}
        tid = opened(org, **spec)["id"]
        for name in ("Anna", "Beat", "Carla", "Dario"):
            assert org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).is_success
        org.post(f"/api/tournaments/{tid}/start").raise_for_status()
        done = finish(org, tid)
        assert done["jass_errors"] == []  # nothing analysed yet
        t = stored(server, tid)
        engine = make_engine(parse_db_url(server.db))
        store = Store(engine)
        expected: dict[str, list[int]] = {}
        names = {str(e.number): e.name for e in t.entrants}
        try:
            for x in t.tables[:1]:  # round 1's game analysed, round 2's not
                game = arena.GamePlayed.from_json(x.results[0])
                seats = [{"seat": s, "decisions": 36, "errors": s, "lost": 10 * (s + 1)} for s in range(4)]
                store.save_analysis(x.table_id, 1, {"status": "done", "analysis": {"seats": seats}}, time.time())
                for s, pid in enumerate(game.seats):
                    total = expected.setdefault(names[pid], [0, 0, 0, 0])
                    for k, v in enumerate((1, 36, s, 10 * (s + 1))):
                        total[k] += v
        finally:
            engine.dispose()
        rows = org.get(f"/api/tournaments/{tid}").json()["jass_errors"]
        assert [r["per_card"] for r in rows] == sorted(r["per_card"] for r in rows)
        assert {r["name"]: [r["games"], r["cards"], r["errors"], r["lost"]] for r in rows} == expected
        assert all(r["per_card"] == round(r["lost"] / r["cards"], 3) for r in rows)
        other = opened(org, game="stichling")["id"]  # other games have no such table
        assert "jass_errors" not in org.get(f"/api/tournaments/{other}").json()
