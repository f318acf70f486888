"""Does each of the 2026-11 fixes to the Jass heuristic and ismcts gain points? Old against new on
duplicate Jass deals.

    .venv/bin/python bench/heuristic_fixes.py                          # the published figures
    .venv/bin/python bench/heuristic_fixes.py --deals 200 --ismcts-deals 10   # a quick look

Each comparison plays `--deals` deals (Schieber profile by default, Weis on), every deal twice
with the same cards: once with the new bot at seats 0 and 2, once at seats 1 and 3 (the arena's
duplicate rotations and bot seeds, `stichkit.arena`). A game is one deal (the game runs to a
target it never reaches, and stops when the next deal begins), so the figure is points per deal:
for every deal, the new team's points minus the old team's, averaged over both seatings; printed
as the mean with its 95% interval (Student's t over the deals) and the number of deals. Where
old and new make the same decisions the two seatings cancel exactly, so only the positions a fix
changes move the figure.

Comparisons (each fix alone against the old heuristic, then all together):
- `heuristic:fixes=keep` vs `heuristic:fixes=none`: trump keep values follow the fallen trumps;
- `heuristic:fixes=bour` vs `heuristic:fixes=none`: a long suit headed by the Bour is named;
- `heuristic` vs `heuristic:fixes=none`;
- `ismcts:iterations=N` vs `ismcts:iterations=N:push=search` (`--iterations`, default 300): the
  partner's choice after a push made by the heuristic in every sampled world, against the tree.
  Also the push share of each side's forehand decisions.

In the `heuristic` vs `fixes=none` games it also collects every position where the partner
is winning the trick with a trump no unseen trump beats (the Bour, or the Nell once the Bour is
out) and the mover may give up its Nell or trump Ace but need not, and asks both the old and the
new heuristic what they play there: how often each gives the Nell / the Ace away.

Timings are not the point here, but the machine may be loaded: the run takes minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.arena import parse_bot
from stichkit.arena.duplicate import BotSpec, bot_seed, rotations
from stichkit.arena.executors import make_executor
from stichkit.arena.stats import mean_ci
from stichkit.bots import jass_heuristic
from stichkit.games.jass import JassState
from stichkit.games.jass.cards import ACE, DECK, NINE, STRENGTH
from stichkit.games.jass.game import MAX_TARGET

CARD = DECK.index


@dataclass(frozen=True)
class DealTask:
    profile: str
    specs: tuple[BotSpec, ...]  # by seat, already rotated
    deal: int
    seed: int  # the game seed: the cards
    rotation: int
    giveups: bool  # collect the give-up positions (Nell / Ace under a sure partner trick)


def sure_partner_trick(view: dict[str, Any]) -> bool:
    """The partner leads the trick in progress with a trump that no unseen trump beats."""
    mode = jass_heuristic.MODE_OF[view["trump"]]
    trick = view["trick"]
    if mode >= 4 or not trick:
        return False
    led = CARD[trick[0]["card"]] // 9
    strength = STRENGTH[mode][led]
    best = max(trick, key=lambda p: strength[CARD[p["card"]]])
    card = CARD[best["card"]]
    if best["seat"] != (view["seat"] + 2) % 4 or card // 9 != mode:
        return False
    gone = jass_heuristic.mask_of(view["hand"])
    for t in view["tricks"]:
        gone |= jass_heuristic.mask_of(t["cards"])
    gone |= jass_heuristic.mask_of([p["card"] for p in trick])
    return not jass_heuristic.ABOVE[mode][card] & ~gone


def giveup_kind(view: dict[str, Any]) -> str | None:
    """'nell' or 'ace' if the mover may play its Nell or trump Ace on a sure partner trick but need
    not: another legal card is a side card or a trump that is not itself the highest left (giving
    one of two top trumps when nothing else is legal costs nothing: both take a trick anyway)."""
    if view["phase"] != "play" or not sure_partner_trick(view):
        return None
    mode = jass_heuristic.MODE_OF[view["trump"]]
    gone = jass_heuristic.mask_of(view["hand"])
    for t in view["tricks"]:
        gone |= jass_heuristic.mask_of(t["cards"])
    gone |= jass_heuristic.mask_of([p["card"] for p in view["trick"]])
    top = (mode * 9 + NINE, mode * 9 + ACE)
    legal = [CARD[c] for c in view["legal_actions"]]
    others = [c for c in legal if c not in top and (c // 9 != mode or jass_heuristic.ABOVE[mode][c] & ~gone)]
    if not others:
        return None
    for kind, card in zip(("nell", "ace"), top, strict=True):
        if card in legal:
            return kind
    return None


def play_deal(task: DealTask) -> dict[str, Any]:
    """One deal, both teams' points, forehand decisions per label, give-up counts."""
    game = stichkit.load_game("jass", profile=task.profile, target=MAX_TARGET)
    state = cast(JassState, game.new_state(seed=task.seed))
    # Seeded by deal and seat, not by rotation (unlike a tournament): the old and the new bot at a
    # seat break ties alike, so where they decide alike both seatings give the same deal.
    players = [spec.make(bot_seed(task.seed, 0, s)) for s, spec in enumerate(task.specs)]
    forehand: Counter[str] = Counter()
    pushes: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    giveups: Counter[str] = Counter()  # e.g. "nell positions", "nell old", "nell new"
    while not state.is_terminal() and state.deals_played == 1:
        seat = state.current_player
        assert seat is not None
        label = task.specs[seat].label
        view = state.view(seat)
        action = str(players[seat].choose(state, seat))
        if view["phase"] == "trump":
            forehand[label] += 1
            pushes[label] += action == "push"
        if action.startswith("trump:"):
            calls[f"{label} {action}"] += 1
        if task.giveups and (kind := giveup_kind(view)) is not None:
            card = DECK.names[jass_heuristic.MODE_OF[view["trump"]] * 9 + (NINE if kind == "nell" else ACE)]
            giveups[f"{kind} positions"] += 1
            for name, fixes in (("old", frozenset()), ("new", jass_heuristic.ALL_FIXES)):
                giveups[f"{kind} {name}"] += jass_heuristic.decide(view, None, fixes) == card
        state.apply(action)
    scores = state.scores()
    labels = [spec.label for spec in task.specs]
    return {"deal": task.deal, "rotation": task.rotation, "labels": labels, "scores": scores,
            "forehand": forehand, "pushes": pushes, "calls": calls, "giveups": giveups}  # fmt: skip


def compare(new: str, old: str, deals: int, seed: int, profile: str, workers: int,
            giveups: bool = False) -> dict[str, Any]:  # fmt: skip
    """`new` against `old` on `deals` duplicate deals: the new side's points per deal minus the old."""
    specs = [parse_bot(new if s % 2 == 0 else old, "jass") for s in range(4)]
    rots = rotations(4, [s.label for s in specs])
    tasks = [DealTask(profile, tuple(specs[(s + r) % 4] for s in range(4)), d, seed + d, r, giveups)
             for d in range(deals) for r in rots]  # fmt: skip
    t0 = time.perf_counter()
    per_deal: dict[int, float] = {}
    forehand: Counter[str] = Counter()
    pushes: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    gu: Counter[str] = Counter()
    with make_executor(None, workers) as ex:
        for out in ex.map(play_deal, tasks, chunk=8 if workers > 1 else 1):
            sc, lab = out["scores"], out["labels"]
            margin = sum(sc[s] if lab[s] == specs[0].label else -sc[s] for s in range(4)) / 2  # per team
            per_deal[out["deal"]] = per_deal.get(out["deal"], 0.0) + margin / len(rots)
            forehand += out["forehand"]
            pushes += out["pushes"]
            calls += out["calls"]
            gu += out["giveups"]
    xs = [per_deal[d] for d in range(deals)]
    mean, half = mean_ci(xs)
    result: dict[str, Any] = {
        "new": specs[0].label, "old": specs[1].label, "deals": deals, "seed": seed, "profile": profile,
        "points_per_deal": mean, "ci95": half, "deals_changed": sum(1 for x in xs if x != 0),
        "push_share": {k: pushes[k] / forehand[k] for k in forehand if forehand[k]},
        "forehand_decisions": dict(forehand),
        "notrump_calls": {k: sum(v for c, v in calls.items() if c.startswith(k + " ")
                                 and c.endswith(("obe", "une"))) for k in (specs[0].label, specs[1].label)},
        "seconds": time.perf_counter() - t0,
        "per_deal": xs,  # to pool runs over consecutive seeds exactly
    }  # fmt: skip
    if giveups:
        result["giveups"] = dict(gu)
    return result


def show(r: dict[str, Any]) -> None:
    half = r["ci95"]
    ci = f"[{r['points_per_deal'] - half:+.2f}, {r['points_per_deal'] + half:+.2f}]" if half is not None else ""
    print(f"{r['new']} vs {r['old']}: {r['points_per_deal']:+.2f} points per deal, 95% {ci}, "
          f"{r['deals']} deals ({r['deals_changed']} changed), {r['seconds']:.0f} s")  # fmt: skip
    shares = ", ".join(f"{k} {v:.1%} of {r['forehand_decisions'][k]}" for k, v in r["push_share"].items())
    print(f"  push share of forehand decisions: {shares}")
    print(f"  Obenabe/Undenufe calls: {r['notrump_calls']}")
    gu = r.get("giveups")
    if gu:
        for kind in ("nell", "ace"):
            n = gu.get(f"{kind} positions", 0)
            if n:
                print(f"  {kind} under a sure partner trump ({n} positions): given up by old "
                      f"{gu.get(kind + ' old', 0) / n:.1%}, by new {gu.get(kind + ' new', 0) / n:.1%}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=4000, help="duplicate deals per heuristic comparison (4000)")
    ap.add_argument("--ismcts-deals", type=int, default=200, help="duplicate deals for the ismcts push (200)")
    ap.add_argument("--iterations", type=int, default=300, help="ismcts iterations per decision (300)")
    ap.add_argument("--seed", type=int, default=1, help="the first deal's game seed (1)")
    ap.add_argument("--profile", default="schieber", choices=("schieber", "seed"))
    ap.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    ap.add_argument("--only", choices=("heuristic", "ismcts"), help="run only these comparisons")
    ap.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = ap.parse_args()
    print(f"jass, profile {args.profile}, seed {args.seed}; one deal per game, duplicate (both seatings)")
    results = []
    if args.only != "ismcts":
        for new, gu in (("heuristic:fixes=keep", False), ("heuristic:fixes=bour", False), ("heuristic", True)):
            r = compare(new, "heuristic:fixes=none", args.deals, args.seed, args.profile, args.workers, gu)
            show(r)
            results.append(r)
    if args.only != "heuristic":
        it = args.iterations
        r = compare(f"ismcts:iterations={it}", f"ismcts:iterations={it}:push=search", args.ismcts_deals,
                    args.seed, args.profile, args.workers)  # fmt: skip
        show(r)
        results.append(r)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
