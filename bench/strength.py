"""Bot strength and speed per game, at each game's usual player count (docs/benchmarks.md).

    .venv/bin/python bench/strength.py                       # the full figures: 1 s per decision, 100 deals
    .venv/bin/python bench/strength.py --time 0.1 --deals 5  # a reduced run (minutes, not hours)
    .venv/bin/python bench/strength.py --records runs/strength  # resumable: games on disk are not replayed

For every game it prints:
- `heuristic` vs `random`, seats H,R,H,R on duplicate deals (every deal played from both sides):
  heuristic's share of the wins with its 95% interval (goal: at least 80%);
- `ismcts` (at `--time` seconds per decision) vs `heuristic`, seats I,H,I,H: ismcts's share of
  the wins with its 95% interval (goal: the interval above the even share, 50%);
- decisions per second of `random` and `heuristic` (taken from those games), and ISMCTS
  iterations per second on one core, measured on `--positions` mid-game positions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.arena import GameResult, parse_bot, run_tournament, schedule, summarize
from stichkit.arena.records import read_finished, write_record
from stichkit.bots import ISMCTSBot, make
from stichkit.bots.heuristic import policy_for
from stichkit.core import State


def duel(game: stichkit.Game, a: str, b: str, deals: int, seed: int, workers: int,
         records: Path | None = None) -> dict[str, Any]:  # fmt: skip
    """`a` against `b` on alternating seats; with `records`, every game is kept there as it ends,
    and games already there (an interrupted or shorter run) are read back instead of played."""
    n = game.num_players
    specs = [parse_bot(a if s % 2 == 0 else b) for s in range(n)]
    finished = {}
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        finished = read_finished(records, schedule(game, specs, deals, seed))

    def keep(r: GameResult) -> None:
        if records is not None:
            write_record(records, game.name, r)

    t0 = time.perf_counter()
    results = run_tournament(game, specs, deals, seed, workers=workers, records=records is not None,
                             on_result=keep, finished=finished)  # fmt: skip
    summary = summarize(game, specs, deals, seed, results)
    summary["wall_seconds"] = time.perf_counter() - t0
    summary["resumed_games"] = len(finished)
    return summary


def row(summary: dict[str, Any], label: str) -> dict[str, Any]:
    return next(r for r in summary["bots"] if r["bot"] == label)


def mid_game_positions(game: stichkit.Game, count: int, seed: int) -> list[State]:
    """Positions after 0-39 random moves, each with a real choice to make (the speed benches' input)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = game.new_state(seed=seed + k)
        for _ in range(rng.randrange(0, 40)):
            state.apply(rng.choice(state.legal_actions()))
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        out.append(state)
    return out


def iterations_per_second(game: stichkit.Game, seconds: float, positions: int, seed: int) -> float:
    done = spent = 0.0
    for k, state in enumerate(mid_game_positions(game, positions, seed)):
        bot = make("ismcts", time=seconds, seed=k)
        assert isinstance(bot, ISMCTSBot)
        bot.choose(state, state.current_player)  # type: ignore[arg-type]
        done += bot.last_stats["iterations"]
        spent += bot.last_stats["seconds"]
    return done / spent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(stichkit.game_names()), help="comma-separated (default: all)")
    ap.add_argument("--time", type=float, default=1.0, help="ismcts seconds per decision (default 1.0)")
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals per comparison (default 100)")
    ap.add_argument("--heuristic-deals", type=int, help="deals for heuristic vs random (default: --deals)")
    ap.add_argument("--positions", type=int, default=10, help="positions for the iterations/s figure")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--skip-ismcts-duel", action="store_true",
                    help="only the speed figures and heuristic vs random (minutes instead of hours)")  # fmt: skip
    ap.add_argument("--records", type=Path, metavar="DIR",
                    help="keep every game's record in DIR/<game>-<bots>/ and resume from what is there")  # fmt: skip
    args = ap.parse_args()
    out: dict[str, Any] = {"time": args.time, "deals": args.deals, "seed": args.seed, "workers": args.workers,
                           "games": {}}  # fmt: skip
    for name in args.games.split(","):
        game = stichkit.load_game(name)
        res: dict[str, Any] = {"players": game.num_players}
        ips = iterations_per_second(game, min(args.time, 0.5), args.positions, args.seed)
        res["ismcts_iterations_per_second"] = ips
        if policy_for(name) is None:
            res["note"] = "no heuristic bot: comparisons skipped"
        else:
            hr = duel(game, "heuristic", "random", args.heuristic_deals or args.deals, args.seed, args.workers,
                      where(args.records, name, "heuristic-vs-random"))  # fmt: skip
            h, r = row(hr, "heuristic"), row(hr, "random")
            res["heuristic_vs_random"] = {"win_share": h["win_share"], "ci95": h["win_share_ci95"],
                                          "games": hr["games"], "resumed_games": hr["resumed_games"]}  # fmt: skip
            res["decisions_per_second"] = {"heuristic": per_second(h["seconds_per_decision"]),
                                           "random": per_second(r["seconds_per_decision"])}  # fmt: skip
            if args.skip_ismcts_duel:
                res["note"] = "ismcts vs heuristic skipped (--skip-ismcts-duel)"
            else:
                ih = duel(game, f"ismcts:time={args.time}", "heuristic", args.deals, args.seed, args.workers,
                          where(args.records, name, f"ismcts-{args.time}-vs-heuristic"))  # fmt: skip
                i = row(ih, f"ismcts:time={args.time}")
                res["ismcts_vs_heuristic"] = {"win_share": i["win_share"], "ci95": i["win_share_ci95"],
                                              "games": ih["games"], "mean_score": i["mean_score"],
                                              "heuristic_mean_score": row(ih, "heuristic")["mean_score"],
                                              "ismcts_seconds_per_decision": i["seconds_per_decision"],
                                              "wall_seconds": ih["wall_seconds"],
                                              "resumed_games": ih["resumed_games"]}  # fmt: skip
        out["games"][name] = res
        if not args.json:
            print(format_game(name, res), flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


def where(records: Path | None, game: str, duel: str) -> Path | None:
    return None if records is None else records / f"{game}-{duel}"


def per_second(seconds_per_decision: float | None) -> float | None:
    """Decisions per second; None when no game's thinking time is known (all read from old records)."""
    return 1 / seconds_per_decision if seconds_per_decision else None


def _num(x: float | None, fmt: str) -> str:
    return "?" if x is None else format(x, fmt)


def format_game(name: str, res: dict[str, Any]) -> str:
    lines = [f"{name} ({res['players']} players): ISMCTS {res['ismcts_iterations_per_second']:,.0f} iterations/s"]
    dps = res.get("decisions_per_second")
    if dps:
        lines.append(f"  decisions/s: heuristic {_num(dps['heuristic'], ',.0f')}, random {_num(dps['random'], ',.0f')}")
    hr = res.get("heuristic_vs_random")
    if hr:
        share = f"{hr['win_share']:.1%} ± {hr['ci95'] or 0:.1%}"
        lines.append(f"  heuristic vs random: win share {share} ({hr['games']} games)")
    ih = res.get("ismcts_vs_heuristic")
    if ih:
        share = f"{ih['win_share']:.1%} ± {ih['ci95'] or 0:.1%}"
        lines.append(f"  ismcts vs heuristic: win share {share} ({ih['games']} games;"
                     f" mean score {ih['mean_score']:.1f} vs {ih['heuristic_mean_score']:.1f};"
                     f" {_num(ih['ismcts_seconds_per_decision'], '.3f')} s/decision)")  # fmt: skip
    if "note" in res:
        lines.append("  " + res["note"])
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
