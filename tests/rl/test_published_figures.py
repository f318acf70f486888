"""docs/rl.md's training results are the ones in examples/results (written by the runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted(p for p in (ROOT / "examples" / "results").iterdir() if p.is_dir())


def share(path: Path) -> str:
    """A policy's win share as docs/rl.md writes it: `61.7% ± 12.7% (60 games)`."""
    data = json.loads(path.read_text())
    bot = next(b for b in data["bots"] if b["bot"].startswith("policy"))
    return f"{100 * bot['win_share']:.1f}% ± {100 * bot['win_share_ci95']:.1f}% ({data['games']} games)"


@pytest.mark.parametrize("run", RUNS, ids=[p.name for p in RUNS])
def test_docs_show_each_runs_steps_and_win_shares(run: Path) -> None:
    docs = (ROOT / "docs" / "rl.md").read_text()
    training = json.loads((run / "training.json").read_text())
    row = next((line for line in docs.splitlines() if line.startswith(f"| `{run.name}`")), None)
    assert row is not None, f"docs/rl.md has no results row for {run.name}"
    assert f"{training['steps']:,}" in row
    assert share(run / "eval-random.json") in row
    assert share(run / "eval-heuristic.json") in row
