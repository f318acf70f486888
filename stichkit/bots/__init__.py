"""Bots: `make(name, **params)` gives a bot; `bot.choose(state_or_view, seat)` gives its Action.

A bot sees only what its seat may see: given a State it works from `state.view(seat)`.
See docs/bots.md.
"""

from __future__ import annotations

from typing import Any

from stichkit.core import OptionError
from stichkit.core.errors import quote

from .base import Bot, Param, View, game_of, seat_view
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .open_bot import CHEAT_NOTE, OpenBot
from .random_bot import RandomBot

_BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    """Add a bot class under its `name` (usable as a class decorator)."""
    _BOTS[cls.name] = cls
    return cls


register(RandomBot)
register(HeuristicBot)
register(ISMCTSBot)
register(OpenBot)


def bot_names() -> tuple[str, ...]:
    """The names `make` accepts, sorted."""
    return tuple(sorted(_BOTS))


def make(name: str, **params: Any) -> Bot:
    """A new bot. Unknown names and parameters raise OptionError naming what is allowed."""
    cls = _BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise OptionError(f"unknown bot {quote(name)}; bots: {', '.join(bot_names())}")
    return cls(**params)


def is_cheating(name: str) -> bool:
    """Whether the bot of that name sees more than its seat may (`open`): for evaluations only."""
    cls = _BOTS.get(name)
    return bool(getattr(cls, "cheats", False))


__all__ = [
    "CHEAT_NOTE", "Bot", "HeuristicBot", "ISMCTSBot", "OpenBot", "Param", "RandomBot", "View", "bot_names",
    "game_of", "is_cheating", "make", "register", "seat_view",
]  # fmt: skip
