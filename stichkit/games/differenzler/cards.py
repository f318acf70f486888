"""The cards of Differenzler: the Jass deck with Jass's trump order and card points, imported from
stichkit.games.jass, never copied. Differenzler always has a trump suit (no Obenabe, no Undenufe)
and counts only the cards and the last trick: 157 points a deal, which bounds a prediction."""

from __future__ import annotations

from stichkit.games.jass.cards import (
    ACE,
    DEAL_TOTAL,
    DECK,
    LAST_TRICK_BONUS,
    MODE_NAMES,
    POINTS,
    STRENGTH,
    SUIT_MASK,
    SUIT_NAMES_DE,
    SUITS,
)

MAX_PREDICTION = DEAL_TOTAL  # 152 card points + 5 for the last trick: a prediction is 0..157

__all__ = [
    "ACE", "DEAL_TOTAL", "DECK", "LAST_TRICK_BONUS", "MAX_PREDICTION", "MODE_NAMES", "POINTS", "STRENGTH",
    "SUITS", "SUIT_MASK", "SUIT_NAMES_DE",
]  # fmt: skip
