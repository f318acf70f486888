"""Points per deal of each bot's team in a Jass tournament's records (`stich tournament --records`).

A whole game to 1000 points is won or lost by a few deals' luck; the mean points a team makes
per complete deal show a policy's strength with far fewer games. Prints JSON: per bot spec, its
team's mean points per deal, the other team's, the mean margin with its 95% interval, and the
number of deals.

    stich tournament jass --seats P,random,P,random --deals 30 --seed 2026 --records runs/rec
    python examples/deal_points.py runs/rec
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from stichkit.core.record import replay


def deal_margins(records: Path) -> dict[str, dict[str, Any]]:
    """Per bot spec: its team's and the other team's points of every complete deal."""
    own: dict[str, list[int]] = {}
    other: dict[str, list[int]] = {}
    for path in sorted(records.glob("jass-*.json")):
        record = json.loads(path.read_text())
        state = replay(record)
        deals = [d for d in state.view(0)["previous_deals"] if d["complete"]]
        for team in (0, 1):
            bot = record["players"][team]
            own.setdefault(bot, []).extend(d["total"][team] for d in deals)
            other.setdefault(bot, []).extend(d["total"][1 - team] for d in deals)
    out = {}
    for bot in own:
        margins = [a - b for a, b in zip(own[bot], other[bot], strict=True)]
        n = len(margins)
        mean = sum(margins) / n
        sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1)) if n > 1 else 0.0
        out[bot] = {
            "points_per_deal": round(sum(own[bot]) / n, 2),
            "other_points_per_deal": round(sum(other[bot]) / n, 2),
            "margin_per_deal": round(mean, 2),
            "margin_ci95": round(1.96 * sd / math.sqrt(n), 2),
            "deals": n,
        }
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("records", type=Path, help="the directory `stich tournament --records` wrote")
    args = p.parse_args(argv)
    print(json.dumps(deal_margins(args.records), indent=2))


if __name__ == "__main__":
    main()
