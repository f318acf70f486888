"""The solver's switchable techniques (`stichkit.native._jass.tune`) leave every value exact: each
one on and off, the same values on random positions of every mode and option (and the Python
reference's on some)."""

from __future__ import annotations

import random

import pytest

from stichkit import native
from stichkit.analysis import clear_table, solve, solve_value
from tests.analysis.positions import random_position

J = native.load()
pytestmark = pytest.mark.skipif(J is None, reason="the C extension is not built (no C compiler)")

SETTINGS = [("bounds", 1), ("two_tricks", 2), ("two_tricks", 3), ("two_tricks", 0), ("absolute_key", 1),
            ("fixed", 3), ("fixed", 5)]  # fmt: skip


@pytest.mark.parametrize(("name", "value"), SETTINGS)
def test_each_technique_keeps_the_values(name: str, value: int) -> None:
    assert J is not None
    rng = random.Random(len(name) * 10 + value)
    states = [random_position(rng, rng.randint(5, 24))[0] for _ in range(60)]
    clear_table()
    want = [(solve(s).values, solve_value(s).value) for s in states]
    old = J.tune(name, value)
    try:
        clear_table()
        got = [(solve(s).values, solve_value(s).value) for s in states]
        for s in states[:6]:
            assert solve(s).values == solve(s, engine="python").values
    finally:
        J.tune(name, old)
        clear_table()
    assert got == want


def test_an_unknown_technique_is_named() -> None:
    assert J is not None
    with pytest.raises(ValueError, match="the techniques are bounds, two_tricks"):
        J.tune("magic", 1)
