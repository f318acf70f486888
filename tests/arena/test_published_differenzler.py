"""Differenzler's strength figures in docs/benchmarks.md follow from the records of the games that
made them: bench/results/differenzler-2026-11-28.tar.xz holds every game of the three duels (one
deal a game, every deal in its four rotations). Each record is replayed and checked against the
tournament's schedule, the summary recomputed, and the page's row must print it."""

from __future__ import annotations

from pathlib import Path

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.arena.duplicate import schedule
from stichkit.arena.records import read_finished

from ..published import rows
from .archives import unpack

ISMCTS = "ismcts:iterations=200:rollout=heuristic"
# duel: (first seat's bot, the other three, deals, seed, its mean penalty a deal and 95% half-width,
# its win share in % and 95% half-width), as docs/benchmarks.md prints them
PUBLISHED: dict[str, tuple[str, str, int, int, float, float, float, float]] = {
    "heuristic-random": ("heuristic", "random", 40, 300, 13.6, 1.8, 58.4, 7.9),
    "ismcts-random": (ISMCTS, "random", 16, 200, 11.2, 3.1, 70.3, 8.7),
    "ismcts-heuristic": (ISMCTS, "heuristic", 24, 100, 4.7, 1.4, 63.5, 8.9),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("differenzler-2026-11-28", tmp_path_factory.mktemp("differenzler"))


@pytest.mark.parametrize("duel", sorted(PUBLISHED))
def test_the_page_prints_each_duels_figures(duel: str) -> None:
    _, _, deals, _, pen, pen_half, share, half = PUBLISHED[duel]
    found = rows("mean penalty a deal", f"| `{duel}` |", f"| {deals} ({4 * deals}) |", f"{pen} ± {pen_half}",
                 f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Differenzler row {duel} with these figures"


@pytest.mark.parametrize("duel", sorted(PUBLISHED))
def test_published_differenzler_figures_are_the_records(runs: Path, duel: str) -> None:
    bot, others, deals, seed, pen, pen_half, share, half = PUBLISHED[duel]
    game = stichkit.load_game("differenzler", deals=1)
    specs = [parse_bot(bot), *(parse_bot(others) for _ in range(3))]
    finished = read_finished(runs / duel, schedule(game, specs, deals, seed))
    assert len(finished) == 4 * deals  # every game is there: nothing is played below
    results = run_tournament(game, specs, deals, seed, finished=finished)
    row = next(r for r in summarize(game, specs, deals, seed, results)["bots"] if r["bot"] == bot)
    assert (round(-row["mean_score"], 1), round(row["score_ci95"], 1)) == (pen, pen_half)
    assert (round(100 * row["win_share"], 1), round(100 * row["win_share_ci95"], 1)) == (share, half)
    others_row = next(r for r in summarize(game, specs, deals, seed, results)["bots"] if r["bot"] != bot)
    assert -row["mean_score"] + row["score_ci95"] < -others_row["mean_score"] - others_row["score_ci95"]
