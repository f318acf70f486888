"""`Jass.new_position`: a first deal as one seat knows it (its hand, the moves so far), the other
hands drawn at random consistently with the moves. Used to answer other programs' observations."""

from __future__ import annotations

import random

import pytest

import stichkit

OPTIONS = {"profile": "schieber", "weis": "off", "stoeck": False}


def positions(undertrump: str, count: int) -> list[tuple[stichkit.State, int]]:
    game = stichkit.load_game("jass", **OPTIONS, undertrump=undertrump, first_forehand=2)
    rng = random.Random(7)
    out = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        for _ in range(rng.randrange(38)):
            if state.view(None)["deal_number"] != 0:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.view(None)["deal_number"] == 0:
            out.append((state, state.current_player))
    return out


@pytest.mark.parametrize("undertrump", ["swiss", "jass-kit"])
def test_a_position_looks_the_same_to_its_seat(undertrump: str) -> None:
    """The seat's view of the position is its view of the real game: hand, tricks, voids, legal
    moves; and the drawn hands are ones the seat cannot rule out."""
    for state, seat in positions(undertrump, 150):
        moves = [(p, str(a)) for p, a in state.history()]
        pos = state.game.new_position(seat, state.view(seat)["hand"], moves, seed=1)  # type: ignore[attr-defined]
        assert pos.view(seat) == state.view(seat)
        voids = state.view(seat)["cannot_hold"]
        for other in range(4):
            if other != seat:
                assert not set(pos.view(other)["hand"]) & set(voids[other])
        again = state.game.new_position(seat, state.view(seat)["hand"], moves, seed=1)  # type: ignore[attr-defined]
        assert again == pos  # the seed fixes the draw


def test_bad_positions_say_why() -> None:
    game = stichkit.load_game("jass", **OPTIONS, first_forehand=0)
    state = game.new_state(seed=3)
    state.apply("trump:H")
    state.apply(state.legal_actions()[0])  # seat 0 leads a card
    hand0 = state.view(0)["hand"]
    moves = [(p, str(a)) for p, a in state.history()]
    card = moves[1][1]
    cases = [
        (dict(seat=5), "not a seat"),
        (dict(hand=[*hand0, card]), "played twice, or played and still"),
        (dict(hand=hand0[:-1]), "holds 8, not 7"),
        (dict(hand=[*hand0[:-1], "X9"]), "is not a Jass card"),
        (dict(hand="D6 D7"), "must be a list"),
        (dict(hand=[*hand0, card], moves=[(0, card)]), "before trump is chosen"),
        (dict(hand=[*hand0, card], moves=[(1, "trump:H")]), "turn of seat 0"),
        (dict(moves=[(0, "trump:H"), (0, card), (3, card)]), "played twice"),
        (dict(moves=[("0", "trump:H")]), r"is not \(seat 0\.\.3, action\)"),
        (dict(moves=[(0, "trump:Q")]), "is not a jass action"),
    ]
    for change, words in cases:
        args = {"seat": 0, "hand": hand0, "moves": moves, **change}
        with pytest.raises(stichkit.StichkitError, match=words):
            game.new_position(args["seat"], args["hand"], args["moves"])  # type: ignore[attr-defined]
    with pytest.raises(stichkit.OptionError, match="weis='off' and stoeck=False"):
        stichkit.load_game("jass").new_position(0, hand0, moves)  # type: ignore[attr-defined]
