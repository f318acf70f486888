"""What the executor tests share: running `stich`, the same tournament on every executor, and
comparing results without the thinking times (the only thing in a record that is measured on a
clock, and so differs from run to run)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
from pathlib import Path
from typing import Any

from rich.console import Console

import stichkit
from stichkit.arena import parse_bot
from stichkit.cli.main import main

# Every game with fast deterministic bots: iteration-bounded ismcts, heuristic and random.
GAMES = {
    "jass": (["target=200"], "ismcts:iterations=5,heuristic,random,random"),
    "stichwahl": (["target=10", "players=3"], "ismcts:iterations=5,heuristic,random"),
    "stichling": (["players=3"], "ismcts:iterations=5,heuristic,random"),
    "stichmeister": (["players=3"], "ismcts:iterations=1,random,random"),  # its heuristic is slower
}
SECONDS = re.compile(rb'"seconds": \[[^\]]*\]')
PER_DECISION = re.compile(rb'"seconds_per_decision": [0-9.e-]+')


def stich(*argv: str) -> tuple[int, str]:
    con = Console(file=io.StringIO(), width=200, color_system=None, force_terminal=False)
    code = main(list(argv), console=con)
    return code, con.file.getvalue()  # type: ignore[attr-defined]


def tournament(game: str, where: Path, *executor: str, deals: int = 1, seed: int = 7) -> bytes:
    """Play GAMES[game] with its records in `where`/recs (written as the relative path `recs`, so
    that runs in different directories print the same), on the executor; the --json output."""
    options, seats = GAMES[game]
    where.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    os.chdir(where)
    try:
        code, out = stich("tournament", game, *options, "--seats", seats, "--deals", str(deals), "--seed",
                          str(seed), "--json", "--records", "recs", *executor)  # fmt: skip
    finally:
        os.chdir(here)
    assert code == 0, out
    return out.encode()


def untimed(data: bytes) -> bytes:
    """The bytes with every thinking time replaced by the same placeholder."""
    return PER_DECISION.sub(b'"seconds_per_decision": null', SECONDS.sub(b'"seconds": null', data))


def files(where: Path) -> dict[str, bytes]:
    """Every file of the records directory of `tournament(..., where)`, untimed."""
    return {p.name: untimed(p.read_bytes()) for p in sorted((where / "recs").iterdir())}


def specs(game: str) -> tuple[stichkit.Game, list[Any]]:
    options, seats = GAMES[game]
    loaded = stichkit.load_game(game, **dict(o.split("=") for o in options))
    return loaded, [parse_bot(b) for b in seats.split(",")]


def kill_one(title: bytes, *, parent: int | None = None, env: bytes | None = None) -> int | None:
    """SIGKILL one process whose command line starts with `title`, whose parent is `parent` and
    whose environment holds `env` (e.g. this session's Ray token: none of another Ray's workers)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = Path(entry.path, "cmdline").read_bytes()
            ppid = int(Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[1])
            environ = Path(entry.path, "environ").read_bytes() if env is not None else b""
        except (OSError, ValueError, IndexError):
            continue
        if cmdline.startswith(title) and parent in (None, ppid) and (env is None or env in environ):
            os.kill(int(entry.name), signal.SIGKILL)
            return int(entry.name)
    return None


def summary(out: bytes) -> dict[str, Any]:
    return json.loads(out)  # type: ignore[no-any-return]
