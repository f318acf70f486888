"""The rulebook's statements and examples (seed 002_d48ec76f0b189400.txt, cited by line)."""

from __future__ import annotations

import pytest

import stichkit
from stichkit import IllegalActionError
from stichkit.games.stichling import StichlingState

from .helpers import follow, legal_targets, new

# The example's players (seed lines 80-93 and 114-116): Orange, White, Grey, Red in seat order.
ORANGE, WHITE, GREY, RED = range(4)


def example_position() -> StichlingState:
    """Seed lines 82-93: three of four possible tricks open. Orange began one with the 8 and only
    lower cards followed; Red began one with the 7 and nobody added to it; Grey took the third
    over with his 4 from the player of the 1. Place 1 = the left trick, 2 = the lower, 3 = the upper."""
    state = new(
        4,
        {
            ORANGE: ["G8", "G2"],
            WHITE: ["Y1", "G5"],
            GREY: ["Y4", "P9", "G10", "Y6", "B11"],
            RED: ["G7", "B9", "G11"],
        },
    )
    for action in ["G8>new", "Y1>new", "Y4>2", "G7>new", "G2>1", "G5>1"]:
        state.apply(action)
    return state


def test_example_three_open_tricks() -> None:
    """Seed lines 82-91: owners follow the highest card of the led colour."""
    view = example_position().view(None)
    left, lower, upper, free = view["places"]
    assert [e["card"] for e in left["cards"]] == ["G8", "G2", "G5"]
    assert (left["led"], left["owner"], left["best"]) == ("G", ORANGE, "G8")
    assert (upper["led"], upper["owner"], [e["card"] for e in upper["cards"]]) == ("G", RED, ["G7"])
    assert [(e["seat"], e["card"]) for e in lower["cards"]] == [(WHITE, "Y1"), (GREY, "Y4")]
    assert (lower["led"], lower["owner"]) == ("Y", GREY)  # Grey took it over with the 4
    assert free is None  # "Es könnte noch ein weiterer Stich eröffnet werden"


def test_example_which_colours_may_go_where() -> None:
    """Seed line 101: green on the left, the upper or the free place, not the lower; yellow on the
    lower or the free place; purple and blue must open the free place."""
    state = example_position()
    assert state.current_player == GREY
    assert legal_targets(state, "G10") == ["1", "3", "new"]
    assert legal_targets(state, "Y6") == ["2", "new"]
    assert legal_targets(state, "P9") == ["new"]
    assert legal_targets(state, "B11") == ["new"]


def test_example_no_throw_off_while_a_place_is_free() -> None:
    """Seed line 101: purple or blue "dürften zurzeit nicht ... abgeworfen werden"."""
    state = example_position()
    before = state.clone()
    with pytest.raises(IllegalActionError, match=r"P9 may not be thrown off onto place 1 .*it can open a new trick"):
        state.apply("P9>1")
    with pytest.raises(IllegalActionError, match="G10 may not be thrown off onto place 2"):
        state.apply("G10>2")
    assert state == before


def test_example_reds_blue_nine_does_not_take_oranges_trick() -> None:
    """Seed lines 114-116: Red throws the blue 9 onto the left trick, which is then full; the 9
    is the highest card but not of the led colour, so Orange takes the trick, and a place is free."""
    state = example_position()
    state.apply("P9>new")  # Grey opens the fourth trick: no free place remains
    assert state.current_player == RED
    assert legal_targets(state, "B9") == ["1", "2", "3", "4"]  # no blue trick, no free place
    state.apply("B9>1")
    view = state.view(None)
    assert view["places"][0] is None  # "Anschließend steht wieder ein freier Platz ... zur Verfügung"
    assert view["tricks"] == [
        {
            "place": 1,
            "led": "G",
            "owner": ORANGE,
            "cards": [
                {"seat": ORANGE, "card": "G8"},
                {"seat": ORANGE, "card": "G2"},
                {"seat": WHITE, "card": "G5"},
                {"seat": RED, "card": "B9"},
            ],
        }
    ]
    assert view["taken"] == [1, 0, 0, 0]
    assert state.current_player == ORANGE  # seed line 112: turn order is not interrupted
    # Trick places keep their numbers; a new trick takes the lowest free place.
    assert [p["led"] for p in view["places"][1:]] == ["Y", "G", "P"]
    card = state.view(ORANGE)["hand"][0]
    assert "new" in legal_targets(state, card)
    state.apply(f"{card}>new")
    assert state.view(None)["places"][0]["cards"] == [{"seat": ORANGE, "card": card}]


def test_throw_off_is_judged_per_card() -> None:
    """Seed line 105 and RULINGS.md (Stichling): a card may be thrown off while another card of
    the hand could follow somewhere."""
    state = example_position()
    state.apply("P9>new")
    assert legal_targets(state, "G11") == ["1", "3"]  # four open: green can only follow green
    assert legal_targets(state, "B9") == ["1", "2", "3", "4"]  # ... yet the blue 9 may be thrown off
    with pytest.raises(
        IllegalActionError, match=r"G11 may not be thrown off onto place 2 .*follow green on place 1, 3"
    ):
        state.apply("G11>2")
    with pytest.raises(IllegalActionError, match="all four trick places are taken"):
        state.apply("G11>new")


def test_open_a_new_trick_of_a_colour_already_open() -> None:
    """Seed line 103: a player may open a new trick with any colour instead of following, also
    with a colour already open (several green tricks)."""
    state = example_position()
    state.apply("G10>new")
    places = state.view(None)["places"]
    assert [p["led"] for p in places] == ["G", "Y", "G", "G"]
    assert places[3]["owner"] == GREY


def test_overtaking_oneself_keeps_the_marker() -> None:
    """Seed line 107: adding several cards to the same trick is allowed; overtaking oneself leaves
    one's marker in place."""
    state = new(4, {0: ["G3", "G9"], 1: ["Y1"], 2: ["Y2"], 3: ["Y3"]})
    for action in ["G3>new", "Y1>new", "Y2>2", "Y3>2", "G9>1"]:
        state.apply(action)
    place = state.view(None)["places"][0]
    assert (place["owner"], place["best"], len(place["cards"])) == (0, "G9", 2)


def tile_cycle_state() -> StichlingState:
    """Seat 0 holds the 10-12s, seat 1 the 1-3s, seat 2 the 4-6s, seat 3 the 7-9s of every colour:
    every round seat 0 opens a trick, the others follow, and seat 0 takes it."""
    fixed = {s: [c + str(v) for c in "GYPB" for v in range(lo, lo + 3)] for s, lo in enumerate((10, 1, 4, 7))}
    return new(4, fixed, orders=["order:231", "order:123", "order:123", "order:123"])


def test_tile_cycle_first_and_fourth_second_and_fifth() -> None:
    """Seed lines 109-110 and the pictures at 120-126: the 1st tile after the 1st (or 4th) trick,
    the 2nd after the 2nd (or 5th), then the 3rd; only one tile is face up at a time."""
    state = tile_cycle_state()
    assert state.view(0)["tile_order"] == [2, 3, 1]  # order:231 in deal 1 (tiles 1, 2, 3)
    seen = []
    for k in range(12):
        colour = "GYPB"[k % 4]
        for seat in range(4):
            hand = state.view(seat)["hand"]
            follow(state, next(c for c in hand if c[0] == colour))
        v = state.view(None)
        if k < 11:
            assert v["taken"] == [k + 1, 0, 0, 0]
            seen.append(v["face_up"][0])
    assert seen[:5] == [2, 3, 1, 2, 3]  # 1st = 4th, 2nd = 5th
    assert seen == [2, 3, 1] * 3 + [2, 3]


def test_deal_scores_the_face_up_tile_and_zero_without_a_trick() -> None:
    """Seed line 134: each scores the face-up tile; no trick taken, 0 points."""
    state = tile_cycle_state()
    for k in range(12):
        colour = "GYPB"[k % 4]
        for seat in range(4):
            follow(state, next(c for c in state.view(seat)["hand"] if c[0] == colour))
    v = state.view(None)
    assert v["previous_deals"][0] == {
        "deal": 0,
        "starter": 0,
        "taken": [12, 0, 0, 0],
        "face_up": [1, None, None, None],  # 12th trick: the 3rd tile (order 2-3-1 → 1)
        "points": [1, 0, 0, 0],
    }
    assert state.scores() == [1, 0, 0, 0]
    # Seed line 136: the next deal with tiles 2, 4, 6, begun by the left neighbour of the starter.
    assert (v["deal_number"], v["tiles"], v["starter"], state.current_player) == (1, [2, 4, 6], 1, 1)
    assert v["phase"] == "order"


def test_unfinished_tricks_are_discarded() -> None:
    """Seed line 132: tricks still open after 12 rounds score nothing and are removed."""
    state = new(
        2, {0: [c + str(v) for c in "GY" for v in range(1, 7)], 1: [c + str(v) for c in "PB" for v in range(1, 7)]}
    )
    script = []
    for v in range(1, 5):
        script += [f"G{v}", f"P{v}", f"Y{v}", f"B{v}"]
    script += ["G5", "P5", "Y5", "B5", "G6", "P6", "Y6", "B6"]
    for card in script:
        follow(state, card)
    v = state.view(None)
    assert v["deal_number"] == 1
    assert v["places"] == [None] * 4  # the four unfinished tricks are gone
    assert v["previous_deals"][0]["taken"] == [2, 2]
    assert v["previous_deals"][0]["points"] == [2, 2]  # order:123, 2nd trick → the 2


def test_three_deals_with_their_tiles_and_rotating_starter() -> None:
    """Seed lines 48, 54-59, 70 and 136: exactly three deals, tiles (1,2,3), (2,4,6), (3,6,9);
    the first deal begins with `first_player`, each later one with the previous starter's left
    neighbour (RULINGS.md General: left = seat + 1)."""
    import random

    game = stichkit.load_game("stichling", players=3, first_player=2)
    state = game.new_state(seed=3)
    rng = random.Random(1)
    seen = []
    while not state.is_terminal():
        v = state.view(None)
        if (v["deal_number"], v["starter"], v["tiles"]) not in seen:
            seen.append((v["deal_number"], v["starter"], v["tiles"]))
            assert state.current_player == v["starter"]  # tiles laid out from the starter on ...
        state.apply(rng.choice(state.legal_actions()))
    assert seen == [(0, 2, [1, 2, 3]), (1, 0, [2, 4, 6]), (2, 1, [3, 6, 9])]
    assert len(state.view(None)["previous_deals"]) == 3
    assert sum(1 for m in state.record()["moves"] if "chance" in m) == 3


@pytest.mark.parametrize(("players", "top"), [(2, 6), (3, 9), (4, 12), (5, 15)])
def test_deck_by_player_count(players: int, top: int) -> None:
    """Seed lines 41-44 and 50: 24/36/48/60 cards, 12 each."""
    state = stichkit.load_game("stichling", players=players).new_state(seed=1)
    hands = [state.view(s)["hand"] for s in range(players)]
    assert all(len(h) == 12 for h in hands)
    cards = sorted(c for h in hands for c in h)
    assert cards == sorted(c + str(v) for c in "GYPB" for v in range(1, top + 1))
