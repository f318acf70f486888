"""A prediction found by search, for games where a seat predicts its own points (Differenzler).

A tree over 158 possible predictions learns little from a few hundred playouts: each number is
visited a couple of times. The question is narrower. In worlds the seat cannot tell apart
(`sample_hidden`), the deal is played out by the game's heuristic, and the seat's points noted:
first with the seat playing to the heuristic's own prediction, which gives a spread of what the
hand takes; then each candidate (nothing at all, the quartiles of that spread, the heuristic's
number) is tried in the same worlds, the seat now playing to that candidate, and the candidate
with the smallest mean penalty is the prediction. A prediction changes how the seat plays (to
take tricks, or to stay under), so each is judged by the play it leads to.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from stichkit.core import Action, State

from .base import View


def is_prediction(legal: list[Action]) -> bool:
    """The decision is a prediction of points (`predict:N` for every legal N)."""
    return len(legal) > 1 and all(a.text.startswith("predict:") for a in legal)


def _play_out(world: State, seat: int, deal: int, policy: Callable[[View, random.Random | None], str],
              own: int | None) -> tuple[int, int]:  # fmt: skip
    """Play the deal to its end; the seat predicts `own` (None: as the policy would). Its
    (points, penalty) in that deal."""
    while not world.is_terminal():
        mover = world.current_player
        assert mover is not None
        view = world.view(mover)
        if view["deal_number"] != deal:
            break
        if mover == seat and own is not None and view["phase"] == "predict":
            world.apply(f"predict:{own}")
        else:
            world.apply(policy(view, None))
    summary = next(d for d in world.view(seat)["previous_deals"] if d["deal"] == deal)
    return summary["points"][seat], summary["penalties"][seat]


def predict(
    state: State,
    seat: int,
    legal: list[Action],
    rng: random.Random,
    policy: Callable[[View, random.Random | None], str],
    worlds: int,
    deadline: float | None,
) -> tuple[Action, dict[str, float]]:
    """The candidate with the smallest mean penalty over up to `worlds` sampled deals (see the module).
    With a `deadline`, a quarter of the time goes to the spread, and the candidates are tried
    likeliest first (the median, the heuristic's number, the quartiles, 0) until time is up."""
    by_points = {int(a.text[8:]): a for a in legal}
    deal = state.view(seat)["deal_number"]
    start = time.perf_counter()
    first_deadline = None if deadline is None else start + (deadline - start) / 4  # a quarter for the spread
    own_guess = int(policy(state.view(seat), None)[8:])
    worlds_used: list[State] = []
    taken: list[int] = []
    for _ in range(worlds):
        if first_deadline is not None and len(taken) >= 4 and time.perf_counter() >= first_deadline:
            break
        world = state.sample_hidden(seat, rng)
        worlds_used.append(world)
        taken.append(_play_out(world.clone(), seat, deal, policy, None)[0])
    quartiles = statistics.quantiles(taken, n=4) if len(taken) > 1 else [taken[0]] * 3
    median = round(quartiles[1])
    # the likeliest first: with a clock, the candidates tried when time runs out are the best ones
    order = [median, own_guess, round(quartiles[0]), round(quartiles[2]), 0]
    candidates = [c for i, c in enumerate(order) if c in by_points and c not in order[:i]]
    means: dict[int, float] = {}
    for c in candidates:
        if deadline is not None and means and time.perf_counter() >= deadline:
            break
        means[c] = sum(_play_out(world.clone(), seat, deal, policy, c)[1] for world in worlds_used) / len(worlds_used)
    best = min(means, key=lambda c: (means[c], c))  # equal means: the smaller prediction
    best_mean = means[best]
    stats = {"worlds": len(worlds_used), "candidates": len(candidates), "tried": len(means), "mean_penalty": best_mean}
    return by_points[best], stats


__all__ = ["is_prediction", "predict"]
