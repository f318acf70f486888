"""Stichling (Ravensburger 2015, "Monster Trick"): up to four tricks open at once, and a secret
prediction laid out as the order of three score tiles.

See docs/stichling.md for the rules, every ruling and the notation.
"""

from .cards import COLOURS, DECKS, ORDER_TEXTS, ORDERS, TILES, StichlingDeck
from .deals import deal_hands
from .game import Stichling, parse_deal
from .position import DealSummary
from .state import StichlingState

GAME = Stichling

__all__ = [
    "COLOURS", "DECKS", "GAME", "ORDERS", "ORDER_TEXTS", "TILES", "DealSummary", "Stichling", "StichlingDeck",
    "StichlingState", "deal_hands", "parse_deal",
]  # fmt: skip
