"""Tables of three or more players each for themselves (Differenzler and the free-for-all games):
who sits with whom in a round.

Round 1 is a draw from the tournament's seed. Later rounds seat the standings in order, the
first k at table 1 and so on, so that players of similar results meet; then single swaps of two
players between tables are made while they lower the number of repeated meetings (pairs of
players who sat at a table before), and, at equal repeats, the spread of scores within tables.
A field that does not fill its tables leaves seats to the fill bot (None), spread over the last
tables, at most one bot a table while the field allows it (9 players: three tables of 3 + 1).
Unlike Swiss pairing this is a local search: it finds a seating no single swap improves, which
is not always the fewest repeats possible (that problem is hard in general).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence


def seat_tables(
    ranked: Sequence[str],
    seats: int,
    points: Mapping[str, float],
    met: Mapping[frozenset[str], int],
    *,
    draw_seed: int | None = None,
) -> list[list[str | None]]:
    """Tables of `seats` places for `ranked` (best first); with `draw_seed`, a draw instead."""
    order = list(ranked)
    if draw_seed is not None:
        order.sort()
        random.Random(f"draw:{draw_seed}").shuffle(order)
    count = max(1, -(-len(order) // seats))
    base, extra = divmod(len(order), count)  # people per table: the first `extra` tables one more
    tables: list[list[str | None]] = []
    start = 0
    for k in range(count):
        size = base + (k < extra)
        tables.append([*order[start : start + size], *([None] * (seats - size))])
        start += size
    if draw_seed is not None or not met:
        return tables

    def cost(table: Sequence[str | None]) -> tuple[int, float]:
        people = [p for p in table if p is not None]
        repeats = sum(met.get(frozenset((a, b)), 0) for i, a in enumerate(people) for b in people[i + 1 :])
        values = [points.get(p, 0) for p in people]
        return repeats, (max(values) - min(values)) if values else 0

    def add(x: tuple[int, float], y: tuple[int, float]) -> tuple[int, float]:
        return x[0] + y[0], x[1] + y[1]

    improved = True
    while improved:
        improved = False
        for t in range(count):
            for u in range(t + 1, count):
                for i in range(seats):
                    for j in range(seats):
                        a, b = tables[t][i], tables[u][j]
                        if a is None or b is None:
                            continue  # the fill bots keep their seats
                        before = add(cost(tables[t]), cost(tables[u]))
                        tables[t][i], tables[u][j] = b, a
                        if add(cost(tables[t]), cost(tables[u])) < before:
                            improved = True
                        else:
                            tables[t][i], tables[u][j] = a, b
    rank = {e: k for k, e in enumerate(ranked)}
    for table in tables:
        table.sort(key=lambda p: rank.get(p, len(rank)) if p is not None else len(rank))
    return tables
