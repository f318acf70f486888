"""Documented interactions of rule cards (docs/stichmeister.md, "Interactions"), one test each."""

from __future__ import annotations

from stichkit.games.stichmeister.scoring import score_round

from .helpers import legal, rules_of, taken, trumps_of, winner, with_rules


def test_second_highest_with_ranks_reversed() -> None:
    """30 + 31: 'second highest' is counted in the reversed order: the second lowest value wins."""
    assert winner([30, 31], "F10", "F1", "F2", "F9") == "F2"


def test_anti_trumps_with_forced_trumping() -> None:
    """32 + 28: you must still play a trump when you cannot follow, and it loses."""
    assert legal([17, 28, 32], ["K15", "M3"], ["F2"]) == ["K15"]
    assert winner([17, 28, 32], "F2", "K15", "F3") == "F3"


def test_direction_reverses_with_right_of_winner_leads() -> None:
    """37 + 36: the winner's right neighbour (seat - 1, fixed) leads, then play runs the other way."""
    state = with_rules([36, 37, 41, 42])
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    w = state.view(None)["tricks"][0]["winner"]
    lead = state.current_player
    assert lead == (w - 1) % 4
    state.apply(state.legal_actions()[0])
    assert state.current_player == (lead - 1) % 4


def test_first_card_cannot_win_with_second_highest() -> None:
    """29 + 30: the lead is left out first, then the second highest of the rest wins."""
    assert winner([29, 30], "F15", "F2", "F3", "F9") == "F3"


def test_follow_last_card_with_face_down_followers() -> None:
    """27 + 26: the followers' cards are face down, so the last face-up card is the lead."""
    assert legal([26, 27], ["F2", "K3"], ["F9"]) == ["F2"]


def test_41_sets_the_total_value_after_the_per_trick_cards() -> None:
    """41 + 47: the +2 per 7 is counted first, then 41 sets the total: the first two tricks 0
    (the 7 in the second one included), the last one tripled with its 7."""
    t = [
        taken(["F1", "F2", "F3", "F4"], 0, "F4"),
        taken(["F5", "F6", "F7", "F8"], 1, "F8"),
        taken(["K7", "K8", "K9", "K6"], 2, "K9"),
    ]
    r = rules_of(41, 47)
    assert score_round(t, r, trumps_of(r), 4)[0] == [0, 0, 3 * (1 + 2), 0]


def test_trick_to_left_and_right_of_winner_leads() -> None:
    """35 + 36: the trick goes left of the winner, the lead goes right of the winner."""
    state = with_rules([35, 36, 41, 42])
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    t = state.view(None)["tricks"][0]
    assert t["taker"] == (t["winner"] + 1) % 4 and state.current_player == (t["winner"] - 1) % 4


def test_anti_trumps_with_suits_equal() -> None:
    """32 + 33: plain cards compare by value across suits, trumps are below all of them."""
    assert winner([17, 32, 33], "F3", "M12", "K15") == "M12"
