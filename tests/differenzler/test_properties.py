"""Property tests: random Differenzler games through the game-agnostic invariant suite
(tests/invariants.py), and the hidden predictions: no view shows another seat's prediction
before the rules reveal it, and no view changes with one.

The long variants run with `pytest -m slow` or STICHKIT_SLOW=1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from tests.invariants import SEEDS, SUPPRESS, Adapter, Rates, check_random_game, data_chooser, random_chooser
from tests.jass.test_properties import DECK, card_points, deal_plays, known_voids

# -- the Differenzler adapter: facts from the rules pages, written independently of the engine ---

DEAL_TOTAL = 157


def out_of_hand(view: dict[str, Any]) -> list[str]:
    return [c for trick in deal_plays(view) for _, c in trick]


def shown(view: dict[str, Any]) -> set[str]:
    """The turned-up trump card lies face up: everybody knows the dealer holds it."""
    return {view["trump_card"]} if view["trump_card"] else set()


def scan_view(view: dict[str, Any]) -> dict[str, Any]:
    """Leave out `cannot_hold` (public deductions, checked in `check_view`) and the cards of
    earlier deals (the turned-up card, the last trick: shown then, dealt again since)."""
    out = {k: v for k, v in view.items() if k != "cannot_hold"}
    earlier = ("trump_card", "last_trick")
    out["previous_deals"] = [{k: v for k, v in d.items() if k not in earlier} for d in view["previous_deals"]]
    return out


def expected_penalty(prediction: int, points: int, tricks: int, bonus: int) -> int:
    diff = abs(prediction - points)
    if diff == 0 and bonus and (prediction or tricks):
        return -bonus
    return diff


def check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    """`cannot_hold` is exactly what the public plays show; a prediction shows only to its own
    seat until the rules reveal it (at once when open, at the end of the deal when hidden)."""
    listed = [set(c) for c in view["cannot_hold"]]
    if listed != known_voids(view):
        fail(f"cannot_hold {view['cannot_hold']} differs from the voids the plays show")
    own = [state.view(p)["predictions"][p] for p in range(4)]  # each seat knows its own
    is_open = view["options"]["predictions"] == "open"
    for p in range(4):
        got = view["predictions"][p]
        want = own[p] if (is_open or p == seat) else None
        if got != want:
            fail(f"prediction of seat {p} shows as {got!r}, the rules allow {want!r}")
        if view["predicted"][p] != (own[p] is not None):
            fail(f"predicted[{p}] is {view['predicted'][p]} but seat {p}'s prediction is {own[p]!r}")
    if view["trump_card"] is not None:
        if view["trump_card"][0] != view["trump"]:
            fail(f"trump {view['trump']} is not the suit of the turned-up card {view['trump_card']}")
        if view["trump_card"] not in out_of_hand(view) and view["trump_card"] not in state.view(view["dealer"])["hand"]:
            fail(f"the turned-up card {view['trump_card']} is neither played nor in the dealer's hand")


def check_scores(state: State, fail: Any) -> None:
    v = state.view(None)
    bonus = v["options"]["exact_bonus"]
    totals = [0, 0, 0, 0]
    for i, d in enumerate(v["previous_deals"]):
        if d["deal"] != i:
            fail(f"previous_deals[{i}] is deal {d['deal']}")
        if sum(d["points"]) != DEAL_TOTAL:
            fail(f"deal {i}: points {d['points']} do not sum to {DEAL_TOTAL} (no Weis, no Stöck, no match bonus)")
        if sum(d["tricks"]) != 9:
            fail(f"deal {i}: tricks {d['tricks']}")
        for s in range(4):
            want = expected_penalty(d["predictions"][s], d["points"][s], d["tricks"][s], bonus)
            if d["penalties"][s] != want:
                fail(f"deal {i}: seat {s} penalty {d['penalties'][s]}, the rule gives {want} from {d}")
            totals[s] += want
    if v["penalties"] != totals:
        fail(f"penalties {v['penalties']} != sum over deals {totals}")
    if list(state.scores()) != [-t for t in totals]:
        fail(f"scores() {state.scores()} are not the penalties negated {totals}")
    taken = [0, 0, 0, 0]
    for k, t in enumerate(v["tricks"]):
        pts = sum(card_points(c, v["trump"]) for c in t["cards"]) + (5 if k == 8 else 0)
        if t["points"] != pts:
            fail(f"trick {k} {t['cards']} under {v['trump']} worth {t['points']}, expected {pts}")
        taken[t["winner"]] += pts
    if not state.is_terminal() and v["points"] != taken:
        fail(f"points {v['points']} != the tricks taken {taken}")
    if state.is_terminal():
        if len(v["previous_deals"]) != v["options"]["deals"]:
            fail(f"the game ended after {len(v['previous_deals'])} deals, not {v['options']['deals']}")
        low = min(totals)
        if list(state.winners()) != [s for s in range(4) if totals[s] == low]:
            fail(f"winners {state.winners()} are not the lowest penalties {totals}")


def check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    view = state.view(seat)
    voids = known_voids(view)
    hands = [sample.view(p)["hand"] for p in range(4)]
    for p in range(4):
        if p != seat and voids[p] & set(hands[p]):
            fail(f"seat {p} is known to hold none of {sorted(voids[p] & set(hands[p]))} but was given them")
    card = view["trump_card"]
    if card and card not in out_of_hand(view) and card not in hands[view["dealer"]]:
        fail(f"the turned-up {card} left the dealer's hand in the sample")


DIFFERENZLER = Adapter(
    name="differenzler",
    deck=lambda game: DECK,
    out_of_hand=out_of_hand,
    shown_hand_cards=shown,
    scan_view=scan_view,
    check_view=check_view,
    check_scores=check_scores,
    check_sample=check_sample,
)

# -- the properties --------------------------------------------------------------------------------

SLOW = pytest.mark.slow  # a long run, only when asked (tests/conftest.py)
OPTIONS = st.fixed_dictionaries(
    {
        "deals": st.integers(1, 3),
        "predictions": st.sampled_from(["hidden", "open"]),
        "trump": st.sampled_from(["turned-up", "random", "in-turn"]),
        "exact_bonus": st.sampled_from([0, 10]),
    }
)
# Random predictions rarely hit; a chooser that favours small ones hits now and then (bonus rule).
LIGHT = Rates(step=0.3, illegal=0.03, replay=0.02, clone=0.02, sample=0.03, max_samples=3)


@settings(max_examples=12, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), options=OPTIONS, seed=SEEDS, rng_seed=SEEDS)
def test_short_games(data: Any, options: dict[str, Any], seed: int, rng_seed: int) -> None:
    """Every option, one to three deals; choices shrink to the first legal action (predict:0)."""
    game = stichkit.load_game("differenzler", **options)
    check_random_game(game, DIFFERENZLER, seed, data_chooser(data), random.Random(rng_seed), LIGHT)


@settings(max_examples=2, deadline=None, suppress_health_check=SUPPRESS)
@given(predictions=st.sampled_from(["hidden", "open"]), seed=SEEDS, rng_seed=SEEDS)
def test_default_games(predictions: str, seed: int, rng_seed: int) -> None:
    """Whole games of the default twelve deals, the undo chain over all of them."""
    game = stichkit.load_game("differenzler", predictions=predictions)
    rng = random.Random(rng_seed)
    check_random_game(game, DIFFERENZLER, seed, random_chooser(rng), rng,
                      Rates(step=0.1, illegal=0.01, replay=0.01, clone=0.01, sample=0.01, max_samples=2))  # fmt: skip


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(seed=SEEDS, rng_seed=SEEDS, seat=st.integers(0, 3), stop=st.integers(0, 38))
def test_a_hidden_prediction_changes_no_other_view(seed: int, rng_seed: int, seat: int, stop: int) -> None:
    """The leak test: the same deal played with the same cards, once with the real predictions
    and once with every other seat's prediction changed, looks the same to `seat` (and to a
    spectator) in every view until the deal ends; and sampling from either gives the same
    predictions for the others, which cannot be the real ones."""
    game = stichkit.load_game("differenzler", deals=1)
    rng = random.Random(rng_seed)
    a, b = game.new_state(seed=seed), game.new_state(seed=seed)
    for step in range(stop + 1):  # the 40th action ends the deal and reveals them all
        who = a.current_player
        assert who is not None
        act = rng.choice(a.legal_actions())
        other = act
        if str(act).startswith("predict:") and who != seat:
            other = f"predict:{(int(str(act)[8:]) + 1 + rng.randrange(150)) % 158}"
        a.apply(act)
        b.apply(other)
        for s in (seat, None):
            assert a.view(s) == b.view(s), f"step {step}: view({s}) shows another seat's hidden prediction"
        if step >= 3:
            sa, sb = a.sample_hidden(seat, random.Random(7)), b.sample_hidden(seat, random.Random(7))
            assert sa == sb, "a sample depends on a hidden prediction"


def test_the_end_of_the_deal_reveals_every_prediction() -> None:
    state = stichkit.load_game("differenzler", deals=2).new_state(seed=3)
    for points in (10, 20, 30, 40):
        state.apply(f"predict:{points}")
    assert state.view(2)["predictions"] == [None, None, 30, None]
    rng = random.Random(3)
    while state.deals_played == 1:
        state.apply(rng.choice(state.legal_actions()))
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        assert view["previous_deals"][0]["predictions"] == [10, 40, 30, 20]  # seats 0, 3, 2, 1 in turn
        assert view["predictions"] == [None, None, None, None]  # the next deal's are not made yet


@pytest.mark.slow
@SLOW
@settings(max_examples=200, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), options=OPTIONS, seed=SEEDS, rng_seed=SEEDS)
def test_many_games_slow(data: Any, options: dict[str, Any], seed: int, rng_seed: int) -> None:
    game = stichkit.load_game("differenzler", **options)
    check_random_game(game, DIFFERENZLER, seed, data_chooser(data), random.Random(rng_seed),
                      Rates(sample=0.1, max_samples=6))  # fmt: skip
