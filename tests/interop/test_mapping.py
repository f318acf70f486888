"""The mapping of docs/interop.md, checked against jass-kit's own constants and rules."""

from __future__ import annotations

import random

import numpy as np
from jass.game import const
from jass.game.game_sim import GameSim
from jass.game.game_util import deal_random_hand

import stichkit
from stichkit.games.jass import DECK
from stichkit.interop.jasskit import IMPORT_OPTIONS, PUSH, TRUMP_CODES, dealer_of, forehand_of
from stichkit.interop.jasskit.mapping import CARDS, MODE_OF_CODE, jass_kit_card_id, trump_action, trump_code

from .peer import RULE, valid_cards


def test_cards_are_the_same_names() -> None:
    """jass-kit's card strings are stichkit's card notation, letter for letter."""
    assert set(map(str, const.card_strings)) == CARDS == set(DECK.names)
    for name in CARDS:
        assert jass_kit_card_id(name) == const.card_ids[name]


def test_trump_codes() -> None:
    assert TRUMP_CODES == {"D": const.DIAMONDS, "H": const.HEARTS, "S": const.SPADES, "C": const.CLUBS,
                           "obe": const.OBE_ABE, "une": const.UNE_UFE}  # fmt: skip
    assert PUSH == const.PUSH == 10
    for mode, code in TRUMP_CODES.items():
        assert trump_code(f"trump:{mode}") == code and trump_action(code) == f"trump:{mode}"
        assert MODE_OF_CODE[code] == mode
    assert trump_code("push") == PUSH and trump_action(PUSH) == "push"


def test_seats_dealer_and_direction() -> None:
    """Same seat numbers; both play counter-clockwise (next = seat - 1); the forehand is the
    player after the dealer; teams 0+2 and 1+3."""
    assert const.next_player == [(s - 1) % 4 for s in range(4)]
    assert const.partner_player == [(s + 2) % 4 for s in range(4)]
    assert list(const.team) == [s % 2 for s in range(4)]
    for dealer in range(4):
        assert forehand_of(dealer) == const.next_player[dealer]
        assert dealer_of(forehand_of(dealer)) == dealer
    game = stichkit.load_game("jass", **IMPORT_OPTIONS, first_forehand=2)
    state = game.new_state(seed=1)
    state.apply("trump:H")
    seats = []
    for _ in range(4):
        seats.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert seats == [2, const.next_player[2], const.next_player[1], const.next_player[0]]


def _stichkit_state(sim: GameSim, forehand: int, undertrump: str) -> stichkit.State:
    hands = [[str(const.card_strings[c]) for c in np.flatnonzero(sim.state.hands[p])] for p in range(4)]
    game = stichkit.load_game("jass", **{**IMPORT_OPTIONS, "undertrump": undertrump}, first_forehand=forehand)
    return game.new_state(seed=0, deal={"hands": hands})


def test_legal_cards_are_jass_kits_under_its_reading() -> None:
    """Deal by deal, move by move, stichkit with undertrump="jass-kit" allows exactly the cards
    and trump choices jass-kit allows; with the Swiss rule, never more (its moves stay legal there)."""
    np.random.seed(20261122)
    rng = random.Random(1)
    moves = differ = 0
    for deal in range(250):
        sim = GameSim(rule=RULE)
        dealer = deal % 4
        sim.init_from_cards(hands=deal_random_hand(), dealer=dealer)
        kit = _stichkit_state(sim, forehand_of(dealer), "jass-kit")
        swiss = _stichkit_state(sim, forehand_of(dealer), "swiss")
        options = {str(a) for a in kit.legal_actions()}
        assert options == {f"trump:{m}" for m in TRUMP_CODES} | {"push"}
        choice = rng.choice(sorted(options))
        if choice == "push":
            sim.action_trump(PUSH)
            for s in (kit, swiss):
                s.apply("push")
            assert {str(a) for a in kit.legal_actions()} == {f"trump:{m}" for m in TRUMP_CODES}
            choice = rng.choice([f"trump:{m}" for m in TRUMP_CODES])
        sim.action_trump(trump_code(choice))
        for s in (kit, swiss):
            s.apply(choice)
        while not sim.is_done():
            assert kit.current_player == swiss.current_player == sim.state.player
            allowed = valid_cards(sim.state)
            assert {str(a) for a in kit.legal_actions()} == allowed
            strict = {str(a) for a in swiss.legal_actions()}
            assert strict <= allowed
            moves += 1
            differ += strict != allowed
            card = rng.choice(sorted(strict))  # a move both readings allow, so the states stay together
            sim.action_play_card(const.card_ids[card])
            kit.apply(card)
            swiss.apply(card)
    assert moves == 250 * 36
    assert differ > 0  # the readings do differ, and these deals show it
