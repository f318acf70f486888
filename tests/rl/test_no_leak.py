"""No leaks: seat s's observation and mask are the same in a state and in any state s cannot
tell from it (`state.sample_hidden(s, rng)`), for the encoders and through every adapter."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import stichkit
import stichkit.rl as rl
from stichkit.rl.openspiel_game import StichkitState, _Held

from .helpers import CONFIGS, IDS, openspiel_params, positions


def _pairs(name: str, options: dict[str, Any]) -> list[tuple[Any, Any, int]]:
    """(state, a sample of it for seat, seat) for many positions and every seat."""
    rng = random.Random(11)
    out = []
    every = 12 if name == "stichmeister" else 4  # its games are long; 12 still gives 30+ positions
    games = 1 if name == "jass" else 2  # a Jass game is long enough on its own
    for state in positions(name, options, games=games, every=every, seed=5):
        for seat in range(state.game.num_players):
            out.append((state, state.sample_hidden(seat, rng), seat))
    return out


def _mask(state: Any, seat: int) -> list[int]:
    return state.legal_action_mask() if state.current_player == seat else [0] * state.game.num_actions


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_encoder_and_mask_see_nothing_hidden(name: str, options: dict[str, Any]) -> None:
    enc = rl.encoding(name, **options)
    pairs = _pairs(name, options)
    assert len(pairs) > 20
    differ = 0
    for state, sample, seat in pairs:
        assert np.array_equal(enc.observation(state, seat), enc.observation(sample, seat))
        assert _mask(state, seat) == _mask(sample, seat)
        others = [o for o in range(state.game.num_players) if o != seat]
        differ += any(sample.view(o)["hand"] != state.view(o)["hand"] for o in others)
    if (name, options.get("players")) != ("stichling", 2):  # there all 24 cards are dealt: no hand is hidden
        assert differ > 0, "the samples never redealt anything: the test would prove nothing"


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_adapters_see_nothing_hidden(name: str, options: dict[str, Any]) -> None:
    aec = rl.pettingzoo_env(name, **options)
    par = rl.parallel_env(name, backend="python", **options)  # the C core's: tests/rl/test_batch.py
    gym = rl.gym_env(name, seat=0, opponents="random", **options)
    rl.register_openspiel()
    import pyspiel

    os_game = pyspiel.load_game(f"python_stichkit_{name}", openspiel_params(options))
    for state, sample, seat in _pairs(name, options)[::4]:
        agent = f"seat_{seat}"
        aec.state = state
        real = aec.observe(agent)
        aec.state = sample
        fake = aec.observe(agent)
        assert np.array_equal(real["observation"], fake["observation"])
        assert np.array_equal(real["action_mask"], fake["action_mask"])
        par.state = state
        real = par._observations()[agent]
        par.state = sample
        fake = par._observations()[agent]
        assert np.array_equal(real["observation"], fake["observation"])
        assert np.array_equal(real["action_mask"], fake["action_mask"])
        if seat == 0:
            gym.seat_game.state = state
            real = gym._obs()
            gym.seat_game.state = sample
            fake = gym._obs()
            assert np.array_equal(real["observation"], fake["observation"])
            assert np.array_equal(real["action_mask"], fake["action_mask"])
        a, b = StichkitState(os_game), StichkitState(os_game)
        a.held, b.held = _Held(state), _Held(sample)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        if a.current_player() == seat:
            assert a.legal_actions() == b.legal_actions()


def test_an_observation_does_change_with_what_the_seat_itself_holds() -> None:
    """The converse: the seat's own hand is in its observation (the test above is not vacuous)."""
    game = stichkit.load_game("jass")
    enc = rl.encoding(game)
    state = game.new_state(seed=2)
    sample = state.sample_hidden(1, random.Random(0))
    assert not np.array_equal(enc.observation(state, 0), enc.observation(sample, 0))
