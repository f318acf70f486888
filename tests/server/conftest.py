"""Shared servers: one SQLite server for the whole session (most tests), others where a test
needs its own limits or must kill its server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server tests need the web extra: pip install 'stichkit[web]'")

from .harness import Server, postgres_database


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `stich serve` on a fresh SQLite file, bots without a pause, two bot workers."""
    d: Path = tmp_path_factory.mktemp("serve")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "2")
    s.start()
    yield s
    s.stop()


# Limits far above what the tests do: many tests register and log in from one address.
OPEN_LIMITS = (
    "--register-limit",
    "10000/hour",
    "--login-address-limit",
    "10000/minute",
    "--login-limit",
    "1000/minute",
)


@pytest.fixture(scope="session")
def players_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A `stich serve` for tests of accounts at play (quick play, ratings, profiles, friends):
    its own SQLite file, bots without a pause, and rate limits the tests never reach."""
    d: Path = tmp_path_factory.mktemp("players")
    s = Server(f"sqlite:///{d / 'server.db'}", d / "server.log", "--bot-delay", "0", "--bot-workers", "1", *OPEN_LIMITS)
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def postgres_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """Two `stich serve` processes on one fresh PostgreSQL database, for tests of players across
    processes (quick play, ratings, friends): started once, their accounts and queues told apart
    by fresh names. Skipped without PostgreSQL, with the reason."""
    d: Path = tmp_path_factory.mktemp("pair")
    flags = ("--bot-delay", "0.02", "--bot-workers", "1", *OPEN_LIMITS)
    with postgres_database() as db:
        a = Server(db, d / "a.log", *flags).start()
        try:
            b = Server(db, d / "b.log", *flags).start()
            try:
                yield a, b
            finally:
                b.stop()
        finally:
            a.stop()
