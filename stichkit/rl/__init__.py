"""The games as learning environments: encoders, PettingZoo, Gymnasium and OpenSpiel.

Needs the `rl` extra (numpy, gymnasium, pettingzoo, open_spiel). See docs/rl.md. Importing this
package registers the PettingZoo and Gymnasium ids `stichkit/<game>-v0` when those are installed.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

import stichkit
from stichkit.core import Game, OptionError

if importlib.util.find_spec("numpy") is None:  # say which extra, not only which module
    raise ImportError("stichkit.rl needs numpy: install the rl extra (pip install 'stichkit[rl]')", name="numpy")

from .encoder import Encoder, Field
from .rewards import final_returns

if TYPE_CHECKING:
    from .gymnasium_env import StichkitGymEnv
    from .pettingzoo_aec import StichkitAECEnv
    from .pettingzoo_parallel import StichkitParallelEnv

_ENCODERS: dict[tuple[str, tuple[tuple[str, Any], ...]], Encoder] = {}


def _encoder_class(name: str) -> type[Encoder]:
    if name == "coiffeur":
        from .coiffeur import CoiffeurEncoder

        return CoiffeurEncoder
    if name == "differenzler":
        from .differenzler import DifferenzlerEncoder

        return DifferenzlerEncoder
    if name == "jass":
        from .jass import JassEncoder

        return JassEncoder
    if name == "stichwahl":
        from .stichwahl import StichwahlEncoder

        return StichwahlEncoder
    if name == "stichling":
        from .stichling import StichlingEncoder

        return StichlingEncoder
    if name == "stichmeister":
        from .stichmeister import StichMeisterEncoder

        return StichMeisterEncoder
    raise OptionError(f"no encoder for {name!r}; games: {', '.join(stichkit.game_names())}")


def encoding(game: Game | str, **options: Any) -> Encoder:
    """The observation encoder of a game (a `Game` from `load_game`, or a name and its options)."""
    if isinstance(game, str):
        game = stichkit.load_game(game, **options)
    elif options:
        raise TypeError("options go with a game name; a Game has its options already")
    if not isinstance(game, Game):
        raise TypeError(f"encoding() takes a Game or a game name, not {type(game).__name__}")
    key = (game.name, tuple(sorted((k, repr(v)) for k, v in game.options.items())))
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = _encoder_class(game.name)(game)
    return encoder


def pettingzoo_env(name: str, **options: Any) -> StichkitAECEnv:
    """A PettingZoo AEC environment of the game `name` with the game's `options`."""
    from .pettingzoo_aec import StichkitAECEnv

    return StichkitAECEnv(name, **options)


def parallel_env(name: str, **options: Any) -> StichkitParallelEnv:
    """A PettingZoo parallel environment of the game `name` with the game's `options` (Jass in
    the C core when it is built)."""
    from .pettingzoo_parallel import StichkitParallelEnv

    return StichkitParallelEnv(name, **options)


def gym_env(name: str, seat: int = 0, opponents: Any = "heuristic", **options: Any) -> StichkitGymEnv:
    """A Gymnasium environment for one seat; the other seats are played by stichkit bots."""
    from .gymnasium_env import StichkitGymEnv

    return StichkitGymEnv(name, seat=seat, opponents=opponents, **options)


def register_openspiel() -> list[str]:
    """Register every game with OpenSpiel as `python_stichkit_<name>`; returns the short names."""
    from .openspiel_game import register

    return register()


def _register_ids() -> None:
    """`stichkit/<game>-v0` in PettingZoo's AEC and parallel registries and in Gymnasium's registry."""
    if importlib.util.find_spec("pettingzoo") is not None:
        from .pettingzoo_aec import register_pettingzoo
        from .pettingzoo_parallel import register_parallel

        register_pettingzoo()
        register_parallel()
    if importlib.util.find_spec("gymnasium") is not None:
        from .gymnasium_env import register_gymnasium

        register_gymnasium()


_register_ids()

__all__ = [
    "Encoder",
    "Field",
    "encoding",
    "final_returns",
    "gym_env",
    "parallel_env",
    "pettingzoo_env",
    "register_openspiel",
]
