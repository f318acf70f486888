"""The game protocol shared by all games: actions, options, states, records, errors."""

from .action import Action
from .errors import DealError, IllegalActionError, OptionError, RecordError, StichkitError, UndoError
from .game import Game, NotationError, State
from .options import Option
from .record import replay
from .registry import game_names, load_game

__all__ = [
    "Action", "DealError", "Game", "IllegalActionError", "NotationError", "Option", "OptionError",
    "RecordError", "State", "StichkitError", "UndoError", "game_names", "load_game", "replay",
]  # fmt: skip
