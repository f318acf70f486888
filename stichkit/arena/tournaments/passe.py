"""Schieber "Passe" with rotating partners, as clubs play it: each player partners every other
player once, and their own score is their team's points over the games played together.

The partner schedule is the circle method (a round-robin): for N players (N even) there are
N - 1 rounds, and in each every player has a different partner, so after N - 1 rounds each pair
has been partners exactly once. An odd field gets a phantom player: whoever draws the phantom
partners the fill bot that round (N rounds). Partnerships meet at tables of two; which two is a
matching that makes repeated meetings of the same players fewest. When the partnerships of a
round are odd in number (N = 6, 10, ...), the last partnership plays against two fill bots.
After the schedule is played through it starts again: partners then meet a second time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .swiss import NEED_NETWORKX

try:
    import networkx as nx
except ImportError:  # pragma: no cover - the arena and web extras bring it
    nx = None


def partner_rounds(players: int) -> int:
    """The rounds in which every pair of `players` partners once: N - 1, or N for odd N."""
    return players - 1 if players % 2 == 0 else players


def partners(order: Sequence[str | None], round_index: int) -> list[tuple[str | None, str | None]]:
    """The partnerships of round `round_index` (from 0) of the circle over `order` (None: the
    phantom of an odd field). Player 0 stays put; the others turn one place a round."""
    ring: list[str | None] = list(order)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    if n < 2:
        return []
    r = round_index % (n - 1)
    rest = ring[1:]
    turned = rest[r:] + rest[:r]
    circle = [ring[0], *turned]
    return [(circle[k], circle[n - 1 - k]) for k in range(n // 2)]


def draw_order(players: Sequence[str], seed: int) -> list[str]:
    """The players' places in the circle, drawn once for the tournament from its seed."""
    order = sorted(players)
    random.Random(f"passe:{seed}").shuffle(order)
    return order


def tables(
    pairs: Sequence[tuple[str | None, str | None]], met: Mapping[frozenset[str], int]
) -> list[tuple[tuple[str | None, str | None], tuple[str | None, str | None]]]:
    """Partnerships grouped two by two at tables, fewest repeated meetings first (a matching);
    an odd one out plays against (None, None), the fill bots."""
    if nx is None:
        raise ImportError(NEED_NETWORKX)
    items = list(pairs)
    if len(items) % 2:
        items.append((None, None))
    most = max(met.values(), default=0)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(items)))
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            repeats = sum(met.get(frozenset((a, b)), 0) for a in items[i] for b in items[j] if a and b)
            graph.add_edge(i, j, weight=4 * (most + 1) - repeats)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    out = [(items[min(i, j)], items[max(i, j)]) for i, j in matching]
    out.sort(key=lambda t: items.index(t[0]))
    return out
