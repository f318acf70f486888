"""A cluster of two Ray nodes on this machine (`ray.cluster_utils.Cluster`), one CPU each: the
games are spread over both nodes, stichkit's code can be shipped with a runtime environment, and
a driver from another process needs the cluster's token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit.arena import RayExecutor, run_tournament

from .conftest import RaySession
from .tools import GAMES, specs, tournament, untimed

SHIP = {"py_modules": [os.path.dirname(stichkit.__file__)]}


@pytest.fixture
def cluster(ray_session: RaySession) -> Any:
    return ray_session.two_nodes()


def test_games_run_on_both_nodes_with_the_code_shipped(cluster: Any, ray_session: RaySession) -> None:
    game, bots = specs("stichwahl")
    with RayExecutor(address=cluster.address, runtime_env=SHIP) as ex:
        results = run_tournament(game, bots, 2, seed=3, executor=ex)
        assert ex.owned and ex.workers == 2 and len(ex.nodes) == 2 and sum(ex.nodes.values()) == len(results) == 6
        unpacked = ex.remote.remote(lambda _: [p for p in sys.path if "py_modules_files" in p], None)
        paths = ray_session.ray.get(unpacked)[0]  # stichkit as shipped, unpacked on the node
        assert len(paths) == 1 and Path(paths[0], "stichkit", "arena", "executors.py").is_file()
    assert not ray_session.ray.is_initialized()  # the executor's own connection ends with it
    expected = run_tournament(game, bots, 2, seed=3)
    assert [replace(r, seconds=None) for r in results] == [replace(r, seconds=None) for r in expected]


def _stich(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    stich = Path(sys.executable).with_name("stich")  # the command as installed
    return subprocess.run([str(stich), *argv], capture_output=True, text=True, timeout=240, env=env, cwd=cwd)


def test_stich_from_another_process_with_the_token(cluster: Any, tmp_path: Path) -> None:
    """`stich tournament --executor ray --ray-address HEAD` from a fresh process, as on a real
    cluster, with stichkit shipped: same standings as a local run; without the token, a clear
    error, and no hang."""
    options, seats = GAMES["jass"]
    argv = ["tournament", "jass", *options, "--seats", seats, "--deals", "1", "--seed", "7", "--json", "--records",
            "recs", "--executor", "ray", "--ray-address", cluster.address,
            "--ray-runtime-env", json.dumps(SHIP)]  # fmt: skip
    (tmp_path / "ray").mkdir()
    done = _stich(argv, dict(os.environ), tmp_path / "ray")
    assert done.returncode == 0, done.stderr
    assert untimed(done.stdout.encode()) == untimed(tournament("jass", tmp_path / "serial"))
    assert len(json.loads((tmp_path / "ray" / "recs" / "index.json").read_text())["games"]) == 4

    without = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    refused = _stich(argv, {**without, "RAY_NUM_REDIS_GET_RETRIES": "2"}, tmp_path)  # Ray's retries: 20 by default
    message = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and f"cannot connect to the Ray cluster at {cluster.address}" in message
    assert "RAY_AUTH_MODE=token" in message and "RAY_AUTH_TOKEN" in message
