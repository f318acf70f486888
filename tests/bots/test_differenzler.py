"""The Differenzler bots aim at the prediction: the heuristic predicts from the hand and stops
taking tricks once it has what it said; ismcts finds its prediction by playing sampled deals out."""

from __future__ import annotations

import stichkit
from stichkit.bots import make

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITED = {"hands": [[s + r for r in RANKS] for s in "DHSC"]}  # seat 0 holds all nine trumps (D)


def suited_state() -> stichkit.State:
    return stichkit.load_game("differenzler", deals=1, trump="in-turn").new_state(seed=1, deal=SUITED)


def test_the_heuristic_predicts_a_whole_deal_for_all_trumps_and_little_for_a_bare_hand() -> None:
    state = suited_state()
    assert int(make("heuristic").choose(state, 0).text[8:]) >= 140  # 157 are there to take
    state.apply("predict:157")
    low = int(make("heuristic").choose(state, 3).text[8:])  # clubs only, one plain Ace
    assert 0 < low < 30


def test_the_heuristic_stays_under_once_its_prediction_is_taken() -> None:
    """Seat 1 holds every Heart and predicted 0: under seat 0's Bour it throws the Heart Ace, the
    card most likely to take a trick later, while it is safe to."""
    state = suited_state()
    for points in (100, 0, 0, 0):  # seats 0, 3, 2, 1
        state.apply(f"predict:{points}")
    state.apply("DJ")  # seat 0 leads the Bour
    state.apply(make("heuristic").choose(state, 3))  # seats 3, 2 throw off
    state.apply(make("heuristic").choose(state, 2))
    assert make("heuristic").choose(state, 1).text == "HA"


def test_ismcts_predicts_all_157_points_when_every_world_gives_them() -> None:
    state = suited_state()
    bot = make("ismcts", iterations=200, rollout="heuristic", seed=3)
    assert bot.choose(state, 0).text == "predict:157"
    assert bot.last_stats["mean_penalty"] == 0


def test_ismcts_predicts_from_what_its_seat_sees_only() -> None:
    """The same seat, the same view, the others' hidden predictions different: the same prediction."""
    game = stichkit.load_game("differenzler", deals=1)
    a, b = game.new_state(seed=9), game.new_state(seed=9)
    a.apply("predict:10")
    b.apply("predict:120")  # seat 0's secret
    bot = make("ismcts", iterations=160, rollout="heuristic", seed=5)
    assert a.view(3) == b.view(3)
    assert bot.choose(a, 3) == bot.choose(b, 3)


def test_a_prediction_under_a_clock_stops_when_time_is_up() -> None:
    """Time already up: the fewest worlds (4) and one candidate, the median of what the hand took."""
    import random
    import time

    from stichkit.bots.heuristic import policy_for
    from stichkit.bots.predictions import predict

    state = stichkit.load_game("differenzler", deals=1).new_state(seed=2)
    policy = policy_for("differenzler")
    assert policy is not None
    _, stats = predict(state, 0, state.legal_actions(), random.Random(1), policy, 40, time.perf_counter())
    assert (stats["worlds"], stats["tried"]) == (4, 1)
    _, stats = predict(state, 0, state.legal_actions(), random.Random(1), policy, 40, None)
    assert stats["worlds"] == 40 and stats["tried"] == stats["candidates"] >= 2
