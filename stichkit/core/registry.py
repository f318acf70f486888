"""Game names to Game classes. Games register themselves; the core imports no game."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from .errors import OptionError, quote
from .game import Game
from .options import as_written_before

# The games stichkit is made for. Each lives in stichkit.games.<name>, whose GAME is its class;
# a game counts as shipped once its package exists.
_PLANNED = ("coiffeur", "differenzler", "jass", "stichling", "stichmeister", "stichwahl")
_MODULES: dict[str, str] = {
    name: module for name in _PLANNED if importlib.util.find_spec(module := f"stichkit.games.{name}") is not None
}


def game_names() -> tuple[str, ...]:
    """The games that can be loaded, sorted by name."""
    return tuple(sorted(_MODULES))


def game_class(name: str) -> type[Game]:
    if not isinstance(name, str) or name.lower() not in _MODULES:
        raise OptionError(f"unknown game {quote(name)}; games: {', '.join(game_names())}")
    module = importlib.import_module(_MODULES[name.lower()])
    cls: type[Game] = module.GAME
    return cls


def load_game(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated; unknown names and options raise OptionError."""
    return game_class(name)(**options)


def load_written_game(name: str, options: Mapping[str, Any]) -> Game:
    """The game `name` from options that a stichkit wrote down, maybe an earlier one (a stored
    table): an option added since takes the value that plays as the game was played then."""
    cls = game_class(name)
    return cls(**as_written_before(cls.OPTIONS, options))
