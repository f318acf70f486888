"""The Gymnasium single-seat environment and its vectorised form."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import stichkit
import stichkit.bots
import stichkit.rl as rl
from stichkit.rl.gymnasium_env import StichkitVectorEnv

from .helpers import CONFIGS, IDS


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_check_env_passes(name: str, options: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(rl.gym_env(name, opponents="random", **options), skip_render_check=True)


def _episode(env: Any, seed: int) -> tuple[float, list[int], int]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, actions, steps = 0.0, [], 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        assert not truncated and not info.get("illegal_action")
        if terminated:
            assert not obs["action_mask"].any()
            return total, actions, steps


def test_any_bot_spec_mixed_and_seeded_resets_repeat() -> None:
    env = rl.gym_env("jass", seat=1, opponents=["heuristic", "random:seed=3", stichkit.bots.make("random")], target=300)
    first = _episode(env, seed=5)
    env2 = rl.gym_env("jass", seat=1, opponents=["heuristic", "random:seed=3", "random"], target=300)
    assert _episode(env2, seed=5)[0] in (-1.0, 1.0)
    env3 = rl.gym_env("jass", seat=1, opponents=["heuristic", "random", "heuristic"], target=300)
    assert _episode(env3, seed=5) == _episode(env3, seed=5)
    assert first[0] in (-1.0, 1.0)


@pytest.mark.parametrize("shaping", [None, "score"])
def test_rewards_add_up_to_the_final_return(shaping: str | None) -> None:
    env = rl.gym_env("stichwahl", opponents="random", shaping=shaping, players=3, target=10)
    total, _, _ = _episode(env, seed=2)
    assert total == pytest.approx(rl.final_returns(env.state)[0])


def test_an_illegal_action_ends_the_episode_with_the_worst_return() -> None:
    env = rl.gym_env("jass", opponents="random", shaping="score")
    obs, _ = env.reset(seed=1)
    for _ in range(12):
        obs, reward, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    paid = env.seat_game.rewards.reached[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and info["illegal_action"]
    assert reward == pytest.approx(-1.0 - paid)
    assert not obs["action_mask"].any()
    for bad in (10_000, -1, "D7", None):
        env.reset(seed=1)
        assert env.step(bad)[2] is True  # never raises


def test_bad_opponents_say_what_is_allowed() -> None:
    with pytest.raises(stichkit.OptionError, match="2 bots"):
        rl.gym_env("jass", opponents=["random", "random"])
    with pytest.raises(stichkit.OptionError, match="unknown bot"):
        rl.gym_env("jass", opponents="grandmaster")
    with pytest.raises(stichkit.OptionError, match="seat"):
        rl.gym_env("jass", seat=4)


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_the_vectorised_form_matches_single_environments(backend: str) -> None:
    vec = StichkitVectorEnv("jass", 3, opponents="random", target=300, backend=backend)
    obs, _ = vec.reset(seed=10)
    singles = [rl.gym_env("jass", opponents="random", target=300) for _ in range(3)]
    single_obs = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs["observation"], np.stack([o["observation"] for o in single_obs]))
    assert np.array_equal(vec.action_masks(), np.stack([env.action_masks() for env in singles]))
    ended = 0
    for _ in range(400):
        masks = vec.action_masks()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        expected = [env.step(int(a)) for env, a in zip(singles, actions, strict=True)]
        obs, rewards, terminated, _, infos = vec.step(actions)
        for i, (o, r, t, _, _) in enumerate(expected):
            assert rewards[i] == r and terminated[i] == t
            if t:
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                singles[i].reset(seed=vec.seeds_used()[i])
                ended += 1
            else:
                assert np.array_equal(obs["observation"][i], o["observation"])
    assert ended > 0


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_policy_bot_sees_what_the_environment_showed_in_training(seat: int) -> None:
    """A trained policy plays in `stich tournament` from the arrays it was trained on: at every
    decision of the agent, at any seat, the policy bot's observation and mask from the seat's view
    are the environment's, and the action id it returns is the one the environment applies."""
    from stichkit.rl.policy_bot import policy_inputs

    env = rl.gym_env("jass", seat=seat, opponents="random", target=400)
    game = env.game
    bot = stichkit.bots.make("heuristic", seed=seat)
    for episode in range(2):
        obs, _ = env.reset(seed=10 * seat + episode)
        terminated = False
        while not terminated:
            view = env.state.view(seat)
            bot_obs, bot_mask = policy_inputs(view)
            assert np.array_equal(bot_obs, obs["observation"])
            assert np.array_equal(bot_mask, obs["action_mask"])
            action = bot.choose(view, seat)
            assert game.actions[action.id].text == action.text
            obs, _, terminated, _, info = env.step(action.id)
            assert not info.get("illegal_action")


@pytest.mark.parametrize(("seat", "shaping"), [(0, None), (1, "score"), (2, None), (3, "score")])
def test_the_reward_is_the_agents_team_result(seat: int, shaping: str | None) -> None:
    """The heuristic in the agent's seat (with a random partner) beats random players: the rewards
    the environment pays that seat are clearly positive, and they are its team's result."""
    env = rl.gym_env("jass", seat=seat, opponents="random", shaping=shaping)
    bot = stichkit.bots.make("heuristic", seed=seat)
    returns = []
    for episode in range(6):
        env.reset(seed=100 + episode)
        total, terminated = 0.0, False
        while not terminated:
            _, reward, terminated, _, _ = env.step(bot.choose(env.state, seat).id)
            total += reward
        assert total == pytest.approx(1.0 if seat in env.state.winners() else -1.0)
        returns.append(total)
    assert sum(returns) >= 2.0
