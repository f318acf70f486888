"""`stich analyse` on worker processes: wall time for a whole Jass game with 1, 2, ... workers.

    .venv/bin/python bench/analyse.py                      # the docs' record, serial and 2 workers
    .venv/bin/python bench/analyse.py --workers 1,2,4 --record game.json --full

The record, unless `--record` names one: the first game of `stich tournament jass --seats
heuristic,random,heuristic,random --deals 1 --seed 7 weis=off stoeck=False target=1000` (the one
docs/analysis.md measures; 9 deals). Each configuration solves every deal of the game as `stich
analyse` does (`parts`, `analyse_part`, `assemble`): "serial" in this process, "process/K" on K
worker processes (`ProcessExecutor`, started for the run as `stich` does). It prints the wall
time, the speed-up over serial, the CPU seconds of each deal (from the serial run) and checks
that every configuration gives the same analysis. Deals differ a lot in cost (the first cards of
a deal are whole-deal searches: seconds to minutes), so K workers gain less than K times when one
deal dominates.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.analysis.review import Analysis, Part, PartResult, analyse_part, assemble, parts
from stichkit.arena import ProcessExecutor
from stichkit.games.jass import JassState

DOCS_RECORD = ["--seats", "heuristic,random,heuristic,random", "--deals", "1", "--seed", "7",
               "weis=off", "stoeck=False", "target=1000"]  # fmt: skip


def docs_record() -> str:
    """The record docs/analysis.md measures, played now (the bots are seeded: the same game)."""
    from rich.console import Console

    from stichkit.cli.main import main

    with tempfile.TemporaryDirectory() as where:
        con = Console(file=io.StringIO())
        code = main(["tournament", "jass", *DOCS_RECORD, "--records", where], console=con)
        assert code == 0, con.file.getvalue()  # type: ignore[attr-defined]
        return (Path(where) / "jass-deal0000-rot0.json").read_text()


def serial(todo: list[Part]) -> tuple[list[PartResult], list[float]]:
    results, cpu = [], []
    for part in todo:
        t0 = time.process_time()
        results.append(analyse_part(part))
        cpu.append(time.process_time() - t0)
    return results, cpu


def pooled(todo: list[Part], workers: int) -> list[PartResult]:
    with ProcessExecutor(workers) as ex:
        return [r for _, r in ex.completed(analyse_part, todo)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", help="a stichkit Jass record (default: the docs' record, played now)")
    ap.add_argument("--workers", default="2", help="worker counts to time, comma-separated (default 2)")
    ap.add_argument("--full", action="store_true", help="solve every card of the first two tricks too (--json's)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    state = stichkit.replay(Path(args.record).read_text() if args.record else docs_record())
    if not isinstance(state, JassState):
        sys.exit(f"{args.record} is a {state.game.name} record, not Jass")
    todo = parts(state, full=args.full)
    cards = sum(p.cards for p in todo)

    t0 = time.perf_counter()
    results, cpu = serial(todo)
    rows: dict[str, Any] = {"serial": time.perf_counter() - t0}
    reference: Analysis = assemble(state, results)
    for k in counts:
        t0 = time.perf_counter()
        again = assemble(state, pooled(todo, k))
        rows[f"process/{k}"] = time.perf_counter() - t0
        assert again == reference, f"process/{k} gave another analysis"
    out = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}",
        "record": args.record or "docs (heuristic,random seed 7, first game)",
        "deals": len(todo),
        "cards": cards,
        "full": args.full,
        "deal_cpu_seconds": [round(c, 2) for c in cpu],
        "wall_seconds": {k: round(v, 2) for k, v in rows.items()},
        "speedup": {k: round(rows["serial"] / v, 2) for k, v in rows.items()},
        "same_analysis": True,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['machine']}; {out['deals']} deals, {cards} cards, full={args.full}")
    print("CPU seconds per deal (serial):", " ".join(f"{c:.1f}" for c in cpu), f"(sum {sum(cpu):.1f})")
    print(f"{'where':<12} {'wall s':>8} {'speed-up':>9}")
    for where, v in rows.items():
        print(f"{where:<12} {v:8.1f} {rows['serial'] / v:8.2f}x")
    print("every configuration gave the same analysis")


if __name__ == "__main__":
    main()
