#!/usr/bin/env python3
"""The Jass double-dummy solver (stichkit.analysis): time to solve whole deals from the first card.

For each trump mode (schieber profile: D H S C obe une; swiss undertrump rule), --deals random
deals are solved from the first card of the deal (9 tricks, 36 cards), in two ways:

- value: `solve_value(state)`, the deal's exact value and one best card. This is what "solving a
  whole deal" in the goal means (what the deal is worth with best play);
- all cards: `solve(state)`, the exact value of every legal card of the forehand (one bisection
  per card, so a multiple of the first).

Printed per way and trump mode: median, p99, mean and max milliseconds per deal, median nodes per
solve and nodes/s, with the goal (50 ms median, 500 ms p99) beside them. Nodes do not
depend on the machine's load; times do.

The Python reference is far too slow for whole deals (minutes each), so it is timed on positions
with --python-cards cards left (default 16: the last four tricks), over --python-deals deals per
mode, with the C engine on the very same positions beside it.

    python bench/solver.py                      # 34 deals per mode = 204 deals in all
    python bench/solver.py --deals 2 --python-deals 5
    python bench/solver.py --ways value --cards 28   # value only, positions with 28 cards left

Single-threaded, one process. On a shared machine, say how loaded it was next to the figures.

--threads 2 compares, on the same positions (--cards, --deals), one thread against two, for
`solve_value` only:

- one value on two threads (`solve_value(threads=2)`: the mover's cards shared between two
  threads, each with its own table);
- two positions at once (what pimc's worlds or `stich analyse`'s deals would gain): two Python
  threads each taking the next position left, at the same time (the solver lets go of the GIL),
  against the same solves one after the other.

Printed side by side: nodes, CPU seconds (all threads), the busiest thread's CPU seconds (what
the wall time comes to on an idle machine with two free cores) and wall seconds, with the load
average. Nodes and CPU do not depend on the load; wall times do.

    python bench/solver.py --threads 2 --cards 28 --deals 4 --python-deals 0
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time

from stichkit.analysis import c_available, solve, solve_value
from stichkit.analysis import solver as solver_module
from stichkit.analysis.solver import clear_table
from stichkit.games.jass import DECK, Jass
from stichkit.games.jass.state import deal_hands

MODES = ("D", "H", "S", "C", "obe", "une")
TARGET_MEDIAN, TARGET_P99 = 0.050, 0.500


def position(seed: int, mode: str, cards_left: int) -> object:
    """Deal `seed`, trump `mode`, random play down to `cards_left` cards."""
    game = Jass(profile="schieber", target=10**9, first_forehand=0)
    hands = [DECK.notation(h) for h in deal_hands(seed, 0)]
    state = game.new_state(seed=seed, deal={"hands": hands})
    state.apply(f"trump:{mode}")
    rng = random.Random(seed)
    for _ in range(36 - cards_left):
        state.apply(rng.choice(state.legal_actions()))
    return state


def timed(states: list[object], engine: str, way: str = "all") -> tuple[list[float], list[int]]:
    """Seconds and nodes of each solve, from an empty table."""
    times, nodes = [], []
    run = solve_value if way == "value" else solve
    for s in states:
        if engine == "c":
            clear_table()  # from scratch: no help from the table of the deal solved before
        t = time.perf_counter()
        run(s, engine=engine)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t)
        if engine == "c":
            nodes.append(solver_module._dds.nodes()[0])
    return times, nodes


def p99(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(0.99 * (len(ys) - 1)))]


def row(label: str, times: list[float], nodes: list[int] | None) -> str:
    rate = f"{sum(nodes) / sum(times):,.0f}" if nodes else "-"
    per = f"{statistics.median(nodes):,.0f}" if nodes else "-"
    return (
        f"{label:<34} {len(times):>5} {statistics.median(times) * 1000:>10.1f} {p99(times) * 1000:>10.1f} "
        f"{statistics.mean(times) * 1000:>10.1f} {max(times) * 1000:>10.1f} {per:>14} {rate:>12}"
    )


WAYS = {"value": "value (solve_value)", "all": "all cards (solve)"}


def one_value(state: object, threads: int = 1) -> tuple[int, int, float, float, float, int]:
    """(nodes, the busiest thread's nodes, CPU s of all threads, the busiest thread's CPU s, wall
    s, margin) of one value from an empty table."""
    clear_table()
    c0, w0, t0 = time.process_time(), time.perf_counter(), time.thread_time()
    v = solve_value(state, engine="c", threads=threads)  # type: ignore[arg-type]
    wall, cpu, own = time.perf_counter() - w0, time.process_time() - c0, time.thread_time() - t0
    nodes = solver_module._dds.nodes()[0]
    if threads == 1:
        return nodes, nodes, cpu, own, wall, v.margin
    halves = solver_module._dds.halves()
    return nodes, max(n for n, _ in halves), cpu, max(c for _, c in halves), wall, v.margin


def at_once(states: list[object]) -> tuple[list[int], list[int], list[float], float, float]:
    """The values of `states` by two Python threads at once, each taking the next position left
    (as pimc's worlds or the deals of `stich analyse` would be shared), each from an empty table of
    its own: (margins in order, nodes of each thread, CPU s of each thread, CPU s of the process,
    wall s)."""
    margins = [0] * len(states)
    nodes, cpu = [0, 0], [0.0, 0.0]
    lock = threading.Lock()
    todo = iter(range(len(states)))
    start = threading.Barrier(2)

    def run(k: int) -> None:
        start.wait()
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            clear_table()  # this thread's table
            t0 = time.thread_time()
            margins[i] = solve_value(states[i], engine="c").margin  # type: ignore[arg-type]
            cpu[k] += time.thread_time() - t0
            nodes[k] += solver_module._dds.nodes()[0]

    c0, w0 = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return margins, nodes, cpu, time.process_time() - c0, time.perf_counter() - w0


def compare_threads(states: list[object]) -> None:
    """One thread against two on `states` (see the module's docstring), side by side."""
    load: tuple[float, ...] = os.getloadavg()
    serial = [one_value(s) for s in states]
    split = [one_value(s, threads=2) for s in states]
    for s, (a, b) in zip(states, zip(serial, split, strict=True), strict=True):
        if a[5] != b[5]:
            raise SystemExit(f"two threads disagree with one on {s}: {b[5]} against {a[5]}")
    margins, nodes, cpu, cpu_all, wall = at_once(states)
    if margins != [x[5] for x in serial]:
        raise SystemExit("two positions at once disagree with one after the other")
    load = (*load, *os.getloadavg())
    print(f"\nOne thread against two, solve_value from an empty table, {len(states)} positions "
          f"(load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores)")  # fmt: skip
    head = f"{'':<40} {'nodes':>12} {'busiest thread':>15} {'CPU s':>8} {'busiest thread s':>17} {'wall s':>8}"
    print(head)

    def line(label: str, nodes: float, most: float, cpu: float, busiest: float, wall: float) -> None:
        print(f"{label:<40} {nodes:>12,.0f} {most:>15,.0f} {cpu:>8.2f} {busiest:>17.2f} {wall:>8.2f}")

    line("one value, one thread", *(sum(x[i] for x in serial) for i in range(5)))
    line("one value, two threads (threads=2)", *(sum(x[i] for x in split) for i in range(5)))
    line(f"{len(states)} values, two threads taking turns", sum(nodes), max(nodes), cpu_all, max(cpu), wall)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=34, help="whole deals per trump mode (C engine)")
    ap.add_argument("--cards", type=int, default=36, help="cards left when the C engine is timed (36: whole deals)")
    ap.add_argument("--ways", default="value,all", help="value, all, or both (value,all): what is solved")
    ap.add_argument("--python-deals", type=int, default=10, help="positions per trump mode for the Python reference")
    ap.add_argument("--python-cards", type=int, default=16, help="cards left in the Python positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2),
                    help="2: compare one thread against two on solve_value (see above) instead")  # fmt: skip
    args = ap.parse_args()
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    if not ways or any(w not in WAYS for w in ways):
        raise SystemExit(f"--ways: {args.ways!r}; give value, all or value,all")
    if not c_available():
        raise SystemExit("the C solver is not built: pip install -e . with a C compiler")
    head = (
        f"{'':<34} {'n':>5} {'median ms':>10} {'p99 ms':>10} {'mean ms':>10} {'max ms':>10} "
        f"{'median nodes':>14} {'nodes/s':>12}"
    )
    what = (
        "Whole deals from the first card (36 cards)" if args.cards == 36 else f"Positions with {args.cards} cards left"
    )
    goal = f"median {TARGET_MEDIAN * 1000:.0f} ms, p99 {TARGET_P99 * 1000:.0f} ms"
    states = {mode: [position(args.seed + 1000 * i + k, mode, args.cards) for k in range(args.deals)]
              for i, mode in enumerate(MODES)}  # fmt: skip
    if args.threads == 2:
        print(what)
        compare_threads([s for mode in MODES for s in states[mode]])
        return
    print(f"{what}; target for a whole deal's value: {goal}")
    print(head)
    summary = []
    for way in ways:
        everything: list[float] = []
        all_nodes: list[int] = []
        for mode in MODES:
            times, nodes = timed(states[mode], "c", way)
            everything += times
            all_nodes += nodes
            print(row(f"C {way}, trump {mode}", times, nodes), flush=True)
        summary.append(row(f"C {WAYS[way]}, all modes", everything, all_nodes))
        print(summary[-1], flush=True)
    target = f"{'target (a whole deal)':<34} {'':>5} {TARGET_MEDIAN * 1000:>10.1f} {TARGET_P99 * 1000:>10.1f}"
    print()
    print(head)
    for line in summary:
        print(line)
    print(target)
    if args.python_deals <= 0:
        return
    print()
    print(f"Positions with {args.python_cards} cards left: the Python reference and C on the same positions")
    print(head)
    py_all: list[float] = []
    c_all: list[float] = []
    c_nodes: list[int] = []
    for i, mode in enumerate(MODES):
        pstates = [position(args.seed + 1000 * i + k, mode, args.python_cards) for k in range(args.python_deals)]
        py, _ = timed(pstates, "python")
        c, nodes = timed(pstates, "c")
        py_all += py
        c_all += c
        c_nodes += nodes
    print(row("Python all cards, all modes", py_all, None))
    print(row("C all cards, all modes", c_all, c_nodes))


if __name__ == "__main__":
    main()
