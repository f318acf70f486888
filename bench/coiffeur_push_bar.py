"""Does the Coiffeur heuristic's push bar for Swisslos's push around the table gain points? The
around-aware bar against the partner push's bar, on duplicate Coiffeur games with push="around".

    .venv/bin/python bench/coiffeur_push_bar.py                  # the published figure (60 seeds)
    .venv/bin/python bench/coiffeur_push_bar.py --seeds 20 --margin 8 --behind 0   # another bar

Each seed's game is played twice with the same deals: once with the around-aware heuristic
(stichkit/bots/coiffeur_heuristic.py: push only when the best fit is `--margin` below an average
hand's, and `--behind` more for each row more open on its own sheet) at seats 0 and 2 and the
heuristic with the partner push's bar (push when no open mode fits better than an average hand)
at seats 1 and 3, once the other way round. Both play their cards alike. It prints the aware
team's sheet total minus the other's, per game, as the mean with its 95% interval (normal, over
the games), and the aware team's win share (a draw counts half).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.bots import coiffeur_heuristic as heuristic


def decide(view: dict[str, Any], aware: bool) -> str:
    """The heuristic's move; `aware`: with the around-aware push bar, else the partner push's."""
    if not aware and view["phase"] in ("trump", "pushed") and len(view["legal_actions"]) > 1:
        return heuristic.choose_mode({**view, "options": {**view["options"], "push": "partner"}})
    return heuristic.decide(view, random.Random(0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=60, help="games, each played in both seatings")
    ap.add_argument("--margin", type=float, default=heuristic.AROUND_MARGIN)
    ap.add_argument("--behind", type=float, default=heuristic.BEHIND)
    args = ap.parse_args()
    heuristic.AROUND_MARGIN, heuristic.BEHIND = args.margin, args.behind
    game = stichkit.load_game("coiffeur", push="around")
    margins: list[int] = []
    wins = 0.0
    for seed in range(args.seeds):
        for aware_team in (0, 1):
            state = game.new_state(seed=1000 + seed)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                state.apply(decide(state.view(seat), seat % 2 == aware_team))
            totals = state.totals()  # type: ignore[attr-defined]
            margin = totals[aware_team] - totals[1 - aware_team]
            margins.append(margin)
            wins += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    n = len(margins)
    half = 1.96 * statistics.stdev(margins) / n**0.5
    print(
        f"margin {args.margin} behind {args.behind}: {n} games, aware minus partner bar "
        f"{statistics.mean(margins):.1f} ± {half:.1f} points a game; aware wins {100 * wins / n:.1f}%"
    )


if __name__ == "__main__":
    main()
