"""The deals of a Jass game: what a seed deals, and explicit deals written as hands.

A stored format: a record keeps only its seed and the decisions, so `deal_hands(seed, number)`
must deal the same hands for as long as records are replayed, on every platform. The golden
files in tests/golden/ pin it; changing it is a new record version. The C core
(stichkit.native) deals with the same hash.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any

from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError

from .cards import DECK

Hands = tuple[int, int, int, int]

START_CARD = DECK.parse("D7")  # its holder chooses trump in the first deal (option first_forehand)

_SHUFFLE_KEYS = struct.Struct(">36I").unpack
_BIT = tuple(1 << c for c in range(36))


def deal_hands(seed: int, number: int) -> Hands:
    """Deal `number` of the game with this seed: independent of what was played before, so undo
    and redo give the same deal, and the same on every platform (a hash, not the Mersenne Twister).

    The 36 cards are ordered by 36 big-endian 32-bit keys, the first 144 bytes of SHAKE-128 of
    "jass/<seed>/<number>" (decimal, a seed may be negative); seat 0 gets the first nine (ties in deck order), seat 1
    the next nine, and so on."""
    keys = _SHUFFLE_KEYS(hashlib.shake_128(b"jass/%d/%d" % (seed, number)).digest(144))
    order = sorted(range(36), key=keys.__getitem__)
    bit = _BIT.__getitem__
    return (
        sum(map(bit, order[0:9])),
        sum(map(bit, order[9:18])),
        sum(map(bit, order[18:27])),
        sum(map(bit, order[27:36])),
    )


def parse_deal(deal: Any) -> Hands:
    """A deal `{"hands": [[card, ...] x 4]}`: four hands of nine distinct cards, all 36 used."""
    if not isinstance(deal, dict) or set(deal) != {"hands"}:
        raise DealError('a Jass deal is {"hands": [[9 cards], [9 cards], [9 cards], [9 cards]]}')
    m = parse_hands(
        deal["hands"],
        DECK,
        players=4,
        hand_size=9,
        what="a Jass deal",
        card_help="a Jass card (suits D H S C, ranks 6-10 J Q K A)",
    )
    return (m[0], m[1], m[2], m[3])


def deal_json(hands: Hands) -> dict[str, Any]:
    """A deal as records and explicit deals write it: {"hands": [[card, ...] x 4]}."""
    return {"hands": [DECK.notation(h) for h in hands]}
