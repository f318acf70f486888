#!/usr/bin/env python3
"""Environment steps per second with observations and masks, on one core, side by side:

* stichkit PettingZoo Jass (`stichkit.rl.pettingzoo_env("jass")`): every seat is an agent; a
  step is `env.last()` (the acting seat's observation and mask) and `env.step(action)`.
* stichkit vectorised Gymnasium Jass (`StichkitVectorEnv`, `--envs` games, seat 0 learns, the
  `random` bot plays the other seats): a step is one agent decision of one game, with its
  observation and mask; the bots' three moves in between are not counted as steps.
* OpenSpiel's C++ hearts stepped from Python: per decision `information_state_tensor(player)`
  (hearts has no `observation_tensor`, it raises "unimplemented"), `legal_actions_mask(player)`
  and `apply_action`; the deal's chance nodes are sampled and not counted.
* PettingZoo's classic `texas_holdem_v4` (rlcard): `env.last()` and `env.step(action)`.

Every action is uniformly random among the legal ones. The sides run in one process, in
interleaved rounds of `--seconds` each; the best round of each counts.

    .venv/bin/python bench/rl_throughput.py            # about a minute
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse
import contextlib
import platform
import random
import time
from collections.abc import Callable

import numpy as np

import stichkit
import stichkit.rl
from stichkit.rl.gymnasium_env import StichkitVectorEnv

with contextlib.suppress(AttributeError, OSError):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def pettingzoo_loop(env, seconds: float, rng: random.Random) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    steps = 0
    env.reset(seed=rng.getrandbits(32))
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.reset(seed=rng.getrandbits(32))
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def stichkit_pettingzoo(seconds: float, rng: random.Random) -> tuple[int, float]:
    return pettingzoo_loop(stichkit.rl.pettingzoo_env("jass"), seconds, rng)


def classic_pettingzoo(seconds: float, rng: random.Random) -> tuple[int, float]:
    from pettingzoo.classic import texas_holdem_v4

    return pettingzoo_loop(texas_holdem_v4.env(), seconds, rng)


def make_vector(envs: int) -> Callable[[float, random.Random], tuple[int, float]]:
    vec = StichkitVectorEnv("jass", envs, opponents="random")

    def run(seconds: float, rng: random.Random) -> tuple[int, float]:
        vec.reset(seed=rng.getrandbits(32))
        noise = np.random.default_rng(rng.getrandbits(32))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            # a uniformly random legal action per game, chosen for all games at once
            actions = np.argmax(noise.random(vec.action_masks().shape) * vec.action_masks(), axis=1)
            vec.step(actions)
            steps += envs
        return steps, time.perf_counter() - start

    return run


def openspiel_hearts(seconds: float, rng: random.Random) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            np.asarray(state.information_state_tensor(player), dtype=np.float32)
            np.asarray(state.legal_actions_mask(player), dtype=np.int8)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description="RL environment steps per second, one core")
    p.add_argument("--seconds", type=float, default=4.0, help="length of one timed round per side")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--envs", type=int, default=64, help="games in the vectorised environment")
    args = p.parse_args()
    sides: dict[str, Callable[[float, random.Random], tuple[int, float]]] = {
        "stichkit PettingZoo Jass (AEC)": stichkit_pettingzoo,
        f"stichkit vectorised Gymnasium Jass ({args.envs} games)": make_vector(args.envs),
        "OpenSpiel C++ hearts from Python": openspiel_hearts,
        "PettingZoo classic texas_holdem_v4": classic_pettingzoo,
    }
    try:
        import pygame  # noqa: F401
        import rlcard  # noqa: F401
    except ImportError:
        print("PettingZoo's texas_holdem needs rlcard and pygame: pip install rlcard==1.2.0 pygame==2.6.1; left out")
        del sides["PettingZoo classic texas_holdem_v4"]
    rng = random.Random(1)
    for run in sides.values():
        run(0.5, rng)  # warm up
    best: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, run in sides.items():
            steps, took = run(args.seconds, rng)
            best[name].append(steps / took)
    import pettingzoo
    import pyspiel  # noqa: F401

    print(
        f"CPython {platform.python_version()}, numpy {np.__version__}, pettingzoo {pettingzoo.__version__}, "
        f"open_spiel {_version('open_spiel')}, one core, best of {args.rounds} rounds of {args.seconds:g} s"
    )
    print(f"{'environment':<50} {'steps/s':>10}   rounds")
    for name, rates in best.items():
        print(f"{name:<50} {max(rates):>10,.0f}   " + " ".join(f"{r:,.0f}" for r in rates))
    hearts = max(best["OpenSpiel C++ hearts from Python"])
    vec = max(best[f"stichkit vectorised Gymnasium Jass ({args.envs} games)"])
    print(f"vectorised Jass / OpenSpiel hearts: {vec / hearts:.2f}x")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    main()
