"""The C search against the Python reference: its follow rules and every value, all modes and options."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichkit.analysis import SolveError, c_available, solve, solve_value, solver
from stichkit.games.jass import Jass
from stichkit.games.jass.rules import legal_cards
from tests.analysis.positions import random_position


def test_the_extension_is_built() -> None:
    """`pip install -e .` compiles it (setup.py); without a compiler the Python solver is used."""
    assert c_available()


def test_legal_cards_agree_everywhere() -> None:
    rng = random.Random(3)
    dds = solver._dds
    for _ in range(20000):
        hand = rng.getrandbits(36) & rng.getrandbits(36)
        n = rng.randint(0, 3)
        mode = rng.randint(0, 5)
        led = rng.randint(0, 3) if n else -1
        ref = rng.choice((-1, rng.randint(0, 35) if mode >= 4 else mode * 9 + rng.randint(0, 8)))
        assert dds.legal(hand, n, led, mode, ref) == legal_cards(hand, n, led, mode, ref)


def test_values_agree_on_many_positions() -> None:
    rng = random.Random(11)
    for _ in range(600):
        state, _ = random_position(rng, rng.randint(1, 20))
        py, c = solve(state, engine="python"), solve(state, engine="c")
        assert c == py


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cards_left=st.integers(1, 20))
def test_values_agree(seed: int, cards_left: int) -> None:
    state, _ = random_position(random.Random(seed), cards_left)
    assert solve(state, engine="c") == solve(state, engine="python")


def test_auto_is_c_and_c_fails_clearly_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    state = Jass(profile="schieber").new_state(seed=2)
    state.apply("trump:une")
    rng = random.Random(2)
    for _ in range(18):
        state.apply(rng.choice(state.legal_actions()))
    assert solve(state, engine="auto") == solve(state, engine="c")
    monkeypatch.setattr(solver, "_dds", None)
    with pytest.raises(SolveError, match="C solver is not built"):
        solve(state, engine="c")
    assert solve(state, engine="auto").values  # falls back to Python


def test_solve_value_is_the_best_of_solve() -> None:
    """The value-only search gives `solve`'s value and one of its best cards, both engines."""
    rng = random.Random(17)
    for _ in range(300):
        state, _ = random_position(rng, rng.randint(1, 24))
        full = solve(state, engine="c")
        for engine in ("c", "python") if len(full.values) and rng.random() < 0.3 else ("c",):
            v = solve_value(state, engine=engine)
            assert (v.player, v.team, v.value, v.remaining) == (full.player, full.team, full.value, full.remaining)
            assert v.card in full.best
            assert v.margin == full.margins[v.card]
