"""The 2026-11 fixes to the Jass heuristic and ismcts (after an outside rule-based player found
their weaknesses), on concrete positions: each one changes what the old bot did.

- "keep": the heuristic keeps a trump that no unseen trump beats (the Nell once the Bour is out,
  the Ace once both are out) and a guarded second-highest trump, instead of giving it to a trick
  its partner surely takes;
- "bour": with a long suit headed by the Bour it names that suit, not Obenabe/Undenufe;
- ismcts `push="heuristic"`: after a push, the partner's choice in each sampled world is the
  heuristic's on the partner's sampled hand, so ismcts pushes a weak forehand hand.
"""

from __future__ import annotations

import pytest

import stichkit
from stichkit import OptionError
from stichkit.bots import jass_heuristic, make
from stichkit.games.jass.state import JassState

# Seat 0 holds D7, so it chooses trump; play runs 0, 3, 2, 1. Seat 2 is seat 0's partner.
BOUR_LEAD = [
    ["D7", "HJ", "HK", "H10", "SA", "SK", "CA", "CK", "C6"],
    ["D6", "D8", "D9", "D10", "H8", "S6", "S7", "C7", "C8"],
    ["H9", "H6", "H7", "DJ", "DQ", "S8", "S9", "C9", "C10"],
    ["HA", "HQ", "DK", "DA", "S10", "SJ", "SQ", "CJ", "CQ"],
]


def position(hands: list[list[str]], moves: list[str], profile: str = "seed") -> JassState:
    state = stichkit.load_game("jass", profile=profile).new_state(deal={"hands": hands})
    for m in moves:
        state.apply(m)
    return state


def heuristic_plays(state: JassState, fixes: str = "all") -> str:
    seat = state.current_player
    assert seat is not None
    return str(make("heuristic", fixes=fixes).choose(state, seat))


def test_keeps_the_nell_under_the_partners_bour() -> None:
    # Hearts trump; the partner leads the Bour, the opponent follows: seat 2 must follow with a
    # trump. Its Nell is now the highest trump left: it takes a trick later, its 14 points with it.
    state = position(BOUR_LEAD, ["trump:H", "HJ", "HQ"])
    assert state.current_player == 2
    assert set(state.view(2)["legal_actions"]) == {"H9", "H6", "H7"}
    assert heuristic_plays(state, "none") == "H9"  # the old bot gave the Nell away
    assert heuristic_plays(state) in ("H6", "H7")
    assert heuristic_plays(state, "keep") in ("H6", "H7")
    assert heuristic_plays(state, "bour") == "H9"  # the other fix alone does not do it


def test_keeps_a_guarded_ace_under_the_partners_bour() -> None:
    # As above, but seat 2 holds the trump Ace and the opponent the Nell: one higher trump is out,
    # and H6/H7 guard the Ace until it falls.
    hands = [h[:] for h in BOUR_LEAD]
    hands[2][0], hands[3][0] = "HA", "H9"
    state = position(hands, ["trump:H", "HJ", "HQ"])
    assert set(state.view(2)["legal_actions"]) == {"HA", "H6", "H7"}
    assert heuristic_plays(state, "none") == "HA"
    assert heuristic_plays(state) in ("H6", "H7")


def test_keeps_the_ace_under_the_partners_nell_once_the_bour_is_gone() -> None:
    hands = [
        ["D7", "HJ", "H9", "HK", "SA", "SK", "CA", "CK", "C6"],
        ["D6", "D8", "D9", "D10", "H8", "S6", "S7", "C7", "C8"],
        ["HA", "H6", "H7", "DJ", "DQ", "S8", "S9", "C9", "C10"],
        ["H10", "HQ", "DK", "DA", "S10", "SJ", "SQ", "CJ", "CQ"],
    ]
    # Trick 1: the Bour takes it. Trick 2: the partner leads the Nell, now the highest trump.
    state = position(hands, ["trump:H", "HJ", "HQ", "H6", "H8", "H9", "H10"])
    assert state.current_player == 2
    assert set(state.view(2)["legal_actions"]) == {"HA", "H7"}
    assert heuristic_plays(state, "none") == "HA"
    assert heuristic_plays(state) == "H7"


def test_a_single_nell_still_follows_the_bour() -> None:
    # The rules force it: the keep values only choose among legal cards.
    hands = [h[:] for h in BOUR_LEAD]
    hands[2] = ["H9", "D6", "D8", "DJ", "DQ", "S8", "S9", "C9", "C10"]
    hands[1] = ["H6", "H7", "D9", "D10", "H8", "S6", "S7", "C7", "C8"]
    state = position(hands, ["trump:H", "HJ", "HQ"])
    assert state.view(2)["legal_actions"] == ["H9"]
    assert heuristic_plays(state) == "H9"


BOUR_SUIT = [
    ["D7", "HQ", "S9", "SJ", "C7", "CJ", "CQ", "CK", "CA"],  # clubs: Bour, A, K, Q, 7
    ["D6", "D8", "D9", "D10", "H8", "S6", "S7", "C8", "C6"],
    ["H9", "H6", "H7", "DJ", "DQ", "S8", "SA", "C9", "C10"],
    ["HA", "HJ", "DK", "DA", "S10", "H10", "SQ", "SK", "HK"],
]


def test_names_the_long_suit_headed_by_the_bour() -> None:
    state = position(BOUR_SUIT, [], profile="schieber")
    assert state.current_player == 0
    assert heuristic_plays(state, "none") == "trump:obe"  # the old call
    assert heuristic_plays(state) == "trump:C"
    assert heuristic_plays(state, "bour") == "trump:C"


def test_a_long_bour_suit_is_named_rather_than_pushed() -> None:
    hand = jass_heuristic.mask_of(["D7", "D8", "H6", "H8", "S6", "S8", "C6", "C7", "CJ"])
    assert not jass_heuristic.bour_suit(hand)  # three clubs: not long enough
    hand = jass_heuristic.mask_of(["D7", "D8", "H6", "H8", "S6", "C8", "C6", "C7", "CJ"])
    assert jass_heuristic.bour_suit(hand)
    view = {"legal_actions": ["trump:D", "trump:H", "trump:S", "trump:C", "push"]}
    assert jass_heuristic.choose_trump(view, hand, frozenset()) == "push"
    assert jass_heuristic.choose_trump(view, hand) == "trump:C"


@pytest.mark.parametrize(("value", "fixes"), [("all", {"keep", "bour"}), ("none", set()), ("keep", {"keep"}),
                                              ("bour+keep", {"keep", "bour"}), (" Bour ", {"bour"})])  # fmt: skip
def test_fixes_parameter(value: str, fixes: set[str]) -> None:
    bot = make("heuristic", fixes=value)
    assert bot.fixes == fixes  # type: ignore[attr-defined]
    assert eval(repr(bot), {"make": make}).params == bot.params  # repr is the make call


@pytest.mark.parametrize("bad", ["some", "keep,bour", "", 3])
def test_bad_fixes_parameter(bad: object) -> None:
    with pytest.raises(OptionError, match=r"parameter fixes=.*allowed: all, none, or fixes joined by \+"):
        make("heuristic", fixes=bad)


# -- ismcts: the push ---------------------------------------------------------------------------

WEAK = [  # seat 1 holds D7 and nothing: no Bour, no Nell, no Ace
    ["D6", "D8", "D10", "H6", "H7", "H9", "S6", "S7", "C6"],
    ["D7", "D9", "H8", "H10", "S8", "SQ", "C7", "C9", "CQ"],
    ["DJ", "DQ", "DK", "HJ", "HQ", "HK", "SJ", "SK", "C8"],
    ["DA", "HA", "SA", "S9", "S10", "C10", "CJ", "CK", "CA"],
]
STRONG = [  # seat 0 holds D7 and hearts: Bour, Nell, Ace, King, 6, and two side Aces
    ["D7", "HJ", "H9", "HA", "HK", "H6", "SA", "CA", "C6"],
    ["D6", "D8", "H7", "H8", "S6", "S8", "C7", "C8", "CQ"],
    ["DJ", "D9", "DK", "DA", "H10", "S10", "SQ", "C9", "C10"],
    ["D10", "DQ", "HQ", "S7", "S9", "SJ", "SK", "CJ", "CK"],
]


def test_ismcts_pushes_a_weak_hand() -> None:
    """With the push judged by the heuristic, every seed pushes; left to the search, 400
    iterations rarely find it (a bot's randomness follows its view, so which seeds do moves
    whenever the view gains a field: the count is what is pinned)."""
    state = position(WEAK, [], profile="schieber")
    assert state.current_player == 1
    new = [str(make("ismcts", iterations=400, seed=seed).choose(state, 1)) for seed in range(1, 9)]
    old = [str(make("ismcts", iterations=400, seed=seed, push="search").choose(state, 1)) for seed in range(1, 9)]
    assert new == ["push"] * 8
    assert old.count("push") <= 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ismcts_keeps_a_strong_hand(seed: int) -> None:
    state = position(STRONG, [], profile="schieber")
    assert state.current_player == 0
    assert str(make("ismcts", iterations=400, seed=seed).choose(state, 0)) == "trump:H"


def test_ismcts_push_parameter() -> None:
    assert make("ismcts").params["push"] == "heuristic"
    with pytest.raises(OptionError, match=r"parameter push=.*allowed: heuristic or search"):
        make("ismcts", push="partner")
