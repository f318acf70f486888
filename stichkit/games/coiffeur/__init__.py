"""Coiffeur: Jass for two teams, each of which plays every row of its sheet once, each row with
its multiplier; the higher total wins when both sheets are full.

See docs/coiffeur.md for the rules, every ruling and the notation. The card play is Jass's
(stichkit.games.jass: following, the Bour exception, the undertrump ban, trick winner, points).
"""

from .actions import ACTIONS
from .cards import DECK, PLAY_MODES
from .game import Coiffeur
from .rules import SHEETS
from .state import CoiffeurState

GAME = Coiffeur

__all__ = ["ACTIONS", "DECK", "GAME", "PLAY_MODES", "SHEETS", "Coiffeur", "CoiffeurState"]
