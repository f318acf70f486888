#!/usr/bin/env python3
"""What each technique of the C solver gives, in nodes and time, on the same positions.

Every configuration solves the same positions from an empty table (`solve_value`, and with
`--ways all` also `solve`), the values are checked to be the same as the baseline's, and the
nodes and CPU seconds are printed beside the baseline's. Nodes do not depend on the machine's
load; CPU seconds do a little (caches shared with other work): say how loaded it was.

The techniques (`stichkit.native._jass.tune`; docs/analysis.md, "Speed", has the figures):

- `bounds`: sure points checked at every card, not only at a trick's start (the trick's points
  once nobody still to play can beat its winner; the top trumps one team holds);
- `two_tricks`: the last two tricks by a straight-line alpha-beta without the table;
- `absolute_key`: the table keyed on the hands as they are instead of by relative rank with the
  points kept (what the relative key, on since the solver's first version, is worth);
- `fixed=K`: from K tricks left, a null window is first tried with one side's moves fixed to its
  first-ordered card (a bound that may settle it with a smaller search).

    .venv/bin/python bench/solver_techniques.py                       # 28 and 32 cards left
    .venv/bin/python bench/solver_techniques.py --cards 28 --deals 4 --configs bounds,two_tricks
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver import MODES, position  # bench/, this script's folder

from stichkit import native
from stichkit.analysis import solve, solve_value
from stichkit.analysis.solver import clear_table

J: Any = native.load()


def configure(config: str) -> dict[str, int]:
    """`name` or `name=value` joined by `+`; the baseline is `base`."""
    out: dict[str, int] = {}
    if config == "base":
        return out
    for part in config.split("+"):
        name, _, value = part.partition("=")
        out[name] = int(value) if value else 1
    return out


def run(states: list[object], config: str, way: str) -> tuple[list[int], list[float], list[object]]:
    settings = configure(config)
    old = {name: J.tune(name, value) for name, value in settings.items()}
    nodes: list[int] = []
    seconds: list[float] = []
    values: list[object] = []
    try:
        for s in states:
            clear_table()
            t = time.process_time()
            values.append(solve_value(s).value if way == "value" else solve(s).values)  # type: ignore[arg-type]
            seconds.append(time.process_time() - t)
            nodes.append(J.nodes()[0])
    finally:
        for name, value in old.items():
            J.tune(name, value)
    return nodes, seconds, values


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", default="28,32", help="cards left, comma-separated")
    ap.add_argument("--deals", type=int, default=4, help="positions per trump mode and card count")
    ap.add_argument("--configs", default="bounds,two_tricks,absolute_key,fixed=4,fixed=6,bounds+two_tricks")
    ap.add_argument("--ways", default="value")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if J is None:
        raise SystemExit("the C extension is not built")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU seconds, tables cleared per solve")
    for way in args.ways.split(","):
        for cards in (int(c) for c in args.cards.split(",")):
            states = [
                position(args.seed + 1000 * i + k, m, cards) for i, m in enumerate(MODES) for k in range(args.deals)
            ]
            base_nodes, base_sec, base_values = run(states, "base", way)
            print(f"\n{way}, {cards} cards left, {len(states)} positions")
            print(f"{'technique':<26} {'nodes':>12} {'vs base':>8} {'median':>10} {'CPU s':>8} {'vs base':>8}")
            print(f"{'base':<26} {sum(base_nodes):>12,} {'':>8} {statistics.median(base_nodes):>10,.0f} "
                  f"{sum(base_sec):>8.2f}")  # fmt: skip
            for config in args.configs.split(","):
                nodes, sec, values = run(states, config, way)
                if values != base_values:
                    raise SystemExit(f"{config}: the values differ from the baseline's")
                print(f"{config:<26} {sum(nodes):>12,} {sum(nodes) / sum(base_nodes):>8.2f} "
                      f"{statistics.median(nodes):>10,.0f} {sum(sec):>8.2f} {sum(sec) / sum(base_sec):>8.2f}",
                      flush=True)  # fmt: skip
            # the baseline again, to see how much the machine's load moved the seconds
            _, sec, _ = run(states, "base", way)
            print(f"{'base (again)':<26} {'':>12} {'':>8} {'':>10} {sum(sec):>8.2f} {sum(sec) / sum(base_sec):>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
