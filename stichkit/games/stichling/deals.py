"""The deals of a Stichling game: what a seed deals, and explicit deals written as hands.

A stored format: a record keeps only its seed and the decisions, so `deal_hands` must deal the
same for as long as records are replayed, on every platform. The golden files in tests/golden/
pin it; changing it is a new record version.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from typing import Any

from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError

from .cards import HAND_SIZE, StichlingDeck


@functools.lru_cache(maxsize=4096)  # a pure function; searches redeal the same seeds many times
def deal_hands(seed: int, number: int, deck: StichlingDeck) -> tuple[int, ...]:
    """Deal `number` (0-2) of the game with this seed, 12 cards each. A hash, not the Mersenne
    Twister: independent of play (undo and redo give the same deal) and of the platform.

    The deck's cards are ordered by one big-endian 32-bit key each, from SHAKE-128 of
    "stichling/<players>/<seed>/<number>" (ties in card order); seat 0 gets the first twelve,
    seat 1 the next twelve, and so on."""
    size = deck.size
    digest = hashlib.shake_128(b"stichling/%d/%d/%d" % (deck.players, seed, number)).digest(4 * size)
    keys = struct.unpack(f">{size}I", digest)
    order = sorted(range(size), key=keys.__getitem__)
    return tuple(sum(1 << c for c in order[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(deck.players))


def parse_deal(deal: Any, deck: StichlingDeck) -> tuple[int, ...]:
    """A deal `{"hands": [[card, ...] × players]}`: 12 distinct cards each, every card of the deck."""
    n = deck.players
    shape = f'a {n}-player Stichling deal is {{"hands": [{", ".join(["[12 cards]"] * n)}]}}'
    if not isinstance(deal, dict) or set(deal) != {"hands"}:
        raise DealError(shape)
    return parse_hands(
        deal["hands"],
        deck,
        players=n,
        hand_size=HAND_SIZE,
        what=f"a {n}-player Stichling deal",
        card_help=f"a card of the {n}-player deck (colours G Y P B, values 1-{deck.top})",
    )


def deal_json(hands: tuple[int, ...], deck: StichlingDeck) -> dict[str, Any]:
    """A deal as records and explicit deals write it: {"hands": [[card, ...] per seat]}."""
    return {"hands": [deck.notation(h) for h in hands]}
