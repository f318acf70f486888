"""`sample_hidden` for Stichwahl: a state one seat cannot tell from the real one."""

from __future__ import annotations

import random
from typing import TypeVar

from stichkit.cards import bits
from stichkit.core.sampling import deal_constrained

from .actions import BONUS_ACT, PICK
from .cards import FAMILY_OF
from .deals import Deal
from .position import StichwahlFields

S = TypeVar("S", bound=StichwahlFields)


def sample_hidden(st: S, seat: int, rng: random.Random) -> S:
    """A state `seat` cannot tell from this one: the other hands, their first bonus cards not yet
    turned up, and the draw pile (also the cards already drawn from it face down) redealt at
    random, keeping hand sizes and the families each player has shown void; the draw piles of
    earlier deals reshuffled (their hands were all played face up, their piles never seen);
    later deals reshuffled from `rng`. A function of what `seat` knows and of `rng` only."""
    n = st._n
    new = st.clone()
    new._undo = []  # the old snapshots would hold the real hands
    new._legal = None  # and the legal list the real hand
    new._seed = rng.getrandbits(63)
    others = [s for s in range(n) if s != seat]
    pending = [st._picks[s] if st._phase == PICK and st._picks[s] >= 0 else -1 for s in others]
    pools = [st._hands[s] | (1 << pending[i] if pending[i] >= 0 else 0) for i, s in enumerate(others)]
    pile = st._deal.pile
    unknown = sum(pools) | sum(1 << c for c in pile)
    cards = list(bits(unknown))
    need = [p.bit_count() for p in pools] + [len(pile)]
    pile_bit = 1 << len(others)
    allowed = []
    for c in cards:
        fam = FAMILY_OF[c]
        a = pile_bit
        for i, s in enumerate(others):
            if fam < 0 or not st._voids[s] >> fam & 1:
                a |= 1 << i
        allowed.append(a)
    dealt = deal_constrained(cards, allowed, need, rng)
    start = list(st._deal.hands)
    shift = st.SEAT_SHIFT
    # The log since this deal's chance entry: only first-bonus picks while they are hidden.
    at = max(i for i, e in enumerate(new._log) if not isinstance(e, int))
    for i, s in enumerate(others):
        pool = dealt[i]
        if pending[i] >= 0:
            pick = rng.choice(list(bits(pool)))
            pool &= ~(1 << pick)
            new._picks[s] = pick
            for k in range(at + 1, len(new._log)):
                e = new._log[k]
                if isinstance(e, int) and e // shift == s:
                    new._log[k] = s * shift + BONUS_ACT + pick
        public = st._deal.hands[s] & ~st._hands[s] & ~(1 << pending[i] if pending[i] >= 0 else 0)
        new._hands[s] = pool
        start[s] = pool | public | (1 << new._picks[s] if pending[i] >= 0 else 0)
    new_pile = list(bits(dealt[-1]))
    rng.shuffle(new_pile)
    new._deal = Deal(st._deal.draws, tuple(start), tuple(new_pile))
    new._log[at] = ("chance", new._deal)
    # Earlier deals: every hand card was played face up (first bonus + 8 tricks = 9), so the
    # hands are public, and so is the set of the pile (the rest of the deck); its order, i.e.
    # which cards each winner drew face down, nobody saw: shuffled anew, from the sorted set.
    given: dict[int, Deal] = {}
    k = 0
    for i in range(at):
        e = new._log[i]
        if isinstance(e, int):
            continue
        old = e[1]
        order = sorted(old.pile)
        rng.shuffle(order)
        given[k] = Deal(old.draws, old.hands, tuple(order))
        new._log[i] = ("chance", given[k])
        k += 1
    given[st._deal_no] = new._deal
    new._given = given
    return new
