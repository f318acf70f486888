"""docs/interop.md's examples work: its `>>>` examples run as doctests (pytest's doctest-glob);
here its shell commands run in order in a scratch directory, and its Python programs run too.
Servers take free ports: the page's 127.0.0.1:5000 (`stich serve-bot`) and 127.0.0.1:5001
(jass-kit's player service) are replaced by the ports the test's servers got."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from stichkit.cli.main import main

from .conftest import ServeBot, ThreadServer

PAGE = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
BLOCK = re.compile(r"```(sh|python)\n(.*?)```", re.S)


def blocks(kind: str) -> list[str]:
    return [body for k, body in BLOCK.findall(PAGE.read_text(encoding="utf-8")) if k == kind]


def test_the_page_has_its_examples() -> None:
    commands = [line for b in blocks("sh") for line in b.splitlines() if line.startswith("stich ")]
    for word in ("stich export jasskit", "stich import jasskit", "stich serve-bot", "stich tournament", "remote:"):
        assert any(word in c for c in commands), word
    assert len([b for b in blocks("python") if ">>>" not in b]) == 2


def test_the_shell_examples_and_programs_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    programs = [b for b in blocks("python") if ">>>" not in b]
    served: list[ThreadServer] = []

    def run_in_thread(app: Any, host: str = "", port: int = 0, **_: Any) -> None:
        served.append(ThreadServer(app))  # the page's app.run(...), on a free port, not blocking

    from jass.service.player_service_app import PlayerServiceApp

    monkeypatch.setattr(PlayerServiceApp, "run", run_in_thread)
    exec(compile(next(p for p in programs if "PlayerServiceApp" in p), "docs/interop.md", "exec"), {})
    assert len(served) == 1
    bot_server: ServeBot | None = None
    try:
        for block in blocks("sh"):
            for line in block.splitlines():
                if not line.startswith("stich "):
                    continue
                line = line.replace("http://127.0.0.1:5001", served[0].base)
                if bot_server is not None:
                    line = line.replace("http://127.0.0.1:5000", bot_server.base)
                argv = shlex.split(line)[1:]
                if argv[0] == "serve-bot":
                    bot_server = ServeBot(*argv[1:])
                    continue
                con = Console(file=io.StringIO(), width=200, color_system=None, force_terminal=False)
                with contextlib.redirect_stdout(io.StringIO()):
                    code = main(argv, console=con)
                assert code == 0, (line, con.file.getvalue())  # type: ignore[attr-defined]
        assert bot_server is not None
        assert (tmp_path / "games.txt").exists() and list((tmp_path / "imported").glob("games-*.json"))
        arena = next(p for p in programs if "Arena" in p).replace("http://127.0.0.1:5000", bot_server.base)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(arena, "docs/interop.md", "exec"), {})
        team0, team1 = map(float, printed.getvalue().split()[-2:])
        assert team0 + team1 == 157 and team0 > team1
    finally:
        if bot_server is not None:
            bot_server.stop()
        for s in served:
            s.stop()
