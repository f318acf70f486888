"""One real Ray per test session, shared by every Ray test: a local Ray with 2 CPUs, started as
`stich --executor ray --workers 2` starts one (`ray.init(address="local", num_cpus=2)`), and, for
the tests that need two nodes, a simulated cluster of two nodes on this machine
(`ray.cluster_utils.Cluster`). Both run with token authentication, with a token of this session
in the environment (so nothing is written to ~/.ray), in a temporary directory of their own, and
are shut down at the end of the session, every Ray process with them."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

TEMP = tempfile.mkdtemp(prefix="stichkit-ray-")  # short: Ray's socket paths must fit in 107 bytes
atexit.register(shutil.rmtree, TEMP, True)
RAY_ENV = {
    "RAY_TMPDIR": TEMP,  # Ray's files, and the address file of `ray.init(address="auto")`, go here
    "RAY_AUTH_MODE": "token",
    "RAY_AUTH_TOKEN": secrets.token_hex(32),
    "RAY_USAGE_STATS_ENABLED": "0",
}
# Ray reads its authentication mode once, when it is first imported: so it is set here, before
# any test imports Ray, and given back at the end of the session.
SAVED = {k: os.environ.get(k) for k in (*RAY_ENV, "RAY_ADDRESS")}
os.environ.update(RAY_ENV)
os.environ.pop("RAY_ADDRESS", None)  # the tests choose their cluster themselves


class RaySession:
    """Connects the test process to a local Ray or to the two-node cluster, starting each when first
    needed (the tests that need the cluster run last, so each starts at most once)."""

    def __init__(self, ray: Any) -> None:
        self.ray = ray
        self.mode: str | None = None
        self.cluster: Any = None
        self.executor: Any = None

    def local(self) -> None:
        if self.mode != "local":
            from stichkit.arena import RayExecutor

            self.stop()
            self.executor = RayExecutor(2, address="local")  # kept open: later executors use its connection
            assert self.executor.owned and self.ray.cluster_resources()["CPU"] == 2
            self.mode = "local"

    def two_nodes(self) -> Any:
        """The cluster (its `address` is the head node's); this process is not connected to it."""
        if self.mode != "cluster":
            from ray.cluster_utils import Cluster

            self.stop()
            node = {"num_cpus": 1, "object_store_memory": 80 * 2**20}
            self.cluster = Cluster(initialize_head=True, head_node_args=node)
            self.cluster.add_node(**node)
            self.cluster.wait_for_nodes()
            self.mode = "cluster"
        return self.cluster

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None
        self.ray.shutdown()
        if self.cluster is not None:
            self.cluster.shutdown()
            self.cluster = None
        self.mode = None


@pytest.fixture(scope="session")
def ray_session() -> Iterator[RaySession]:
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'stichkit[cluster]')")
    session = RaySession(ray)
    try:
        yield session
    finally:
        session.stop()
        shutil.rmtree(TEMP, ignore_errors=True)
        for key, value in SAVED.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def local_ray(ray_session: RaySession) -> RaySession:
    ray_session.local()
    return ray_session
