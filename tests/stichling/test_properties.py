"""Property tests: random Stichling games for 2 to 5 players through the game-agnostic invariant
suite (tests/invariants.py, unchanged), with a Stichling adapter written from the rulebook
(seed 002) independently of the engine."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from tests.invariants import SEEDS, SUPPRESS, Adapter, Rates, check_random_game, data_chooser, random_chooser

TOP = {2: 6, 3: 9, 4: 12, 5: 15}  # seed line 41-44: the deck by player count
TILES = ((1, 2, 3), (2, 4, 6), (3, 6, 9))  # seed lines 54-59


def deck(game: stichkit.Game) -> list[str]:
    return [c + str(v) for c in "GYPB" for v in range(1, TOP[game.num_players] + 1)]


def colour(card: str) -> str:
    return card[0]


def value(card: str) -> int:
    return int(card[1:])


def out_of_hand(view: dict[str, Any]) -> list[str]:
    cards = [e["card"] for p in view["places"] if p is not None for e in p["cards"]]
    cards += [e["card"] for t in view["tricks"] for e in t["cards"]]
    cards += [e["card"] for t in view["discarded"] for e in t["cards"]]
    return cards


def owner_of(cards: list[dict[str, Any]]) -> int:
    """Seed line 74/108: the highest card of the led colour owns the trick (first such if equal)."""
    led = colour(cards[0]["card"])
    best = max((value(e["card"]), -i) for i, e in enumerate(cards) if colour(e["card"]) == led)
    return int(cards[-best[1]]["seat"])


def scan_view(view: dict[str, Any]) -> dict[str, Any]:
    """A `last_trick` of the previous deal names cards dealt again since (check_view checks it)."""
    last = view["last_trick"]
    earlier = last is not None and last["deal"] != view["deal_number"]
    return {k: v for k, v in view.items() if not (k == "last_trick" and earlier)}


def check_last_trick(state: State, view: dict[str, Any], fail: Any) -> None:
    """The trick taken last, as all saw it: the deal's last taken trick, else the previous deal's."""
    last = view["last_trick"]
    if last is not None and last != state.view(None)["last_trick"]:
        fail("last_trick differs between the seats' views")
    if view["tricks"]:
        t = view["tricks"][-1]
        got = None if last is None else (last["place"], last["led"], last["winner"], last["cards"], last["deal"])
        if got != (t["place"], t["led"], t["owner"], t["cards"], view["deal_number"]):
            fail(f"last_trick {last} is not the deal's last trick {t}")
        elif last["leader"] != t["cards"][0]["seat"] or last["tile"] != view["face_up"][t["owner"]]:
            fail(f"last_trick {last}: leader or tile wrong")
    elif view["deal_number"] == 0:
        if last is not None:
            fail(f"last_trick {last} before the first trick of the game")
    elif last is None or last["deal"] != view["deal_number"] - 1:
        fail(f"last_trick {last} is not the previous deal's last trick")
    elif last["tile"] != view["previous_deals"][-1]["face_up"][last["winner"]]:
        fail(f"last_trick {last}: its tile is not the winner's face-up tile of that deal")


def check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    n = view["players"]
    deal = view["deal_number"]
    check_last_trick(state, view, fail)
    for i, p in enumerate(view["places"]):
        if p is None:
            continue
        if p["place"] != i + 1 or not 1 <= len(p["cards"]) <= 3:
            fail(f"place {i + 1}: {p}")
        if p["led"] != colour(p["cards"][0]["card"]) or p["owner"] != owner_of(p["cards"]):
            fail(f"place {i + 1}: led/owner wrong in {p}")
    for t in view["tricks"]:
        if len(t["cards"]) != 4 or t["owner"] != owner_of(t["cards"]):
            fail(f"taken trick {t}")
    if view["discarded"] != [] and view["phase"] != "over":
        fail("discarded tricks before the end")
    counts = [sum(1 for t in view["tricks"] if t["owner"] == s) for s in range(n)]
    if counts != view["taken"]:
        fail(f"taken {view['taken']} but the tricks show {counts}")
    for s in range(n):
        k, seen, face = view["taken"][s], view["tiles_seen"][s], view["face_up"][s]
        if len(seen) != min(k, 3) or not set(seen) <= set(TILES[deal]) or len(set(seen)) != len(seen):
            fail(f"seat {s}: tiles_seen {seen} after {k} tricks")
        want = None if k == 0 else seen[(k - 1) % 3]  # seed lines 109-110: 1-2-3-1-...
        if face != want:
            fail(f"seat {s}: face-up tile {face}, expected {want}")
    if seat is not None:
        order = view["tile_order"]
        if order is not None:
            if sorted(order) != list(TILES[deal]) or order[: len(view["tiles_seen"][seat])] != view["tiles_seen"][seat]:
                fail(f"own tile order {order} vs tiles seen {view['tiles_seen'][seat]}")
        elif view["tiles_laid"][seat]:
            fail("tiles laid but no own order shown")
    if view["phase"] == "play" and not all(view["tiles_laid"]):
        fail("play before every player laid out their tiles")


def check_scores(state: State, fail: Any) -> None:
    v = state.view(None)
    n = v["players"]
    totals = [0] * n
    for i, d in enumerate(v["previous_deals"]):
        if d["deal"] != i or d["starter"] != (state.game.options["first_player"] + i) % n:
            fail(f"deal {i}: {d}")
        for s in range(n):
            face = d["face_up"][s]
            if (face is None) != (d["taken"][s] == 0) or (face is not None and face not in TILES[i]):
                fail(f"deal {i} seat {s}: face-up {face} after {d['taken'][s]} tricks")
            if d["points"][s] != (face or 0):
                fail(f"deal {i} seat {s}: points {d['points'][s]} for face-up {face}")
            totals[s] += d["points"][s]
    if list(state.scores()) != totals:
        fail(f"scores {state.scores()} != sum over deals {totals}")
    if state.is_terminal():
        deals = v["previous_deals"]
        if len(deals) != 3:
            fail("the game ended before three deals")
        key = [(totals[s], deals[2]["points"][s], deals[1]["points"][s]) for s in range(n)]
        want = [s for s in range(n) if key[s] == max(key)]
        if list(state.winners()) != want:
            fail(f"winners {state.winners()} != {want} by score, then deal 3, then deal 2")


def check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    v = state.view(seat)
    for p in range(v["players"]):
        order = sample.view(p)["tile_order"]
        seen = v["tiles_seen"][p]
        if order is not None and order[: len(seen)] != seen:
            fail(f"seat {p}: sampled tile order {order} contradicts the tiles turned up {seen}")
        if v["tiles_laid"][p] != (order is not None):
            fail(f"seat {p}: sample changes whether the tiles are laid out")


STICHLING = Adapter(
    name="stichling",
    deck=deck,
    out_of_hand=out_of_hand,
    scan_view=scan_view,
    check_view=check_view,
    check_scores=check_scores,
    check_sample=check_sample,
)

LIGHT = Rates(step=0.3, illegal=0.03, replay=0.01, clone=0.02, sample=0.02, max_samples=3)


@settings(max_examples=30, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), players=st.sampled_from([2, 3, 4, 5]), seed=SEEDS, rng_seed=SEEDS)
def test_random_games(data: Any, players: int, seed: int, rng_seed: int) -> None:
    """Whole games, every player count; choices from hypothesis so a failure shrinks."""
    game = stichkit.load_game("stichling", players=players, first_player=seed % players)
    check_random_game(game, STICHLING, seed, data_chooser(data), random.Random(rng_seed), LIGHT)


@settings(max_examples=8, deadline=None, suppress_health_check=SUPPRESS)
@given(players=st.sampled_from([2, 3, 4, 5]), seed=SEEDS, rng_seed=SEEDS)
def test_fully_checked_games(players: int, seed: int, rng_seed: int) -> None:
    """Every check after every action (two-player games are short enough)."""
    game = stichkit.load_game("stichling", players=players)
    rng = random.Random(rng_seed)
    rates = Rates(step=1.0, illegal=0.1, replay=0.03, clone=0.05, sample=0.05, max_samples=4)
    check_random_game(game, STICHLING, seed, random_chooser(rng), rng, rates if players <= 3 else LIGHT)
