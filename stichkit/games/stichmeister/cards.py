"""The 60 trick cards: four suits (Fächer, Münze, Koi, Torii) of values 1-15; the 13s are the Samurai.

Card index = suit * 15 + value - 1, written suit letter + value: `F1` ... `T15`. Card sets are int
bitmasks (bit i = card i). With 3 players the 1s, 10s and 13s leave the deck (48 cards).
"""

from __future__ import annotations

from stichkit.cards import Deck

SUITS = "FMKT"
SUIT_NAMES = ("Fächer", "Münze", "Koi", "Torii")
VALUES = tuple(range(1, 16))
DECK = Deck([s + str(v) for s in SUITS for v in VALUES], SUITS, tuple(str(v) for v in VALUES))
NUM_CARDS = 60
ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASK = tuple(((1 << 15) - 1) << (15 * s) for s in range(4))
VALUE_MASK = {v: sum(1 << (s * 15 + v - 1) for s in range(4)) for v in VALUES}
THREE_PLAYER_REMOVED = (1, 10, 13)


def suit_of(card: int) -> int:
    return card // 15


def value_of(card: int) -> int:
    return card % 15 + 1


def deck_mask(players: int) -> int:
    """The cards in play: all 60, or 48 with 3 players (no 1s, 10s, 13s)."""
    if players == 3:
        return ALL_CARDS & ~(VALUE_MASK[1] | VALUE_MASK[10] | VALUE_MASK[13])
    return ALL_CARDS


def hand_size(players: int) -> int:
    return deck_mask(players).bit_count() // players


def names(mask: int) -> list[str]:
    return DECK.notation(mask)
