"""The PettingZoo AEC environments, checked by PettingZoo's own api_test for every game and
player count, plus rewards, seeding, masks and the registry."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

import stichkit
import stichkit.rl as rl

from .helpers import CONFIGS, IDS


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_api_test_passes(name: str, options: dict[str, Any]) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # api_test warns about every Dict observation space, PettingZoo's classic games included
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.pettingzoo_env(name, **options), num_cycles=300)


def _play(env: Any, seed: int) -> tuple[dict[str, float], list[int]]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), "only the agent to act has a mask"
        action = int(rng.choice(list(ids)))
        actions.append(action)
        env.step(action)
    return totals, actions


@pytest.mark.parametrize("shaping", [None, "score"])
@pytest.mark.parametrize(("name", "options"), [("jass", {"target": 300}), ("stichwahl", {"players": 3, "target": 10})])
def test_rewards_add_up_to_the_final_return_and_partners_share(
    name: str, options: dict[str, Any], shaping: str | None
) -> None:
    env = rl.pettingzoo_env(name, shaping=shaping, **options)
    totals, _ = _play(env, seed=4)
    final = rl.final_returns(env.state)
    assert [totals[a] for a in env.possible_agents] == pytest.approx(final)
    if name == "jass":
        assert totals["seat_0"] == totals["seat_2"] and totals["seat_1"] == totals["seat_3"]
        assert sorted(final) == [-1.0, -1.0, 1.0, 1.0]
    assert sum(final) == pytest.approx(0.0)


def test_reset_with_a_seed_gives_the_same_game() -> None:
    env = rl.pettingzoo_env("stichling", players=3)
    env.reset(seed=9)
    first = env.state.view(None), env.observe("seat_0")["observation"]
    env.reset(seed=10)
    env.reset(seed=9)
    assert env.state.view(None) == first[0]
    assert np.array_equal(env.observe("seat_0")["observation"], first[1])
    assert _play(env, 3) == _play(env, 3)


def test_an_illegal_action_raises_clearly_and_changes_nothing() -> None:
    env = rl.pettingzoo_env("jass")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.state.clone()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(stichkit.IllegalActionError):
        env.step(illegal)
    with pytest.raises(stichkit.IllegalActionError, match="no action id"):
        env.step(999)
    assert env.state == before


def test_registered_in_pettingzoos_registry() -> None:
    import pettingzoo

    for name in stichkit.game_names():
        assert f"stichkit/{name}-v0" in pettingzoo.aec_registry
    env = pettingzoo.make("aec", "stichkit/stichmeister-v0", players=3)
    assert env.possible_agents == ["seat_0", "seat_1", "seat_2"]
    assert env.metadata["name"] == "stichkit_stichmeister_v0"


def test_bad_options_say_what_is_allowed() -> None:
    with pytest.raises(stichkit.OptionError, match="players"):
        rl.pettingzoo_env("stichwahl", players=9)
    with pytest.raises(stichkit.OptionError, match="shaping"):
        rl.pettingzoo_env("jass", shaping="tricks")
