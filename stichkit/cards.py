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


# For each byte of a 64-bit mask, the indices its set bits stand for (bit_list's table).
_BYTE_BITS = tuple(tuple(tuple(o + i for i in range(8) if b >> i & 1) for b in range(256)) for o in range(0, 64, 8))


def bit_list(mask: int) -> list[int]:
    """`list(bits(mask))`, about twice as fast: a byte at a time, from a table (hot paths use it)."""
    if mask >> 64:
        return list(bits(mask))
    out: list[int] = []
    table = _BYTE_BITS
    k = 0
    while mask:
        b = mask & 255
        if b:
            out += table[k][b]
        mask >>= 8
        k += 1
    return out


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
