"""Stich-Meister (AMIGO 2010, Friedemann Friese): a trick-taking game whose rules the players
rewrite with rule cards before every round.

See docs/stichmeister.md for the rules, the 60 rule cards with their provenance, the
interactions, the notation and the options.
"""

from .cards import DECK, SUIT_NAMES, SUITS
from .game import StichMeister
from .rulecards import RULE_CARDS, RuleCard, RuleCardError, load_rule_cards
from .rules import RoundRules, compose
from .state import ACTIONS, StichMeisterState
from .trump import Trumps, trump_order

GAME = StichMeister

__all__ = [
    "ACTIONS", "DECK", "GAME", "RULE_CARDS", "SUITS", "SUIT_NAMES", "RoundRules", "RuleCard", "RuleCardError",
    "StichMeister", "StichMeisterState", "Trumps", "compose", "load_rule_cards", "trump_order",
]  # fmt: skip
