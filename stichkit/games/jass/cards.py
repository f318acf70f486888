"""The Jass deck and its orders and point tables, one table per trump mode.

Card index = suit * 9 + rank, suits D H S C (Käse, Zug, Schokolade, Berg), ranks 6 7 8 9 10 J Q K A.
Trump modes 0-3 are the suits; OBE (Obenabe) and UNE (Undenufe) have no trump suit.
"""

from __future__ import annotations

from stichkit.cards import suited_deck

SUITS = "DHSC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = suited_deck(SUITS, RANKS)

SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)
OBE, UNE = 4, 5
MODES = ("D", "H", "S", "C", "obe", "une")
MODE_NAMES = ("Käse (D)", "Zug (H)", "Schokolade (S)", "Berg (C)", "Obenabe", "Undenufe")
SUIT_NAMES_DE = ("Käse", "Zug", "Schokolade", "Berg")

SUIT_MASK = tuple(0x1FF << (9 * s) for s in range(4))
ALL_CARDS = (1 << 36) - 1


def suit_of(card: int) -> int:
    return card // 9


def rank_of(card: int) -> int:
    return card % 9


def bour(trump: int) -> int:
    """The trump Jack."""
    return trump * 9 + JACK


def nell(trump: int) -> int:
    return trump * 9 + NINE


# Trump order, low to high: 6 7 8 10 Q K A 9 J, i.e. J (Bour) > 9 (Nell) > A > K > Q > 10 > 8 > 7 > 6.
TRUMP_RANK_ORDER = (SIX, SEVEN, EIGHT, TEN, QUEEN, KING, ACE, NINE, JACK)
TRUMP_ORDER = tuple(TRUMP_RANK_ORDER.index(r) for r in range(9))  # rank -> height among trumps


def _plain_height(mode: int, rank: int) -> int:
    return 8 - rank if mode == UNE else rank


def _strength_table(mode: int) -> tuple[tuple[int, ...], ...]:
    """STRENGTH[mode][led_suit][card]: who wins a trick; trumps beat everything, then the led suit."""
    out = []
    for led in range(4):
        row = []
        for card in range(36):
            s, r = divmod(card, 9)
            if mode < 4 and s == mode:
                row.append(100 + TRUMP_ORDER[r])
            elif s == led:
                row.append(10 + _plain_height(mode, r))
            else:
                row.append(0)
        out.append(tuple(row))
    return tuple(out)


STRENGTH = tuple(_strength_table(m) for m in range(6))

_PLAIN_POINTS = (0, 0, 0, 0, 10, 2, 3, 4, 11)


def _points_table(mode: int) -> tuple[int, ...]:
    pts = []
    for card in range(36):
        s, r = divmod(card, 9)
        p = _PLAIN_POINTS[r]
        if mode < 4 and s == mode:
            p = {JACK: 20, NINE: 14}.get(r, p)
        elif mode == OBE and r == EIGHT:
            p = 8
        elif mode == UNE:
            p = {SIX: 11, EIGHT: 8, ACE: 0}.get(r, p)
        pts.append(p)
    return tuple(pts)


POINTS = tuple(_points_table(m) for m in range(6))
LAST_TRICK_BONUS = 5
MATCH_BONUS = 100
DEAL_TOTAL = 157

# Stöck: the trump King and Queen, per trump suit.
STOECK_PAIR = tuple((1 << (t * 9 + KING)) | (1 << (t * 9 + QUEEN)) for t in range(4))
STOECK_POINTS = 20

# Trumps strictly above a trump card: for the undertrump ban, one mask lookup per trick.
TRUMPS_ABOVE = tuple(
    tuple(
        sum(1 << (t * 9 + r2) for r2 in range(9) if TRUMP_ORDER[r2] > TRUMP_ORDER[c - t * 9]) if c // 9 == t else 0
        for c in range(36)
    )
    for t in range(4)
)
