"""`sample_hidden` for Stichling: a state one seat cannot tell from the real one."""

from __future__ import annotations

import random
from typing import TypeVar

from .actions import OVER
from .cards import ORDERS
from .position import StichlingFields

S = TypeVar("S", bound=StichlingFields)

# FITS[real][known]: the tile orders agreeing with `real` on its first `known` positions.
FITS = tuple(
    tuple(tuple(o for o in range(6) if ORDERS[o][:known] == ORDERS[real][:known]) for known in range(4))
    for real in range(6)
)


def sample_hidden(st: S, seat: int, rng: random.Random) -> S:
    """A state `seat` cannot tell from this one: the other hands of this deal redealt at random
    (Stichling reveals no voids: a throw-off is judged per card), every hidden tile order
    redrawn among those that agree with the tiles already turned up (this deal and earlier
    ones), and the deals to come reshuffled from `rng`."""
    new = st.clone()
    new._undo = []  # the old snapshots hold the real hands and orders
    new._seed = rng.getrandbits(63)
    new._given = {k: v for k, v in st._given.items() if k < st._deal_no}
    n = st._n
    real = st._hands
    others = [s for s in range(n) if s != seat]
    unseen = 0
    for s in others:
        unseen |= real[s]
    # In card order: the sample may depend on the view and rng only.
    pool = [c for c, b in enumerate(bin(unseen)[:1:-1]) if b == "1"]
    rng.shuffle(pool)
    hands = list(real)
    at = 0
    for s in others:
        k = real[s].bit_count()
        hands[s] = sum(1 << c for c in pool[at : at + k])
        at += k
    start = tuple(hands[s] | (st._start[s] & ~real[s]) for s in range(n))
    new._hands = hands
    new._start = start
    if st._phase != OVER:
        new._given[st._deal_no] = start
    # Rewrite the log: this deal's chance entry and every hidden tile order of the others. Each
    # deal logs its chance entry, then the n tile orders, then 12 rounds of n cards.
    shift = st.SEAT_SHIFT
    base = st._order_base
    log = new._log
    size = len(log)
    summaries = st._summaries
    for deal in range(st._deal_no + 1):
        at = deal * (1 + 13 * n)
        current = deal == st._deal_no
        if current:
            log[at] = ("chance", start)
        taken = summaries[deal].taken if deal < len(summaries) else st._taken
        for i in range(at + 1, min(at + 1 + n, size)):
            e: int = log[i]  # type: ignore[assignment]  # a tile order: a decision
            s = e // shift
            if s == seat:
                continue
            fits = FITS[e - s * shift - base][min(taken[s], 3)]
            order = fits[rng.randrange(len(fits))]
            log[i] = s * shift + base + order
            if current:
                new._orders[s] = order
    return new
