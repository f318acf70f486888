#!/usr/bin/env python3
"""How far pimc is from solving its worlds from the first card (`horizon=36`) within its clock.

pimc solves each sampled world for every legal card. To rank the cards it needs no exact
values: bounds a few points wide will do (`solve_bounds(state, within, nodes)`). This prints,
side by side for positions with 28, 32 and 36 cards left (random play from random deals, the
Schieber profile, the trump modes in turn), what one world costs per answer:

- `exact`: every card's exact margin (`solve_bounds` with within=0, the values of `solve`);
- `within K`: every card's margin to within K points;

each against the target: a world in at most the share of one decision's clock that one of
`--worlds` worlds may take (default 1 s / 8 worlds = 125 ms of CPU). For each answer: the share
of positions settled within that target, and the median nodes and CPU milliseconds to settle,
searched to at most `--cap` nodes (">cap": more than that; its CPU time is then the cap's).

    python bench/pimc_horizon.py                         # 6 positions per depth
    python bench/pimc_horizon.py --cards 28,32 --positions 12 --within 0,20

Nodes do not depend on the machine's load; CPU time does a little (the cache), so say how loaded
the machine was beside the figures. One process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stichkit.analysis import c_available, solve_bounds
from stichkit.analysis.solver import clear_table
from stichkit.games.jass import Jass
from stichkit.games.jass.state import JassState

MODES = ("D", "H", "S", "C", "obe", "une")


def position(seed: int, mode: str, cards: int) -> JassState:
    """A deal of `seed` with `mode` trump, played at random until `cards` cards are left."""
    rng = random.Random(seed)
    state = Jass(profile="schieber", weis="off", stoeck=False, first_forehand=0).new_state(seed=seed)
    state.apply(f"trump:{mode}")
    for _ in range(36 - cards):
        state.apply(rng.choice(state.legal_actions()))
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", default="28,32,36", help="cards left in the deal, comma-separated (28,32,36)")
    ap.add_argument("--positions", type=int, default=6, help="positions per depth, trump modes in turn (6)")
    ap.add_argument("--within", default="0,10,20,40,80", help="widths in points; 0 is exact (0,10,20,40,80)")
    ap.add_argument("--time", type=float, default=1.0, help="pimc's seconds per decision (1.0)")
    ap.add_argument("--worlds", type=int, default=8, help="worlds a decision should see at least (8)")
    ap.add_argument("--cap", type=int, default=30_000_000, help="most nodes searched per answer (30 M)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    if not c_available():
        sys.exit("the C solver is not built: pip install -e . with a C compiler")
    budget = args.time / args.worlds * 1000
    print(f"target: a world in at most {budget:.0f} ms of CPU ({args.time} s a decision / {args.worlds} worlds); "
          f"searched to at most {args.cap / 1e6:.0f} M nodes")  # fmt: skip
    print(f"{'cards':>5} {'answer':>9} {'settled in budget':>18} {'median nodes':>13} {'median CPU ms':>14} "
          f"{'settled by cap':>15} {'M nodes/s':>10}")  # fmt: skip
    for cards in (int(c) for c in args.cards.split(",")):
        states = [position(args.seed + i, MODES[i % 6], cards) for i in range(args.positions)]
        for within in (int(w) for w in args.within.split(",")):
            nodes, cpu, fits, done, searched, seconds = [], [], 0, 0, 0, 0.0
            for state in states:
                clear_table()
                t0 = time.process_time()
                b = solve_bounds(state, within, args.cap)
                ms = (time.process_time() - t0) * 1000
                cpu.append(ms)
                searched += b.nodes
                seconds += ms / 1000
                nodes.append(b.nodes if b.complete else args.cap + 1)
                done += b.complete
                fits += b.complete and ms <= budget
            med = statistics.median(nodes)
            shown = f">{args.cap / 1e6:.0f} M" if med > args.cap else f"{med / 1e6:.2f} M"
            answer = "exact" if within == 0 else f"within {within}"
            print(f"{cards:>5} {answer:>9} {fits:>10} of {len(states):<5} {shown:>13} "
                  f"{statistics.median(cpu):>14.0f} {done:>8} of {len(states):<4} "
                  f"{searched / max(seconds, 1e-9) / 1e6:>10.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
