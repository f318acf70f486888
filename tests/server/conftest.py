"""Shared servers: one SQLite server for the whole session (most tests), others where a test
needs its own limits or must kill its server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server tests need the web extra: pip install 'stichkit[web]'")

from .harness import Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `stich serve` on a fresh SQLite file, bots without a pause, two bot workers."""
    d: Path = tmp_path_factory.mktemp("serve")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "2")
    s.start()
    yield s
    s.stop()
