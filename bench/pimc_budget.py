"""How `pimc` spends its time budget: worlds and seconds per decision, by kind of decision.

    .venv/bin/python bench/pimc_budget.py                  # time=0.25, 6 games' worth of deals
    .venv/bin/python bench/pimc_budget.py --time 1.0 --deals 4

Plays whole deals (seed profile, pimc on every seat) and reports, for trump decisions, the first
card of a deal, and the later cards, how many worlds were solved and how long the decisions took
(median, 90th percentile, max): the budget is a limit the bot must not overrun by much, and the
worlds say how much it could see. Timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.analysis import c_available
from stichkit.bots import PIMCBot, make
from stichkit.games.jass import JassState


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=float, default=0.25, help="pimc seconds per decision (default 0.25)")
    ap.add_argument("--deals", type=int, default=6, help="deals to play (default 6)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    game = stichkit.load_game("jass")
    kinds: dict[str, tuple[list[int], list[float]]] = {"trump": ([], []), "first card": ([], []), "cards": ([], [])}
    for d in range(args.deals):
        state = cast(JassState, game.new_state(seed=args.seed + d))
        bots = [make("pimc", time=args.time, seed=args.seed + s) for s in range(4)]
        while state.deals_played == 1 and not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            bot = bots[seat]
            assert isinstance(bot, PIMCBot)
            first = state.legal_actions()[0].id >= 36
            action = bot.choose(state, seat)
            stats = bot.last_stats
            if stats["worlds"]:
                cards_left = sum(state.view(seat)["hand_sizes"])
                kind = "trump" if first else "first card" if cards_left == 36 else "cards"
                kinds[kind][0].append(stats["worlds"])
                kinds[kind][1].append(stats["seconds"])
            state.apply(action)
    print(f"pimc time={args.time}, {args.deals} deals, C solver: {c_available()}")
    print(f"{'decision':<12} {'n':>4} {'worlds med':>10} {'worlds min':>10} {'s med':>7} {'s p90':>7} {'s max':>7}")
    for kind, (worlds, secs) in kinds.items():
        if worlds:
            print(f"{kind:<12} {len(worlds):>4} {statistics.median(worlds):>10.0f} {min(worlds):>10} "
                  f"{statistics.median(secs):>7.3f} {quantile(secs, 0.9):>7.3f} {max(secs):>7.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
