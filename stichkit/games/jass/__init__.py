"""Jass (Schieber): the Swiss national card game, four players in two teams.

See docs/jass.md for the rules, every ruling and the notation.
"""

from .cards import DECK, MODES
from .game import Jass, parse_deal
from .state import ACTIONS, JassState
from .weis import Weis, best_weis

GAME = Jass

__all__ = ["ACTIONS", "DECK", "GAME", "MODES", "Jass", "JassState", "Weis", "best_weis", "parse_deal"]
