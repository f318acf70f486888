"""Real servers for the tests: `stich serve` subprocesses on SQLite files or fresh PostgreSQL
databases, and a small WebSocket client that keeps every message it gets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

POSTGRES_ENV = "STICHKIT_TEST_POSTGRES"
REDIS_ENV = "STICHKIT_TEST_REDIS"
SERVE = "import sys; from stichkit.cli.main import main; sys.exit(main(sys.argv[1:]))"
# The tests play from one address, many tables at once: the limits on what one client may claim
# are off unless a test sets them (its flags come after these, and win).
NO_CLIENT_LIMITS = ("--client-tables", "0", "--client-bot-seats", "0", "--client-hints", "0", "--client-analyses", "0",
                    "--client-workers", "0", "--table-bot-time", "0")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `stich serve` process. `start()` waits until it answers; `kill()` is SIGKILL."""

    def __init__(self, db: str, log: Path, *flags: str, redis: str | None = None, port: int | None = None,
                 log_level: str = "warning") -> None:  # fmt: skip
        self.db = db
        self.log_level = log_level
        self.flags = list(flags)
        self.log = log
        self.redis = redis
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> Server:
        cmd = [sys.executable, "-c", SERVE, "serve", "--port", str(self.port), "--db", self.db, "--log-level",
               self.log_level, *NO_CLIENT_LIMITS, *self.flags]  # fmt: skip
        if self.redis:
            cmd += ["--redis", self.redis]
        env = {k: v for k, v in os.environ.items() if k not in ("STICHKIT_DB", "STICHKIT_REDIS")}
        out = open(self.log, "ab")  # noqa: SIM115 (the child writes to it)
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"stich serve ended with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.http + "/api/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"stich serve did not answer in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the server and its bot workers
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return httpx.get(self.http + path, timeout=30, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return httpx.post(self.http + path, json=body, timeout=30, **kw)

    def open_table(self, game: str, seats: list[str], **fields: Any) -> dict[str, Any]:
        r = self.post("/api/tables", {"game": game, "seats": seats, **fields})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.post(f"/api/tables/{table}/join", body)
        assert r.status_code == 200, r.text
        return dict(r.json())


@contextlib.contextmanager
def running(server: Server) -> Iterator[Server]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


# -- PostgreSQL and Redis from the environment -------------------------------------------------


def postgres_admin() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"no PostgreSQL: set {POSTGRES_ENV}=postgresql://user@host:5432/db (make test does)")
    return url


def redis_url() -> str:
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"no Redis: set {REDIS_ENV}=redis://127.0.0.1:6379/0 (make test does)")
    return url


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A database of its own for one test run (the `test` database is shared), dropped after."""
    import psycopg

    admin = postgres_admin()
    name = "stichkit_t_" + secrets.token_hex(5)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- a WebSocket client ------------------------------------------------------------------------


class Client:
    """A table connection that keeps every message it got, in order."""

    def __init__(self, ws: Any, label: str) -> None:
        self.ws = ws
        self.label = label
        self.msgs: list[dict[str, Any]] = []
        self.closed: tuple[int | None, str] | None = None

    @classmethod
    async def open(cls, server: Server, table: str, token: str | None = None, label: str = "", *,
                   via: str = "protocol", headers: dict[str, str] | None = None, **connect: Any) -> Client:  # fmt: skip
        """A connection to the table, as the token's seat (sent `via` the subprotocol, as the page
        does, or the `query` string, the older form) or as a spectator; `headers` are sent with
        the handshake (a session cookie, say)."""
        url = f"{server.ws}/ws/tables/{table}"
        connect["additional_headers"] = headers
        if token is not None and via == "query":
            url += f"?token={token}"
        elif token is not None:
            connect["subprotocols"] = ["stichkit", f"stichkit.token.{token}"]
        ws = await websockets.connect(url, max_size=None, max_queue=None, open_timeout=30, **connect)
        return cls(ws, label or ("spectator" if token is None else "player"))

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        try:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        except websockets.ConnectionClosed as e:
            self.closed = (e.rcvd.code if e.rcvd else None, e.rcvd.reason if e.rcvd else "")
            raise
        msg: dict[str, Any] = json.loads(text)
        self.msgs.append(msg)
        return msg

    async def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.label}: no such message in {timeout} s; last: {self.msgs[-3:]}")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    async def state(self, timeout: float = 20, **match: Any) -> dict[str, Any]:
        """The next `state` message whose fields (or table fields) match."""

        def ok(m: dict[str, Any]) -> bool:
            return m["type"] == "state" and all(m.get(k, m["table"].get(k)) == v for k, v in match.items())

        return await self.until(ok, timeout)

    async def drain(self, quiet: float = 0.3) -> None:
        """Read what has arrived, until nothing comes for `quiet` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.recv(quiet)

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def close(self) -> None:
        await self.ws.close()

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.msgs if m["type"] == "state"]

    def last_state(self) -> dict[str, Any]:
        return self.states()[-1]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def wait_until(done: Callable[[], bool], timeout: float, every: float = 0.2) -> bool:
    """Poll `done` until it holds or `timeout` seconds have passed; whether it holds at the end.
    For what the server does in its own time (sweeps, bots): a loaded machine is slower."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        time.sleep(every)
    return done()
