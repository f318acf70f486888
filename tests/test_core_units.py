"""Unit tests of the game-independent building blocks: card bitmasks and decks (stichkit/cards.py),
constrained dealing (core/sampling.py), options (core/options.py) and actions (core/action.py)."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichkit import Action, OptionError
from stichkit.cards import Deck, bit_list, bits, mask_of, suited_deck
from stichkit.core.options import Option, resolve_options
from stichkit.core.sampling import deal_constrained

# -- cards -----------------------------------------------------------------------------------------


@given(st.sets(st.integers(0, 200)))
def test_bits_and_mask_of_are_inverse(indices: set[int]) -> None:
    m = mask_of(indices)
    assert m == sum(1 << i for i in indices)
    assert list(bits(m)) == sorted(indices)


@given(st.sets(st.integers(0, 70)))
def test_bit_list_is_bits_as_a_list(indices: set[int]) -> None:
    """The table-driven fast path gives what the generator gives, also past the table's 64 bits."""
    m = mask_of(indices)
    assert bit_list(m) == list(bits(m)) == sorted(indices)


def test_bits_of_zero_is_empty() -> None:
    assert list(bits(0)) == []
    assert mask_of([]) == 0
    assert mask_of([3, 3]) == 8


def test_suited_deck_layout() -> None:
    d = suited_deck("DHSC", ("6", "7", "8", "9", "10", "J", "Q", "K", "A"))
    assert d.size == 36
    assert d.full == (1 << 36) - 1
    assert d.names[0] == "D6" and d.names[13] == "H10" and d.names[35] == "CA"
    assert d.suits == "DHSC" and d.ranks[4] == "10"
    for i, n in enumerate(d.names):
        assert d.parse(n) == i
        assert d.parse(n.lower()) == i
        assert d.parse(f"  {n} ") == i


def test_deck_parse_unknown_raises_keyerror() -> None:
    d = suited_deck("DH", ("1", "2"))
    for bad in ("", "X1", "D3", "D 1"):
        with pytest.raises(KeyError):
            d.parse(bad)


def test_deck_parse_set_and_notation() -> None:
    d = Deck(["a", "b", "c", "d"])
    assert d.parse_set(["c", "A"]) == 0b0101
    assert d.notation(0b1010) == ["b", "d"]
    assert d.notation(0) == []
    assert d.parse_set([]) == 0
    assert d.notation(d.parse_set(["d", "b", "b"])) == ["b", "d"]


# -- deal_constrained ------------------------------------------------------------------------------


@st.composite
def feasible_instances(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], list[int]]:
    """A random true deal, and constraints it satisfies (each card allowed to its holder + others)."""
    n = draw(st.integers(1, 5))
    need = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    cards = draw(st.permutations(list(range(sum(need) + draw(st.integers(0, 3))))))[: sum(need)]
    owner = [p for p in range(n) for _ in range(need[p])]
    allowed = [(1 << owner[i]) | draw(st.integers(0, (1 << n) - 1)) for i in range(len(cards))]
    return cards, allowed, need, owner


def _check_deal(cards: list[int], allowed: list[int], need: list[int], hands: list[int]) -> None:
    assert len(hands) == len(need)
    assert [h.bit_count() for h in hands] == need
    union = 0
    for h in hands:
        assert union & h == 0  # no card twice
        union |= h
    assert union == mask_of(cards)
    for c, a in zip(cards, allowed, strict=True):
        holder = next(p for p, h in enumerate(hands) if h >> c & 1)
        assert a >> holder & 1, f"card {c} went to {holder}, allowed {a:b}"


@settings(max_examples=300, deadline=None)
@given(feasible_instances(), st.integers(0, 2**32))
def test_deal_constrained_respects_every_constraint(inst: tuple[list[int], ...], seed: int) -> None:
    cards, allowed, need, _ = inst
    hands = deal_constrained(cards, allowed, need, random.Random(seed))
    _check_deal(cards, allowed, need, hands)


@settings(max_examples=50, deadline=None)
@given(feasible_instances(), st.integers(0, 2**32))
def test_deal_constrained_is_deterministic_for_a_seed(inst: tuple[list[int], ...], seed: int) -> None:
    cards, allowed, need, _ = inst
    a = deal_constrained(cards, allowed, need, random.Random(seed))
    b = deal_constrained(cards, allowed, need, random.Random(seed))
    assert a == b


def test_deal_constrained_reaches_every_consistent_deal() -> None:
    """Small instance: every assignment that satisfies the constraints comes up, none other."""
    cards = [0, 1, 2, 3, 4]
    allowed = [0b011, 0b110, 0b111, 0b101, 0b111]
    need = [2, 2, 1]
    possible = set()
    for owners in itertools.product(range(3), repeat=5):
        if all(allowed[i] >> owners[i] & 1 for i in range(5)) and Counter(owners) == {0: 2, 1: 2, 2: 1}:
            possible.add(tuple(sum(1 << cards[i] for i in range(5) if owners[i] == p) for p in range(3)))
    rng = random.Random(7)
    seen = Counter(tuple(deal_constrained(cards, allowed, need, rng)) for _ in range(3000))
    assert set(seen) == possible
    assert min(seen.values()) > 3000 / len(possible) / 5  # no consistent deal is (nearly) never drawn


def test_deal_constrained_unconstrained_is_roughly_uniform() -> None:
    rng = random.Random(1)
    counts = Counter(tuple(deal_constrained([0, 1, 2, 3], [0b11] * 4, [2, 2], rng)) for _ in range(6000))
    assert len(counts) == 6  # C(4, 2)
    assert max(counts.values()) < 1.25 * min(counts.values())


def test_deal_constrained_forced_cards() -> None:
    hands = deal_constrained([5, 6, 7], [0b01, 0b10, 0b01], [2, 1], random.Random(0))
    assert hands == [(1 << 5) | (1 << 7), 1 << 6]


def test_deal_constrained_empty() -> None:
    assert deal_constrained([], [], [0, 0, 0], random.Random(0)) == [0, 0, 0]


@pytest.mark.parametrize(
    ("cards", "allowed", "need", "match"),
    [
        ([1, 2], [0b1, 0b1], [1], "cards"),  # 2 cards, 1 place
        ([1], [0b1], [1, 1], "cards"),  # 1 card, 2 places
        ([1, 2], [0b01, 0], [1, 1], "no player"),  # a card nobody may hold
        ([1, 2], [0b01, 0b01], [1, 1], "no way"),  # Hall: two cards only for a player taking one
        ([1, 2, 3], [0b011, 0b011, 0b011], [1, 1, 1], "no way"),  # three cards for two places
    ],
)
def test_deal_constrained_impossible_raises(cards: list[int], allowed: list[int], need: list[int], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        deal_constrained(cards, allowed, need, random.Random(0))


# -- options ---------------------------------------------------------------------------------------


def _positive(v: int) -> str | None:
    return None if v > 0 else "must be positive"


PROFILE = Option("profile", "seed", "rule profile", choices=("seed", "schieber"))
FLAG = Option("flag", True, "a flag", choices=(True, False))
TARGET = Option(
    "target",
    1000,
    "points",
    kind=int,
    check=_positive,
    default_from=lambda o: 2500 if o["profile"] == "schieber" else 1000,
)
NAME = Option("name", "x", "a name", kind=str)
DECLARED = (PROFILE, FLAG, TARGET, NAME)


def test_resolve_fills_defaults_in_declaration_order() -> None:
    got = resolve_options("g", DECLARED, {})
    assert got == {"profile": "seed", "flag": True, "target": 1000, "name": "x"}
    assert list(got) == ["profile", "flag", "target", "name"]


def test_default_from_depends_on_resolved_options() -> None:
    assert resolve_options("g", DECLARED, {"profile": "schieber"})["target"] == 2500
    assert resolve_options("g", DECLARED, {"profile": "schieber", "target": 7})["target"] == 7


def test_unknown_option_names_the_option_and_the_allowed_ones() -> None:
    with pytest.raises(OptionError, match=r"'colour'.*flag, name, profile, target"):
        resolve_options("g", DECLARED, {"colour": 1})
    with pytest.raises(OptionError, match="none"):
        resolve_options("g", (), {"x": 1})


def test_choices_accept_exact_values_and_text_forms() -> None:
    assert PROFILE.validate("schieber") == "schieber"
    assert PROFILE.validate("SCHIEBER") == "schieber"
    assert FLAG.validate(False) is False
    assert FLAG.validate("false") is False
    assert FLAG.validate("True") is True


@pytest.mark.parametrize("bad", ["nope", 1, 0, None, "1", 1.0])
def test_choices_reject_other_values(bad: object) -> None:
    with pytest.raises(OptionError, match=r"flag=.*allowed: one of True, False"):
        FLAG.validate(bad)


def test_choices_do_not_confuse_bool_and_int() -> None:
    opt = Option("n", 1, "n", choices=(1, 2))
    assert opt.validate(1) == 1
    assert opt.validate("2") == 2
    with pytest.raises(OptionError):
        opt.validate(True)


def test_int_option_coerces_text_and_rejects_bad_values() -> None:
    assert TARGET.validate(1500) == 1500
    assert TARGET.validate("1500") == 1500
    for bad in ("abc", "1.5", True, False, 1.5, None):
        with pytest.raises(OptionError, match="target"):
            TARGET.validate(bad)
    with pytest.raises(OptionError, match="must be positive"):
        TARGET.validate(0)
    with pytest.raises(OptionError, match="must be positive"):
        TARGET.validate("-3")


def test_typed_option_rejects_wrong_type() -> None:
    assert NAME.validate("y") == "y"
    with pytest.raises(OptionError, match="wrong type"):
        NAME.validate(3)


def test_option_errors_are_value_errors() -> None:
    assert issubclass(OptionError, ValueError)
    assert PROFILE.allowed() == "one of 'seed', 'schieber'"
    assert TARGET.allowed() == "points"


# -- actions ---------------------------------------------------------------------------------------


def test_action_is_immutable() -> None:
    a = Action(3, "D9")
    with pytest.raises(AttributeError):
        a.id = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.text = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.other = 1  # type: ignore[attr-defined]
    assert (a.id, a.text) == (3, "D9")


def test_action_equality_hash_and_text() -> None:
    a, b, c, d = Action(3, "D9"), Action(3, "D9"), Action(4, "D9"), Action(3, "D10")
    assert a == b and hash(a) == hash(b)
    assert a != c and a != d
    assert a != "D9" and a != 3
    assert str(a) == "D9" and repr(a) == "Action('D9')"
    assert len({a, b, c, d}) == 3


def test_action_pickles_and_copies() -> None:
    a = Action(41, "trump:une")
    for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert b == a and hash(b) == hash(a) and str(b) == "trump:une"
