#!/usr/bin/env python3
"""ISMCTS iterations per second on one core, side by side in one process:

* **target**: stichkit's `ismcts` on Jass with its iterations in C (`engine=c`), mid-game
  positions, random playouts to the end of the deal;
* stichkit's `ismcts` on Jass in Python (`engine=python`), the same positions (the search before);
* with `--multipliers SET` (e.g. swisslos, the Schieber to 2500): the same two searches in a Jass
  with that option as well (before 2026-11-29 `auto` searched such games in Python);
* with `--announce`: the same two searches in a Jass with weis="announce" and stoeck="announce"
  (with `--multipliers`, those too), the Schieber as Swiss clubs play it (before 2026-11-29 `auto`
  searched such games in Python);
* **reference**: OpenSpiel's C++ ISMCTS (`pyspiel.ISMCTSBot`, random rollouts) on hearts,
  mid-game positions (after the pass and a few tricks), rollouts to the end of the deal.

Each side searches its positions with a fixed number of iterations per decision, in
interleaved rounds, so load from other work on the machine hits them alike; the best and the
median round are printed, with the load average. Iterations per second are the searches'
iterations over their wall time (the search's own clock for stichkit, the call for OpenSpiel).

    .venv/bin/python bench/ismcts_speed.py                 # about a minute
    .venv/bin/python bench/ismcts_speed.py --rounds 5 --json
    .venv/bin/python bench/ismcts_speed.py --multipliers swisslos --no-hearts
    .venv/bin/python bench/ismcts_speed.py --announce --no-hearts
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import mid_game_positions  # bench/, this script's folder

import stichkit
from stichkit.bots import make

with contextlib.suppress(AttributeError, OSError):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def stichkit_side(
    engine: str, iterations: int, positions: int, seed: int, **options: Any
) -> Callable[[], tuple[int, float]]:
    states = mid_game_positions(stichkit.load_game("jass", **options), positions, seed)

    def run() -> tuple[int, float]:
        done = spent = 0.0
        for k, state in enumerate(states):
            bot = make("ismcts", iterations=iterations, engine=engine, seed=k)
            bot.choose(state, state.current_player)  # type: ignore[arg-type]
            stats = bot.last_stats  # type: ignore[attr-defined]
            assert engine == "python" or stats.get("engine", "c") == "c", "the C search fell back to Python"
            done += bot.last_stats["iterations"]  # type: ignore[attr-defined]
            spent += bot.last_stats["seconds"]  # type: ignore[attr-defined]
        return int(done), spent

    return run


def hearts_side(iterations: int, positions: int, seed: int) -> Callable[[], tuple[int, float]]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < positions:
        state = game.new_initial_state()
        moves = rng.randrange(14, 44)  # the pass (12 decisions: ISMCTS crashes there), then into the play
        while not state.is_terminal() and moves:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            moves -= 1
        if not state.is_terminal() and not state.is_chance_node() and len(state.legal_actions()) > 1:
            states.append(state)

    def run() -> tuple[int, float]:
        done, spent = 0, 0.0
        for k, state in enumerate(states):
            evaluator = pyspiel.RandomRolloutEvaluator(1, k)
            bot = pyspiel.ISMCTSBot(k, evaluator, 0.7, iterations, -1)
            t = time.perf_counter()
            bot.step(state)
            spent += time.perf_counter() - t
            done += iterations
        return done, spent

    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--iterations", type=int, default=20000, help="per decision, C searches (Jass and hearts)")
    ap.add_argument("--python-iterations", type=int, default=1000, help="per decision, the Python search")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--multipliers", default="none", help="also search a Jass with this option (e.g. swisslos)")
    ap.add_argument("--announce", action="store_true", help="also search a Jass with announced Weis and Stöck")
    ap.add_argument("--no-hearts", action="store_true", help="leave out OpenSpiel (not installed, or not wanted)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sides = {
        "target: stichkit ismcts, Jass, C": stichkit_side("c", args.iterations, args.positions, args.seed),
        "stichkit ismcts, Jass, Python": stichkit_side("python", args.python_iterations, args.positions, args.seed),
    }
    options: dict[str, Any] = {}
    if args.multipliers != "none":
        options["multipliers"] = args.multipliers
    if args.announce:
        options.update(weis="announce", stoeck="announce")
    label = "Jass " + " ".join(f"{k}={v}" for k, v in options.items())
    if options:
        sides[f"{label}, C"] = stichkit_side("c", args.iterations, args.positions, args.seed, **options)
        sides[f"{label}, Python"] = stichkit_side(
            "python", args.python_iterations, args.positions, args.seed, **options
        )
    if not args.no_hearts:
        sides["reference: OpenSpiel C++ ISMCTS, hearts"] = hearts_side(args.iterations, args.positions, args.seed)
    rates: dict[str, list[float]] = {name: [] for name in sides}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, run in sides.items():
            done, spent = run()
            rates[name].append(done / spent)
        loads.append(os.getloadavg()[0])
    if args.json:
        print(json.dumps({"rates": rates, "load": loads}, indent=1))
        return 0
    print(
        f"CPython {platform.python_version()}, one core, {args.rounds} interleaved rounds of {args.positions} "
        f"positions; load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores"
    )
    print(f"{'search':<45} {'best it/s':>12} {'median it/s':>12}")
    for name, r in rates.items():
        print(f"{name:<45} {max(r):>12,.0f} {statistics.median(r):>12,.0f}")
    target = statistics.median(rates["target: stichkit ismcts, Jass, C"])
    if not args.no_hearts:
        ref = statistics.median(rates["reference: OpenSpiel C++ ISMCTS, hearts"])
        print(f"target / reference (medians): {target / ref:.2f}x (goal: >= 1)")
    if options:
        c_rate, py_rate = (statistics.median(rates[f"{label}, {e}"]) for e in ("C", "Python"))
        print(f"{label[5:]}: C / Python (the path before) {c_rate / py_rate:.1f}x; C with / without "
              f"these options {c_rate / target:.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
