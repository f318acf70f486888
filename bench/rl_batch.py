#!/usr/bin/env python3
"""Batched environment steps per second on one core, with observations and legal masks, side by side:

* **target**: stichkit's vectorised Gymnasium Jass (`StichkitVectorEnv`, `--batch` games, seat 0
  learns, `random` bots in the other seats, all in the C core); a step is one decision of the
  agent in every game, with each game's observation (699 floats) and mask, the bots' moves in
  between not counted; the uniformly random legal actions are chosen with numpy;
* stichkit's `JassBatch` itself (the same core without the Gymnasium wrapper's copies);
* the same environment on the Python path (`backend="python"`, 64 games: the rate before);
* **reference**: pgx's bridge bidding (JAX on the CPU), `--batch` games vmapped and jitted, one
  `step` with a uniformly random legal action per game (drawn inside the jitted step) and
  automatic reset; its observation (480 booleans) and mask come with every step.

pgx needs the bench venv (bench/requirements.txt). Its bridge bidding reads a table of solved
deals that pgx downloads on first use; this machine has no internet, so the script writes a table
of `--deals` deals with placeholder values (the values only pay the final reward: the step's cost
does not depend on them). The sides run in interleaved rounds of `--seconds`; best and median
rounds are printed with the load average.

    .venv-bench/bin/python bench/rl_batch.py                 # about two minutes
    .venv/bin/python bench/rl_batch.py --only stichkit        # without pgx
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse
import contextlib
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from stichkit.rl.batch import JassBatch
from stichkit.rl.gymnasium_env import StichkitVectorEnv

with contextlib.suppress(AttributeError, OSError):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

Side = Callable[[float], tuple[int, float]]


def vector_side(batch: int, backend: str) -> Side:
    vec = StichkitVectorEnv("jass", batch, opponents="random", backend=backend)
    vec.reset(seed=1)
    noise = np.random.default_rng(1)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            masks = vec.action_masks()
            vec.step(np.argmax(noise.random(masks.shape) * masks, axis=1))
            steps += batch
        return steps, time.perf_counter() - start

    return run


def core_side(batch: int) -> Side:
    core = JassBatch(batch)
    core.reset(list(range(batch)))
    noise = np.random.default_rng(2)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            masks = core.masks[:, 0, :]
            core.step(np.argmax(noise.random(masks.shape) * masks, axis=1))
            steps += batch
        return steps, time.perf_counter() - start

    return run


def pgx_side(batch: int, deals: int) -> Side:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.bridge_bidding import BridgeBidding

    path = os.path.join(tempfile.mkdtemp(), "dds_results.npy")
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**31, size=(deals, 4), dtype=np.int64).astype(np.int32)
    values = rng.integers(0, 2**31, size=(deals, 4), dtype=np.int64).astype(np.int32)
    np.save(path, np.stack([keys, values]))  # what BridgeBidding loads: (keys, values), each (deals, 4)
    env = BridgeBidding(dds_results_table_path=path)
    step = pgx.experimental.auto_reset(env.step, env.init) if hasattr(pgx, "experimental") else env.step

    def one(state: Any, key: Any) -> Any:
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.random.categorical(key, logits, axis=-1)
        keys = jax.random.split(key, batch)
        state = jax.vmap(step)(state, action, keys)
        return state, (state.observation, state.legal_action_mask)

    jitted = jax.jit(one)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1)
    holder = {"state": state, "key": key}

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            holder["key"], sub = jax.random.split(holder["key"])
            holder["state"], out = jitted(holder["state"], sub)
            jax.block_until_ready(out)
            steps += batch
        return steps, time.perf_counter() - start

    run(0.5)  # compile
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--deals", type=int, default=10000, help="deals in pgx's placeholder table")
    ap.add_argument("--only", choices=("stichkit", "pgx"), default=None)
    args = ap.parse_args()
    sides: dict[str, Side] = {}
    if args.only != "pgx":
        sides[f"target: stichkit vectorised Gymnasium Jass, C ({args.batch})"] = vector_side(args.batch, "native")
        sides[f"stichkit JassBatch, C ({args.batch})"] = core_side(args.batch)
        sides["stichkit vectorised Gymnasium Jass, Python (64)"] = vector_side(64, "python")
    if args.only != "stichkit":
        try:
            sides[f"reference: pgx bridge bidding, JAX CPU ({args.batch})"] = pgx_side(args.batch, args.deals)
        except ImportError as e:
            print(f"pgx is not installed here ({e}): use the bench venv, bench/requirements.txt")
    for run in sides.values():
        run(0.5)
    rates: dict[str, list[float]] = {name: [] for name in sides}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, run in sides.items():
            steps, took = run(args.seconds)
            rates[name].append(steps / took)
        loads.append(os.getloadavg()[0])
    print(
        f"CPython {platform.python_version()}, numpy {np.__version__}, one core, {args.rounds} interleaved rounds of "
        f"{args.seconds:g} s; load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores"
    )
    print(f"{'environment (observations and masks every step)':<58} {'best':>10} {'median':>10}  steps/s")
    for name, r in rates.items():
        print(f"{name:<58} {max(r):>10,.0f} {statistics.median(r):>10,.0f}")
    goal = 150_000
    for name, r in rates.items():
        if name.startswith("target"):
            print(f"target median: {statistics.median(r):,.0f} steps/s (goal: >= {goal:,} on one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
