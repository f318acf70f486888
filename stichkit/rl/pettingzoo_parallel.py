"""PettingZoo parallel environments: every seat an agent, all of them answered in one step.

The games are turn-based, so in each step only the agent to act has a legal action (its mask);
every other agent's mask is all zeros and its action is ignored (send anything, or leave it
out). Observations, masks, rewards, seeds and the illegal-action rule are those of the AEC
environment (stichkit.rl.pettingzoo_aec): `reset(seed=s)` deals the same game as
`game.new_state(seed=s)`, and an illegal action of the agent to act raises
`stichkit.IllegalActionError` and changes nothing. The episode is one whole game; when it ends
every agent is terminated and `agents` is empty.

Jass runs in the C core (stichkit.rl.batch, one game) when the extension is built, with the
same results as the Python path (`backend="python"`); the other games run in Python.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

import stichkit
from stichkit.core import IllegalActionError, OptionError, State
from stichkit.core.errors import quote

from .encoders import encoding
from .pettingzoo_aec import VERSION, env_id
from .rewards import Rewards

GAME_SEED_LIMIT = 1 << 63  # the C core's deal takes seeds of 64 signed bits


class StichkitParallelEnv(ParallelEnv[str, dict[str, np.ndarray], int]):
    """One stichkit game as a PettingZoo parallel environment (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "stichkit_v0", "is_parallelizable": True}  # noqa: RUF012

    def __init__(
        self,
        name: str,
        render_mode: str | None = None,
        shaping: str | None = None,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        self.game = stichkit.load_game(name, **options)
        self.encoder = encoding(self.game)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi'")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"stichkit_{self.game.name}_v{VERSION}"}
        n = self.game.num_players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agents = list(self.possible_agents)
        num_actions = self.game.num_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._rewards = Rewards(self.game, shaping)
        self._seed_rng = random.Random()
        self.batch = _native_game(self.game, shaping, backend)
        self.backend = "python" if self.batch is None else "native"
        self.state: State | None = None
        self._actions = np.zeros((1, n), dtype=np.int64)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new game; `reset(seed=s)` deals `game.new_state(seed=s)` every time."""
        if seed is not None:
            self._seed_rng.seed(seed)
        game_seed = self._seed_rng.getrandbits(63) if seed is None else seed
        self.agents = list(self.possible_agents)
        if self.batch is not None:
            if not -GAME_SEED_LIMIT < game_seed < GAME_SEED_LIMIT:
                raise OptionError(f"seed {game_seed} is too large for the C core: seeds lie between -2**63 and 2**63")
            self.batch.reset([game_seed & ((1 << 64) - 1)])
        else:
            self.state = self.game.new_state(seed=game_seed)
            self._rewards.reset(self.state)
        return self._observations(), {a: {} for a in self.agents}

    def _to_act(self) -> int | None:
        if self.batch is not None:
            if self.batch.terminated[0]:
                return None
            acting = np.flatnonzero(self.batch.masks[0].any(axis=1))
            return int(acting[0]) if len(acting) else None
        assert self.state is not None
        return self.state.current_player

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        out = {}
        if self.batch is not None:
            for s, agent in enumerate(self.possible_agents):
                out[agent] = {"observation": self.batch.obs[0, s].copy(), "action_mask": self.batch.masks[0, s].copy()}
            return out
        state = self.state
        assert state is not None
        mover = state.current_player
        for s, agent in enumerate(self.possible_agents):
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
            if mover == s:
                mask[:] = state.legal_action_mask()
            out[agent] = {"observation": self.encoder.observation(state, s), "action_mask": mask}
        return out

    def step(self, actions: dict[str, Any]) -> tuple[
        dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:  # fmt: skip
        """The acting agent's action from `actions` is played; the others' are ignored."""
        if not self.agents:
            raise ValueError("the game is over: call reset() for a new one")
        mover = self._to_act()
        assert mover is not None
        agent = self.possible_agents[mover]
        if agent not in actions:
            raise ValueError(f"it is {agent}'s turn, and actions holds no action for it")
        action = actions[agent]
        if not isinstance(action, int | np.integer) or not 0 <= int(action) < self.game.num_actions:
            raise IllegalActionError(
                f"action {action!r} is no action id; ids are 0..{self.game.num_actions - 1}",
                "unknown_action",
                {"id": quote(action)},
            )
        a = int(action)
        if self.batch is not None:
            if not self.batch.masks[0, mover, a]:
                legal = ", ".join(self.game.actions[i].text for i in np.flatnonzero(self.batch.masks[0, mover]))
                raise IllegalActionError(
                    f"{self.game.actions[a].text} is not legal for {agent} now; the legal actions are {legal}",
                    "not_legal_now",
                    {"action": self.game.actions[a].text, "seat": mover},
                )
            self._actions[0, mover] = a
            self.batch.step(self._actions)
            rewards = {ag: float(self.batch.rewards[0, s]) for s, ag in enumerate(self.possible_agents)}
            over = bool(self.batch.terminated[0])
        else:
            state = self.state
            assert state is not None
            state.apply(self.game.actions[a])  # raises IllegalActionError and changes nothing
            rewards = dict(zip(self.possible_agents, self._rewards.step(state), strict=True))
            over = state.is_terminal()
        obs = self._observations()
        terminations = dict.fromkeys(self.possible_agents, over)
        truncations = dict.fromkeys(self.possible_agents, False)
        infos: dict[str, dict[str, Any]] = {ag: {} for ag in self.possible_agents}
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """A short text of the position (`ansi`)."""
        if self.render_mode is None:
            return None
        mover = self._to_act()
        return f"{self.game.name}: to move {mover}, agents {len(self.agents)}"

    def close(self) -> None:
        pass


def _native_game(game: stichkit.Game, shaping: str | None, backend: str) -> Any:
    """One Jass game in the C core (every seat an agent), or None for the Python path."""
    from .batch import JassBatch, use_core

    if not use_core(game, backend):
        return None
    return JassBatch(1, seats=(0, 1, 2, 3), shaping=shaping, **game.options)


def make_parallel_env(name: str):  # type: ignore[no-untyped-def]
    """The `env(**options)` entry point of one game's parallel environment (PettingZoo's registry)."""

    def env(**options: Any) -> StichkitParallelEnv:
        return StichkitParallelEnv(name, **options)

    env.__name__ = f"{name}_parallel_env"
    return env


coiffeur_parallel_env = make_parallel_env("coiffeur")
differenzler_parallel_env = make_parallel_env("differenzler")
jass_parallel_env = make_parallel_env("jass")
stichwahl_parallel_env = make_parallel_env("stichwahl")
stichling_parallel_env = make_parallel_env("stichling")
stichmeister_parallel_env = make_parallel_env("stichmeister")


def register_parallel() -> None:
    """Register `stichkit/<game>-v0` with `pettingzoo.register` (parallel), once."""
    import pettingzoo

    for name in stichkit.game_names():
        if env_id(name) not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", env_id(name), entry_point=f"{__name__}:{name}_parallel_env")
