"""From the games of a tournament to the table: scores with 95% intervals, win shares, ratings.

Per bot (by label; a bot on two seats counts once per game, with the mean of its seats):
- `mean_score`: its final game score, averaged first over the rotations of each deal (duplicate:
  the luck of the cards cancels out), then over deals; `score_ci95` is the half-width of the 95%
  interval of that mean (Student's t over deals).
- `win_share`: the share of each game's win it takes (a game with two winners gives each half;
  Jass partners share their team's win), with its 95% interval; `even_share` is its seats / n, what
  an equally strong bot would get. `win_rate`: games in which it is among the winners.
- `fallbacks`: moves played for it by a fallback because it failed to answer (remote players:
  a timeout, an error or an illegal answer); 0 for bots that always answer.
- `rating`: an openskill Plackett-Luce rating (mu, sigma and the conservative mu - 3 sigma),
  updated game by game in schedule order, the bots of a game ranked by win, then by score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stichkit.core import Game

from .duplicate import BotSpec, GameResult, deal_means, rotations, seat_means
from .stats import mean_ci

NEED_ARENA = "ratings need openskill: install the arena extra  (pip install 'stichkit[arena]')"


def _per_game(res: GameResult) -> dict[str, tuple[float, float, bool]]:
    """label -> (mean score of its seats, its share of the win, whether it won)."""
    out: dict[str, tuple[float, float, bool]] = {}
    won = set(res.winners)
    for label, score in seat_means(res.players, res.scores).items():
        seats = [s for s, p in enumerate(res.players) if p == label]
        share = sum(1 for s in seats if s in won) / len(res.winners) if res.winners else 0.0
        out[label] = (score, share, any(s in won for s in seats))
    return out


def ratings(results: Sequence[GameResult], labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """openskill Plackett-Luce ratings of the labels over the games, in order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ImportError(NEED_ARENA) from None
    model = PlackettLuce()
    rating = {label: model.rating(name=label) for label in labels}
    for res in results:
        per = _per_game(res)
        names = list(per)
        if len(names) < 2:
            continue
        teams = [[rating[x]] for x in names]
        keys = [per[x][1] * 1e9 + per[x][0] for x in names]  # the win first, then points
        new = model.rate(teams, scores=keys)
        for x, team in zip(names, new, strict=True):
            rating[x] = team[0]
    return {x: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for x, r in rating.items()}


def summarize(
    game: Game,
    specs: Sequence[BotSpec],
    deals: int,
    seed: int,
    results: Sequence[GameResult],
    *,
    with_ratings: bool = True,
) -> dict[str, Any]:
    """The tournament's results as a JSON-serialisable dict (see docs/arena.md)."""
    n = game.num_players
    labels = list(dict.fromkeys(s.label for s in specs))
    cheats = {s.label for s in specs if s.cheats}
    by_deal: dict[int, list[dict[str, tuple[float, float, bool]]]] = {}
    games_by_deal: dict[int, list[GameResult]] = {}
    for res in results:
        by_deal.setdefault(res.deal, []).append(_per_game(res))
        games_by_deal.setdefault(res.deal, []).append(res)
    # the duplicate score of each deal: one function with the tournaments' (deal_means)
    deal_score = {d: deal_means((r.players, r.scores) for r in games) for d, games in games_by_deal.items()}
    rated = ratings(results, labels) if with_ratings else {}
    rows: list[dict[str, Any]] = []
    for label in labels:
        scores, shares = [], []
        wins = games = 0
        decisions = timed = fallbacks = 0  # timed: decisions of games whose thinking time is known
        seconds = 0.0
        for deal in sorted(by_deal):
            games_of_deal = [g[label] for g in by_deal[deal] if label in g]
            if not games_of_deal:
                continue
            scores.append(deal_score[deal][label])
            shares.append(sum(g[1] for g in games_of_deal) / len(games_of_deal))
            wins += sum(1 for g in games_of_deal if g[2])
            games += len(games_of_deal)
        for res in results:
            for s, p in enumerate(res.players):
                if p == label:
                    decisions += res.decisions[s]
                    fallbacks += res.fallbacks[s] if res.fallbacks else 0
                    if res.seconds is not None:
                        timed += res.decisions[s]
                        seconds += res.seconds[s]
        mean, half = mean_ci(scores)
        share, share_half = mean_ci(shares)
        seats = sum(1 for s in specs if s.label == label)
        row: dict[str, Any] = {
            "bot": label,
            "cheats": label in cheats,
            "seats": seats,
            "games": games,
            "mean_score": mean,
            "score_ci95": half,
            "score_interval": None if half is None else [mean - half, mean + half],
            "win_share": share,
            "win_share_ci95": share_half,
            "even_share": seats / n,
            "win_rate": wins / games if games else 0.0,
            "decisions": decisions,
            "seconds_per_decision": seconds / timed if timed else None,
            "fallbacks": fallbacks,
        }
        if rated:
            row["rating"] = rated[label]
        rows.append(row)
    return {
        "game": game.name,
        "options": dict(game.options),
        "seats": [s.label for s in specs],
        "deals": deals,
        "seed": seed,
        "rotations": rotations(n, [s.label for s in specs]),
        "games": len(results),
        "mean_moves": sum(r.moves for r in results) / len(results) if results else 0.0,
        "bots": rows,
        "cheating": sorted(cheats),
    }
