"""The rules of Differenzler as functions. The card play is Jass's and comes from
stichkit.games.jass.rules (one rule, one place): which cards may be played (following, the Bour
exception, the undertrump ban), why a card may not, what a played card reveals. Differenzler's
own rules are the penalty of a deal and the order of the predictions."""

from __future__ import annotations

from stichkit.games.jass.rules import cannot_hold, legal_cards, next_reference, why_not

# Option `exact_bonus`: what a prediction hit exactly takes off the penalty (0: nothing).
EXACT_BONUSES = (0, 10)


def penalty(prediction: int, points: int, tricks: int, exact_bonus: int) -> int:
    """The penalty of one deal: the difference between the prediction and the points taken.

    With an exact bonus, a prediction hit exactly scores -exact_bonus instead of 0; a prediction
    of 0 counts as hit only by a player who took a trick (worth 0 points), as jasswelt.ch rules."""
    diff = abs(prediction - points)
    if diff == 0 and exact_bonus and (prediction > 0 or tricks > 0):
        return -exact_bonus
    return diff


def next_seat(seat: int) -> int:
    """Play and predictions go counter-clockwise, as in every Jass: seat 0, 3, 2, 1, 0, ..."""
    return (seat + 3) & 3


def forehand_of(deal: int) -> int:
    """Who predicts first and leads deal `deal` (0-based): seat 0, then the player to the right."""
    return -deal & 3


def dealer_of(deal: int) -> int:
    """Who deals, predicts last and plays last in the first trick: left of the forehand."""
    return (forehand_of(deal) + 1) & 3


__all__ = [
    "EXACT_BONUSES", "cannot_hold", "dealer_of", "forehand_of", "legal_cards", "next_reference", "next_seat",
    "penalty", "why_not",
]  # fmt: skip
