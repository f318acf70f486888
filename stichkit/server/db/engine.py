"""Database URLs and engines: SQLite (one process, a file) or PostgreSQL through psycopg 3."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

URL_HELP = "a database URL such as sqlite:////absolute/path/server.db or postgresql://user@host:5432/dbname"


class DatabaseError(ValueError):
    """A database URL or database that the server cannot use; the message says what to do."""


def parse_db_url(text: str) -> URL:
    """The SQLAlchemy URL to use: `postgresql://` means psycopg 3; only SQLite and PostgreSQL."""
    try:
        url = make_url(text)
    except ArgumentError:
        raise DatabaseError(f"{text!r} is not a database URL; give {URL_HELP}") from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if url.drivername != "sqlite":
            raise DatabaseError(f"use plain sqlite:/// URLs, not {url.drivername}")
        if not url.database or url.database == ":memory:":
            raise DatabaseError(f"an in-memory SQLite database would lose every game; give {URL_HELP}")
        return url
    raise DatabaseError(f"stich serve keeps its tables in SQLite or PostgreSQL, not {backend}; give {URL_HELP}")


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def safe_url(url: URL) -> str:
    """The URL without its password, for logs."""
    return url.render_as_string(hide_password=True)


def make_engine(url: URL) -> Engine:
    if is_sqlite(url):
        assert url.database is not None
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers never wait for the writer. synchronous=NORMAL keeps every commit through a
    killed process (only a power cut may lose the last ones)."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class SqliteLock:
    """SQLite serves one server process: a second `stich serve` on the same file is refused, with
    the advice to use PostgreSQL. The lock goes with the process, however it ends."""

    def __init__(self, url: URL) -> None:
        assert url.database is not None
        self.path = Path(url.database).expanduser().with_name(Path(url.database).name + ".lock")
        self._file: TextIO | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # not on POSIX: no lock, as before
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        f = open(self.path, "a+")  # noqa: SIM115 (held open for the process's life)
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise DatabaseError(
                f"the SQLite database is in use by {holder}; SQLite serves one process. "
                "Run several server processes on PostgreSQL (--db postgresql://...)"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(f"stich serve (pid {os.getpid()})")
        f.flush()
        self._file = f

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
