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
    """The candidate with the smallest mean penalty over up to `worlds` sampled deals (see the module)."""
    by_points = {int(a.text[8:]): a for a in legal}
    deal = state.view(seat)["deal_number"]
    samples = [state.sample_hidden(seat, rng) for _ in range(worlds)]
    own_guess = int(policy(state.view(seat), None)[8:])
    taken: list[int] = []
    for world in samples:
        if deadline is not None and len(taken) >= 4 and time.perf_counter() >= deadline:
            break
        taken.append(_play_out(world.clone(), seat, deal, policy, None)[0])
    used = samples[: max(4, len(taken))]
    quartiles = statistics.quantiles(taken, n=4) if len(taken) > 1 else [taken[0]] * 3
    candidates = sorted({0, own_guess, *(round(q) for q in quartiles)} & set(by_points))
    best, best_mean = own_guess, float("inf")
    for c in candidates:
        total = sum(_play_out(world.clone(), seat, deal, policy, c)[1] for world in used)
        mean = total / len(used)
        if mean < best_mean:
            best, best_mean = c, mean
    return by_points[best], {"worlds": len(used), "candidates": len(candidates), "mean_penalty": best_mean}


__all__ = ["is_prediction", "predict"]
