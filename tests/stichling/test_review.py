"""Review of the Stichling engine against the rulebook (seed 002_d48ec76f0b189400.txt, cited by
line), RULINGS.md (General + Stichling), the review's requirements and the API contract (API.md).

Plain tests pin rules that the other files in tests/stichling/ do not cover yet; a test marked
`xfail(strict=True)` asserts the correct behaviour where the engine disagrees today."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

import stichkit
from stichkit import DealError, IllegalActionError, UndoError
from stichkit.games.stichling import StichlingState

from .helpers import TOP, deal, new

TILES = ([1, 2, 3], [2, 4, 6], [3, 6, 9])  # seed lines 54-59
ORDERS = ("order:123", "order:132", "order:213", "order:231", "order:312", "order:321")


def deck(players: int) -> list[str]:
    return [c + str(v) for c in "GYPB" for v in range(1, TOP[players] + 1)]


def random_game(players: int, seed: int, first_player: int = 0) -> StichlingState:
    state = stichkit.load_game("stichling", players=players, first_player=first_player).new_state(seed=seed)
    assert isinstance(state, StichlingState)
    return state


def play_until(state: StichlingState, rng: random.Random, stop: Any) -> None:
    """Random legal moves until `stop(state)` is true or the game is over."""
    while not state.is_terminal() and not stop(state):
        state.apply(rng.choice(state.legal_actions()))


def places(state: StichlingState) -> list[Any]:
    return state.view(None)["places"]


# -- the deck, the deals and the tiles ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_deal_uses_the_whole_deck_and_the_hand_is_seen_before_the_tiles(players: int) -> None:
    """Seed lines 41-44, 50 and 136: every deal (not only the first) shuffles the player count's
    deck (24/36/48/60 cards) and gives 12 each. Seed line 52: each player looks at their
    12 cards and then chooses one of six tile orders."""
    state = random_game(players, seed=40 + players)
    rng = random.Random(players)
    for number in range(3):
        play_until(state, rng, lambda s, n=number: s.view(None)["deal_number"] == n)
        v = state.view(None)
        assert (v["deal_number"], v["phase"]) == (number, "order")
        hands = [state.view(s)["hand"] for s in range(players)]
        assert [len(h) for h in hands] == [12] * players
        assert sorted(c for h in hands for c in h) == sorted(deck(players))
        me = state.current_player
        assert me is not None
        assert state.view(me)["legal_actions"] == list(ORDERS)
        assert state.view(me)["tile_order"] is None
        state.apply("order:123")


def test_tile_orders_lay_out_each_deals_own_tiles() -> None:
    """Seed lines 54-59 and 136: deal 1 uses tiles 1, 2, 3; deal 2 uses 2, 4, 6; deal 3 uses 3, 6, 9.
    `order:231` (docs/stichling.md, Notation) lays out the middle, largest, smallest tile."""
    state = random_game(3, seed=8)
    rng = random.Random(8)
    want = ([2, 3, 1], [4, 6, 2], [6, 9, 3])
    for number in range(3):
        play_until(state, rng, lambda s, n=number: s.view(None)["deal_number"] == n)
        while state.phase == "order":
            state.apply("order:231")
        for seat in range(3):
            v = state.view(seat)
            assert v["tiles"] == TILES[number]
            assert v["tile_order"] == want[number]
            assert v["tile_order_action"] == "order:231"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_every_deal_scores_each_seats_face_up_tile(players: int, seed: int) -> None:
    """Seed lines 109-110, 132-134, 140 and RULINGS.md (Stichling): in every deal each player
    scores the tile face up after their last trick (1st, 2nd, 3rd, 1st again, ...), 0 without a
    trick; the game total is the sum of the three deals. Checked from each seat's own view of its
    secret order, with varied orders in all three deals."""
    state = random_game(players, seed)
    rng = random.Random(seed)
    own: dict[int, list[int]] = {}
    while not state.is_terminal():
        if state.phase == "order":
            state.apply(rng.choice(ORDERS))
            continue
        number = state.view(None)["deal_number"]
        if not own:
            own = {s: state.view(s)["tile_order"] for s in range(players)}
            assert all(sorted(o) == TILES[number] for o in own.values())
        state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.view(None)["deal_number"] != number:
            d = state.view(None)["previous_deals"][number]
            for s in range(players):
                k = d["taken"][s]
                assert d["points"][s] == (0 if k == 0 else own[s][(k - 1) % 3])
            own = {}
    deals = state.view(None)["previous_deals"]
    assert len(deals) == 3
    assert state.scores() == [sum(d["points"][s] for d in deals) for s in range(players)]


def test_each_deal_is_begun_by_the_left_neighbour_of_the_previous_starter() -> None:
    """Seed lines 70 and 136, RULINGS.md General ("seat i+1 sits to the left of seat i"): deal 1 is
    begun by `first_player`, each later deal by the left neighbour of the previous starter (with
    wrap-around), and the starter also plays the deal's first card."""
    players = 5
    state = random_game(players, seed=12, first_player=4)
    rng = random.Random(12)
    first_cards: list[int] = []
    starters: list[int] = []
    while not state.is_terminal():
        v = state.view(None)
        if v["phase"] == "play" and len(first_cards) == v["deal_number"]:
            first_cards.append(state.current_player)  # type: ignore[arg-type]
            starters.append(v["starter"])
        state.apply(rng.choice(state.legal_actions()))
    assert starters == [4, 0, 1]
    assert first_cards == [4, 0, 1]
    assert [d["starter"] for d in state.view(None)["previous_deals"]] == [4, 0, 1]


# -- placing cards, ownership, full tricks ------------------------------------------------------


def four_open_two_green() -> StichlingState:
    """Four tricks open: place 1 green (seat 0), 2 green (seat 1), 3 yellow (seat 2), 4 purple
    (seat 3). No free place, no blue trick."""
    state = new(
        4,
        {0: ["G1", "B12", "G6"], 1: ["G2", "Y2"], 2: ["Y1", "G5"], 3: ["P1", "G4"]},
    )
    for action in ["G1>new", "G2>new", "Y1>new", "P1>new"]:
        state.apply(action)
    return state


def test_a_thrown_off_card_never_owns_and_a_higher_led_card_still_takes_over() -> None:
    """Seed line 74 ("eine höherwertige Karte (der angespielten Farbe!)") and RULINGS.md ("A trick
    belongs to whoever played its highest card of the led colour"): a high card thrown off onto an
    unfinished trick does not move the marker, nor raise the bar for the led colour; the 4th card
    completes the trick for its owner and play goes on with the next seat (seed line 112)."""
    state = four_open_two_green()
    assert state.current_player == 0
    assert [a for a in map(str, state.legal_actions()) if a.startswith("B12")] == [
        "B12>1", "B12>2", "B12>3", "B12>4",
    ]  # fmt: skip
    state.apply("B12>2")  # thrown off onto seat 1's green trick
    p2 = places(state)[1]
    assert (p2["owner"], p2["best"], p2["led"]) == (1, "G2", "G")
    state.apply("Y2>3")  # seat 1 takes the yellow trick over from seat 2
    assert places(state)[2]["owner"] == 1
    state.apply("G5>2")  # G5 beats G2 (the B12 does not count)
    p2 = places(state)[1]
    assert (p2["owner"], p2["best"], len(p2["cards"])) == (2, "G5", 3)
    state.apply("G4>2")  # the 4th card: full, seat 2 takes it
    v = state.view(None)
    assert v["places"][1] is None
    assert v["taken"] == [0, 0, 1, 0]
    assert v["tricks"][-1]["owner"] == 2
    assert [e["card"] for e in v["tricks"][-1]["cards"]] == ["G2", "B12", "G5", "G4"]
    assert state.current_player == 0  # seat 3 played the 4th card; seat 0 is next, not the taker


def test_a_full_trick_is_taken_at_the_fourth_card_not_before() -> None:
    """Seed line 108: "Ein Stich ist voll, wenn die vierte Karte auf ihn gelegt wird"."""
    state = new(4, {0: ["G1", "G5"], 1: ["G2"], 2: ["G3"], 3: ["G4"]})
    for action in ["G1>new", "G2>1", "G3>1"]:
        state.apply(action)
        assert state.view(None)["taken"] == [0, 0, 0, 0]
    assert len(places(state)[0]["cards"]) == 3
    state.apply("G4>1")
    assert state.view(None)["taken"] == [0, 0, 0, 1] and places(state)[0] is None


def test_a_new_trick_takes_the_lowest_free_place_and_open_tricks_keep_their_ids() -> None:
    """Trick places have stable identities (`G7>2`, `G7>new`); docs/stichling.md: a new
    trick takes the lowest-numbered free place, a trick keeps its number until it is taken."""
    state = new(4, {0: ["G1", "Y3"], 1: ["Y1", "Y4"], 2: ["Y2", "B1"], 3: ["P1", "G2"]})
    for action in ["G1>new", "Y1>new", "Y2>2", "P1>new", "Y3>2", "Y4>2"]:
        state.apply(action)
    v = places(state)
    assert [None if p is None else (p["place"], p["led"]) for p in v] == [(1, "G"), None, (3, "P"), None]
    assert state.view(None)["taken"] == [0, 1, 0, 0]
    assert state.current_player == 2
    state.apply("B1>new")  # lowest free place: 2 (place 4 is free too)
    v = places(state)
    assert (v[1]["place"], v[1]["led"], v[1]["owner"]) == (2, "B", 2)
    assert (v[2]["place"], [e["card"] for e in v[2]["cards"]]) == (3, ["P1"])  # unchanged
    state.apply("G2>1")  # place 1 is still the green trick
    assert [e["card"] for e in places(state)[0]["cards"]] == ["G1", "G2"]


def test_the_last_deals_unfinished_tricks_are_shown_as_discarded_and_score_nothing() -> None:
    """Seed line 132: unfinished tricks at the deal's end "werden nicht berücksichtigt"; after the
    last deal the view lists them under `discarded` and they count for nobody's `taken`."""
    state = random_game(4, seed=21)
    rng = random.Random(21)
    play_until(state, rng, lambda s: False)
    v = state.view(None)
    assert v["phase"] == "over" and v["places"] == [None] * 4
    last = v["previous_deals"][2]
    assert sum(last["taken"]) == len(v["tricks"])
    assert 4 * len(v["tricks"]) + sum(len(t["cards"]) for t in v["discarded"]) == 48
    assert all(1 <= len(t["cards"]) <= 3 for t in v["discarded"])


# -- bad input: clear errors, state unchanged ---------------------------------------------------


def test_garbage_actions_raise_illegal_action_errors_and_change_nothing() -> None:
    """API.md: an illegal action raises IllegalActionError saying why and leaves the state exactly
    as it was; an Action of another game is not an action of this one."""
    state = four_open_two_green()
    before = state.clone()
    jass = stichkit.load_game("jass")
    five = stichkit.load_game("stichling", players=5)
    for bad in [None, 5, 1.5, b"G1>1", ["G6>1"], "", "G6", "G6>", "G6>0", "G6>5", "G6 > 1", "order:",
                jass.actions[0], five.parse_action("G13>new"), five.parse_action("order:123")]:  # fmt: skip
        with pytest.raises(IllegalActionError):
            state.apply(bad)  # type: ignore[arg-type]
        assert state == before
    for text, words in [
        ("G6>new", "G6 cannot open a new trick: all four trick places are taken"),
        ("G6>3", "G6 may not be thrown off onto place 3 (yellow led): it can follow green on place 1, 2"),
        ("Y2>1", "does not hold Y2"),
        ("order:321", "has laid out their tiles"),
    ]:
        with pytest.raises(IllegalActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
            state.apply(text)
        assert state == before


def test_bad_seats_and_bad_deal_entries_are_value_errors() -> None:
    """API.md: view(seat) takes 0..n-1 or None; sample_hidden needs a seat; a wrong explicit deal
    raises a clear DealError (never a TypeError/AttributeError)."""
    game = stichkit.load_game("stichling", players=3)
    state = game.new_state(seed=1)
    for seat in (3, -1, True, "0", 1.0):
        with pytest.raises(ValueError, match="not a seat"):
            state.view(seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            state.sample_hidden(seat, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a seat"):
        state.sample_hidden(None, random.Random(0))  # type: ignore[arg-type]
    good = deal(3, {})["hands"]
    for bad in [
        [],
        "hands",
        {"hands": None},
        {"hands": [None, None, None]},
        {"hands": [[1] * 12, good[1], good[2]]},
        {"hands": [[None] * 12, good[1], good[2]]},
        {"hands": [[["G1"]] * 12, good[1], good[2]]},
        {"hands": [[*good[0][:11], "g1"], good[1], good[2]]},  # G1 twice, in another letter case
    ]:
        with pytest.raises(DealError):
            game.new_state(seed=1, deal=bad)


# -- hidden information -------------------------------------------------------------------------


def test_another_players_tile_order_changes_nothing_in_my_view_until_a_tile_is_turned_up() -> None:
    """RULINGS.md (Stichling): "the tile order is secret; the face-up tile is public"; API.md:
    nothing hidden from a seat may appear in its view, in any field. Two games that differ only in
    seat 1's order give seats 0, 2, 3 and a spectator identical views until seat 1 takes a trick."""
    game = stichkit.load_game("stichling", players=4)
    a, b = game.new_state(seed=31), game.new_state(seed=31)
    for state, secret in ((a, "order:123"), (b, "order:321")):
        for seat in range(4):
            state.apply(secret if seat == 1 else "order:213")
    rng = random.Random(31)
    steps = 0
    while a.view(None)["taken"][1] == 0:
        for seat in (0, 2, 3, None):
            assert a.view(seat) == b.view(seat)
            text = json.dumps(a.view(seat))
            assert "order:123" not in text and "order:321" not in text
        assert a.view(1)["tile_order"] == [1, 2, 3] and b.view(1)["tile_order"] == [3, 2, 1]
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        steps += 1
    assert steps > 4
    assert (a.view(0)["face_up"][1], b.view(0)["face_up"][1]) == (1, 3)  # now public, and different


def sampled_positions() -> list[tuple[StichlingState, int]]:
    """Positions in every phase: the tile layout of each deal, mid-play of each deal, game over."""
    out = []
    for players, seed in ((3, 5), (5, 6)):
        state = random_game(players, seed)
        rng = random.Random(seed)
        k = 0
        while True:
            if k % 17 == 0 or state.is_terminal() or (state.phase == "order" and state.current_player != 0):
                out.append((state.clone(), k % players))
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            k += 1
    return out


def test_sample_hidden_keeps_every_view_of_the_seat_in_every_phase() -> None:
    """API.md: `sample_hidden(seat, rng)` is consistent with everything `view(seat)` shows; it leaves
    the real state alone, and its record replays to an equal state. Checked in the tile layout of
    every deal, during play of every deal and after the game's end."""
    phases = set()
    for state, seat in sampled_positions():
        before = state.clone()
        sample = state.sample_hidden(seat, random.Random(seat))
        phases.add((state.view(None)["deal_number"], state.phase))
        assert sample.view(seat) == state.view(seat)
        assert sample.view(None) == state.view(None)
        assert state == before
        assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
        assert sample.legal_actions() == state.legal_actions() or sample.current_player != seat
    assert {(d, p) for d in range(3) for p in ("order", "play")} | {(2, "over")} <= phases


def test_sample_hidden_cannot_be_undone_into_the_real_past_nor_foresee_the_next_deal() -> None:
    """API.md: the sample's hidden parts are drawn at random; RULINGS.md General: every shuffle
    comes from `seed`. So the sample must not carry the real snapshots (undo) nor the real seed
    (the next deal), which would give away the real hands."""
    state = random_game(4, seed=77)
    rng = random.Random(77)
    play_until(state, rng, lambda s: s.current_player == 0 and s.view(None)["hand_sizes"][0] == 1)
    assert state.current_player == 0 and state.view(None)["deal_number"] == 0
    real_next = state.clone()
    play_until(real_next, random.Random(1), lambda s: s.view(None)["deal_number"] == 1)
    different = 0
    for r in range(6):
        sample = state.sample_hidden(0, random.Random(r))
        with pytest.raises(UndoError):
            sample.undo()
        play_until(sample, random.Random(1), lambda s: s.view(None)["deal_number"] == 1)
        different += sample.view(0)["hand"] != real_next.view(0)["hand"]
    assert different >= 5


def test_sample_hidden_redraws_earlier_deals_hidden_orders_too() -> None:
    """RULINGS.md: the tile order is secret; seed line 134: at a deal's end only the face-up tile is
    shown. A seat that took no trick in deal 1 never showed a tile, so samples must not always
    reproduce its real order from that deal (which would leak it through the sample's record)."""
    state = random_game(5, seed=3)
    rng = random.Random(3)
    play_until(state, rng, lambda s: s.view(None)["deal_number"] == 1)
    d0 = state.view(None)["previous_deals"][0]
    quiet = [s for s in range(1, 5) if d0["taken"][s] == 0]
    assert quiet, "pick a seed where a seat other than 0 took no trick in deal 1"
    seat = quiet[0]

    def order_in_deal_0(s: StichlingState) -> str:
        moves = s.record()["moves"]
        second_chance = [i for i, m in enumerate(moves) if "chance" in m][1]
        return next(m["action"] for m in moves[:second_chance] if m.get("seat") == seat and "order:" in m["action"])

    orders = {order_in_deal_0(state.sample_hidden(0, random.Random(r))) for r in range(30)}
    assert len(orders) > 2


def test_sample_hidden_carries_nothing_of_the_real_hidden_hand() -> None:
    """API.md: `sample_hidden` draws the hidden parts at random, and "a bot never reads what its
    seat may not see (search bots use sample_hidden)". The sampled state must hold nothing of the
    real hidden hands, also not in a cache: today `_legal_ids` is copied from the real state (seat 1
    to move), so it lists seat 1's real cards, and it travels with the sample (pickle, worker
    processes). Fix: reset `_legal_ids` with `_legal` in `sample_hidden` (state.py)."""
    state = stichkit.load_game("stichling", players=4).new_state(seed=3)
    for _ in range(4):
        state.apply("order:123")
    state.apply(state.legal_actions()[0])  # seat 0 plays; seat 1 (hidden from seat 0) is to move
    real = {a.id for a in state.legal_actions()}
    sample = state.sample_hidden(0, random.Random(5))
    cached: frozenset[int] = pickle.loads(pickle.dumps(sample))._legal_ids  # what the sample carries
    assert sample.view(1)["hand"] != state.view(1)["hand"]
    sampled = {a.id for a in sample.legal_actions()}
    assert cached <= sampled, f"the sample carries {len(cached - sampled)} ids of the real hand ({len(real)} real)"
