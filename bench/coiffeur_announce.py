"""Coiffeur's announcement by pimc's search against the heuristic's, on duplicate games.

    .venv/bin/python bench/coiffeur_announce.py --row-values 400      # pimc's ROW_VALUES
    .venv/bin/python bench/coiffeur_announce.py --seeds 40 --samples 8  # the published duel

`--row-values N`: what a row of each kind writes before its multiplier, in N deals of random
hands: the forehand chooses the kind's mode as the heuristic does (its fit; a joker row: the best
fitting suit, Obenabe or Undenufe), the heuristic plays the deal to 24 cards left (12 in Slalom and
Guschti) and the solver the rest (as pimc values an announcement). Prints each kind's mean with
its 95% interval, and the dict for stichkit/bots/pimc/coiffeur.py's ROW_VALUES.

The duel: each seed's game is played twice with the same deals, the search's team at seats 0 and
2 once and at 1 and 3 once. The search's team announces (or pushes) by
`pimc:announce=search,samples=S` and the other team by the heuristic; every card of both teams is
the heuristic's, so the difference is the announcement alone. It prints the search team's sheet
total minus the other's a game (mean and 95% interval, normal over the games), its win share (a
draw counts half), how often the two choices differed, and the seconds an announcement took.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.analysis.coiffeur_solver import SLOW_HORIZON
from stichkit.bots import coiffeur_heuristic as heuristic
from stichkit.bots import make
from stichkit.bots.pimc import coiffeur as pimc_coiffeur
from stichkit.games.coiffeur.cards import PLAY_MODES

KIND_MODES = {
    "D": ("D",), "H": ("H",), "S": ("S",), "C": ("C",), "obe": ("obe",), "une": ("une",),
    "slalom": ("slalom-obe", "slalom-une"), "guschti": ("guschti-obe", "guschti-une"),
    "joker": ("D", "H", "S", "C", "obe", "une"),
}  # fmt: skip


def interval(xs: list[float]) -> tuple[float, float]:
    return statistics.mean(xs), 1.96 * statistics.stdev(xs) / len(xs) ** 0.5


def row_values(deals: int, seed: int) -> None:
    game = stichkit.load_game("coiffeur", rows="D1 H1 S1 C1 obe1 une1 slalom1 guschti1")
    found: dict[str, list[float]] = {k: [] for k in KIND_MODES}
    for k in range(deals):
        state = game.new_state(seed=seed + k)
        seat = state.current_player
        assert seat is not None
        hand = heuristic.mask_of(state.view(seat)["hand"])
        written: dict[str, int] = {}
        for kind, modes in KIND_MODES.items():
            mode = max(modes, key=lambda m: heuristic.fit(hand, m))  # the first on equal fits
            if mode not in written:
                w = state.clone()
                w.apply(f"trump:{mode}")
                left = 24 if PLAY_MODES.index(mode) < 6 else SLOW_HORIZON
                written[mode] = pimc_coiffeur.written_after_playout(w, left)
            found[kind].append(written[mode])
    print(f"{deals} deals (seeds {seed}..{seed + deals - 1})")
    for kind, xs in found.items():
        mean, half = interval(xs)
        print(f"  {kind:8} {mean:6.1f} ± {half:4.1f}")
    print("ROW_VALUES = {" + ", ".join(f'"{k}": {statistics.mean(v):.1f}' for k, v in found.items()) + "}")


def duel(seeds: int, samples: int, rows: str, first: int, show: bool) -> None:
    game = stichkit.load_game("coiffeur", rows=rows)
    margins: list[float] = []
    wins = 0.0
    differ = announcements = 0
    seconds = 0.0
    for s in range(seeds):
        for team in (0, 1):
            state = game.new_state(seed=first + s)
            bot = make("pimc", announce="search", samples=samples, seed=s)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                view = state.view(seat)
                move = heuristic.decide(view, random.Random(0))
                if seat % 2 == team and view["phase"] in ("trump", "pushed") and len(view["legal_actions"]) > 1:
                    t0 = time.perf_counter()
                    searched = bot.choose(state, seat).text
                    seconds += time.perf_counter() - t0
                    announcements += 1
                    differ += searched != move
                    move = searched
                state.apply(move)
            totals: Any = state.totals()  # type: ignore[attr-defined]
            margin = totals[team] - totals[1 - team]
            margins.append(margin)
            wins += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    mean, half = interval(margins)
    print(f"rows={rows!r} seeds {first}..{first + seeds - 1}, both seatings: {len(margins)} games, samples={samples}")
    print(f"search team's sheet total minus the heuristic team's a game: {mean:.1f} ± {half:.1f}")
    print(f"search team's win share: {100 * wins / len(margins):.1f}%")
    each = seconds / max(announcements, 1)
    print(f"announcements searched: {announcements}, differing from the heuristic's: {differ}, "
          f"{each:.2f} s each (load average {os.getloadavg()[0]:.1f} at the end)")  # fmt: skip
    if show:
        print("margins:", json.dumps(margins))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--row-values", type=int, default=0, help="measure ROW_VALUES over this many deals")
    ap.add_argument("--seeds", type=int, default=40, help="games, each played in both seatings")
    ap.add_argument("--samples", type=int, default=8, help="worlds an announcement (pimc's samples)")
    ap.add_argument("--rows", default="S1 C2 obe3 une4", help="the sheet")
    ap.add_argument("--seed", type=int, default=100, help="the first seed")
    ap.add_argument("--margins", action="store_true", help="print every game's margin (JSON), to pool runs")
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    if args.row_values:
        row_values(args.row_values, 5000)
    else:
        duel(args.seeds, args.samples, args.rows, args.seed, args.margins)


if __name__ == "__main__":
    main()
