"""The training results in docs/benchmarks.md are the ones in examples/results (written by the runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted(p for p in (ROOT / "examples" / "results").iterdir() if p.is_dir())


def share(path: Path) -> str:
    """A policy's win share as docs/benchmarks.md writes it: `61.7% ± 12.7% (60 games)`."""
    data = json.loads(path.read_text())
    bot = next(b for b in data["bots"] if b["bot"].startswith("policy"))
    return f"{100 * bot['win_share']:.1f}% ± {100 * bot['win_share_ci95']:.1f}% ({data['games']} games)"


def margin(path: Path) -> str:
    """A policy team's points per deal as docs/benchmarks.md writes it: `109.3 : 86.7 (+22.6 ± 13.7)`."""
    data = json.loads(path.read_text())
    bot = next(v for k, v in data.items() if k.startswith("policy"))
    return (
        f"{bot['points_per_deal']:.1f} : {bot['other_points_per_deal']:.1f} "
        f"({bot['margin_per_deal']:+.1f} ± {bot['margin_ci95']:.1f})"
    )


@pytest.mark.parametrize("run", RUNS, ids=[p.name for p in RUNS])
def test_docs_show_each_runs_steps_and_win_shares(run: Path) -> None:
    docs = (ROOT / "docs" / "benchmarks.md").read_text()
    training = json.loads((run / "training.json").read_text())
    row = next((line for line in docs.splitlines() if line.startswith(f"| `{run.name}`")), None)
    assert row is not None, f"docs/benchmarks.md has no results row for {run.name}"
    assert f"{training['steps']:,}" in row
    assert share(run / "eval-random.json") in row
    assert share(run / "eval-heuristic.json") in row
    for against in ("random", "heuristic"):
        points = run / f"points-{against}.json"
        assert not points.exists() or margin(points) in row, f"{points.name} is not in the row of {run.name}"


def test_the_curves_in_the_docs_are_the_runs_curves() -> None:
    docs = (ROOT / "docs" / "benchmarks.md").read_text()
    for run in RUNS:
        assert f"img/rl-{run.name}-curve.png" in docs
        assert (ROOT / "docs" / "img" / f"rl-{run.name}-curve.png").is_file()
