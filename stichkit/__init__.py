"""stichkit: German and Swiss trick-taking card games, with faithful rules and a fast engine."""

from .core import (
    Action,
    DealError,
    Game,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    State,
    StichkitError,
    UndoError,
    game_names,
    load_game,
    load_written_game,
    replay,
)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """`stichkit.bots` on first use: the engine itself never needs the bots."""
    if name == "bots":
        import importlib

        return importlib.import_module("stichkit.bots")
    raise AttributeError(f"module 'stichkit' has no attribute {name!r}")


__all__ = [
    "Action", "DealError", "Game", "IllegalActionError", "NotationError", "OptionError", "RecordError",
    "State", "StichkitError", "UndoError", "__version__", "game_names", "load_game",
    "load_written_game", "replay",
]  # fmt: skip
