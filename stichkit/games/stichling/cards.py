"""Stichling's cards and score tiles (Siegpunkte-Kärtchen).

Cards are 1-15 in four colours: G (green, grün), Y (yellow, gelb), P (purple, violett), B (blue,
blau). The deck depends on the number of players, always 12 cards each: 2 players 1-6, 3 players
1-9, 4 players 1-12, 5 players 1-15. Within one game a card's index is
`colour * top + value - 1`, so a hand is an int bitmask of 4 * top bits.
"""

from __future__ import annotations

from stichkit.cards import Deck

COLOURS = "GYPB"
COLOUR_NAMES = ("green", "yellow", "purple", "blue")
COLOUR_NAMES_DE = ("grün", "gelb", "violett", "blau")
HAND_SIZE = 12  # every player count: 12 rounds per deal
DEALS = 3
TOP_VALUE = {2: 6, 3: 9, 4: 12, 5: 15}  # highest value in the deck by number of players

# The three score tiles of each deal, smallest first: (1,2,3), (2,4,6), (3,6,9).
TILES = tuple(tuple(v * (deal + 1) for v in (1, 2, 3)) for deal in range(DEALS))

# The six ways to lay three tiles out left to right, as tile ranks (0 = smallest tile).
ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
ORDER_TEXTS = tuple("order:" + "".join(str(r + 1) for r in o) for o in ORDERS)


class StichlingDeck(Deck):
    """The deck for one player count: `colour[i]`, `value[i]` per card index, colour masks."""

    def __init__(self, players: int) -> None:
        top = TOP_VALUE[players]
        super().__init__([c + str(v) for c in COLOURS for v in range(1, top + 1)], COLOURS)
        self.players = players
        self.top = top
        self.colour: tuple[int, ...] = tuple(i // top for i in range(self.size))
        self.value: tuple[int, ...] = tuple(i % top + 1 for i in range(self.size))
        self.colour_mask: tuple[int, ...] = tuple(((1 << top) - 1) << (c * top) for c in range(4))


DECKS = {n: StichlingDeck(n) for n in TOP_VALUE}


def tile_value(deal: int, order: int, position: int) -> int:
    """The value of the tile laid at `position` (0 = leftmost) by tile order `order` in `deal`."""
    return TILES[deal][ORDERS[order][position]]


def position_after(taken: int) -> int:
    """The tile position face up after `taken` >= 1 tricks: 1st, 2nd, 3rd, then the 1st again."""
    return (taken - 1) % 3
