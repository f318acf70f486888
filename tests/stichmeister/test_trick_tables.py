"""The engine's trick tables give the answers of the readable rule functions in trick.py.

The state (and the heuristic) ask `TrickTables` on their hot path; trick.py's functions are where
each rule is written. Any combination of rule cards and any trick must get the same answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from stichkit.games.stichmeister.trick import (
    TrickTables,
    _beaters,
    card_class,
    height_in_class,
    reference,
    winner_position,
)

from .helpers import rules_of, trumps_of

rule_numbers = st.lists(st.integers(1, 60), min_size=1, max_size=4, unique=True)


@given(rule_numbers, st.integers(-1, 3), st.lists(st.integers(0, 59), min_size=3, max_size=5, unique=True))
def test_tables_answer_as_the_rule_functions(numbers: list[int], dyn_suit: int, cards: list[int]) -> None:
    rules = rules_of(*numbers)
    trumps = trumps_of(rules, dyn_suit)
    tab = TrickTables(rules, trumps)
    assert tab.winner(cards) == winner_position(cards, rules, trumps)
    for c in cards:
        assert tab.cls[c] == card_class(c, trumps)
        assert tab.height[c] == height_in_class(c, rules, trumps)
    cls = card_class(reference(cards[:2], rules), trumps)
    assert tab.beaters(cls, cards[:2]) == _beaters(cls, cards[:2], rules, trumps)
