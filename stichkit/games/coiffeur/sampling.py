"""`sample_hidden` for Coiffeur: the other hands redealt at random, consistently with one seat's
view.

What the seat knows is kept: hand sizes and the voids everybody inferred from the cards played.
The mode, the push and the sheets are public and stay. Later deals are reshuffled from the
sampler's random source, so the seed never leaks.
"""

from __future__ import annotations

import random
from typing import TypeVar

from stichkit.cards import bits
from stichkit.core.sampling import deal_constrained

from .position import CoiffeurFields

S = TypeVar("S", bound=CoiffeurFields)


def sample_hidden(state: S, seat: int, rng: random.Random) -> S:
    """A state that `seat` cannot tell from `state` (see the module)."""
    new = state.clone()
    new._undo = []  # the old snapshots hold the real hands
    new._seed = rng.getrandbits(63)
    new._given = {k: v for k, v in state._given.items() if k < state._deal_no}
    others = [s for s in range(4) if s != seat]
    unknown = 0
    for s in others:
        unknown |= state._hands[s]
    cards = list(bits(unknown))
    need = [state._hands[s].bit_count() for s in others]
    allowed = [sum(1 << i for i, s in enumerate(others) if not state._voids[s] >> c & 1) for c in cards]
    dealt = deal_constrained(cards, allowed, need, rng)
    hands = list(state._hands)
    for i, s in enumerate(others):
        hands[s] = dealt[i]
    start = tuple(hands[s] | (state._start[s] & ~state._hands[s]) for s in range(4))
    new._hands = hands
    new._start = (start[0], start[1], start[2], start[3])
    log = new._log
    last_chance = max(i for i, e in enumerate(log) if not isinstance(e, int))
    log[last_chance] = ("chance", new._start)
    new._fixed = new._fixed._replace(start=new._start)
    new._legal = -1
    return new
