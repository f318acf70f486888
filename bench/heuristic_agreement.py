"""How often each bot of some Jass records played the card the Jass heuristic would have played.

    .venv/bin/python bench/heuristic_agreement.py DIR_OR_FILE...
    .venv/bin/python bench/heuristic_agreement.py runs/pimc-vs-ismcts --limit 20

pimc's card inference (`infer=play`) models every other player as the heuristic with a miss
rate; `infer=calibrated` measures that rate per player during a game and models only players
whose cards are mostly the heuristic's. This script gives the rates on whole records, from the
real hands: for every card decision with at least two legal cards, the heuristic is asked
(without random tie-breaks) with the view the seat had then, and the card played is compared.
Each bot is named by its label in the record's `players`. The record's seats are walked back
with `undo` from the replayed end, so each game costs one replay.

Measured 2026-11-24 on the archived games of bench/results (pimc-1s-ismcts-2026-11-23: 112
games of pimc at time=1.0 against ismcts at 1 s; pimc-play-2026-11-23: 80 against the
heuristic): ismcts 52.5% of 14,005 unforced card decisions, pimc 57.1% and 56.7%, the heuristic
95.8% of 9,607 (the rest: its random tie-breaks), with about 4.1 legal cards a decision (a
player choosing at random: one in k, about a quarter to a third).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stichkit.bots.jass_heuristic import decide
from stichkit.bots.pimc import TRUMP_ACTION
from stichkit.core.record import replay


def agreement(record: dict[str, Any]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Per player label: the heuristic's cards played, unforced card decisions, legal cards summed."""
    hits: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    players = record["players"]
    state = replay(record)
    for move in reversed(record["moves"]):
        if "seat" not in move:
            continue  # a deal: undone with the first card of that deal
        state.undo()
        seat: int = move["seat"]
        assert state.current_player == seat
        actions = state.legal_actions()
        if len(actions) < 2 or actions[0].id >= TRUMP_ACTION:
            continue
        label = players[seat % len(players)]
        decisions[label] += 1
        legal[label] += len(actions)
        hits[label] += decide(state.view(seat), None) == move["action"]
    return hits, decisions, legal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="record files or folders of them (stich tournament --records)")
    ap.add_argument("--limit", type=int, help="at most this many records")
    args = ap.parse_args()
    files = [f for p in map(Path, args.paths) for f in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    hits: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    games = 0
    for f in files:
        if games == args.limit:
            break
        record = json.loads(f.read_text())
        if not isinstance(record, dict) or record.get("format") != "stichkit-record" or record.get("game") != "jass":
            continue  # the folder's index and summaries
        h, d, k = agreement(record)
        hits, decisions, legal = hits + h, decisions + d, legal + k
        games += 1
    if not games:
        raise SystemExit("no Jass records found")
    print(f"{games} games")
    for label in sorted(decisions):
        n = decisions[label]
        print(f"{label}: {hits[label] / n:.1%} of {n} unforced card decisions were the heuristic's card "
              f"({legal[label] / n:.1f} legal cards a decision)")  # fmt: skip


if __name__ == "__main__":
    main()
