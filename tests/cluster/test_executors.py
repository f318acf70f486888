"""The executors without Ray: order, laziness, a killed pool worker, and the CLI's choices."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path

import pytest

from stichkit.arena import ProcessExecutor, SerialExecutor, play_task, run_tournament, schedule
from stichkit.arena.executors import MAX_RETRIES, NEED_RAY, ExecutorError, make_executor
from stichkit.core import OptionError

from .tools import files, kill_one, specs, stich, tournament, untimed


def _without_time(results: list) -> list:  # type: ignore[type-arg]
    return [replace(r, seconds=None, record=None) for r in results]


def test_results_come_in_schedule_order_whatever_finishes_first() -> None:
    game, bots = specs("stichwahl")
    tasks = schedule(game, bots, 2, seed=2)
    serial = list(SerialExecutor().map(play_task, tasks))
    with ProcessExecutor(2) as ex:
        parallel = list(ex.map(play_task, tasks))
        assert sorted(i for i, _ in ex.completed(play_task, tasks)) == list(range(len(tasks)))
    assert [(r.deal, r.rotation) for r in parallel] == [(t.deal, t.rotation) for t in tasks]
    assert _without_time(parallel) == _without_time(serial)


def test_units_are_taken_from_the_schedule_a_few_at_a_time() -> None:
    taken = 0

    def endless() -> Iterator[int]:
        nonlocal taken
        for i in count():
            taken += 1
            yield i

    with ProcessExecutor(2) as ex:
        results = ex.map(abs, endless(), chunk=3)
        assert [next(results) for _ in range(10)] == list(range(10))
        results.close()
        assert taken <= 3 * (10 + ex.window + ex.workers)  # never the whole (endless) schedule
    assert list(SerialExecutor().map(abs, range(5))) == list(range(5))


def test_never_more_processes_than_games() -> None:
    game, bots = specs("stichwahl")
    with ProcessExecutor(8) as ex:
        assert len(list(ex.completed(play_task, schedule(game, bots, 1, seed=1)))) == 3
        assert ex.size == 3


def test_a_killed_pool_worker_costs_only_the_games_in_progress() -> None:
    """The pool cannot survive the death of one of its processes: it is started anew and the
    games that were in progress are played again, with the same result."""
    game, bots = specs("stichwahl")
    killed: list[int | None] = []

    def kill_once(_: object) -> None:
        if not killed:
            killed.append(kill_one(Path(f"/proc/{os.getpid()}/cmdline").read_bytes(), parent=os.getpid()))

    with ProcessExecutor(2) as ex:
        results = run_tournament(game, bots, 3, seed=4, executor=ex, on_result=kill_once)
        assert killed[0] is not None and ex.restarts == 1
    assert _without_time(results) == _without_time(run_tournament(game, bots, 3, seed=4))


def _die(_: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def test_a_game_that_kills_every_worker_stops_the_run() -> None:
    with ProcessExecutor(2) as ex, pytest.raises(ExecutorError, match=f"died {MAX_RETRIES + 1} times"):
        list(ex.map(_die, [1]))


def test_an_error_of_the_game_reaches_the_caller() -> None:
    game, bots = specs("stichwahl")
    bad = [replace(t, options={"target": "many"}) for t in schedule(game, bots, 1, seed=1)]
    with ProcessExecutor(2) as ex, pytest.raises(OptionError, match="target"):
        list(ex.map(play_task, bad))


def test_serial_and_process_give_the_same_bytes(tmp_path: Path) -> None:
    one = tournament("stichwahl", tmp_path / "one", deals=2)
    two = tournament("stichwahl", tmp_path / "two", "--executor", "process", "--workers", "2", deals=2)
    assert untimed(one) == untimed(two) and files(tmp_path / "one") == files(tmp_path / "two")


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--executor", "serial", "--workers", "2"], "--executor serial works in this process"),
     (["--workers", "0"], "--workers must be 1 to 256"),
     (["--executor", "process", "--ray-address", "10.0.0.5:6379"], "are for --executor ray, not process"),
     (["--executor", "ray", "--ray-runtime-env", "{pip"], "--ray-runtime-env is not valid JSON"),
     (["--executor", "ray", "--ray-runtime-env", "[1]"], "--ray-runtime-env is a JSON object"),
     (["--ray-address", "head-node"], "a Ray address is host:port"),
     (["--executor", "threads"], "invalid choice: 'threads'")],
)  # fmt: skip
def test_bad_executor_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["tournament", "stichwahl", "--deals", "1"], ["simulate", "stichwahl", "--games", "1"]):
        code, out = stich(*command, "--seats", "random,random,random,random", *argv)
        assert code == 2 and message in out.replace("\n", " ") + capsys.readouterr().err


def test_ray_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    code, out = stich("tournament", "stichwahl", "--seats", "random,random,random,random", "--deals", "1",
                      "--executor", "ray")  # fmt: skip
    assert code == 2 and NEED_RAY.replace(" ", "") in out.replace("\n", "").replace(" ", "")
    assert "pip install 'stichkit[cluster]'" in NEED_RAY


def test_an_unreachable_cluster_is_an_error_at_once() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    code, out = stich("simulate", "stichwahl", "--games", "1", "--seats", "random,random,random,random",
                      "--executor", "ray", "--ray-address", f"127.0.0.1:{port}")  # fmt: skip
    assert code == 2 and f"cannot reach the Ray cluster at 127.0.0.1:{port}" in out.replace("\n", " ")


def test_a_cluster_that_never_answers_is_an_error_after_the_timeout() -> None:
    """Something listens at the address, but it is not Ray: Ray itself would retry for many
    minutes; the executor gives up after its timeout (a fresh process: this one may be connected)."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'stichkit[cluster]')")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def accept() -> None:
        with contextlib.suppress(OSError):  # the socket is closed when the test is done
            for _ in range(100):
                server.accept()

    threading.Thread(target=accept, daemon=True).start()
    code = ("from stichkit.arena import RayExecutor, ExecutorError\n"
            f"try: RayExecutor(address='127.0.0.1:{port}', connect_timeout=1)\n"
            "except ExecutorError as e: print(e)")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env).stdout
    server.close()
    assert f"the Ray cluster at 127.0.0.1:{port} did not answer within 1 s" in out and "RAY_AUTH_TOKEN" in out


def test_make_executor_defaults() -> None:
    assert isinstance(make_executor(), SerialExecutor) and isinstance(make_executor(workers=3), ProcessExecutor)
    with pytest.raises(ExecutorError, match="unknown executor 'threads'"):
        make_executor("threads")
