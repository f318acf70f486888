"""The strength figures of 2026-11-29 in docs/benchmarks.md follow from the records of the games
that made them: pimc against the heuristic in Differenzler and Coiffeur, ismcts against the
heuristic in Coiffeur before and after its reward by the team difference, and the heuristic and
pimc under the Schieber's options (multipliers, announced Weis; with multipliers again once the C
core played them, measured by games and by deals), and pimc against ismcts head to head in
Differenzler. Each archive in bench/results/
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
from stichkit.arena.stats import mean_ci

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


# The Schieber with multipliers once the C core played them (pimc's searches before its horizon
# the C ismcts): duel -> (the team's bot, the other's, deals, seed, its mean game score and
# half-width, its win share in % and half-width; deals played out in both games of a pair, the
# points a deal of the bot's team minus the other's and half-width, the share of those deals the
# bot's team won on points in % and half-width)
PIMC_HALF = "pimc:time=0.5"  # half its default budget
MULTIPLIERS_C = "pimc-heuristic-multipliers-c"
SCHIEBER_C: dict[str, tuple[str, str, int, int, float, float, float, float, int, float, float, float, float]] = {
    MULTIPLIERS_C: (PIMC_HALF, "heuristic", 24, 700, 2430.0, 71.6, 75.0, 10.8, 225, 43.3, 13.2, 65.3, 6.2),
}
# Differenzler head to head, seats B,O,B,O (every deal in both rotations, so each hand is played
# once by each bot): duel -> (bot, other, deals, seed, the bot's mean penalty a deal and
# half-width, the other's and half-width, the bot's minus the other's on the same hands and
# half-width, the bot's win share in % and half-width)
ISMCTS_HALF = "ismcts:time=0.5:rollout=heuristic"  # pimc's own search before its horizon, at its clock
HEAD_TO_HEAD: dict[str, tuple[str, str, int, int, float, float, float, float, float, float, float, float]] = {
    "pimc-ismcts": (PIMC_HALF, ISMCTS_HALF, 60, 100, 11.5, 1.6, 11.3, 1.5, 0.2, 1.9, 46.7, 6.9),
    "pimc16-ismcts": ("pimc:time=0.5:horizon=16", ISMCTS_HALF, 60, 100, 10.6, 1.4, 11.0, 1.4, -0.4, 2.1, 50.0, 8.9),
}


@pytest.fixture(scope="module")
def multipliers_c_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("schieber-multipliers-c-2026-11-29", tmp_path_factory.mktemp("multipliers"))


@pytest.fixture(scope="module")
def head_to_head_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return unpack("differenzler-pimc-ismcts-2026-11-29", tmp_path_factory.mktemp("head-to-head"))


def deal_margins(results: list[GameResult], bot: str) -> list[float]:
    """The bot's team's points minus the other team's, for each deal played out in both games of a
    duplicate pair (deal k of a game has the same hands in both: the seed deals it, whatever was
    played before), the two games' margins averaged. A deal the target cut short is left out."""
    by_pair: dict[int, list[dict[int, int]]] = {}
    for res in results:
        assert res.record is not None
        team = res.players.index(bot) % 2
        summaries = stichkit.replay(res.record).view(None)["previous_deals"]
        margins = {s["deal"]: s["total"][team] - s["total"][1 - team] for s in summaries if s["complete"]}
        by_pair.setdefault(res.deal, []).append(margins)
    return [(a[k] + b[k]) / 2 for a, b in by_pair.values() for k in sorted(a.keys() & b.keys())]


def penalty_gaps(results: list[GameResult], bot: str, other: str) -> list[float]:
    """Per deal: the bot's mean penalty minus the other's, over the hands each played (the same
    hands: both rotations of the deal)."""
    by_deal: dict[int, dict[str, list[int]]] = {}
    for res in results:
        for seat, label in enumerate(res.players):
            by_deal.setdefault(res.deal, {}).setdefault(label, []).append(-res.scores[seat])
    return [statistics.mean(d[bot]) - statistics.mean(d[other]) for d in by_deal.values()]


@pytest.mark.parametrize("duel", sorted(SCHIEBER_C))
def test_schieber_multipliers_in_c_figures_are_the_records(multipliers_c_runs: Path, duel: str) -> None:
    bot, other, deals, seed, score, score_half, share, half, played, margin, margin_half, won, won_half = \
        SCHIEBER_C[duel]  # fmt: skip
    results, row = replayed(multipliers_c_runs / duel, "jass", MULTIPLIERS, [bot, other, bot, other], deals, seed)
    assert (round(row[bot]["mean_score"], 1), round(row[bot]["score_ci95"], 1)) == (score, score_half)
    assert (round(100 * row[bot]["win_share"], 1), round(100 * row[bot]["win_share_ci95"], 1)) == (share, half)
    margins = deal_margins(results, bot)
    mean, width = mean_ci(margins)
    assert (len(margins), round(mean, 1), round(width or 0, 1)) == (played, margin, margin_half)
    share_won, won_width = mean_ci([1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins])
    assert (round(100 * share_won, 1), round(100 * (won_width or 0), 1)) == (won, won_half)
    found = rows("game score: bot / other", f"| `{duel}` |", f"| {deals} ({2 * deals}) |",
                 f"{score} ± {score_half}", f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Schieber row {duel} with these figures"
    found = rows("points a deal: pimc's team", f"| `{duel}` |", f"| {played} |", f"{margin} ± {margin_half}",
                 f"{won}% ± {won_half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single row of {duel}'s deals with these figures"


@pytest.mark.parametrize("duel", sorted(HEAD_TO_HEAD))
def test_differenzler_head_to_head_figures_are_the_records(head_to_head_runs: Path, duel: str) -> None:
    bot, other, deals, seed, pen, pen_half, other_pen, other_half, gap, gap_half, share, half = HEAD_TO_HEAD[duel]
    game = stichkit.load_game("differenzler", deals="1")
    specs = [parse_bot(s) for s in (bot, other, bot, other)]
    finished = read_finished(head_to_head_runs / duel, schedule(game, specs, deals, seed))
    assert len(finished) == 2 * deals  # both rotations of every deal
    results = run_tournament(game, specs, deals, seed, finished=finished)
    row = {r["bot"]: r for r in summarize(game, specs, deals, seed, results)["bots"]}
    assert (round(-row[bot]["mean_score"], 1), round(row[bot]["score_ci95"], 1)) == (pen, pen_half)
    assert (round(-row[other]["mean_score"], 1), round(row[other]["score_ci95"], 1)) == (other_pen, other_half)
    assert (round(100 * row[bot]["win_share"], 1), round(100 * row[bot]["win_share_ci95"], 1)) == (share, half)
    mean, width = mean_ci(penalty_gaps(results, bot, other))
    assert (round(mean, 1), round(width or 0, 1)) == (gap, gap_half)
    found = rows("mean penalty a deal: pimc / ismcts", f"| `{duel}` |", f"| {deals} ({2 * deals}) |",
                 f"{pen} ± {pen_half} / {other_pen} ± {other_half}", f"{gap:+.1f} ± {gap_half}",
                 f"{share}% ± {half}%")  # fmt: skip
    assert len(found) == 1, f"docs/benchmarks.md has no single Differenzler head-to-head row {duel} with these figures"
