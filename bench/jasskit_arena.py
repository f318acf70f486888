"""jass-kit's own arena against stichkit bots served by `stich serve-bot`, over loopback HTTP.

North and South are a stichkit bot behind jass-kit's remote-player protocol (jass-kit's
`AgentByNetwork`, its tournament client); East and West are jass-kit's random player. jass-kit's
arena checks every card against its rules; a stand-in move (the served bot failed or was late)
is counted from AgentByNetwork's log. Prints, per bot, the mean trick points of each team per
deal (jass-kit counts trick points only: 157 a deal) with a 95% interval, and how long it took.

Needs jass-kit (pip install -e '.[dev]', or the bench venv: bench/requirements.txt):

    .venv/bin/python bench/jasskit_arena.py                                  # heuristic and ismcts
    .venv/bin/python bench/jasskit_arena.py --bots heuristic ismcts:time=0.5 --deals 300 --json
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
from jass.agents.agent_by_network import AgentByNetwork
from jass.agents.agent_random_schieber import AgentRandomSchieber
from jass.arena.arena import Arena

ROOT = Path(__file__).resolve().parent.parent


class Fallbacks(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += record.levelno >= logging.ERROR


def serve(bots: list[str], timeout: float, seed: int) -> tuple[subprocess.Popen[str], str]:
    names = [f"b{i}={spec}" for i, spec in enumerate(bots)]
    cmd = [sys.executable, "-c", "import sys; from stichkit.cli.main import main; sys.exit(main())", "serve-bot",
           *names, "--port", "0", "--timeout", str(timeout), "--seed", str(seed)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    assert proc.stdout is not None
    base = ""
    for line in proc.stdout:
        m = re.search(r"at (http://[\d.]+:\d+)/", line)
        base = m.group(1) if m else base
        if line.startswith("answers within"):
            return proc, base
    raise SystemExit("stich serve-bot did not start")


def play(url: str, deals: int, seed: int, timeout: float) -> dict[str, Any]:
    np.random.seed(seed)
    east, west = AgentRandomSchieber(), AgentRandomSchieber()
    east._rng, west._rng = np.random.default_rng(seed + 1), np.random.default_rng(seed + 2)
    arena = Arena(nr_games_to_play=deals, print_every_x_games=10**9, check_move_validity=True)
    arena.set_players(AgentByNetwork(url, timeout=timeout), east, AgentByNetwork(url, timeout=timeout), west)
    start = time.perf_counter()
    arena.play_all_games()
    seconds = time.perf_counter() - start
    served = arena.points_team_0[:deals]
    half = 1.96 * float(np.std(served, ddof=1)) / math.sqrt(deals) if deals > 1 else float("nan")
    return {"deals": deals, "served_points": float(served.mean()), "ci95": half,
            "random_points": float(arena.points_team_1[:deals].mean()), "seconds": seconds}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs="+", default=["heuristic", "ismcts:time=0.25"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=10.0, help="AgentByNetwork's and serve-bot's limit")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    handler = Fallbacks()
    logging.getLogger("jass.agents.agent_by_network").addHandler(handler)
    proc, base = serve(args.bots, args.timeout, args.seed)
    rows = []
    try:
        for i, spec in enumerate(args.bots):
            before = handler.count
            row = {"bot": spec, **play(f"{base}/b{i}", args.deals, args.seed, args.timeout)}
            row["stand_in_moves"] = handler.count - before
            rows.append(row)
            if not args.json:
                print(f"{spec:>24}: {row['served_points']:6.1f} ± {row['ci95']:4.1f} points a deal "
                      f"(jass-kit random {row['random_points']:5.1f}) over {row['deals']} deals, "
                      f"{row['seconds']:.0f} s, stand-in moves {row['stand_in_moves']}", flush=True)  # fmt: skip
        with urllib.request.urlopen(base + "/") as r:
            served = json.load(r)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    result = {"rows": rows, "server": {k: served[k] for k in ("answers", "late", "refused", "timeout")}}
    print(json.dumps(result, indent=2) if args.json else f"server: {result['server']}")


if __name__ == "__main__":
    main()
