"""Tournaments, simulations and analyses on a real local Ray (`ray.init(num_cpus=2)`, shared by the session)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from stichkit.arena import RayExecutor, play_task, run_tournament, schedule
from stichkit.core import OptionError

from .conftest import RAY_ENV, RaySession
from .tools import GAMES, files, kill_one, specs, stich, tournament, untimed

RAY = ("--executor", "ray", "--workers", "2")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_executor_gives_the_same_records_and_standings(game: str, tmp_path: Path, local_ray: RaySession) -> None:
    """Byte for byte, but for the thinking times (measured on the clock)."""
    serial = tournament(game, tmp_path / "serial", deals=2)
    process = tournament(game, tmp_path / "process", "--executor", "process", "--workers", "2", deals=2)
    ray = tournament(game, tmp_path / "ray", *RAY, deals=2)
    assert untimed(serial) == untimed(process) == untimed(ray)
    assert files(tmp_path / "serial") == files(tmp_path / "process") == files(tmp_path / "ray")
    assert len(files(tmp_path / "ray")) == json.loads(serial)["games"] + 1  # and index.json


def test_resume_on_ray_plays_only_the_missing_games(tmp_path: Path, local_ray: RaySession) -> None:
    whole = tournament("stichwahl", tmp_path / "whole", deals=3)
    part = tmp_path / "part"
    tournament("stichwahl", part, *RAY, deals=2)
    (part / "recs" / "stichwahl-deal0001-rot2.json").unlink()  # as if the run had stopped there
    kept = (part / "recs" / "stichwahl-deal0000-rot0.json").stat().st_mtime_ns
    res = json.loads(tournament("stichwahl", part, *RAY, "--resume", deals=3))
    assert res["resumed_games"] == 5 and (part / "recs" / "stichwahl-deal0000-rot0.json").stat().st_mtime_ns == kept
    resumed, played = files(part), files(tmp_path / "whole")
    index = json.loads(resumed.pop("index.json"))
    assert index["summary"].pop("resumed_games") == 5
    assert index == json.loads(played.pop("index.json")) and resumed == played
    assert untimed(json.dumps(index["summary"], indent=2).encode() + b"\n") == untimed(whole)


def test_simulate_on_ray_gives_the_same_table(local_ray: RaySession) -> None:
    argv = ("simulate", "jass", "--games", "12", "--seats", "heuristic,random,heuristic,random", "--seed", "3",
            "--json", "target=300")  # fmt: skip
    outs = {stich(*argv, *extra) for extra in ((), ("--workers", "2"), RAY)}
    assert len(outs) == 1 and next(iter(outs))[0] == 0


def test_a_killed_ray_worker_loses_only_its_game(local_ray: RaySession) -> None:
    """A worker process is killed while it plays: Ray plays that game again elsewhere, the run
    finishes, and every result is the one of a run without accident."""
    game, bots = specs("stichwahl")
    bots = [bots[0], bots[0], bots[1]]  # ismcts:iterations=5 twice: longer games
    killed: list[int] = []
    lock = threading.Lock()

    def kill_once(_: object) -> None:
        deadline = time.monotonic() + 30
        with lock:
            while not killed and time.monotonic() < deadline:  # the other worker plays now: find it by its title
                pid = kill_one(b"ray::_play_on_ray", env=RAY_ENV["RAY_AUTH_TOKEN"].encode())
                if pid is not None:
                    killed.append(pid)

    with RayExecutor(2) as ex:
        results = run_tournament(game, bots, 1, seed=11, executor=ex, on_result=kill_once)
        assert not ex.owned  # the session's connection: used, not shut down
    assert killed
    expected = run_tournament(game, bots, 1, seed=11)
    assert [replace(r, seconds=None) for r in results] == [replace(r, seconds=None) for r in expected]
    assert local_ray.ray.is_initialized()


def test_an_error_of_the_game_reaches_the_caller_through_ray(local_ray: RaySession) -> None:
    game, bots = specs("stichwahl")
    bad = [replace(t, options={"target": "many"}) for t in schedule(game, bots, 1, seed=1)]
    with RayExecutor() as ex, pytest.raises(OptionError, match="target"):
        list(ex.map(play_task, bad))
    assert ex.workers == 2  # by default, the cluster's CPUs


def test_a_connected_process_keeps_its_cluster(local_ray: RaySession) -> None:
    """A process where ray.init was called already (a notebook, these tests) plays on that Ray."""
    argv = ("simulate", "stichwahl", "--games", "1", "--seats", "random,random,random,random")
    code, out = stich(*argv, "--ray-address", "10.0.0.5:6379")
    assert code == 2 and "already connected to the Ray cluster at" in out.replace("\n", " ")
    code, out = stich(*argv, "--ray-runtime-env", '{"pip": ["stichkit"]}')
    assert code == 2 and "its runtime environment was set then" in out.replace("\n", " ")


def test_analyse_on_ray_gives_the_same_document(tmp_path: Path, local_ray: RaySession,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """`stich analyse` hands out one deal a unit, like a tournament its games."""
    from tests.analysis.test_analyse_workers import three_deals_record

    path = three_deals_record(tmp_path)
    outs = []
    for extra in ((), RAY):
        assert stich("analyse", str(path), "--json", "--no-full", *extra)[0] == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and len(json.loads(outs[0])["decisions"]) == 108
