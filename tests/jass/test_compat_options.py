"""Options for games that come from other Jass software (docs/jass.md, "Undertrumping: two
readings", and the option `first_forehand`). Neither changes the default game; both exist so
that deals played elsewhere replay exactly (docs/interop.md). The reading of jass-kit's rule
here is written from its observed behaviour; tests/interop checks it against jass-kit itself."""

from __future__ import annotations

import json
import random

import pytest

import stichkit
from stichkit.games.jass import DECK

from .helpers import BASIC, legal, new_state, play, spectator


def test_first_forehand_chooses_and_leads_then_the_rotation_goes_on():
    """first_forehand=s: seat s chooses trump in the first deal (whoever holds D7) and leads;
    the next deal's forehand is the next player after it, as always."""
    for seat in range(4):
        state = new_state(BASIC, first_forehand=seat, weis="off", stoeck=False)
        assert state.current_player == seat == spectator(state)["forehand"]
        state.apply("trump:S")
        assert state.current_player == seat
        while spectator(state)["deal_number"] == 0:
            state.apply(state.legal_actions()[0])
        assert spectator(state)["forehand"] == (seat - 1) % 4


def test_first_forehand_start_card_is_the_default():
    assert stichkit.load_game("jass").options["first_forehand"] == "start-card"
    assert new_state(BASIC).current_player == 0  # seat 0 holds D7


def test_first_forehand_as_text_and_bad_values():
    assert stichkit.load_game("jass", first_forehand="3").options["first_forehand"] == 3
    for bad in (4, -1, "D7", "north", 1.0, True):
        with pytest.raises(stichkit.OptionError, match="first_forehand"):
            stichkit.load_game("jass", first_forehand=bad)


def test_first_forehand_samples_do_not_pin_the_start_card():
    """With a fixed forehand, D7 says nothing about who holds it: samples spread it over the
    three hidden hands (with the default rule it stays with the forehand)."""
    state = new_state(BASIC, first_forehand=1, weis="off", stoeck=False)
    holders = set()
    for r in range(40):
        sample = state.sample_hidden(1, random.Random(r))
        holders.add(next(p for p in range(4) if "D7" in sample.view(p)["hand"]))
        assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
    assert holders == {0, 2, 3}


def test_jass_kit_undertrump_against_the_lower_trump():
    """undertrump="jass-kit": after H10 and HA on a spade lead, HK (above H10, below HA) may be
    played; the Swiss rule forbids it (test_rulings: against the highest trump)."""
    fixed = {0: "D7 S6", 3: "H10", 2: "HA", 1: "HK H6 H9 D6 D8 C6 C7 C8 C9"}
    swiss = new_state(fixed)
    kit = new_state(fixed, undertrump="jass-kit")
    for state in (swiss, kit):
        play(state, "trump:H S6 H10 HA")
    assert legal(swiss) == {"H9", "D6", "D8", "C6", "C7", "C8", "C9"}
    assert legal(kit) == {"HK", "H9", "D6", "D8", "C6", "C7", "C8", "C9"}
    with pytest.raises(stichkit.IllegalActionError, match="undertrumping is not allowed: H6 is lower than H10"):
        kit.apply("H6")
    kit.apply("HK")
    assert spectator(kit)["cannot_hold"][1] == []  # HK was above the reference: it tells nothing


def test_jass_kit_reference_is_the_lowest_in_plain_order():
    """jass-kit compares the trick's trumps by plain order (A K Q J 10 9 8 7 6): after the Bour and
    the Ace, the Bour counts as the lower one (J below A in plain order), so nothing may follow
    it, not even the Nell, which the Swiss rule allows (it beats the Ace... but not the Bour)."""
    fixed = {0: "D7 S6", 3: "HA", 2: "HJ", 1: "H9 HK D6 D8 C6 C7 C8 C9 C10"}
    for rule in ("swiss", "jass-kit"):
        state = new_state(fixed, undertrump=rule)
        play(state, "trump:H S6 HA HJ")
        assert legal(state) == {"D6", "D8", "C6", "C7", "C8", "C9", "C10"}, rule


def test_jass_kit_undertrump_voids_follow_the_reference():
    """Going under the reference shows a hand of nothing but trumps, under either reading."""
    fixed = {0: "D7 DA DK S6", 3: "H10 D9 D10", 2: "HA DJ DQ", 1: "H6 H7 H8 HQ HK H9 HJ D6 D8"}
    state = new_state(fixed, undertrump="jass-kit", weis="off", stoeck=False)
    play(state, "trump:H", "DA D9 DJ D6", "DK D10 DQ D8", "S6 H10 HA")
    assert spectator(state)["cannot_hold"][1] == []
    play(state, "H6")
    assert set(spectator(state)["cannot_hold"][1]) == {c for c in DECK.names if c[0] != "H"}


def test_undertrump_bad_values():
    with pytest.raises(stichkit.OptionError, match="undertrump"):
        stichkit.load_game("jass", undertrump="allowed")
