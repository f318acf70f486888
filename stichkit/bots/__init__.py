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
from .pimc import PIMCBot
from .random_bot import RandomBot
from .registry import bot_class, bot_names, register, unavailable

register(RandomBot)
register(HeuristicBot)
register(ISMCTSBot)
register(OpenBot)
register(PIMCBot)  # Jass only: PIMC on the exact solver of stichkit.analysis
# Bots of other packages (a trained policy, a remote player) come through the `stichkit.bots`
# entry points, loaded on first use: see registry.py.


def make(name: str, **params: Any) -> Bot:
    """A new bot. Unknown names and parameters raise OptionError naming what is allowed."""
    cls = bot_class(name)
    if cls is None:
        raise OptionError(f"unknown bot {quote(name)}; bots: {', '.join(bot_names())}")
    return cls(**params)


# The bot behind a player's hint, per game (the terminal's `hint`, the page's "Tipp"): the
# strongest bot of the game at half a second, quick enough to wait for. In Jass pimc (it beats
# ismcts), in Coiffeur pimc (75% of its games against heuristic, as ismcts's 71%, in a third of
# ismcts's time a decision), elsewhere ismcts (75-96% of its games against heuristic,
# docs/benchmarks.md).
HINT_BOTS: dict[str, tuple[str, dict[str, Any]]] = {
    "jass": ("pimc", {"time": 0.5}),
    "coiffeur": ("pimc", {"time": 0.5}),
}
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
    "seat_view", "unavailable",
]  # fmt: skip
