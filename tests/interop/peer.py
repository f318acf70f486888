"""Driving jass-kit itself: deals played and replayed by its own simulator and rules."""

from __future__ import annotations

from typing import Any

import numpy as np
from jass.game.const import PUSH, card_ids, card_strings
from jass.game.game_sim import GameSim
from jass.game.game_state import GameState
from jass.game.game_state_util import calculate_starting_hands_from_game
from jass.game.rule_schieber import RuleSchieber

RULE = RuleSchieber()


def replay_in_jasskit(game_json: dict[str, Any]) -> GameState:
    """Load a finished game record with jass-kit and play it again in its simulator, every card
    checked against its rules. Returns the simulator's state (its own trick winners and points)."""
    loaded = GameState.from_json(game_json)
    assert loaded is not None, "jass-kit refused the record's format version"
    sim = GameSim(rule=RULE)
    sim.init_from_cards(hands=calculate_starting_hands_from_game(loaded), dealer=loaded.dealer)
    if loaded.forehand == 0:
        sim.action_trump(PUSH)
    sim.action_trump(int(loaded.trump))
    for i in range(36):
        card = int(loaded.tricks[i // 4, i % 4])
        valid = RULE.get_valid_cards_from_state(sim.state)
        assert valid[card], f"jass-kit does not allow {card_strings[card]} at card {i} of {game_json}"
        sim.action_play_card(card)
    RULE.assert_invariants(sim.state)
    return sim.state


def tricks_of(state: GameState) -> list[tuple[int, list[str], int, int]]:
    """(first player, cards, winner, points) of each trick of a jass-kit state."""
    return [
        (int(state.trick_first_player[i]), [str(card_strings[c]) for c in state.tricks[i]],
         int(state.trick_winner[i]), int(state.trick_points[i]))
        for i in range(9)
    ]  # fmt: skip


def valid_cards(state: GameState) -> set[str]:
    return {str(card_strings[c]) for c in np.flatnonzero(RULE.get_valid_cards_from_state(state))}


def card_id(name: str) -> int:
    return int(card_ids[name])
