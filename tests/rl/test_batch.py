"""The batched Jass environment in the C core (stichkit.rl.batch) against the Python path.

The vectorised Gymnasium environment steps Jass against `random` bots in C. From the same seeds
and actions it must give what the Python path gives, to the bit: every observation (the encoder's
own values), mask, reward, end of game, illegal action, last observation of an ended game and
automatic reset, for every seat and option, with and without shaping.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import stichkit.rl as rl
from stichkit import OptionError, native
from stichkit.rl.batch import JassBatch
from stichkit.rl.gymnasium_env import StichkitVectorEnv

pytestmark = pytest.mark.skipif(not native.available(), reason="the C extension is not built (no C compiler)")


def both(n: int, **kw: Any) -> tuple[StichkitVectorEnv, StichkitVectorEnv]:
    fast = StichkitVectorEnv("jass", n, backend="native", **kw)
    slow = StichkitVectorEnv("jass", n, backend="python", **kw)
    assert (fast.backend, slow.backend) == ("native", "python")
    return fast, slow


def same_step(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    (oa, ra, ta, ua, ia), (ob, rb, tb, ub, ib) = a, b
    assert np.array_equal(oa["observation"], ob["observation"])
    assert np.array_equal(oa["action_mask"], ob["action_mask"])
    assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
    assert set(ia) == set(ib)
    if ia:
        for key in ("_final_obs", "illegal_action", "_illegal_action"):
            assert np.array_equal(ia[key], ib[key]), key
        for x, y in zip(ia["final_obs"], ib["final_obs"], strict=True):
            assert (x is None) == (y is None)
            if x is not None:
                assert np.array_equal(x["observation"], y["observation"])
                assert np.array_equal(x["action_mask"], y["action_mask"])


CASES = [
    {"seat": 0, "opponents": "random"},
    {"seat": 1, "opponents": "random", "shaping": "score", "profile": "schieber", "target": 300},
    {"seat": 2, "opponents": ["random:seed=5", "random", "random:seed=9"], "weis": "off", "first_forehand": 2},
    {"seat": 3, "opponents": "random", "shaping": "score", "stoeck": False, "undertrump": "jass-kit", "target": 157},
    {"seat": 0, "opponents": "random", "profile": "schieber", "first_forehand": 1, "target": 60},
    # the sayings: the agent's among its actions, the bots' as every bot makes them (bots.announce)
    {"seat": 1, "opponents": "random", "weis": "announce", "profile": "schieber", "multipliers": "swisslos"},
    {"seat": 2, "opponents": "random", "shaping": "score", "weis": "announce", "stoeck": "announce", "target": 300},
    {"seat": 3, "opponents": ["random", "random:seed=3", "random"], "stoeck": "announce", "target": 1000},
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_native_and_python_give_the_same_games(case: dict[str, Any]) -> None:
    fast, slow = both(6, **case)
    for first, second in ((fast.reset(seed=40), slow.reset(seed=40)),):
        assert np.array_equal(first[0]["observation"], second[0]["observation"])
    rng = np.random.default_rng(7)
    ended = illegal = 0
    for step in range(700):
        masks = fast.action_masks()
        assert np.array_equal(masks, slow.action_masks())
        actions: Any = np.argmax(rng.random(masks.shape) * masks, axis=1)
        if step % 97 == 13:  # now and then an illegal action, and actions of other types
            actions[step % 6] = [99, -3, 0][step % 3] if not masks[step % 6, 0] else 1 + int(masks[step % 6].argmin())
        if step % 101 == 50:
            actions = [float(a) for a in actions]
        a, b = fast.step(actions), slow.step(actions)
        same_step(a, b)
        ended += int(a[2].sum())
        if a[4]:
            illegal += int(a[4]["illegal_action"].sum())
    assert fast.seeds_used() == slow.seeds_used()
    assert ended > 6 and illegal > 0


def test_seeded_resets_repeat_and_differ() -> None:
    vec = StichkitVectorEnv("jass", 4, opponents="random")
    first = vec.reset(seed=3)[0]["observation"].copy()
    assert np.array_equal(vec.reset(seed=3)[0]["observation"], first)
    assert np.array_equal(vec.reset(seed=[3, 4, 5, 6])[0]["observation"], first)
    assert not np.array_equal(vec.reset(seed=4)[0]["observation"], first)


def test_the_native_backend_says_what_it_cannot_play() -> None:
    with pytest.raises(OptionError, match="only 'random' opponents"):
        StichkitVectorEnv("jass", 2, opponents="heuristic", backend="native")
    with pytest.raises(OptionError, match="only Jass"):
        StichkitVectorEnv("stichwahl", 2, opponents="random", backend="native")
    with pytest.raises(OptionError, match="backend='fast' is not allowed"):
        StichkitVectorEnv("jass", 2, opponents="random", backend="fast")
    assert StichkitVectorEnv("jass", 2, opponents="heuristic").backend == "python"
    with pytest.raises(OptionError, match="seats"):
        JassBatch(2, seats=(0, 2))


def test_multipliers_and_announcements_play_in_the_core() -> None:
    """The core plays every multiplier and the announced Weis and Stöck (tests/native compares them
    with the engine); a game of fixed deals takes the Python path, and "native" says why."""
    for options in ({"multipliers": "swisslos", "profile": "schieber"}, {"weis": "announce", "stoeck": "announce"}):
        vec = StichkitVectorEnv("jass", 2, opponents="random", **options)
        assert vec.backend == "native"
        obs, _ = vec.reset(seed=1)
        assert obs["observation"].shape[0] == 2
    assert JassBatch(2, stoeck="announce").masks.shape == (2, 1, 45)
    assert StichkitVectorEnv("jass", 2, opponents="random", deals=12).backend == "python"
    with pytest.raises(OptionError, match="fixed deals"):
        StichkitVectorEnv("jass", 2, opponents="random", deals=12, backend="native")


def test_no_observation_of_the_core_holds_a_hidden_card() -> None:
    """Every observation the core writes is the encoder's of that state, and the encoder's is the
    same for any redeal of the hidden cards: so the core's is too (checked here directly)."""
    for options in ({"weis": "auto", "stoeck": True}, {"weis": "announce", "stoeck": "announce"}):
        hidden_cards_stay_hidden(options)


def hidden_cards_stay_hidden(options: dict[str, Any]) -> None:
    enc = rl.encoding("jass", **options)
    batch = JassBatch(8, seats=(0, 1, 2, 3), **options)
    seeds = list(range(100, 108))
    batch.reset(seeds)
    states = [batch.game.new_state(seed=s) for s in seeds]
    rng = random.Random(3)
    checked = 0
    actions = np.zeros((8, 4), dtype=np.int64)
    for _ in range(300):
        for i, state in enumerate(states):
            if state.is_terminal():
                continue
            for seat in range(4):
                other = state.sample_hidden(seat, rng)
                assert np.array_equal(batch.obs[i, seat], enc.observation(other, seat))
                checked += 1
            a = rng.choice(state.legal_actions())
            actions[i, state.current_player] = a.id
            state.apply(a)
        batch.step(actions)
    assert checked > 1000
