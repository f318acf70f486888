"""Bots: `make(name, **params)` gives a bot; `bot.choose(state_or_view, seat)` gives its Action.

A bot sees only what its seat may see: given a State it works from `state.view(seat)`.
See docs/bots.md.
"""

from __future__ import annotations

import importlib
from typing import Any

from stichkit.core import OptionError
from stichkit.core.errors import quote

from .base import Bot, Param, View, game_of, seat_view
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .open_bot import CHEAT_NOTE, OpenBot
from .pimc import PIMCBot
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
register(PIMCBot)  # Jass only: PIMC on the exact solver of stichkit.analysis

# Bots that live outside this package, imported on first use, so that the engine and the bots
# above never load what only they need: name -> (module, class).
_LAZY: dict[str, tuple[str, str]] = {
    "remote": ("stichkit.interop.jasskit.remote", "RemoteBot"),  # a bot behind jass-kit's HTTP protocol
    "policy": ("stichkit.rl.policy_bot", "PolicyBot"),  # a trained policy; needs the rl and rl-train extras
}


def bot_class(name: Any) -> type[Bot] | None:
    """The class of the bot of that name (imported now if it lives elsewhere), or None."""
    if not isinstance(name, str):
        return None
    if name not in _BOTS and name in _LAZY:
        module, attr = _LAZY[name]
        try:
            register(getattr(importlib.import_module(module), attr))
        except ImportError as e:  # its extra is not installed: say which, not a traceback
            raise OptionError(f"bot {name!r} cannot be loaded ({e}); install its extra (docs/bots.md)") from None
    return _BOTS.get(name)


def bot_names() -> tuple[str, ...]:
    """The names `make` accepts, sorted."""
    return tuple(sorted({*_BOTS, *_LAZY}))


def make(name: str, **params: Any) -> Bot:
    """A new bot. Unknown names and parameters raise OptionError naming what is allowed."""
    cls = bot_class(name)
    if cls is None:
        raise OptionError(f"unknown bot {quote(name)}; bots: {', '.join(bot_names())}")
    return cls(**params)


# The bot behind a player's hint, per game (the terminal's `hint`, the page's "Tipp"): the
# strongest bot of the game at half a second, quick enough to wait for. In Jass pimc (it beats
# ismcts), elsewhere ismcts (75-96% of its games against heuristic, README).
HINT_BOTS: dict[str, tuple[str, dict[str, Any]]] = {"jass": ("pimc", {"time": 0.5})}
DEFAULT_HINT_BOT: tuple[str, dict[str, Any]] = ("ismcts", {"time": 0.5})


def hint_bot(game: str) -> tuple[str, dict[str, Any]]:
    """The name and parameters of the bot that gives hints in this game."""
    name, params = HINT_BOTS.get(game, DEFAULT_HINT_BOT)
    return name, dict(params)


def is_cheating(name: str) -> bool:
    """Whether the bot of that name sees more than its seat may (`open`): for evaluations only."""
    cls = bot_class(name)
    return bool(getattr(cls, "cheats", False))


def address_param(name: str) -> str | None:
    """The parameter a bot spec gives right after the bot's name, unnamed (`remote:URL`), if any."""
    cls = bot_class(name)
    return getattr(cls, "ADDRESS", None)


__all__ = [
    "CHEAT_NOTE", "HINT_BOTS", "Bot", "HeuristicBot", "ISMCTSBot", "OpenBot", "PIMCBot", "Param", "RandomBot",
    "View", "address_param", "bot_class", "bot_names", "game_of", "hint_bot", "is_cheating", "make", "register",
    "seat_view",
]  # fmt: skip
