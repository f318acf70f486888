"""Differenzler: Jass for four players, each for themselves, who predict their own points.

See docs/differenzler.md for the rules, every ruling and the notation. The card play is Jass's
(stichkit.games.jass: following, the Bour exception, the undertrump ban, trick winner, points).
"""

from .actions import ACTIONS
from .cards import DECK, MAX_PREDICTION
from .game import Differenzler
from .state import DifferenzlerState

GAME = Differenzler

__all__ = ["ACTIONS", "DECK", "GAME", "MAX_PREDICTION", "Differenzler", "DifferenzlerState"]
