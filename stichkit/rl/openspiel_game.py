"""The four games registered with OpenSpiel as Python games, `python_stichkit_<name>`.

Chance is sampled inside the game: the first node of every game is one chance node with
`DEAL_SEEDS` equally likely outcomes, each a seed of stichkit's shuffles; every deal, draw and
rule-card shuffle of the game then follows from that seed, as in `game.new_state(seed=...)`.
The information state and the observation are both the seat's view: the tensor is the game's
encoder (`stichkit.rl.encoding`), the string is the view as canonical JSON.
`state.resample_from_infostate(player, sampler)` is `state.sample_hidden(player, rng)`, so
OpenSpiel's Python ISMCTS bot plays these games.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import pyspiel

import stichkit
from stichkit.core import Game, State

from .encoders import encoding
from .rewards import final_returns, potentials, scale

PREFIX = "python_stichkit_"
DEAL_SEEDS = 1 << 16
PLAYERS = {
    "coiffeur": (4, 4),
    "differenzler": (4, 4),
    "jass": (4, 4),
    "stichwahl": (2, 4),
    "stichling": (2, 5),
    "stichmeister": (3, 5),
}


def parameters(name: str) -> dict[str, Any]:
    """Every option as an OpenSpiel parameter: a path option's None is "", a default that
    follows other options (Jass's target, by profile) is 0. OpenSpiel types each parameter by its
    default, so a yes/no option's word choices (Jass's stoeck='announce') are parameters of their
    own, `<option>_<word>` (stoeck_announce=True), False by default."""
    game_cls = type(stichkit.load_game(name))
    spec: dict[str, Any] = {}
    for opt in game_cls.OPTIONS:
        if opt.default_from is not None:
            spec[opt.name] = 0
        elif opt.default is None:
            spec[opt.name] = ""
        else:
            spec[opt.name] = opt.default
        for word in _word_choices(opt):
            spec[f"{opt.name}_{word}"] = False
    return spec


def _word_choices(opt: Any) -> list[str]:
    """The text choices of an option whose default is True or False."""
    if not isinstance(opt.default, bool):
        return []
    return [c for c in opt.choices if isinstance(c, str)]


def options_from(name: str, params: dict[str, Any]) -> dict[str, Any]:
    spec = parameters(name)
    words = {
        f"{opt.name}_{word}": (opt.name, word)
        for opt in type(stichkit.load_game(name)).OPTIONS
        for word in _word_choices(opt)
    }
    options: dict[str, Any] = {}
    for key, value in params.items():
        if key not in spec:
            continue  # OpenSpiel has checked the names already
        if key in words:
            continue
        if value == spec[key] and (value == "" or (value == 0 and not isinstance(value, bool) and key == "target")):
            continue  # "" and the target 0 mean: the game's own default
        options[key] = value
    for key, value in params.items():  # a word choice wins over its option's True/False
        if key in words and value is True:
            options[words[key][0]] = words[key][1]
    return options


def max_game_length(game: Game) -> int:
    """Decisions in the longest game (a bound; the chance node is not counted)."""
    n = game.num_players
    if game.name == "jass":
        # every complete deal writes at least 157 points; the game ends when a team reaches the target
        deals = game.options.get("deals") or 2 * (game.options["target"] - 1) // 157 + 1
        # a trump choice, a push, 36 cards, and what may be said: four Weis and one "Stöck"
        said = 4 * (game.options["weis"] == "announce") + (game.options["stoeck"] == "announce")
        return deals * (38 + said)
    if game.name == "stichwahl":
        # every trick scores at least one point; a shared lead plays on, bounded here by 20 deals more
        deals = math.ceil(n * game.options["target"] / 8) + 20
        return deals * (n + 8 * (n + 2) + 36)
    if game.name == "stichling":
        return 3 * 13 * n
    if game.name == "coiffeur":
        pushes = 4 if game.options["push"] == "around" else 1  # around: every seat may push once
        return game.new_state(seed=0).view(None)["deals"] * (pushes + 1 + 36)  # pushes, a mode, 36 cards a deal
    if game.name == "differenzler":
        return game.options["deals"] * (4 + 36)  # four predictions and 36 cards a deal
    return n * (28 * n + 16)  # stichmeister: rounds × (choices, setup picks, plays, removals)


class _Held:
    """The stichkit state inside an OpenSpiel state; OpenSpiel copies states by deepcopy."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())


def _game_type(name: str) -> pyspiel.GameType:
    low, high = PLAYERS[name]
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"stichkit {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(name),
    )


class StichkitGame(pyspiel.Game):
    """One stichkit game with its options, for OpenSpiel."""

    NAME = "jass"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        self.stichkit_game = stichkit.load_game(name, **options_from(name, dict(params or {})))
        g = self.stichkit_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_actions,
            max_chance_outcomes=DEAL_SEEDS,
            num_players=g.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(g),
        )
        super().__init__(_game_type(name), info, params or {})
        self.encoder = encoding(g)

    def new_initial_state(self) -> StichkitState:
        return StichkitState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver(self)


class StichkitState(pyspiel.State):
    """A game in OpenSpiel's terms: a chance node for the deal seed, then stichkit's decisions."""

    def __init__(self, game: StichkitGame) -> None:
        super().__init__(game)
        self.held: _Held | None = None
        self.deal_seed = -1

    @property
    def sgame(self) -> Game:
        """The stichkit Game (not an attribute: OpenSpiel deep-copies a state's attributes)."""
        return self.held.state.game if self.held is not None else self.get_game().stichkit_game

    @property
    def inner(self) -> State | None:
        """The stichkit state (None before the deal)."""
        return None if self.held is None else self.held.state

    def current_player(self) -> int:
        if self.held is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self.held.state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.held is not None
        return sorted(a.id for a in self.held.state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / DEAL_SEEDS
        return [(i, p) for i in range(DEAL_SEEDS)]

    def _apply_action(self, action: int) -> None:
        if self.held is None:
            self.deal_seed = int(action)
            self.held = _Held(self.sgame.new_state(seed=int(action)))
        else:
            self.held.state.apply(self.sgame.actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return self.sgame.actions[action].text

    def is_terminal(self) -> bool:
        return self.held is not None and self.held.state.is_terminal()

    def returns(self) -> list[float]:
        if self.held is None or not self.held.state.is_terminal():
            return [0.0] * self.sgame.num_players
        return final_returns(self.held.state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> StichkitState:
        """A state `player_id` cannot tell from this one: the hidden parts drawn anew
        (`sample_hidden`), with a random source seeded from OpenSpiel's sampler."""
        out = StichkitState(self.get_game())
        if self.held is None:
            return out
        rng = random.Random(int(probability_sampler() * 2**53))
        out.held = _Held(self.held.state.sample_hidden(player_id, rng))
        out.deal_seed = -1
        return out

    def __str__(self) -> str:
        if self.held is None:
            return "deal not yet drawn"
        moves = " ".join(a.text for _, a in self.held.state.history())
        return f"deal seed {self.deal_seed}: {moves}"


class ViewObserver:
    """OpenSpiel's observer: the encoder's tensor and the view as JSON, for any seat."""

    def __init__(self, game: StichkitGame) -> None:
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StichkitState, player: int) -> None:
        inner = state.inner
        if inner is None:
            self.tensor.fill(0.0)
        else:
            self.encoder.fill_views([inner.view(player)], self.tensor[None, :])

    def string_from(self, state: StichkitState, player: int) -> str:
        inner = state.inner
        if inner is None:
            return f"seat {player}: deal not yet drawn"
        return json.dumps(inner.view(player), sort_keys=True, separators=(",", ":"))


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots: random rollouts played in stichkit's
    engine itself (no round trip through OpenSpiel per move). `until="game"` plays to the end
    and returns the final returns, like OpenSpiel's RandomRolloutEvaluator; `until="round"`
    stops when the scores first change (the end of a trick, deal or round) and values the
    position by the score margins (twice the shaping potential, in [-1, 1])."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None, until: str = "game") -> None:
        if until not in ("game", "round"):
            raise ValueError(f"until={until!r} is not allowed; allowed: 'game' or 'round'")
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)
        self.until = until

    def evaluate(self, state: StichkitState) -> np.ndarray:
        inner = state.inner
        assert inner is not None, "evaluate a dealt state"
        game = inner.game
        total = np.zeros(game.num_players)
        choice = self.rng.choice
        for _ in range(self.n_rollouts):
            s = inner.clone()
            start = s.scores()
            while not s.is_terminal():
                s.apply(choice(s.legal_actions()))
                if self.until == "round" and s.scores() != start:
                    break
            if s.is_terminal():
                total += final_returns(s)
            else:
                total += [2 * p for p in potentials(s, scale(game))]
        return total / self.n_rollouts

    def prior(self, state: StichkitState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


_REGISTERED: list[str] = []


def register() -> list[str]:
    """Register every game once; returns the OpenSpiel short names."""
    if not _REGISTERED:
        for name in stichkit.game_names():
            # A class per game, as OpenSpiel's own Python games register (a closure here would be
            # freed after the interpreter has shut down, which aborts the process at exit).
            cls = type(f"Stichkit_{name}_Game", (StichkitGame,), {"NAME": name})
            pyspiel.register_game(_game_type(name), cls)
            _REGISTERED.append(PREFIX + name)
    return list(_REGISTERED)
