"""Where an ISMCTS search spends its time, per game: the profile behind the engine's hot path.

    .venv/bin/python bench/ismcts_profile.py                    # every game, 2,000 iterations per position
    .venv/bin/python bench/ismcts_profile.py --games stichwahl --top 25

For each game it searches a few mid-game positions with a fixed iteration budget (so the work is
the same from run to run), prints iterations per second without the profiler, then the functions
that take the most time of their own (cProfile, which slows everything about twice). Use it
before and after a change to the engine's `legal_actions`, `apply`, `undo`, `clone` or
`sample_hidden`.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import mid_game_positions  # bench/, this script's folder

import stichkit
from stichkit.bots import make
from stichkit.core import State


def search_all(states: list[State], iterations: int) -> None:
    for k, state in enumerate(states):
        make("ismcts", iterations=iterations, seed=k).choose(state, state.current_player)  # type: ignore[arg-type]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(stichkit.game_names()), help="comma-separated (default: all)")
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=2000, help="per position")
    ap.add_argument("--top", type=int, default=15, help="how many functions to list")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for name in args.games.split(","):
        game = stichkit.load_game(name)
        states = mid_game_positions(game, args.positions, args.seed)
        t0 = time.perf_counter()
        search_all(states, args.iterations)
        rate = args.positions * args.iterations / (time.perf_counter() - t0)
        prof = cProfile.Profile()
        prof.runcall(search_all, states, args.iterations)
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.top)
        table = out.getvalue()
        table = table[table.index("   ncalls") :].replace(str(Path(__file__).resolve().parent.parent) + "/", "")
        print(f"== {name}: {rate:,.0f} ISMCTS iterations/s ({args.positions} positions x {args.iterations})")
        print(table.rstrip() + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
