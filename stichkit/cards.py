"""Card sets as int bitmasks (bit i = card i), and card notation per deck.

Bitmasks make the hot path cheap: a hand is one int, "has a card of this suit" is one `&`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence


def bits(mask: int) -> Iterator[int]:
    """The card indices in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


class Deck:
    """The cards of one game: index <-> notation, and suit masks for suited decks."""

    def __init__(self, names: Sequence[str], suits: str = "", ranks: Sequence[str] = ()) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self.size = len(self.names)
        self.full = (1 << self.size) - 1
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self.index.update({n.lower(): i for i, n in enumerate(self.names)})
        self.suits = suits
        self.ranks = tuple(ranks)

    def parse(self, text: str) -> int:
        """The index of the card written `text` (any letter case). KeyError if there is none."""
        key = text.strip()
        if key in self.index:
            return self.index[key]
        return self.index[key.lower()]

    def parse_set(self, texts: Iterable[str]) -> int:
        m = 0
        for t in texts:
            m |= 1 << self.parse(t)
        return m

    def notation(self, mask: int) -> list[str]:
        return [self.names[i] for i in bits(mask)]


def suited_deck(suits: str, ranks: Sequence[str]) -> Deck:
    """A deck with card index = suit * len(ranks) + rank, named suit letter + rank."""
    return Deck([s + r for s in suits for r in ranks], suits, ranks)
