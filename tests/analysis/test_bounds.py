"""`solve_bounds`: bounds on each card's margin, at most `within` apart, that always hold."""

from __future__ import annotations

import random

import pytest

from stichkit.analysis import SolveError, c_available, solve, solve_bounds, solver
from tests.analysis.positions import random_position

pytestmark = pytest.mark.skipif(not c_available(), reason="solve_bounds is the C solver's: the extension is not built")


def test_the_bounds_hold_and_are_as_narrow_as_asked() -> None:
    rng = random.Random(17)
    for _ in range(300):
        state, _ = random_position(rng, rng.randint(1, 20))
        exact = solve(state).margins
        within = rng.choice((0, 2, 6, 10, 30, 80))
        b = solve_bounds(state, within)
        assert b.complete and set(b.low) == set(exact) == set(b.high)
        for a, m in exact.items():
            assert b.low[a] <= m <= b.high[a], (a, within)
            assert b.high[a] - b.low[a] <= within
            assert abs(b.margins[a] - m) <= within / 2 + 1
        if within == 0:
            assert b.margins == exact


def test_a_node_budget_leaves_bounds_that_still_hold() -> None:
    rng = random.Random(4)
    state, _ = random_position(rng, 24)
    exact = solve(state).margins
    b = solve_bounds(state, 0, nodes=3000)
    assert not b.complete
    assert any(b.high[a] > b.low[a] for a in exact)
    for a, m in exact.items():
        assert b.low[a] <= m <= b.high[a]
    # the table keeps only what finished tests proved: the same solve afterwards is still exact
    assert solve_bounds(state, 0).margins == exact == solve(state).margins


def test_bad_arguments_are_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = random_position(random.Random(1), 12)
    before = state.view(None)
    with pytest.raises(SolveError, match="within is a whole number of points"):
        solve_bounds(state, -1)
    with pytest.raises(SolveError, match="nodes is a whole number"):
        solve_bounds(state, 4, nodes=-5)
    with pytest.raises(SolveError, match="trump is not chosen"):
        solve_bounds(state.game.new_state(seed=1), 4)
    monkeypatch.setattr(solver, "_dds", None)
    with pytest.raises(SolveError, match="needs the C solver"):
        solve_bounds(state, 4)
    assert state.view(None) == before
