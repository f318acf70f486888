"""What the server's periodic `malloc_trim` (stichkit/server/trim.py) costs its event loop.

A heap is churned the way the table server churns its own (replays built as nested lists and
large JSON strings, most dropped, a few kept), then a 1 ms ticker runs on an asyncio loop for a
40 ms window with a trim in its middle: none (the reference), in a thread (as the server does
it), and inline (what it would cost if called on the loop). Printed for each, over `--windows`
windows: the trim's own time, and the ticker's longest lag per window (median and max), the
target being the threaded trim's beside the reference's.

    .venv/bin/python bench/malloc_trim_cost.py

On a machine other than glibc the trim does nothing and takes no time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time

from stichkit.server.trim import trim


def _trimmed() -> float:
    """One trim's seconds (0 where the C library has no `malloc_trim`)."""
    return trim() or 0.0


def churn(rng: random.Random, keep: list[object]) -> None:
    junk = []
    for _ in range(200):
        hands = [[rng.random() for _ in range(9)] for _ in range(40)]
        junk.append((hands, "x" * rng.randrange(1000, 200000), json.dumps(hands) * rng.randrange(1, 30)))
    keep.extend(junk[::15])
    del keep[:-40]


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append(time.perf_counter() - t - 0.001)


async def measure(mode: str, windows: int, rng: random.Random, keep: list[object]) -> None:
    worst: list[float] = []
    took: list[float] = []
    for _ in range(windows):
        churn(rng, keep)
        lags: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(ticker(lags, stop))
        await asyncio.sleep(0.02)
        if mode == "thread":
            took.append(await asyncio.to_thread(_trimmed))
        elif mode == "inline":
            took.append(trim() or 0.0)
        await asyncio.sleep(0.02)
        stop.set()
        await task
        worst.append(max(lags))
    spent = f"{1000 * statistics.mean(took):.2f} ms, at most {1000 * max(took):.2f}" if took else "-"
    print(f"{mode:9} trim {spent:>24}; the loop's longest lag per window: median "
          f"{1000 * statistics.median(worst):.2f} ms, max {1000 * max(worst):.2f} ms", flush=True)  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--windows", type=int, default=20, help="windows per mode and round (20)")
    p.add_argument("--rounds", type=int, default=2, help="rounds of the three modes (2)")
    args = p.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    rng = random.Random(1)
    keep: list[object] = []
    for _ in range(args.rounds):
        for mode in ("reference", "thread", "inline"):
            asyncio.run(measure(mode, args.windows, rng, keep))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
