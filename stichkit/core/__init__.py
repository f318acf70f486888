"""The game protocol shared by all games: actions, options, states, records, errors."""

from .action import Action
from .errors import (
    ILLEGAL_CODES,
    DealError,
    IllegalActionError,
    OptionError,
    Reason,
    RecordError,
    StichkitError,
    UndoError,
)
from .game import Game, NotationError, State
from .options import Option
from .record import replay
from .registry import game_names, load_game, load_written_game

__all__ = [
    "ILLEGAL_CODES", "Action", "DealError", "Game", "IllegalActionError", "NotationError", "Option", "OptionError",
    "Reason", "RecordError", "State", "StichkitError", "UndoError", "game_names", "load_game", "load_written_game",
    "replay",
]  # fmt: skip
