"""PettingZoo AEC environments: every seat an agent, observations with action masks.

Agents are `seat_0` .. `seat_{n-1}`. Each observation is `{"observation": float32 vector,
"action_mask": int8 vector}`; the mask is all zeros for an agent that is not to act. Actions
are stichkit's action ids. One episode is one whole game. An illegal action raises
`stichkit.IllegalActionError` and changes nothing (PettingZoo's classic environments assert).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import ObsType

import stichkit
from stichkit.core import IllegalActionError, State
from stichkit.core.errors import quote

from .encoders import encoding
from .rewards import Rewards

VERSION = 0


def env_id(name: str) -> str:
    """The registry id of a game's environment, e.g. `stichkit/jass-v0`."""
    return f"stichkit/{name}-v{VERSION}"


class StichkitAECEnv(AECEnv[str, dict[str, np.ndarray], int]):
    """One stichkit game as a PettingZoo AEC environment. `shaping` is the reward option
    (see stichkit.rl.rewards); every other keyword is a game option."""

    metadata = {"render_modes": ["ansi", "human"], "name": "stichkit_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, name: str, render_mode: str | None = None, shaping: str | None = None, **options: Any):
        super().__init__()
        self.game = stichkit.load_game(name, **options)
        self.encoder = encoding(self.game)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi', 'human'")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"stichkit_{self.game.name}_v{VERSION}"}
        self._rewards = Rewards(self.game, shaping)
        n = self.game.num_players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agents = list(self.possible_agents)
        num_actions = self.game.num_actions
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(num_actions)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.state: State = self.game.new_state(seed=0)
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_bookkeeping(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewards.reset(self.state)
        player = self.state.current_player
        self.agent_selection = self.possible_agents[player if player is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `reset(seed=s)` deals the same game every time."""
        if seed is not None:
            self._seed_rng.seed(seed)
        self.state = self.game.new_state(seed=self._seed_rng.getrandbits(63) if seed is None else seed)
        self._reset_bookkeeping()

    def observe(self, agent: str) -> ObsType | None:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.state.current_player == seat:
            mask[:] = self.state.legal_action_mask()
        return {"observation": self.encoder.observation(self.state, seat), "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        if not isinstance(action, int | np.integer) or not 0 <= int(action) < self.game.num_actions:
            raise IllegalActionError(
                f"action {action!r} is no action id; ids are 0..{self.game.num_actions - 1}",
                "unknown_action",
                {"id": quote(action)},
            )
        state.apply(self.game.actions[int(action)])  # raises IllegalActionError and changes nothing
        self._cumulative_rewards[agent] = 0.0
        for a, r in zip(self.possible_agents, self._rewards.step(state), strict=True):
            self.rewards[a] = r
        if state.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player]  # type: ignore[index]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The spectator's view in short text (`ansi`), or printed (`human`)."""
        if self.render_mode is None:
            return None
        v = self.state.view(None)
        text = f"{self.game.name}: to move {v['current_player']}, phase {v.get('phase')}, scores {v.get('scores')}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def make_env(name: str):  # type: ignore[no-untyped-def]
    """The `env(**options)` entry point of one game, as PettingZoo's registry calls it."""

    def env(**options: Any) -> StichkitAECEnv:
        return StichkitAECEnv(name, **options)

    env.__name__ = f"{name}_env"
    return env


coiffeur_env = make_env("coiffeur")
differenzler_env = make_env("differenzler")
jass_env = make_env("jass")
stichwahl_env = make_env("stichwahl")
stichling_env = make_env("stichling")
stichmeister_env = make_env("stichmeister")


def register_pettingzoo() -> None:
    """Register `stichkit/<game>-v0` with `pettingzoo.register` (AEC), once."""
    import pettingzoo

    for name in stichkit.game_names():
        if env_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id(name), entry_point=f"{__name__}:{name}_env")
