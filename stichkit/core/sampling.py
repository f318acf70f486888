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
    full = 1 << n
    # count[S]: cards whose allowed set lies inside S; cap[S]: places left to the players in S.
    # Both are kept up to date as cards are dealt, over precomputed lists of the subsets S.
    supersets: dict[int, list[int]] = {}  # allowed mask -> the subsets S that contain it
    count = [0] * full
    for a in allowed:
        if a == 0:
            raise ValueError("a card that no player may hold")
        sup = supersets.get(a)
        if sup is None:
            sup = supersets[a] = [s for s in range(1, full) if a & ~s == 0]
        for s in sup:
            count[s] += 1
    cap = [sum(need[p] for p in range(n) if s >> p & 1) for s in range(full)]
    if any(count[s] > cap[s] for s in range(1, full)):
        raise ValueError("the known facts leave no way to deal the hidden cards")
    containing = [[s for s in range(1, full) if s >> p & 1] for p in range(n)]
    left = list(need)
    hands = [0] * n
    order = list(range(len(cards)))
    rng.shuffle(order)
    # Most constrained cards first keeps the choices honest and the checks few.
    order.sort(key=lambda i: allowed[i].bit_count())
    for i in order:
        a = allowed[i]
        for s in supersets[a]:
            count[s] -= 1
        options = []
        weights = []
        for p in range(n):
            if not (a >> p & 1) or left[p] == 0:
                continue
            # p may take the card if every subset with p still has room for its cards after it.
            for s in containing[p]:
                if count[s] > cap[s] - 1:
                    break
            else:
                options.append(p)
                weights.append(left[p])
        p = rng.choices(options, weights)[0] if len(options) > 1 else options[0]
        left[p] -= 1
        for s in containing[p]:
            cap[s] -= 1
        hands[p] |= 1 << cards[i]
    return hands
