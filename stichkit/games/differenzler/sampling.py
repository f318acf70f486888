"""`sample_hidden` for Differenzler: the other hands redealt at random, consistently with one
seat's view, and the others' hidden predictions made up for the new hands.

What the seat knows is kept: hand sizes, the voids everybody inferred from the cards played, the
turned-up trump card in the dealer's hand (until played), and the predictions it has seen (its
own, or all of them in the open game). A hidden prediction of another seat is replaced by the
rule of thumb's prediction for that seat's sampled hand (estimate.py): the real one never leaks
into a search. Later deals are reshuffled from the sampler's random source, so the seed never
leaks either.
"""

from __future__ import annotations

import random
from typing import TypeVar

from stichkit.cards import bits
from stichkit.core.sampling import deal_constrained

from .actions import PREDICT_ACTION
from .deals import Deal
from .estimate import rule_of_thumb
from .position import DifferenzlerFields

S = TypeVar("S", bound=DifferenzlerFields)


def sample_hidden(state: S, seat: int, rng: random.Random) -> S:
    """A state that `seat` cannot tell from `state` (see the module)."""
    new = state.clone()
    new._undo = []  # the old snapshots hold the real hands and predictions
    new._seed = rng.getrandbits(63)
    new._given = {k: v for k, v in state._given.items() if k < state._deal_no}
    others = [s for s in range(4) if s != seat]
    fixed = [0, 0, 0, 0]
    dealer, card = state._dealer, state._trump_card
    if card >= 0 and dealer != seat:
        fixed[dealer] = state._hands[dealer] & (1 << card)  # the turned-up card, not yet played
    unknown = 0
    for s in others:
        unknown |= state._hands[s] & ~fixed[s]
    cards = list(bits(unknown))
    need = [(state._hands[s] & ~fixed[s]).bit_count() for s in others]
    allowed = [sum(1 << i for i, s in enumerate(others) if not state._voids[s] >> c & 1) for c in cards]
    dealt = deal_constrained(cards, allowed, need, rng)
    hands = list(state._hands)
    for i, s in enumerate(others):
        hands[s] = dealt[i] | fixed[s]
    start = tuple(hands[s] | (state._start[s] & ~state._hands[s]) for s in range(4))
    new._hands = hands
    new._start = (start[0], start[1], start[2], start[3])
    log = new._log
    last_chance = max(i for i, e in enumerate(log) if not isinstance(e, int))
    log[last_chance] = ("chance", Deal(new._start, state._trump, card))
    if not state._open and state.current_player is not None:  # at the end all are revealed
        shift = state.SEAT_SHIFT
        for i in range(last_chance + 1, len(log)):
            e = log[i]
            assert isinstance(e, int)
            who, a = divmod(e, shift)
            if a >= PREDICT_ACTION and who != seat:
                guess = rule_of_thumb(new._start[who], state._trump)
                new._predictions[who] = guess
                log[i] = who * shift + PREDICT_ACTION + guess
    new._fixed = new._fixed._replace(start=new._start)
    new._legal = -1
    return new
