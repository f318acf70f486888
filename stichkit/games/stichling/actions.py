"""The Stichling action table, with the phases its actions belong to.

Ids: card x target, card-major (`<card>>1` .. `<card>>4` onto a trick place, `<card>>new` onto
the lowest free place), five per card of the deck for that many players (phase PLAY); then the
six orders of the three score tiles (phase ORDER).
"""

from __future__ import annotations

from .cards import ORDER_TEXTS, StichlingDeck

# The phases of a deal: every player lays out their tiles, then the cards are played.
ORDER, PLAY, OVER = range(3)
PHASE_NAMES = ("order", "play", "over")
TARGETS = 5  # places 1-4 and "new"


def action_texts(deck: StichlingDeck) -> list[str]:
    """The fixed action table: card x (place 1-4, new), card-major, then the six tile orders."""
    cards = [f"{name}>{t}" for name in deck.names for t in ("1", "2", "3", "4", "new")]
    return [*cards, *ORDER_TEXTS]
