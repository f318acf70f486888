"""Dealing unknown cards to players under constraints: the base of every `sample_hidden`.

Each card may go only to some players (known voids, shown cards), and each player needs a
fixed number of cards. We assign card by card in random order, only to players that keep the
rest feasible (Hall's condition over player subsets), so the sampler never fails or retries.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def deal_constrained(
    cards: Sequence[int],
    allowed: Sequence[int],
    need: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """Give each card to a player. `allowed[i]` is a bitmask of players that may hold `cards[i]`;
    `need[p]` is how many cards player p gets. Returns a card bitmask per player.

    Raises ValueError when no assignment exists (the constraints contradict each other)."""
    n = len(need)
    if sum(need) != len(cards):
        raise ValueError(f"{len(cards)} cards for {sum(need)} places")
    subsets = range(1, 1 << n)
    # count[S]: cards whose allowed set lies inside S; cap[S]: places of the players in S.
    count = [0] * (1 << n)
    for a in allowed:
        if a == 0:
            raise ValueError("a card that no player may hold")
        for s in subsets:
            if a & ~s == 0:
                count[s] += 1
    left = list(need)

    def cap(s: int) -> int:
        return sum(left[p] for p in range(n) if s >> p & 1)

    for s in subsets:
        if count[s] > cap(s):
            raise ValueError("the known facts leave no way to deal the hidden cards")
    hands = [0] * n
    order = list(range(len(cards)))
    rng.shuffle(order)
    # Most constrained cards first keeps the choices honest and the checks few.
    order.sort(key=lambda i: allowed[i].bit_count())
    for i in order:
        a = allowed[i]
        for s in subsets:
            if a & ~s == 0:
                count[s] -= 1
        options = []
        weights = []
        for p in range(n):
            if not (a >> p & 1) or left[p] == 0:
                continue
            bit = 1 << p
            ok = True
            for s in subsets:
                if s & bit and count[s] > cap(s) - 1:
                    ok = False
                    break
            if ok:
                options.append(p)
                weights.append(left[p])
        p = rng.choices(options, weights)[0] if len(options) > 1 else options[0]
        left[p] -= 1
        hands[p] |= 1 << cards[i]
    return hands
