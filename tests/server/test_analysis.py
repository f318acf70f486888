"""The analysis of a finished Jass game through the server (`stich analyse` for the replay): begun
with POST, solved deal by deal in a worker process of its own, read with GET as far as it has
come, the same as the analysis in this process; refused with a reason where there is nothing
to analyse, and kept (in the database, across restarts) for whoever asks again."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit.analysis.review import analyse
from stichkit.server import analysis
from stichkit.server.analysis import BACKGROUND, Analyses, Busy

from .harness import Server, run
from .stored_games import played, store_game

# Two deals at most (157 points a deal): Obenabe, the fastest trump mode to solve whole deals in
JASS = {"profile": "schieber", "target": 150, "first_forehand": 0}
OBE = ("trump:obe",)


def test_a_finished_jass_game_is_analysed_deal_by_deal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'analysis.db'}"
    game = played("jass", JASS, 11, OBE)
    assert game.is_terminal()
    store_game(db, "done", game, 11)
    store_game(db, "cards", played("stichling", {}, 5), 5)
    expected = analyse(game, full=False).to_json()
    server = Server(db, tmp_path / "server.log", "--bot-delay", "0").start()
    try:
        first = server.post("/api/tables/done/analysis")
        assert first.status_code == 200, first.text
        begun = first.json()
        assert begun["status"] in ("queued", "working", "done") and begun["deals"] == len(expected["deals"])
        deadline = time.time() + 180
        seen = []
        while True:
            now = server.get("/api/tables/done/analysis").json()
            seen.append(now["deals_done"])
            if now["status"] != "working" and now["status"] != "queued":
                break
            assert time.time() < deadline, "the analysis did not end"
            time.sleep(0.3)
        assert now["status"] == "done" and now["error"] is None, now
        assert now["analysis"] == expected
        assert seen == sorted(seen)  # deal by deal, never back
        # asked again: the same analysis at once
        again = server.post("/api/tables/done/analysis").json()
        assert again["status"] == "done" and again["analysis"] == expected
        # what there is nothing to analyse
        refused = server.post("/api/tables/cards/analysis")
        assert refused.status_code == 400 and "Jass" in refused.json()["error"]
        assert server.get("/api/tables/cards/analysis").status_code == 404  # not begun
        assert server.post("/api/tables/nosuch/analysis").status_code == 404
        running = server.open_table("jass", ["human", "bot:random", "bot:random", "bot:random"])
        assert server.post(f"/api/tables/{running['id']}/analysis").status_code == 403
        bad = server.post("/api/tables/done/analysis?game=0")
        assert bad.status_code == 400 and "game" in bad.text, bad.text
    finally:
        server.stop()
    # A finished analysis is kept in the database: after a restart it is there at once.
    server = Server(db, tmp_path / "server2.log", "--bot-delay", "0").start()
    try:
        assert server.get("/api/tables/done/analysis").json()["analysis"] == expected
        kept = server.post("/api/tables/done/analysis").json()
        assert kept["status"] == "done" and kept["analysis"] == expected and kept["game_no"] == 1
    finally:
        server.stop()


def test_only_a_few_games_wait_for_their_analysis() -> None:
    state = stichkit.replay(played("jass", JASS, 3, OBE, moves=9).record())

    async def go() -> None:
        analyses = Analyses(waiting=1)
        try:
            await analyses.begin(("t1", 1), state)
            assert await analyses.begin(("t1", 1), state) is analyses.get(("t1", 1))  # the same job
            with pytest.raises(Busy, match="analysing 1 games already"):
                await analyses.begin(("t2", 1), state)
        finally:
            analyses.close()
        with pytest.raises(Busy, match="--max-analyses 0"):
            await Analyses(waiting=0).begin(("t1", 1), state)

    run(go())


def test_the_queue_takes_a_players_game_before_the_servers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two priorities, each with its budget: the server's own game in work yields between its deals
    to a player's that arrives, and goes on after it."""
    state = stichkit.replay(played("jass", JASS, 11, OBE).record())
    first_deal = threading.Event()
    solved: list[Any] = []

    def solve(part: Any) -> Any:  # each deal in turn, the server's first one held until the player asks
        if not solved:
            first_deal.wait(30)
        solved.append(part)
        return part

    monkeypatch.setattr(analysis, "analyse_part", solve)
    monkeypatch.setattr(Analyses, "_executor", lambda self: pool)
    pool = ThreadPoolExecutor(1)

    async def go() -> None:
        analyses = Analyses(waiting=1, background=1)
        try:
            own = await analyses.begin(("own", 1), state, priority=BACKGROUND)
            assert own is not None and len(own.parts) >= 2
            with pytest.raises(Busy, match="1 of its own games at a time"):
                await analyses.begin(("own", 2), state, priority=BACKGROUND)
            while own.status != "working":
                await asyncio.sleep(0.01)
            mine = await analyses.begin(("mine", 1), state)  # the players' budget is its own
            assert mine is not None
            first_deal.set()
            deadline = time.time() + 30
            while own.status != "done" or mine.status != "done":
                assert time.time() < deadline, (own.status, mine.status)
                await asyncio.sleep(0.01)
        finally:
            analyses.close()
        assert solved == [own.parts[0], *mine.parts, *own.parts[1:]]

    try:
        run(go())
    finally:
        pool.shutdown()


def test_a_worker_killed_under_an_analysis_fails_it_quietly_and_it_is_begun_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The worker process can die under an analysis (killed, or a signal to the process group as
    the server stops): the analysis fails with a warning and no traceback, and asked again it is
    solved anew in a new worker."""
    state = stichkit.replay(played("jass", JASS, 11, OBE).record())
    expected = analyse(state, full=False).to_json()

    async def go() -> None:
        analyses = Analyses(waiting=2)
        try:
            await analyses.begin(("t1", 1), state)
            deadline = time.time() + 120
            while analyses._pool is None or not getattr(analyses._pool, "_processes", None):
                assert time.time() < deadline, "no worker began"
                await asyncio.sleep(0.05)
            for p in list(analyses._pool._processes.values()):
                p.kill()
            while (job := analyses.get(("t1", 1))) is not None and job.status in ("queued", "working"):
                assert time.time() < deadline, "the analysis did not end"
                await asyncio.sleep(0.1)
            assert job is not None and job.status == "failed"
            again = await analyses.begin(("t1", 1), state)
            while again.status in ("queued", "working"):
                assert time.time() < deadline, "the analysis begun again did not end"
                await asyncio.sleep(0.1)
            assert again.status == "done" and again.to_json()["analysis"] == expected
        finally:
            analyses.close()

    with caplog.at_level("WARNING", logger="stichkit.server"):
        run(go())
    assert any("analysis worker" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]
