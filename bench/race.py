#!/usr/bin/env python3
"""The race search (stichkit.analysis.race.solve_race) beside `solve`, on positions near a game's end.

Positions: a deal of a game to a small target (random 5-200 points, so that the race is open),
Weis and Stöck on or off, played at random to --cards cards left (tests/analysis/positions.py's
race_position, as the race tests use it); the same positions for both.
Printed per cards-left: median, p99 and max milliseconds per solve, `solve_race` and `solve` (the
C engine, its table cleared before each solve).

    python bench/race.py                      # 16, 24 and 28 cards left, 40 positions each
    python bench/race.py --cards 28 --positions 100

Single-threaded, one process. On a shared machine, say how loaded it was next to the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stichkit.analysis import c_available, clear_table, solve
from stichkit.analysis.race import solve_race
from stichkit.games.jass import JassState
from tests.analysis.positions import race_position


def timed(run: object, states: list[JassState]) -> list[float]:
    out = []
    for s in states:
        clear_table()
        t = time.perf_counter()
        run(s)  # type: ignore[operator]
        out.append(time.perf_counter() - t)
    return out


def p99(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(0.99 * (len(ys) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", default="16,24,28", help="cards left, comma-separated (default 16,24,28)")
    ap.add_argument("--positions", type=int, default=40, help="positions per cards-left (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not c_available():
        raise SystemExit("the race search needs the C solver: pip install -e . with a C compiler")
    try:
        cards = [int(c) for c in args.cards.split(",")]
    except ValueError:
        raise SystemExit(f"--cards: {args.cards!r}; give numbers of cards left, e.g. 16,24,28") from None
    if not all(4 <= c <= 36 for c in cards) or args.positions < 1:
        raise SystemExit("--cards: each from 4 to 36; --positions: at least 1")
    rng = random.Random(args.seed)
    print(f"{'cards left':>10} {'n':>5} {'race median ms':>15} {'race p99':>9} {'race max':>9} "
          f"{'solve median ms':>16} {'solve p99':>10} {'solve max':>10}")  # fmt: skip
    for c in cards:
        states: list[JassState] = []
        while len(states) < args.positions:
            s = race_position(rng, c, lopsided_share=0.0)
            if s is not None:
                states.append(s)
        race, full = timed(solve_race, states), timed(solve, states)
        print(f"{c:>10} {len(states):>5} {statistics.median(race) * 1000:>15.2f} {p99(race) * 1000:>9.1f} "
              f"{max(race) * 1000:>9.1f} {statistics.median(full) * 1000:>16.2f} {p99(full) * 1000:>10.1f} "
              f"{max(full) * 1000:>10.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
