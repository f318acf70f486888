"""The solver against the C brute force (`_dds.brute`: plain minimax, no pruning, its own scoring)
on thousands of positions with four tricks left, where the Python brute force is too slow for more
than a few dozen; and the C brute force itself against the Python one, which plays by the engine's
rules. The scoring checked is the rule sheet's (seeds/004, lines 8, 24 and 33: 157 card points, 5
for the last trick, 100 more for a match; docs/jass.md on its "256")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stichkit.analysis import SolveError, c_available, solve, solve_value, solver
from stichkit.analysis.solver import brute_force_c, c_arguments
from stichkit.games.jass import Jass
from tests.analysis.positions import random_position
from tests.analysis.test_solver import brute_force

pytestmark = pytest.mark.skipif(not c_available(), reason="the C extension is not built")

FOUR_TRICKS = (13, 16)  # cards still in the hands when four tricks are left (the current one included)


def test_c_brute_force_agrees_with_the_python_one() -> None:
    """300 positions with 1-16 cards left, 60 of them with four tricks (10 at a trick's start, 16
    cards: the Python brute force takes up to a second there): every card's value."""
    rng = random.Random(41)
    for i in range(300):
        cards_left = rng.randint(1, 12) if i < 240 else rng.randint(13, 15) if i < 290 else 16
        state, _ = random_position(rng, cards_left)
        got = {a.id: v for a, v in brute_force_c(state).values.items()}
        assert got == brute_force(state), state.view(None)


def test_c_engine_agrees_with_brute_force_at_four_tricks() -> None:
    """3,000 positions with four tricks left, every trump mode of both profiles and both
    undertrump rules: `solve` gives every card the brute force's value, `solve_value` its best
    value and a card that reaches it."""
    rng = random.Random(1313)
    seen: Counter[tuple[str, int]] = Counter()
    match_reached = match_decided = 0
    for _ in range(3000):
        state, made = random_position(rng, rng.randint(*FOUR_TRICKS))
        seen[made["profile"], made["mode"]] += 1
        expected = brute_force_c(state)
        assert solve(state, engine="c") == expected, state.view(None)
        v = solve_value(state, engine="c")
        assert (v.value, v.margin, v.remaining) == (expected.value, expected.margins[v.card], expected.remaining)
        assert v.card in expected.best
        matches = [abs(m) > expected.remaining for m in expected.margins.values()]  # a match: margin beyond the points
        match_reached += any(matches)
        match_decided += any(matches) and not all(matches)
    modes = {(p, m) for p in ("seed", "schieber") for m in Jass(profile=p).profile.trump_modes}
    assert set(seen) == modes and min(seen.values()) > 50
    assert match_reached > 300 and match_decided > 10  # the match is at stake, and some card decides it


def test_python_solver_agrees_with_brute_force_at_four_tricks() -> None:
    rng = random.Random(1314)
    for _ in range(300):
        state, _ = random_position(rng, rng.randint(*FOUR_TRICKS))
        assert solve(state, engine="python") == brute_force_c(state), state.view(None)


def test_more_than_four_tricks_and_bad_positions_are_refused() -> None:
    rng = random.Random(2)
    state, _ = random_position(rng, 17)
    with pytest.raises(SolveError, match="at most 4 tricks left, not 5"):
        brute_force_c(state)
    pos = state.play_position()
    assert pos is not None
    with pytest.raises(ValueError, match="at most 4 tricks left, not 5"):
        solver._dds.brute(*c_arguments(pos))
    state, _ = random_position(rng, 14)  # two cards of the trick played
    args = list(c_arguments(state.play_position()))  # type: ignore[arg-type]
    wrong_winner = [*args[:8], args[8] ^ 2, *args[9:]]
    with pytest.raises(ValueError, match="do not match the trick's cards"):
        solver._dds.brute(*wrong_winner)
    short_hand = [*args[:2], 0, *args[3:]]
    with pytest.raises(ValueError, match="seat 0 must hold"):
        solver._dds.brute(*short_hand)
