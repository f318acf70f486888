"""Every game's observation encoder, by the game's name: the one place that knows them all.

The environments and the policy bot import `encoding` from here, below the package, which imports
them (its `pettingzoo_env` and friends): so no module of `stichkit.rl` imports one that imports it
back.
"""

from __future__ import annotations

from typing import Any

import stichkit
from stichkit.core import Game, OptionError

from .encoder import Encoder

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
