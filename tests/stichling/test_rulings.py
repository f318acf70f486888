"""Every Stichling ruling (RULINGS.md, "Stichling" and "General"), the notation, the secret tile
order, views, sampling, and bad input."""

from __future__ import annotations

import json
import random

import pytest

import stichkit
from stichkit import DealError, IllegalActionError, NotationError, OptionError, UndoError
from stichkit.games.stichling.state import winners_of

from .helpers import deal, follow, new
from .test_rulebook import tile_cycle_state


def test_options_and_action_table() -> None:
    """RULINGS.md General: `first_player` (default 0); Stichling: 2 to 5 players. The action
    table is fixed per player count: every card × (place 1-4, new), then six tile orders."""
    game = stichkit.load_game("stichling")
    assert game.options == {"players": 4, "first_player": 0}
    assert game.num_players == 4
    assert game.num_actions == 48 * 5 + 6
    assert [str(game.action_from_id(i)) for i in range(6)] == ["G1>1", "G1>2", "G1>3", "G1>4", "G1>new", "G2>1"]
    assert [str(a) for a in game.actions[-6:]] == [
        "order:123", "order:132", "order:213", "order:231", "order:312", "order:321",
    ]  # fmt: skip
    assert stichkit.load_game("stichling", players=5).num_actions == 60 * 5 + 6
    assert game.parse_action("g7>NEW") == game.parse_action("G7>new")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 6}, "players"),
        ({"players": 1}, "players"),
        ({"first_player": 4}, "first_player"),
        ({"players": 2, "first_player": 2}, "seats are 0..1"),
        ({"first_player": "x"}, "first_player"),
        ({"deals": 2}, "no option 'deals'"),
    ],
)
def test_bad_options(options: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        stichkit.load_game("stichling", **options)


def test_tile_order_is_secret() -> None:
    """RULINGS.md: the tile order is secret; the face-up tile is public. The order is laid out
    in seat order from the starter, each seat seeing only its own."""
    game = stichkit.load_game("stichling", players=3)
    state = game.new_state(seed=5)
    assert [str(a) for a in state.legal_actions()] == [f"order:{o}" for o in ("123", "132", "213", "231", "312", "321")]
    state.apply("order:312")
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    assert v0["tile_order"] == [3, 1, 2] and v0["tile_order_action"] == "order:312"
    assert v1["tile_order"] is None and spectator["tile_order"] is None
    assert v1["tiles_laid"] == [True, False, False]
    for v in (v1, spectator, state.view(2)):
        assert "312" not in json.dumps({k: x for k, x in v.items() if k != "legal_actions"})
    assert state.current_player == 1
    with pytest.raises(IllegalActionError, match="must first lay out their score tiles"):
        state.apply("G1>new")


def test_face_up_tiles_are_public_and_reveal_the_order() -> None:
    """RULINGS.md: the face-up tile is public. Each tile turned up was seen by all, so after two
    tricks the whole order is known (`tiles_seen`)."""
    state = tile_cycle_state()
    for colour in "GY":
        for seat in range(4):
            follow(state, next(c for c in state.view(seat)["hand"] if c[0] == colour))
        other = state.view(2)
        assert other["tile_order"] == [1, 2, 3]  # seat 2's own
    assert other["face_up"][0] == 3 and other["tiles_seen"][0] == [2, 3]


def test_sample_hidden_respects_the_turned_up_tiles() -> None:
    """`sample_hidden` redraws hidden orders only among those that agree with the
    tiles turned up; before any trick every order is possible."""
    state = tile_cycle_state()
    orders = {tuple(state.sample_hidden(1, random.Random(r)).view(0)["tile_order"]) for r in range(40)}
    assert len(orders) > 1  # the real order (2, 3, 1) does not leak
    for seat in range(4):
        follow(state, next(c for c in state.view(seat)["hand"] if c[0] == "G"))
    orders = {tuple(state.sample_hidden(1, random.Random(r)).view(0)["tile_order"]) for r in range(40)}
    assert orders == {(2, 3, 1), (2, 1, 3)}  # the 2 was turned up first
    for seat in range(4):
        follow(state, next(c for c in state.view(seat)["hand"] if c[0] == "Y"))
    for r in range(10):
        sample = state.sample_hidden(1, random.Random(r))
        assert sample.view(0)["tile_order"] == [2, 3, 1]
        assert sample.view(1) == state.view(1)
        assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample


def test_sample_hidden_redeals_only_hidden_hands() -> None:
    state = stichkit.load_game("stichling", players=5).new_state(seed=2)
    rng = random.Random(0)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    sample = state.sample_hidden(3, random.Random(9))
    assert sample.view(3) == state.view(3)
    assert sample.view(None) == state.view(None)
    assert [len(sample.view(s)["hand"]) for s in range(5)] == [len(state.view(s)["hand"]) for s in range(5)]
    assert any(sample.view(s)["hand"] != state.view(s)["hand"] for s in (0, 1, 2, 4))


@pytest.mark.parametrize(
    ("points", "winners"),
    [
        ([[3, 1], [2, 4], [3, 3]], [1]),  # totals 8 : 8, 3rd deal 3 : 3, 2nd deal 2 : 4
        ([[3, 0], [2, 2], [3, 6]], [1]),  # totals 8 : 8, the 3rd deal decides
        ([[1, 1, 3], [2, 2, 2], [3, 3, 0]], [0, 1]),  # all three values equal: shared
        ([[0, 0], [0, 0], [9, 3]], [0]),
    ],
)
def test_tie_breaks(points: list[list[int]], winners: list[int]) -> None:
    """RULINGS.md / seed line 142: most points; ties by the 3rd deal's score, then the 2nd's; else shared."""
    assert winners_of(points) == winners


def test_game_end_and_record_replay() -> None:
    """Seed line 140: after the third deal the game ends; the record replays without the RNG."""
    state = stichkit.load_game("stichling", players=2).new_state(seed=11)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.current_player is None and state.legal_actions() == []
    rec = json.loads(json.dumps(state.record()))
    assert rec["result"] == {"scores": state.scores(), "winners": state.winners()}
    again = stichkit.replay(rec)
    assert again == state and again.view(None) == state.view(None)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("G1>new")


def test_explicit_deal_and_bad_deals() -> None:
    game = stichkit.load_game("stichling", players=3)
    good = deal(3, {})
    assert game.new_state(seed=1, deal=good).view(0)["hand"] == good["hands"][0]
    bad = [
        ([["G1"]], "3-player Stichling deal is"),
        ({"hands": good["hands"][:2]}, "has 2 hands"),
        ({"hands": [good["hands"][0][:11], *good["hands"][1:]]}, "seat 0's hand has 11 cards"),
        ({"hands": [["G10", *good["hands"][0][1:]], *good["hands"][1:]]}, "'G10' is not a card of the 3-player deck"),
        ({"hands": [[good["hands"][1][0], *good["hands"][0][1:]], *good["hands"][1:]]}, "dealt twice"),
        ({"hands": good["hands"], "extra": 1}, "deal is"),
    ]
    for value, words in bad:
        with pytest.raises(DealError, match=words):
            game.new_state(seed=1, deal=value)


def test_bad_actions_leave_the_state_unchanged() -> None:
    state = new(4, {0: ["G1", "G2"], 1: ["Y1"]})
    before = state.clone()
    cases = [
        ("G7>5", NotationError, "not a stichling action"),
        ("G13>new", NotationError, "not a stichling action"),
        ("order:124", NotationError, "not a stichling action"),
        ("Y1>new", IllegalActionError, "seat 0, whose turn it is, does not hold Y1"),
        ("G1>2", IllegalActionError, "no trick is open there"),
        ("order:123", IllegalActionError, "has laid out their tiles"),
    ]
    for text, error, words in cases:
        with pytest.raises(error, match=words):
            state.apply(text)
        assert state == before
    with pytest.raises(UndoError):
        stichkit.load_game("stichling").new_state(seed=1).undo()


def test_undo_across_a_deal_end() -> None:
    state = tile_cycle_state()
    for k in range(12):
        for seat in range(4):
            follow(state, next(c for c in state.view(seat)["hand"] if c[0] == "GYPB"[k % 4]))
    assert state.view(None)["deal_number"] == 1
    after = state.clone()
    last = [m["action"] for m in state.record()["moves"] if "action" in m][-1]
    state.undo()
    assert state.view(None)["deal_number"] == 0 and state.scores() == [0, 0, 0, 0]
    assert state.view(3)["hand"] == [last.split(">")[0]]
    state.apply(last)  # the next deal is dealt again, the same
    assert state == after


def test_golden_records() -> None:
    """Pinned whole games (2 and 5 players, heuristic and random bots, seed 2026): the same seed
    deals the same cards, the same moves give the same record, and the records replay. A change
    here is a change of behaviour: regenerate only on purpose."""
    from pathlib import Path

    records = json.loads((Path(__file__).parent / "golden_records.json").read_text())
    for players, record in records.items():
        game = stichkit.load_game("stichling", players=int(players), first_player=1)
        state = game.new_state(seed=2026)
        for m in record["moves"]:
            if "action" in m:
                assert state.current_player == m["seat"]
                state.apply(m["action"])
        assert state.record() == record
        assert stichkit.replay(record) == state
