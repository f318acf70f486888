"""Tournament speed on each executor: games per second with 1 and 2 workers on the local process
pool and on Ray, and what Ray costs per game over the pool, for short and long games.

    .venv/bin/python bench/executors.py                    # both workloads, about 5 minutes on 2 cores
    .venv/bin/python bench/executors.py --only short --json bench-executors.json

Workloads (duplicate tournaments through `run_tournament`, one game per unit of work, as
`stich tournament` plays them):
- short: Jass to 1000 points, four `random` bots (a game takes about a millisecond or two);
- long: Jass to 1000 points, `ismcts:iterations=200` against `heuristic` (seconds per game).

Ray runs on this machine (`ray.init(num_cpus=2)`), started once; its start-up is reported apart,
and a warm-up run lets its workers import stichkit before the clock runs. The pool is started
for every run, as `stich` does. Each figure is the best of `--repeat` interleaved rounds. Overhead per game:
(Ray's seconds - the pool's seconds) / games, at the same number of workers.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.arena import Executor, ProcessExecutor, RayExecutor, SerialExecutor, parse_bot, run_tournament

WORKLOADS = {
    "short": ("random,random,random,random", 400),  # seats, default deals (1 rotation each: 1 game per deal)
    "long": ("ismcts:iterations=200,heuristic,ismcts:iterations=200,heuristic", 3),  # 2 rotations: 2 games per deal
}


CONFIGS: dict[str, Callable[[], Executor]] = {
    "serial": SerialExecutor,
    "process/1": lambda: ProcessExecutor(1),
    "ray/1": lambda: RayExecutor(1),
    "process/2": lambda: ProcessExecutor(2),
    "ray/2": lambda: RayExecutor(2),
}


def timings(repeat: int, game: stichkit.Game, specs: list[Any], deals: int) -> dict[str, float]:
    """The best of `repeat` rounds per executor; each round runs every executor once, one after
    the other, so that other work on the machine hits them all alike."""
    best = dict.fromkeys(CONFIGS, float("inf"))
    for _ in range(repeat):
        for name, make in CONFIGS.items():
            t0 = time.perf_counter()
            with make() as ex:
                run_tournament(game, specs, deals, seed=2024, executor=ex)
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(WORKLOADS), help="one workload only")
    ap.add_argument("--short-deals", type=int, default=WORKLOADS["short"][1])
    ap.add_argument("--long-deals", type=int, default=WORKLOADS["long"][1])
    ap.add_argument("--repeat", type=int, default=3, help="best of R rounds for short games")
    ap.add_argument("--long-repeat", type=int, default=1, help="best of R rounds for long games")
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = ap.parse_args()

    # A token of this run, so that Ray (token authentication on by default) writes none to ~/.ray.
    os.environ.setdefault("RAY_AUTH_MODE", "token")
    os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
    import ray

    t0 = time.perf_counter()
    ray.init(address="local", num_cpus=2, logging_level=logging.WARNING)
    ray_start = time.perf_counter() - t0
    game = stichkit.load_game("jass")
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    out: dict[str, Any] = {"machine": machine, "ray": ray.__version__, "ray_start_seconds": round(ray_start, 2),
                           "workloads": {}}  # fmt: skip
    print(f"Ray {ray.__version__} started in {ray_start:.1f} s")
    try:
        for name, (seats, _) in WORKLOADS.items():
            if args.only not in (None, name):
                continue
            deals = args.short_deals if name == "short" else args.long_deals
            repeat = args.repeat if name == "short" else args.long_repeat
            specs = [parse_bot(b) for b in seats.split(",")]
            with RayExecutor(2) as warm:  # Ray's workers import stichkit now, not on the clock
                games = len(run_tournament(game, specs, 1, seed=0, executor=warm)) * deals
            rows = timings(repeat, game, specs, deals)
            figures = {k: {"seconds": round(v, 3), "games_per_s": round(games / v, 2)} for k, v in rows.items()}
            overhead = {str(w): round(1000 * (rows[f"ray/{w}"] - rows[f"process/{w}"]) / games, 3) for w in (1, 2)}
            out["workloads"][name] = {"seats": seats, "games": games, "runs": figures,
                                      "ray_overhead_ms_per_game": overhead}  # fmt: skip
            print(f"\n{name}: {seats}, {games} games (best of {repeat})")
            print(f"{'executor/workers':<18}{'seconds':>10}{'games/s':>12}")
            for k, v in figures.items():
                print(f"{k:<18}{v['seconds']:>10.3f}{v['games_per_s']:>12.2f}")
            per = [f"{v:+.2f} ms with {w} worker{'s' if w != '1' else ''}" for w, v in overhead.items()]
            print("Ray's overhead per game over the pool: " + ", ".join(per))
    finally:
        ray.shutdown()
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
