"""The strength figures of docs/benchmarks.md follow from the records of the games that made them.

bench/results/strength-2026-11-22.tar.xz holds every game of the full-budget run (ismcts at 1 s
per decision against heuristic). Each record is replayed and checked against the tournament's
schedule, exactly as `stich tournament --resume` reads them, the summary is recomputed, and the
page's row for the game must print the recomputed figures."""

from __future__ import annotations

from pathlib import Path

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.arena.duplicate import schedule
from stichkit.arena.records import read_finished

from ..published import rows
from .archives import unpack

ISMCTS = "ismcts:time=1.0"
# game: (deals, ismcts win share in %, its 95% half-width in %), as docs/benchmarks.md prints them
PUBLISHED = {"jass": (28, 76.8, 11.2), "stichwahl": (16, 93.8, 9.1), "stichling": (16, 95.8, 4.9),
             "stichmeister": (24, 75.0, 10.8)}  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("strength-2026-11-22", tmp_path_factory.mktemp("strength"))


# the game as the page's strength table names it
TITLE = {"jass": "Jass", "stichwahl": "Stichwahl", "stichling": "Stichling", "stichmeister": "Stich-Meister"}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_page_prints_each_games_figures(name: str) -> None:
    deals, share, half = PUBLISHED[name]
    found = rows("ismcts win share", f"| {TITLE[name]} |", f"| {deals} ({2 * deals}) |", f"{share}% ± {half}%")
    assert len(found) == 1, f"docs/benchmarks.md has no single strength row of {TITLE[name]} with {share}% ± {half}%"


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_strength_figures_are_the_records(runs: Path, name: str) -> None:
    deals, share, half = PUBLISHED[name]
    game = stichkit.load_written_game(name, {})  # as the archived games were played, options added since too
    specs = [parse_bot(ISMCTS if s % 2 == 0 else "heuristic") for s in range(4)]
    finished = read_finished(runs / name, schedule(game, specs, deals, 2024))
    assert len(finished) == 2 * deals  # every game is there: nothing is played below
    results = run_tournament(game, specs, deals, 2024, finished=finished)
    row = next(r for r in summarize(game, specs, deals, 2024, results)["bots"] if r["bot"] == ISMCTS)
    assert round(100 * row["win_share"], 1) == share
    assert round(100 * row["win_share_ci95"], 1) == half
    assert row["win_share"] - row["win_share_ci95"] > 0.5  # the goal: an interval above an even share
