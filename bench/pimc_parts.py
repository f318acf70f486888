"""Where does pimc gain against heuristic: in its trump and push choice, or in its card play?

    .venv/bin/python bench/pimc_parts.py                       # 100 deals, pimc at time=1.0
    .venv/bin/python bench/pimc_parts.py --deals 20 --pimc pimc:time=0.25 --workers 2
    .venv/bin/python bench/pimc_parts.py --only early --json early.json

Three comparisons on the same duplicate deals (bench/heuristic_fixes.py's `compare`: one deal a
game, each deal twice with the seats swapped, the new side's points per deal minus heuristic's,
Weis and Stöck included, with a 95% interval over the deals):

- `pimc` against `heuristic`: everything pimc does;
- `pimc-trump` against `heuristic`: pimc's trump and push choice, the heuristic's cards;
- `pimc-cards` against `heuristic`: the heuristic's trump and push choice, pimc's cards (before
  pimc's `horizon`, ismcts's cards, as in pimc itself).

And on the same deals, pimc against itself (`--only early`):

- `pimc:early=playout` against `pimc` (early=ismcts): the cards before pimc's `horizon` valued
  by the heuristic's play to `trump_horizon` and a solve, against ismcts's search.

And (`--only versus`) any two bots head to head, `--pimc` against `--opponent`, with the share of
the duplicate deals the first side won on points (a tie counts half) and its 95% interval:

    .venv/bin/python bench/pimc_parts.py --only versus --pimc pimc:time=0.5:within=20 --opponent pimc:time=0.5

And (`--only infer`) the card inference: each `--infer` value (default `play,trump`: worlds
weighed by the others' cards too, and by the trump choice only) against
`--opponent` (heuristic unless named, e.g. `ismcts:time=1.0`) on the same deals, then every two
set against each other deal by deal, with a 95% interval for the difference. With `--baseline
FILE` (the JSON of an earlier run on the same deals, seed and profile) the sides that file holds
are read from it instead of played; in a file from before infer=play was the default, pimc
without an `infer` parameter is the infer=trump side. (`infer=calibrated` learns from a game's
earlier deals: on these single deals it models no one's cards, like infer=trump, but weighs the
trump decisions among 8 candidate worlds, like infer=play, not 4; whole games through
`stich tournament` measure the rest.)

    .venv/bin/python bench/pimc_parts.py --only infer --opponent ismcts:time=1.0 --deals 50
    .venv/bin/python bench/pimc_parts.py --only infer --baseline bench/results/pimc-parts-2026-11-23.json

The two parts need not add up to the whole (a better trump choice gives the card play other
deals), but they say which part is worth improving. `pimc-trump` and `pimc-cards` exist only in
this script. Timings are not the point; a loaded machine gives pimc fewer worlds.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from heuristic_fixes import compare, show

from stichkit.arena.stats import mean_ci
from stichkit.bots import PIMCBot, make, register
from stichkit.bots.pimc import TRUMP_ACTION
from stichkit.core import Action, State


def trump_decision(state: State | Mapping[str, Any]) -> bool:
    return isinstance(state, State) and state.legal_actions()[0].id >= TRUMP_ACTION


class Parts(PIMCBot):
    """pimc with the heuristic, seeded alike, at hand for the part it does not play."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.heuristic = make("heuristic", seed=self.seed)


class PimcTrump(Parts):
    """pimc's trump and push choice; every card by the heuristic."""

    name = "pimc-trump"
    cheats: ClassVar[bool] = False

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if trump_decision(state_or_view):
            return super().choose(state_or_view, seat)
        return self.heuristic.choose(state_or_view, seat)


class PimcCards(Parts):
    """The heuristic's trump and push choice; every card by pimc."""

    name = "pimc-cards"
    cheats: ClassVar[bool] = False

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if trump_decision(state_or_view):
            return self.heuristic.choose(state_or_view, seat)
        return super().choose(state_or_view, seat)


register(PimcTrump)
register(PimcCards)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals per comparison (100)")
    ap.add_argument("--pimc", default="pimc:time=1.0:horizon=28:trump_horizon=24",
                    help="the pimc bot and its parameters (default: the full budget, 1 s a decision)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", default="schieber")
    ap.add_argument("--only", choices=("parts", "early", "infer", "versus"),
                    help="only the three part runs, only early=playout, only the --infer values, or only --pimc "
                         "against --opponent")  # fmt: skip
    ap.add_argument("--opponent", default="heuristic",
                    help="--only infer: the bot both sides play against; --only versus: pimc's opponent "
                         "(heuristic)")  # fmt: skip
    ap.add_argument("--infer", default="play,trump",
                    help="--only infer: the infer values to set against each other (play,trump)")  # fmt: skip
    ap.add_argument("--baseline", metavar="FILE",
                    help="--only infer: an earlier run's JSON; the sides it holds are read, not played")  # fmt: skip
    ap.add_argument("--json", metavar="FILE", help="also write every result (per-deal figures too) to FILE")
    args = ap.parse_args()
    params = args.pimc.partition(":")[2]
    runs = []
    known: list[dict[str, Any]] = []
    if args.only == "infer":
        for value in args.infer.split(","):
            spec = with_param(args.pimc, "infer", value)
            found = from_baseline(Path(args.baseline), spec, args.opponent, args.deals, args.seed, args.profile) \
                if args.baseline else None  # fmt: skip
            if found is not None:
                known.append(found)
            else:
                runs.append((spec, args.opponent))
    if args.only == "versus":
        runs.append((args.pimc, args.opponent))
    if args.only in (None, "early"):
        runs.append((args.pimc + ":early=playout", args.pimc))
    if args.only in (None, "parts"):
        runs += [
            (name + (":" + params if params else ""), "heuristic") for name in ("pimc-trump", "pimc-cards", "pimc")
        ]
    results = []
    for new, old in runs:
        r = compare(new, old, args.deals, args.seed, args.profile, args.workers)
        show(r)
        if args.only == "versus":
            won = [1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in r["per_deal"]]
            share, half = mean_ci(won)
            r["deal_share"], r["deal_share_ci95"] = share, half
            print(f"  deals won on points by {new}: {share:.1%} ± {half or 0:.1%} (95%; a tie counts half)")
        results.append(r)
        if args.json:  # after each run: a long run interrupted keeps what it finished
            Path(args.json).write_text(json.dumps(results, indent=1))
    if args.only == "infer":
        sides = {r["new"]: r for r in [*known, *results]}
        order = [sides[with_param(args.pimc, "infer", v)] for v in args.infer.split(",")]
        for i, side in enumerate(order):
            for other in order[i + 1 :]:
                paired(side, other)


def with_param(spec: str, key: str, value: str) -> str:
    """`spec` with `key=value` in place of any `key` it had (appended at its end)."""
    name, *params = spec.split(":")
    return ":".join([name, *(p for p in params if p.partition("=")[0] != key), f"{key}={value}"])


def from_baseline(path: Path, spec: str, opponent: str, deals: int, seed: int, profile: str) -> dict[str, Any] | None:
    """The run of `spec` against `opponent` on the same deals in an earlier run's JSON, or None. A
    file from before infer=play was the default names infer=trump's side without `infer`."""
    want = {spec}
    if spec.endswith(":infer=trump"):
        want.add(spec.removesuffix(":infer=trump"))
    for r in json.loads(path.read_text()):
        if (r["new"] in want and r["old"] == opponent and r["seed"] == seed and r["deals"] == deals
                and r["profile"] == profile):  # fmt: skip
            return dict(r, new=spec)
    return None


def paired(new: dict[str, Any], old: dict[str, Any]) -> None:
    """One infer side's points per deal against another's, both against the same opponent, deal by deal."""
    mean, half = mean_ci([a - b for a, b in zip(new["per_deal"], old["per_deal"], strict=True)])
    ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]" if half is not None else ""
    print(f"{new['new']} against {old['new']}, both against {new['old']}, deal by deal: "
          f"{mean:+.2f} points per deal, 95% {ci}")  # fmt: skip


if __name__ == "__main__":
    main()
