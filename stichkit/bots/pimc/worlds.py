"""pimc's worlds: what a drawn world holds, what it is worth besides the card play, the solvers
that value it, and the loop over worlds that Differenzler's and Coiffeur's card decisions share.

A world is a state from `sample_hidden`: every hidden card in it is the bot's own guess, so the
bot may read all of it. The solvers come from stichkit.analysis (the C solver when it is built).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from stichkit.core import Action, State
from stichkit.games.jass.cards import STOECK_PAIR, STOECK_POINTS
from stichkit.games.jass.state import JassState
from stichkit.games.jass.weis import best_weis, scoring_teams

from ..base import View
from .budget import Budget

RACE_WEIGHT = 1000  # a world's race outcome (+1/0/-1) outweighs any margin of points (at most 257)
RACE_WEIS = 600  # about the most Weis one team claims in a deal: beyond, the race is not solved at the trump choice


def start_hands(world: State) -> tuple[int, int, int, int]:
    """The four hands a world was dealt in its current deal (a world from sample_hidden: all its
    hands are the bot's own guess, so reading them is fair)."""
    return world._start  # type: ignore[attr-defined]


def extras(world: State, mode: int) -> tuple[int, int]:
    """The Weis and Stöck points each team gets in `world` if `mode` is trump (what the solver
    leaves out), from the engine's own functions and the game's options."""
    game = world.game
    profile = game.profile  # type: ignore[attr-defined]
    hands = start_hands(world)
    pts = [0, 0]
    if game.options["weis"] == "auto":
        weis = tuple(best_weis(h, profile) for h in hands)
        forehand = world._forehand  # type: ignore[attr-defined]
        for team in scoring_teams(weis, mode, forehand, profile):
            pts[team] += sum(w.points for seat in range(4) if seat & 1 == team for w in weis[seat])
    if game.options["stoeck"] and mode < 4:
        pair = STOECK_PAIR[mode]
        for seat in range(4):
            if hands[seat] & pair == pair:
                pts[seat & 1] += STOECK_POINTS
    return pts[0], pts[1]


def margins(sol: Any) -> dict[Action, int]:
    """Each legal card's margin (the mover's team's points minus the other team's, match
    included) from a Solution: its `margins` when it has them, else from `values`."""
    found: dict[Action, int] | None = getattr(sol, "margins", None)
    if found is not None:
        return found
    return {a: 2 * v - sol.remaining for a, v in sol.values.items()}


def default_solve(state: State) -> Any:
    """Every legal card of the world's mover, valued exactly (`stichkit.analysis.solve`)."""
    from stichkit.analysis import solve

    return solve(cast(JassState, state))


def default_solve_bounds(state: State, within: int, nodes: int) -> Any:
    """Every legal card's margin to within `within` points, in at most `nodes` search nodes
    (`stichkit.analysis.solve_bounds`; 0: no budget)."""
    from stichkit.analysis import solve_bounds

    return solve_bounds(cast(JassState, state), within, nodes)


def default_solve_value(state: State) -> Any:
    """The world's deal value alone (`solve_value`: one search, not one per card)."""
    from stichkit.analysis import solve_value

    return solve_value(cast(JassState, state))


def default_solve_race(state: State) -> Any:
    """Who reaches the target first after each legal card (`solve_race`)."""
    from stichkit.analysis.race import solve_race

    return solve_race(cast(JassState, state))


def race_matters(state: State) -> bool:
    """Whether a team could reach the target in this deal (public knowledge only)."""
    from stichkit.analysis.race import can_end_this_deal

    return can_end_this_deal(cast(JassState, state))


_helper: tuple[int, ThreadPoolExecutor] | None = None


def helper() -> ThreadPoolExecutor:
    """One more thread for pimc's solves (`threads=2`), kept for the process so that its solver
    context and table are made once; a process forked from this one makes its own (a fork has
    the pool's object but not its thread)."""
    global _helper
    if _helper is None or _helper[0] != os.getpid():
        _helper = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="pimc-solve"))
    return _helper[1]


def fast_solver() -> bool:
    """Whether the C solver is built: without it a solve from early in a deal takes minutes."""
    from stichkit.analysis import c_available

    return bool(c_available())


def race_before_play(state: State) -> bool:
    """At the trump choice: whether a team could reach the target in this deal (public: the
    scores, a deal's 157 points, last trick, match, Stöck and the Weis one team may claim)."""
    from stichkit.analysis.race import needs

    most = max(state.game.multipliers)  # type: ignore[attr-defined]  # the mode that counts most
    return min(needs(cast(JassState, state))) <= (157 + 5 + 100 + 20 + RACE_WEIS) * most


# -- the world loop of a card decision (Differenzler, Coiffeur) ----------------------------------


def card_by_worlds(
    budget: Budget,
    legal: list[Action],
    draw: Callable[[], State],
    value: Callable[[State], Mapping[int, float]],
    *,
    smaller: bool = False,
    by_best: bool = True,
    solves: int = 1,
    stats: Mapping[str, Any] | None = None,
) -> tuple[Action, dict[str, Any]]:
    """A decision over worlds, the loop Differenzler's and Coiffeur's cards (and Coiffeur's
    announcement) share: while `budget` lasts, `draw` a world and `value` each legal action in it
    (by id), `solves` solves a world; the action with the best total wins (the largest, or with
    `smaller` the smallest: a penalty), ties to the action that was best in more worlds (with
    `by_best`), then to the first legal one. Returns the action and the decision's stats
    (`stats` added to them): worlds, solves, seconds and each action's mean."""
    sign = -1 if smaller else 1
    total = {a.id: 0.0 for a in legal}
    best_in = {a.id: 0 for a in legal}
    for _ in budget:
        found = value(draw())
        top = max(sign * found[a.id] for a in legal)
        for a in legal:
            total[a.id] += found[a.id]
            best_in[a.id] += sign * found[a.id] == top
    chosen = max(legal, key=lambda a: (sign * total[a.id], best_in[a.id] if by_best else 0, -legal.index(a)))
    n = max(budget.done, 1)
    out: dict[str, Any] = {"worlds": budget.done, "solves": budget.done * solves, "seconds": budget.seconds()}
    out |= dict(stats or {})
    out["means"] = {str(a): total[a.id] / n for a in legal}
    return chosen, out


def after_each(legal: list[Action], worth: Callable[[State], float]) -> Callable[[State], dict[int, float]]:
    """A world's `value` for `card_by_worlds` when each action is judged by what follows it: the
    action played in a copy of the world, then `worth` of that copy (a playout, a solve)."""

    def value(world: State) -> dict[int, float]:
        found: dict[int, float] = {}
        for a in legal:
            w = world.clone()
            w.apply(a)
            found[a.id] = worth(w)
        return found

    return value


def deals_begun(world: State) -> int:
    """Deals begun in `world` (every stichkit game with deals counts them so)."""
    return int(world.deals_played)  # type: ignore[attr-defined]


def play_to(world: State, cards_left: int, decide: Callable[[View, Any], str]) -> None:
    """Play `world` on by `decide` (a game's heuristic; each seat from its own view of the world)
    until `cards_left` cards are left in the deal, or the deal is over."""
    deal = deals_begun(world)
    while world.current_player is not None and deals_begun(world) == deal:
        view = world.view(world.current_player)
        if sum(view["hand_sizes"]) <= cards_left:
            return
        world.apply(world.game.parse_action(decide(view, None)))
