"""Game names to Game classes. Games register themselves; the core imports no game."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import OptionError
from .game import Game

# The games stichkit ships, and the module that defines each one.
_MODULES: dict[str, str] = {
    "jass": "stichkit.games.jass",
}


def game_names() -> tuple[str, ...]:
    """The games that can be loaded, sorted by name."""
    return tuple(sorted(_MODULES))


def game_class(name: str) -> type[Game]:
    if not isinstance(name, str) or name.lower() not in _MODULES:
        raise OptionError(f"unknown game {name!r}; games: {', '.join(game_names())}")
    module = importlib.import_module(_MODULES[name.lower()])
    cls: type[Game] = module.GAME
    return cls


def load_game(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated; unknown names and options raise OptionError."""
    return game_class(name)(**options)
