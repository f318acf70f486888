"""Stichwahl (HUCH! 2024): the trick winner chooses which card scores, and its owner gets the bonus.

See docs/stichwahl.md for the rules, every ruling, the card table and the notation.
"""

from .cards import CARDS, DECK, Card, CardTable, CardTableError, load_table
from .game import Stichwahl, parse_deal
from .rules import deal_points
from .state import StichwahlState

GAME = Stichwahl

__all__ = [
    "CARDS", "DECK", "GAME", "Card", "CardTable", "CardTableError", "Stichwahl", "StichwahlState", "deal_points",
    "load_table", "parse_deal",
]  # fmt: skip
