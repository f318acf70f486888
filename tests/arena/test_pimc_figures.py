"""The pimc strength figures of docs/benchmarks.md follow from the records of the games that made them.

These archives hold every game of the published runs:

- bench/results/pimc-2026-11-23.tar.xz: pimc at `time=0.25` against ismcts at the same budget
  and against heuristic (both bots as before the 2026-11 fixes to them);
- bench/results/pimc-1s-2026-11-23.tar.xz: pimc at `time=1.0`, solving from 28 cards left,
  against today's heuristic, without the race to the target (played before `race` existed: as
  `race=off` today) and with it (the default);
- bench/results/pimc-1s-ismcts-2026-11-23.tar.xz: the same pimc against today's ismcts at the
  same budget (`time=1.0`);
- bench/results/pimc-play-2026-11-23.tar.xz: pimc at `time=1.0` with the card inference
  (`infer=play`) against today's heuristic: the goal of 85% met;
- bench/results/pimc-play-ismcts-2026-11-23.tar.xz: that pimc against today's ismcts at the same
  budget: ahead, but with an interval that holds 50%;
- bench/results/pimc-calibrated-2026-11-24.tar.xz: pimc at `time=1.0` with the calibrated card
  inference (`infer=calibrated`) against today's heuristic: the goal of 85% met;
- bench/results/pimc-calibrated-ismcts-2026-11-24.tar.xz: that pimc against today's ismcts at the
  same budget: at 56 deals ahead, but with an interval that holds 50%; the same run continued to
  112 deals (a size fixed before its first game) puts the interval above 50%.

Each record is replayed and checked against the tournament's schedule, exactly as
`stich tournament --resume` reads them, and the summary is recomputed, as
tests/arena/test_published_figures.py does for the ismcts figures; the page's table of each run
must print the recomputed share, its interval and the verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.arena.duplicate import schedule
from stichkit.arena.records import read_finished

from ..published import rows
from .archives import unpack

QUARTER = "pimc:time=0.25"
FULL = "pimc:time=1.0:horizon=28:trump_horizon=24"
PLAY = FULL + ":infer=play"
CALIBRATED = FULL + ":infer=calibrated"
# What each run shows against pimc's two goals: against ismcts a 95% interval above an even
# share ("above 50%") or holding it ("holds 50%"); against heuristic at least 85% of the games won
# ("85% met") or not ("85% not met"). docs/benchmarks.md says which, in each table's last column.
ABOVE, HOLDS, MET, NOT_MET = "above 50%", "holds 50%", "85% met", "85% not met"
# (archive, run directory, deals): (pimc as the records name it, the other bot, pimc's win share
# in %, its 95% half-width in %, pimc's share of the games won outright in %, the verdict), as
# docs/benchmarks.md prints them; a run continued to more deals is read at each size it was published at
PUBLISHED = {
    ("pimc-2026-11-23", "vs-ismcts", 36): (QUARTER, "ismcts:time=0.25", 68.1, 8.2, 68.1, ABOVE),
    ("pimc-2026-11-23", "vs-heuristic", 40): (QUARTER, "heuristic", 76.2, 8.1, 76.2, NOT_MET),
    ("pimc-1s-2026-11-23", "vs-heuristic-race-off", 40): (FULL, "heuristic", 78.8, 8.0, 78.8, NOT_MET),
    ("pimc-1s-2026-11-23", "vs-heuristic", 40): (FULL, "heuristic", 77.5, 8.1, 77.5, NOT_MET),
    ("pimc-1s-ismcts-2026-11-23", "vs-ismcts", 56): (FULL, "ismcts:time=1.0", 65.2, 7.2, 65.2, ABOVE),
    ("pimc-play-2026-11-23", "vs-heuristic", 40): (PLAY, "heuristic", 86.2, 7.2, 86.2, MET),
    ("pimc-play-ismcts-2026-11-23", "vs-ismcts", 56): (PLAY, "ismcts:time=1.0", 55.4, 7.1, 55.4, HOLDS),
    ("pimc-calibrated-2026-11-24", "vs-heuristic", 40): (CALIBRATED, "heuristic", 88.8, 6.8, 88.8, MET),
    ("pimc-calibrated-ismcts-2026-11-24", "vs-ismcts", 56): (CALIBRATED, "ismcts:time=1.0", 55.4, 6.6, 55.4, HOLDS),
    ("pimc-calibrated-ismcts-2026-11-24", "vs-ismcts", 112): (CALIBRATED, "ismcts:time=1.0", 58.0, 4.5, 58.0, ABOVE),
}


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("pimc")
    return {name: unpack(name, where) for name in sorted({name for name, _, _ in PUBLISHED})}


@pytest.mark.parametrize(("archive", "run", "deals"), sorted(PUBLISHED))
def test_the_page_prints_each_runs_figures(archive: str, run: str, deals: int) -> None:
    """The run's table (its header names pimc as the records do) has the run's row: the other
    bot, the deals and games, the share with its interval, and the verdict."""
    pimc, other, share, half, _, verdict = PUBLISHED[archive, run, deals]
    found = rows(f"| `{pimc}` against |", f"| `{other}`", f"| {deals} ({2 * deals}) |", f"{share}% ± {half}%", verdict)
    assert found, f"docs/benchmarks.md: no row of {pimc} against {other}, {deals} deals: {share}% ± {half}%, {verdict}"


@pytest.mark.parametrize(("archive", "run", "deals"), sorted(PUBLISHED))
def test_published_pimc_figures_are_the_records(archives: dict[str, Path], archive: str, run: str, deals: int) -> None:
    pimc, other, share, half, won, verdict = PUBLISHED[archive, run, deals]
    game = stichkit.load_written_game("jass", {})  # as the archived games were played (before ausmachregel)
    specs = [parse_bot(pimc if s % 2 == 0 else other) for s in range(4)]
    finished = read_finished(archives[archive] / run, schedule(game, specs, deals, 2024))
    assert len(finished) == 2 * deals  # every game is there: nothing is played below
    results = run_tournament(game, specs, deals, 2024, finished=finished)
    row = next(r for r in summarize(game, specs, deals, 2024, results)["bots"] if r["bot"] == pimc)
    assert round(100 * row["win_share"], 1) == share
    assert round(100 * row["win_share_ci95"], 1) == half
    assert round(100 * row["win_rate"], 1) == won
    shown = {
        ABOVE: row["win_share"] - row["win_share_ci95"] > 0.5,
        HOLDS: row["win_share"] - row["win_share_ci95"] <= 0.5,
        MET: row["win_rate"] >= 0.85,
        NOT_MET: row["win_rate"] < 0.85,
    }
    assert shown[verdict], f"{archive}/{run} at {deals} deals does not show what docs/benchmarks.md says: {verdict}"
