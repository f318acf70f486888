"""The real peer: jass-kit 2.0.5 from PyPI (a test-only dependency, in the `dev` extra), and the
servers the tests talk to over loopback HTTP: `stich serve-bot` in a subprocess, and jass-kit's
own player service (Flask) in a thread.

Everything random is seeded, so a failure repeats. jass-kit deals with numpy's global generator
and its random agent keeps its own; both are seeded here.
"""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

jass = pytest.importorskip("jass", reason="jass-kit (the real peer) is not installed: pip install -e '.[dev]'")
np = pytest.importorskip("numpy")

from jass.agents.agent_random_schieber import AgentRandomSchieber  # noqa: E402
from rich.console import Console  # noqa: E402

from stichkit.cli.main import main  # noqa: E402


def run_cli(*argv: str) -> tuple[int, str]:
    """`stich ARGV` in process: exit code and what it printed to its console."""
    con = Console(file=io.StringIO(), width=200, color_system=None, force_terminal=False)
    code = main(list(argv), console=con)
    out = con.file
    assert isinstance(out, io.StringIO)
    return code, out.getvalue()


def seeded_random_agent(seed: int) -> Any:
    """jass-kit's random player, with its generator seeded (it seeds itself from the OS otherwise)."""
    agent = AgentRandomSchieber()
    agent._rng = np.random.default_rng(seed)
    return agent


def stich_command() -> list[str]:
    exe = Path(sys.executable).with_name("stich")
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-c", "import sys; from stichkit.cli.main import main; sys.exit(main())"]


class ServeBot:
    """`stich serve-bot ...` running in a subprocess; `url(name)` is a served player's address."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="200")
        self.proc = subprocess.Popen([*stich_command(), "serve-bot", *args, "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)  # fmt: skip
        self.base = ""
        lines = []
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"at (http://[\d.]+:\d+)/", line)
            if m:
                self.base = m.group(1)
            if line.startswith("answers within"):
                break
        if not self.base:
            self.stop()
            raise RuntimeError("stich serve-bot did not start:\n" + "".join(lines))
        self.output = lines
        # keep reading, so that the server never blocks on a full pipe
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="session")
def serve_bot() -> Iterator[ServeBot]:
    """One serve-bot for the session: heuristic, and ismcts at a small budget."""
    server = ServeBot("heuristic", "ismcts:iterations=20", "--seed", "7", "--timeout", "10")
    try:
        yield server
    finally:
        server.stop()


class ThreadServer:
    """A WSGI app (jass-kit's Flask player service, or a test double) on a loopback port."""

    def __init__(self, app: Any) -> None:
        from werkzeug.serving import make_server

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        return f"{self.base}/{name}"

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def jasskit_player() -> Iterator[ThreadServer]:
    """jass-kit's own player service (Flask) with its random agent as player `random`."""
    from jass.service.player_service_app import PlayerServiceApp

    app = PlayerServiceApp("jasskit_test_player")
    app.add_player("random", seeded_random_agent(11))
    server = ThreadServer(app)
    try:
        yield server
    finally:
        server.stop()
