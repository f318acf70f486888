"""The strength figures of 2026-11-29 in docs/benchmarks.md follow from the records of the games
that made them: pimc against the heuristic in Differenzler and Coiffeur, ismcts against the
heuristic in Coiffeur before and after its reward by the team difference, and the heuristic and
pimc under the Schieber's options (multipliers, announced Weis). Each archive in bench/results/
holds every game; each record is replayed and checked against the tournament's schedule, the
summary recomputed, and the page's row must print it. Coiffeur's gain a deal (the bot's team's
sheet gain minus the other team's on the same deal, both rotations summed) is recomputed from
the replayed games too."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.arena.duplicate import GameResult, schedule
from stichkit.arena.records import read_finished

from ..published import rows
from .archives import unpack

SHORT: dict[str, object] = {"rows": "S1 C2 obe3 une4"}
MULTIPLIERS: dict[str, object] = {"profile": "schieber", "multipliers": "swisslos", "target": 2500}
ANNOUNCE: dict[str, object] = {"profile": "schieber", "weis": "announce"}

# Differenzler: duel -> (first seat's bot, the other three, deals, seed, its mean penalty a deal and
# 95% half-width, the others' and half-width, its win share in % and half-width)
DIFFERENZLER: dict[str, tuple[str, str, int, int, float, float, float, float, float, float]] = {
    "pimc-heuristic": ("pimc:time=0.5", "heuristic", 24, 100, 6.2, 1.4, 13.1, 1.6, 52.6, 8.7),
}
# Coiffeur: duel -> (the team's bot, the other's, deals, seed, its mean sheet total and half-width,
# its win share in % and half-width, its gain a deal and half-width)
COIFFEUR: dict[str, tuple[str, str, int, int, float, float, float, float, float, float]] = {
    "pimc-heuristic": ("pimc:time=0.5", "heuristic", 12, 100, 987.0, 127.4, 75.0, 16.6, 23.0, 26.4),
    "ismcts-default-heuristic": ("ismcts", "heuristic", 6, 100, 795.2, 175.9, 41.7, 21.4, -14.3, 24.4),
    "ismcts-team-reward-heuristic": ("ismcts", "heuristic", 12, 100, 983.2, 168.9, 70.8, 16.4, 26.1, 18.2),
    "ismcts-solve-heuristic": ("ismcts", "heuristic", 12, 100, 907.5, 102.7, 58.3, 18.3, 4.0, 27.9),
}
# The Schieber's options: duel -> (the team's bot, the other's, options, deals, seed, its mean game
# score and half-width, its win share in % and half-width)
SCHIEBER: dict[str, tuple[str, str, dict[str, object], int, int, float, float, float, float]] = {
    "heuristic-random-multipliers": ("heuristic", "random", MULTIPLIERS, 40, 500, 2534.5, 11.2, 100.0, 0.0),
    "heuristic-random-announce": ("heuristic", "random", ANNOUNCE, 40, 600, 2517.2, 5.9, 100.0, 0.0),
    "pimc-heuristic-multipliers": ("pimc:time=0.25", "heuristic", MULTIPLIERS, 24, 700, 2320.6, 89.0, 64.6, 14.6),
    "pimc-heuristic-announce": ("pimc:time=0.25", "heuristic", ANNOUNCE, 12, 800, 2414.6, 77.9, 70.8, 16.4),
}


@pytest.fixture(scope="module")
def differenzler_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("differenzler-pimc-2026-11-29", tmp_path_factory.mktemp("differenzler"))


@pytest.fixture(scope="module")
def coiffeur_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("coiffeur-bots-2026-11-29", tmp_path_factory.mktemp("coiffeur"))


@pytest.fixture(scope="module")
def schieber_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("schieber-options-2026-11-29", tmp_path_factory.mktemp("schieber"))


def replayed(runs: Path, name: str, options: dict[str, object], specs: list[str], deals: int,
             seed: int) -> tuple[list[GameResult], dict[str, dict[str, float]]]:  # fmt: skip
    """Every game of a duel read back from its records (nothing is played), and each bot's row."""
    game = stichkit.load_game(name, **options)
    bots = [parse_bot(s) for s in specs]
    finished = read_finished(runs, schedule(game, bots, deals, seed))
    assert len(finished) == deals * (4 if name == "differenzler" else 2)  # every game is there
    results = run_tournament(game, bots, deals, seed, finished=finished)
    return results, {r["bot"]: r for r in summarize(game, bots, deals, seed, results)["bots"]}


def gain_a_deal(results: list[GameResult], bot: str) -> tuple[float, float]:
    """The bot's team's sheet gain minus the other team's, per deal of the game, both rotations of
    a deal summed (the same hands, and the same announcements: both bots announce by the heuristic),
    with its 95% half-width over those deals."""
    by_deal: dict[int, list[list[int]]] = {}
    for res in results:
        assert res.record is not None
        team = res.players.index(bot) % 2
        summaries = stichkit.replay(res.record).view(None)["previous_deals"]
        by_deal.setdefault(res.deal, []).append([s["score"] if s["team"] == team else -s["score"] for s in summaries])
    gains = [a + b for pair in by_deal.values() for a, b in zip(*pair, strict=True)]
    return statistics.mean(gains), 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))


@pytest.mark.parametrize("duel", sorted(DIFFERENZLER))
def test_differenzler_figures_are_the_records(differenzler_runs: Path, duel: str) -> None:
    bot, others, deals, seed, pen, pen_half, other_pen, other_half, share, half = DIFFERENZLER[duel]
    _, row = replayed(differenzler_runs / duel, "differenzler", {"deals": "1"}, [bot, others, others, others], deals,
                      seed)  # fmt: skip
    assert (round(-row[bot]["mean_score"], 1), round(row[bot]["score_ci95"], 1)) == (pen, pen_half)
    assert (round(-row[others]["mean_score"], 1), round(row[others]["score_ci95"], 1)) == (other_pen, other_half)
    assert (round(100 * row[bot]["win_share"], 1), round(100 * row[bot]["win_share_ci95"], 1)) == (share, half)
    found = rows("mean penalty a deal: pimc / heuristic", f"| `{duel}` |", f"| {deals} ({4 * deals}) |",
                 f"{pen} ± {pen_half} / {other_pen} ± {other_half}", f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Differenzler row {duel} with these figures"


@pytest.mark.parametrize("duel", sorted(COIFFEUR))
def test_coiffeur_figures_are_the_records(coiffeur_runs: Path, duel: str) -> None:
    bot, others, deals, seed, total, total_half, share, half, gain, gain_half = COIFFEUR[duel]
    results, row = replayed(coiffeur_runs / duel, "coiffeur", SHORT, [bot, others, bot, others], deals, seed)
    assert (round(row[bot]["mean_score"], 1), round(row[bot]["score_ci95"], 1)) == (total, total_half)
    assert (round(100 * row[bot]["win_share"], 1), round(100 * row[bot]["win_share_ci95"], 1)) == (share, half)
    mean, width = gain_a_deal(results, bot)
    assert (round(mean, 1), round(width, 1)) == (gain, gain_half)
    found = rows("sheet total: bot / heuristic", f"| `{duel}` |", f"| {deals} ({2 * deals}) |",
                 f"{total} ± {total_half}", f"{share}% ± {half}%", f"{gain} ± {gain_half}")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Coiffeur row {duel} with these figures"


@pytest.mark.parametrize("duel", sorted(SCHIEBER))
def test_schieber_option_figures_are_the_records(schieber_runs: Path, duel: str) -> None:
    bot, others, options, deals, seed, score, score_half, share, half = SCHIEBER[duel]
    _, row = replayed(schieber_runs / duel, "jass", options, [bot, others, bot, others], deals, seed)
    assert (round(row[bot]["mean_score"], 1), round(row[bot]["score_ci95"], 1)) == (score, score_half)
    assert (round(100 * row[bot]["win_share"], 1), round(100 * row[bot]["win_share_ci95"], 1)) == (share, half)
    found = rows("game score: bot / other", f"| `{duel}` |", f"| {deals} ({2 * deals}) |",
                 f"{score} ± {score_half}", f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Schieber row {duel} with these figures"
