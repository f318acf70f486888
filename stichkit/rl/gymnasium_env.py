"""Gymnasium environments for one seat; stichkit bots play every other seat.

`StichkitGymEnv` is one game; `StichkitVectorEnv` steps many games in one process and encodes
all their observations with one batch write. Both give the observation
`{"observation": float32 vector, "action_mask": int8 vector}` and `action_masks()` (the
convention of sb3-contrib's MaskablePPO). An illegal action never raises: it ends the episode
with the worst return, -1 in all (the last reward is -1 minus what shaping has paid so far), and
`info["illegal_action"]` is True.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

import stichkit
from stichkit.core import Game, OptionError, State

from .encoders import encoding
from .rewards import Rewards

VERSION = 0
ILLEGAL_RETURN = -1.0


def _opponent_makers(game: Game, seat: int, opponents: Any) -> list[Any]:
    """One entry per other seat, in seat order: a spec (made anew, seeded, at each reset) or a bot."""
    from stichkit.arena.duplicate import BotSpec, parse_bot

    n = game.num_players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise OptionError(f"seat={seat!r} is not a seat of {game.name}; seats are 0..{n - 1}")
    items = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * (n - 1)
    if len(items) != n - 1:
        raise OptionError(f"opponents lists {len(items)} bots, but {game.name} has {n - 1} other seats")
    out: list[Any] = []
    for item in items:
        if isinstance(item, str):
            out.append(parse_bot(item, game.name))  # refuses a bot that cannot play this game
        elif isinstance(item, BotSpec) or callable(getattr(item, "choose", None)):
            out.append(item)
        else:
            raise OptionError(f"an opponent is a bot spec like 'heuristic' or a bot object, not {item!r}")
    return out


class SeatGame:
    """One game seen from one seat: plays the bots' turns and adds up the seat's rewards."""

    def __init__(self, game: Game, seat: int, opponents: Any, shaping: str | None) -> None:
        self.game = game
        self.seat = seat
        self.makers = _opponent_makers(game, seat, opponents)
        self.rewards = Rewards(game, shaping)
        self.state: State = game.new_state(seed=0)
        self.bots: dict[int, Any] = {}
        self.rng = random.Random()
        self.seed_used: int | None = None

    def reset(self, seed: int | None) -> None:
        """A new game: the deal and the seeds of spec-made bots follow from `seed`."""
        from stichkit.arena.duplicate import BotSpec

        self.seed_used = seed
        if seed is not None:
            self.rng.seed(seed)
        game_seed = self.rng.getrandbits(63)
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.bots = {}
        for s, maker in zip(others, self.makers, strict=True):
            self.bots[s] = maker.make(self.rng.getrandbits(63)) if isinstance(maker, BotSpec) else maker
        self.state = self.game.new_state(seed=game_seed)
        self.rewards.reset(self.state)
        self.advance()

    def advance(self) -> float:
        """Let the bots act until it is this seat's turn or the game is over; the seat's reward."""
        state = self.state
        seat = self.seat
        total = 0.0
        while True:
            player = state.current_player
            if player is None or player == seat:
                break
            state.apply(self.bots[player].choose(state, player))
            if self.rewards.shaping:
                total += self.rewards.step(state)[seat]
        if state.is_terminal() and not self.rewards.shaping:
            total += self.rewards.step(state)[seat]
        return total

    def act(self, action: Any) -> tuple[float, bool, bool]:
        """Play the seat's action id: (reward, terminated, illegal)."""
        state = self.state
        legal = False
        try:
            a = int(action)
            if 0 <= a < self.game.num_actions and state.current_player == self.seat:
                legal = state.legal_action_mask()[a] == 1
        except (TypeError, ValueError, OverflowError):
            legal = False
        if not legal:
            reward = ILLEGAL_RETURN - self.rewards.reached[self.seat]
            self.rewards.reached = [ILLEGAL_RETURN] * self.game.num_players
            return reward, True, True
        state.apply(self.game.actions[a])
        reward = self.rewards.step(state)[self.seat] if self.rewards.shaping or state.is_terminal() else 0.0
        reward += self.advance()
        return reward, state.is_terminal(), False

    def mask(self, out: np.ndarray) -> None:
        out[:] = 0
        if self.state.current_player == self.seat:
            out[:] = self.state.legal_action_mask()


def _spaces(game: Game) -> tuple[spaces.Dict, spaces.Discrete]:
    enc = encoding(game)
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, enc.shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(game.num_actions)


class StichkitGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a stichkit game. `opponents`: a bot spec (`"ismcts:time=0.5"`), a bot object,
    or a list of them for the other seats in seat order. `shaping`: see stichkit.rl.rewards."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own convention)

    def __init__(
        self,
        name: str,
        seat: int = 0,
        opponents: Any = "heuristic",
        shaping: str | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = stichkit.load_game(name, **options)
        self.encoder = encoding(self.game)
        self.observation_space, self.action_space = _spaces(self.game)  # type: ignore[assignment]
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed; allowed: None, 'ansi'")
        self.render_mode = render_mode
        self.seat_game = SeatGame(self.game, seat, opponents, shaping)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)

    @property
    def state(self) -> State:
        return self.seat_game.state

    def _obs(self) -> dict[str, np.ndarray]:
        g = self.seat_game
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        g.mask(mask)
        self._mask = mask
        return {"observation": self.encoder.observation(g.state, g.seat), "action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game; `reset(seed=s)` gives the same deal and the same choices of seeded bots."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.seat_game.reset(seed)
        return self._obs(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, terminated, illegal = self.seat_game.act(action)
        info: dict[str, Any] = {"illegal_action": True} if illegal else {}
        obs = self._obs()
        if illegal:
            obs["action_mask"][:] = 0
        return obs, float(reward), bool(terminated), False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        v = self.state.view(self.seat_game.seat)
        return f"{self.game.name} seat {v['seat']}: hand {' '.join(v['hand'])}, scores {v.get('scores')}"


class StichkitVectorEnv(VectorEnv):
    """`num_envs` games of one seat stepped together in one process (autoreset in the same step:
    an ended game's last observation is in `infos["final_obs"]`, the next game's first is returned).

    `backend`: "auto" (the default) steps Jass against `random` opponents in the C core, all games
    in one call (stichkit.rl.batch: the same games, observations, rewards and resets as the Python
    path, from the same seeds), and everything else in Python; "native" insists on the core,
    "python" keeps to Python."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's own convention)

    def __init__(
        self,
        name: str,
        num_envs: int,
        seat: int = 0,
        opponents: Any = "heuristic",
        shaping: str | None = None,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"num_envs={num_envs!r} is not allowed: a positive whole number")
        self.game = stichkit.load_game(name, **options)
        self.encoder = encoding(self.game)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.game)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (num_envs, *self.encoder.shape), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_envs, self.game.num_actions), dtype=np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete([self.game.num_actions] * num_envs)
        self.batch = _native_batch(self.game, num_envs, seat, opponents, shaping, backend)
        self.backend = "python" if self.batch is None else "native"
        self.games = [] if self.batch else [SeatGame(self.game, seat, opponents, shaping) for _ in range(num_envs)]
        if self.batch is None:
            self._obs = np.zeros((num_envs, *self.encoder.shape), dtype=np.float32)
            self._masks = np.zeros((num_envs, self.game.num_actions), dtype=np.int8)
        else:  # the C core writes these arrays in place at every step
            self._obs = self.batch.obs.reshape(num_envs, self.encoder.size)
            self._masks = self.batch.masks.reshape(num_envs, self.game.num_actions)

    def seeds_used(self) -> list[int]:
        """The seed each game was last started from (after an automatic reset, the one drawn)."""
        if self.batch is not None:
            return self.batch.seeds()
        return [g.seed_used if g.seed_used is not None else 0 for g in self.games]

    def _observe(self) -> dict[str, np.ndarray]:
        if self.batch is not None:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        games = self.games
        self.encoder.observations([g.state for g in games], [g.seat for g in games], self._obs)
        for i, g in enumerate(games):
            g.mask(self._masks[i])
        return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games; an int seed `s` seeds game i with `s + i`."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        seeds = (
            [seed + i for i in range(self.num_envs)]
            if isinstance(seed, int)
            else list(seed)
            if seed is not None
            else [int(x) for x in self.np_random.integers(0, 2**62, self.num_envs)]
        )
        if self.batch is not None:
            self.batch.reset(seeds)
        else:
            for g, s in zip(self.games, seeds, strict=True):
                g.reset(s)
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self.batch is not None:
            return self._step_native(actions)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        illegal = np.zeros(n, dtype=bool)
        for i, (g, a) in enumerate(zip(self.games, np.asarray(actions).reshape(n), strict=True)):
            rewards[i], terminated[i], illegal[i] = g.act(a)
        infos: dict[str, Any] = {}
        if terminated.any():
            ended = [i for i in range(n) if terminated[i]]
            final = self._observe()
            final_obs = np.empty(n, dtype=object)
            for i in ended:
                mask = final["action_mask"][i]
                if illegal[i]:
                    mask = np.zeros_like(mask)
                final_obs[i] = {"observation": final["observation"][i], "action_mask": mask}
                self.games[i].reset(self.games[i].rng.getrandbits(62))
            infos = {
                "final_obs": final_obs,
                "_final_obs": terminated.copy(),
                "illegal_action": illegal,
                "_illegal_action": terminated.copy(),
            }
        return self._observe(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def _step_native(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                                   dict[str, Any]]:  # fmt: skip
        """The same step in the C core: every game in one call (see stichkit.rl.batch)."""
        batch = self.batch
        assert batch is not None
        n = self.num_envs
        ended = batch.step(np.asarray(actions).reshape(n))
        terminated = batch.terminated.copy()
        infos: dict[str, Any] = {}
        if ended:
            final_obs = np.empty(n, dtype=object)
            mask = np.zeros(self.game.num_actions, dtype=np.int8)  # a finished game has no legal action
            for i in np.flatnonzero(terminated):
                final_obs[i] = {"observation": batch.final_obs[i, 0].copy(), "action_mask": mask.copy()}
            infos = {
                "final_obs": final_obs,
                "_final_obs": terminated.copy(),
                "illegal_action": batch.illegal.copy(),
                "_illegal_action": terminated.copy(),
            }
        rewards = batch.rewards.reshape(n).copy()
        return self._observe(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, as booleans of shape (num_envs, num_actions)."""
        return self._masks.astype(bool)


def _native_batch(game: Game, num_envs: int, seat: int, opponents: Any, shaping: str | None,
                  backend: str) -> Any:  # fmt: skip
    """The C core's batch for these games, or None for the Python path: "auto" takes the core when
    it can play them (Jass, every opponent a `random` bot, the extension built), "native" insists."""
    from .batch import JassBatch, native_bot_seed, use_core

    _opponent_makers(game, seat, opponents)  # the same checks and messages as the Python path
    items = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * (game.num_players - 1)
    why = None
    if any(native_bot_seed(item) is None for item in items):
        why = "the C core plays only 'random' opponents (or 'random:seed=N')"
    if not use_core(game, backend, why):
        return None
    return JassBatch(num_envs, seats=(seat,), opponents=items, shaping=shaping, **game.options)


def vector_env(
    name: str, num_envs: int, seat: int = 0, opponents: Any = "heuristic", **options: Any
) -> StichkitVectorEnv:
    """`num_envs` games of `name` for one seat, stepped together in one process (Jass against
    `random` bots: in the C core, see StichkitVectorEnv)."""
    return StichkitVectorEnv(name, num_envs, seat=seat, opponents=opponents, **options)


def register_gymnasium() -> None:
    """Register `stichkit/<game>-v0` with Gymnasium (`gymnasium.make("stichkit/jass-v0")`)."""
    for name in stichkit.game_names():
        env_id = f"stichkit/{name}-v{VERSION}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:StichkitGymEnv", kwargs={"name": name})
