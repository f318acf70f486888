"""One step of every learning environment of every game, in an environment with the rl extra alone
(run by tools/smoke/run.py): PettingZoo, Gymnasium (one game and vectorised, made through the
registered ids as docs/rl.md says) and OpenSpiel. The rl extra brings no torch (a plain torch
requirement would pull a CUDA build), so the `policy` bot, which needs rl-train, is not offered."""

from __future__ import annotations

import importlib.util

import gymnasium
import numpy as np
import pettingzoo
import pyspiel

import stichkit
import stichkit.bots
import stichkit.rl
from stichkit.rl.gymnasium_env import StichkitVectorEnv

assert importlib.util.find_spec("torch") is None, "the rl extra alone installed torch"
assert "policy" not in stichkit.bots.bot_names(), "policy is offered without the rl-train extra"
assert "rl-train" in stichkit.bots.unavailable()["policy"], stichkit.bots.unavailable()

spiel = set(stichkit.rl.register_openspiel())
for name in stichkit.game_names():
    aec = stichkit.rl.pettingzoo_env(name)
    aec.reset(seed=1)
    seen = aec.observe(aec.agent_selection)
    assert seen is not None
    aec.step(int(np.flatnonzero(seen["action_mask"])[0]))
    assert aec.agent_selection in aec.agents

    env = gymnasium.make(f"stichkit/{name}-v0")
    obs, _ = env.reset(seed=1)
    obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert obs["observation"].dtype == np.float32 and not truncated

    vec = StichkitVectorEnv(name, num_envs=2)
    obs, _ = vec.reset(seed=1)
    vec.step(np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]]))

    assert f"python_stichkit_{name}" in spiel
    game = pyspiel.load_game(f"python_stichkit_{name}")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    print(f"{name}: PettingZoo, Gymnasium, vector and OpenSpiel took a step")

print(f"pettingzoo {pettingzoo.__version__}, gymnasium {gymnasium.__version__}; no torch; policy:",
      stichkit.bots.unavailable()["policy"])  # fmt: skip
