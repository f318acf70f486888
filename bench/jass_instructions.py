#!/usr/bin/env python3
"""Instructions per Jass deal, stichkit vs. jass-kit, counted by valgrind (callgrind).

Wall-clock numbers on a shared machine move by 20% from run to run; instruction counts do
not. Each engine runs the same random playouts as jass_playout.py, twice, with a short and
a long run under `valgrind --tool=callgrind`; the difference of the two totals divided by
the difference in deals is the cost of one deal, with interpreter start-up and imports
cancelled out. Both are counted in the same way, so their ratio is a noise-free companion
to the deals/s ratio (it ignores how many instructions each cycle retires).

    .venv-bench/bin/python bench/jass_instructions.py            # needs valgrind
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

DRIVER = """
import sys
sys.path.insert(0, {here!r})
import jass_playout as jp
run = jp.jasskit_runner("state") if {side!r} == "jass-kit" else jp.stichkit_runner({profile!r}, 1000, False)
run({deals}, 1)
"""


def instructions(side: str, deals: int, profile: str) -> int:
    code = DRIVER.format(here=str(HERE), side=side, deals=deals, profile=profile)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    found = re.search(r"Collected\s*:\s*(\d+)", out)
    if not found:
        raise RuntimeError(f"valgrind printed no instruction count:\n{out[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--short", type=int, default=50, help="deals in the short run (default 50)")
    ap.add_argument("--long", type=int, default=250, help="deals in the long run (default 250)")
    ap.add_argument("--profile", choices=("seed", "schieber"), default="seed")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    per_deal = {}
    for side in ("stichkit", "jass-kit"):
        try:
            a = instructions(side, args.short, args.profile)
            b = instructions(side, args.long, args.profile)
        except subprocess.CalledProcessError as exc:
            print(f"{side}: the run failed:\n{exc.stderr[-1500:]}", file=sys.stderr)
            continue
        per_deal[side] = (b - a) / (args.long - args.short)
        print(f"{side:9s} {per_deal[side]:>12,.0f} instructions per deal")
    if len(per_deal) == 2:
        print(f"ratio jass-kit/stichkit (instructions per deal): {per_deal['jass-kit'] / per_deal['stichkit']:.2f}x")
    return 0 if per_deal else 1


if __name__ == "__main__":
    sys.exit(main())
