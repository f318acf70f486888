"""Coiffeur's strength figures in docs/benchmarks.md follow from the records of the games that
made them: bench/results/coiffeur-2026-11-28.tar.xz (and coiffeur-around-2026-11-29.tar.xz, with
Swisslos's push around the table) holds every game of the duels (every deal in both rotations, so
each team holds each hand once). Each record is replayed and checked against
the tournament's schedule, the summary recomputed, and the page's row must print it."""

from __future__ import annotations

from pathlib import Path

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.arena.duplicate import schedule
from stichkit.arena.records import read_finished

from ..published import rows
from .archives import unpack

ISMCTS = "ismcts:iterations=100:rollout=heuristic"
SHORT = {"rows": "S1 C2 obe3 une4"}
# duel: (the team's bot, the other team's, game options, deals, seed, the bot's mean total and
# 95% half-width, its win share in % and 95% half-width), as docs/benchmarks.md prints them
PUBLISHED: dict[str, tuple[str, str, dict[str, str], int, int, float, float, float, float]] = {
    "heuristic-random": ("heuristic", "random", {}, 40, 300, 4847.5, 195.8, 100.0, 0.0),
    "ismcts-heuristic": (ISMCTS, "heuristic", SHORT, 6, 100, 768.6, 100.3, 50.0, 33.2),
    "ismcts-heuristic-2": (ISMCTS, "heuristic", SHORT, 6, 100, 763.8, 115.7, 41.7, 21.4),
    "ismcts-random": (ISMCTS, "random", SHORT, 4, 200, 1194.4, 184.8, 100.0, 0.0),
}


# Swisslos's push around the table (push="around"), in its own archive
AROUND: dict[str, tuple[str, str, dict[str, str], int, int, float, float, float, float]] = {
    "heuristic-random-around": ("heuristic", "random", {"push": "around"}, 20, 300, 4831.8, 282.6, 100.0, 0.0),
}
ARCHIVE = {**dict.fromkeys(PUBLISHED, "coiffeur-2026-11-28"), **dict.fromkeys(AROUND, "coiffeur-around-2026-11-29")}
PUBLISHED = {**PUBLISHED, **AROUND}


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("coiffeur")
    return {name: unpack(name, where) for name in sorted(set(ARCHIVE.values()))}


@pytest.mark.parametrize("duel", sorted(PUBLISHED))
def test_the_page_prints_each_duels_figures(duel: str) -> None:
    _, _, _, deals, _, total, total_half, share, half = PUBLISHED[duel]
    found = rows("sheet total: bot / others", f"| `{duel}` |", f"| {deals} ({2 * deals}) |",
                 f"{total} ± {total_half}", f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Coiffeur row {duel} with these figures"


@pytest.mark.parametrize("duel", sorted(PUBLISHED))
def test_published_coiffeur_figures_are_the_records(archives: dict[str, Path], duel: str) -> None:
    bot, others, options, deals, seed, total, total_half, share, half = PUBLISHED[duel]
    game = stichkit.load_game("coiffeur", **options)
    specs = [parse_bot(bot), parse_bot(others), parse_bot(bot), parse_bot(others)]
    finished = read_finished(archives[ARCHIVE[duel]] / duel, schedule(game, specs, deals, seed))
    assert len(finished) == 2 * deals  # every game is there: nothing is played below
    results = run_tournament(game, specs, deals, seed, finished=finished)
    row = next(r for r in summarize(game, specs, deals, seed, results)["bots"] if r["bot"] == bot)
    assert (round(row["mean_score"], 1), round(row["score_ci95"], 1)) == (total, total_half)
    assert (round(100 * row["win_share"], 1), round(100 * row["win_share_ci95"], 1)) == (share, half)
