"""The PettingZoo parallel environments: PettingZoo's own checks for every game, and Jass in the C
core against the Python path, move for move."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import stichkit.rl as rl
from stichkit import IllegalActionError, native
from stichkit.rl.pettingzoo_parallel import StichkitParallelEnv

from .helpers import CONFIGS, IDS, SCHIEBER_OPTIONS

BACKENDS = ["python", "native"] if native.available() else ["python"]
JASS = [("jass", options, b) for options in ({}, {"profile": "schieber"}, SCHIEBER_OPTIONS) for b in BACKENDS]
ALL = [(name, options, "python") for name, options in CONFIGS if name != "jass"] + JASS


@pytest.mark.parametrize(("name", "options", "backend"), ALL, ids=lambda x: str(x))
def test_parallel_api_test_passes(name: str, options: dict[str, Any], backend: str) -> None:
    from pettingzoo.test import parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo reports what it dislikes as warnings
        parallel_api_test(StichkitParallelEnv(name, backend=backend, **options), num_cycles=400)
    # (PettingZoo's parallel_seed_test samples actions without the masks: an illegal action of the
    # agent to act raises here, as in the AEC environment. Determinism is checked below.)
    env = StichkitParallelEnv(name, backend=backend, **options)
    assert same(play(env, 11), play(env, 11))


def play(env: StichkitParallelEnv, seed: int) -> list[Any]:
    """A whole game with random legal actions; everything the environment said along the way."""
    rng = np.random.default_rng(abs(seed))
    obs, _ = env.reset(seed=seed)
    out: list[Any] = [obs]
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1
        actions = {a: 0 for a in env.agents}  # the others' actions are ignored
        actions[acting[0]] = int(rng.choice(np.flatnonzero(obs[acting[0]]["action_mask"])))
        obs, rewards, terms, truncs, _ = env.step(actions)
        out.append((obs, rewards, terms, truncs))
    return out


def same(x: Any, y: Any) -> bool:
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list | tuple):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, np.ndarray):
        return bool(np.array_equal(x, y))
    return bool(x == y)


@pytest.mark.skipif(not native.available(), reason="the C extension is not built (no C compiler)")
@pytest.mark.parametrize(
    "options",
    [{"target": 400}, {"profile": "schieber", "shaping": "score", "target": 300}, {**SCHIEBER_OPTIONS, "target": 700}],
)
def test_jass_in_the_core_is_the_python_game(options: dict[str, Any]) -> None:
    fast = rl.parallel_env("jass", backend="native", **options)
    slow = rl.parallel_env("jass", backend="python", **options)
    assert (fast.backend, slow.backend) == ("native", "python")
    for seed in (1, 2, -3):
        a, b = play(fast, seed), play(slow, seed)
        assert len(a) > 30 and same(a, b)
        returns = [sum(step[1][agent] for step in a[1:]) for agent in fast.possible_agents]
        assert sorted(returns) == pytest.approx([-1.0, -1.0, 1.0, 1.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_raises_and_changes_nothing(backend: str) -> None:
    env = rl.parallel_env("jass", backend=backend)
    obs, _ = env.reset(seed=5)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="trump:D, trump:H"):  # what is allowed
        env.step({agent: bad})
    with pytest.raises(IllegalActionError, match="no action id"):
        env.step({agent: 99})
    with pytest.raises(ValueError, match="turn"):
        env.step({a: 0 for a in env.agents if a != agent})
    again, _ = env.reset(seed=5)
    assert same(obs, again)
    env.step({agent: int(np.flatnonzero(obs[agent]["action_mask"])[0])})


def test_the_registry_makes_it() -> None:
    import pettingzoo

    env = pettingzoo.make("parallel", "stichkit/stichwahl-v0", players=3)
    assert env.metadata["name"] == "stichkit_stichwahl_v0" and len(env.possible_agents) == 3


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_parallel_rewards_add_up_to_the_final_return(name: str, options: dict[str, Any]) -> None:
    env = StichkitParallelEnv(name, backend="python", shaping="score", **options)
    steps = play(env, 3)
    assert env.state is not None
    total = [sum(s[1][a] for s in steps[1:]) for a in env.possible_agents]
    assert total == pytest.approx(rl.final_returns(env.state))
