"""Swiss pairing: each round, two sides (players, or fixed Jass teams) of similar results who
have not met before.

The rule (docs/tournaments.md), in the order it gives way:
1. Nobody meets an opponent a second time while a pairing of the whole field avoids it (and
   fewer repeats beat more).
2. With an odd field one entrant has a bye; nobody has a second bye while it can be avoided.
3. The sides of a table have scores as close as possible (the sum of the squared differences is
   least): a score group is paired within itself, and who is left over floats down to the next.
   The bye goes to the lowest score.
4. Within a score group, top half against bottom half (Dutch): the first against the first of
   the lower half, and so on; the bye to the lowest ranked.
This is one maximum-weight perfect matching (Edmonds' blossom algorithm, networkx) whose weights
rank the four criteria one above the other, so each is optimal given the ones above it: "no
rematch while it can be avoided" holds for the whole field, not just greedily.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

try:
    import networkx as nx
except ImportError:  # pragma: no cover - the arena and web extras bring it
    nx = None

NEED_NETWORKX = "Swiss pairing needs networkx: install the arena or web extra  (pip install 'stichkit[arena]')"

BYE = "\0bye"  # the bye as a node: an entrant matched with it sits out


def pair(
    ranked: Sequence[str],
    points: Mapping[str, int],
    met: Mapping[frozenset[str], int],
    byes: Mapping[str, int],
) -> tuple[list[tuple[str, str]], str | None]:
    """The pairs of a round, best pair first, and the entrant with the bye (None for an even field).

    `ranked`: the entrants in the order of the standings (best first); `points`: their match
    points; `met`: how often two entrants have met; `byes`: how many byes each has had."""
    if nx is None:
        raise ImportError(NEED_NETWORKX)
    n = len(ranked)
    if len(set(ranked)) != n:
        raise ValueError("an entrant is ranked twice")
    if n < 2:
        return [], (ranked[0] if ranked else None)
    nodes = [*ranked, BYE] if n % 2 else list(ranked)
    m = len(nodes) // 2  # edges of a perfect matching
    rank = {e: i for i, e in enumerate(ranked)}
    group: dict[int, list[str]] = {}
    for e in ranked:
        group.setdefault(points.get(e, 0), []).append(e)
    pos = {e: (i, len(g)) for g in group.values() for i, e in enumerate(g)}
    lowest = min(points.get(e, 0) for e in ranked)
    spread = max(points.get(e, 0) for e in ranked) - lowest
    most_met = max(met.values(), default=0)

    big0 = m * (n + 1) + 1  # tier 4 (Dutch) sums below this
    d = spread * spread + 1
    big1 = big0  # tier 3 (score difference), one step above tier 4
    big2 = big1 * (m * d + 1)  # tier 2 (repeated bye)
    big3 = big2 * (m + 1)  # tier 1 (rematches)

    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            a, b = nodes[i], nodes[j]
            if b == BYE:
                repeats = 0
                fresh_bye = 0 if byes.get(a, 0) else 1
                diff = points.get(a, 0) - lowest
                dutch = n - 1 - rank[a]  # 0 for the lowest ranked
            else:
                repeats = met.get(frozenset((a, b)), 0)
                fresh_bye = 1
                diff = abs(points.get(a, 0) - points.get(b, 0))
                if diff == 0:
                    (pa, size), (pb, _) = pos[a], pos[b]
                    dutch = abs(abs(pa - pb) - size // 2)
                else:
                    dutch = 0
            weight = (most_met + 1 - repeats) * big3 + fresh_bye * big2 + (d - diff * diff) * big1 + (n + 1 - dutch)
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[str, str]] = []
    bye = None
    for i, j in matching:
        a, b = sorted((nodes[i], nodes[j]), key=lambda e: rank.get(e, n))
        if b == BYE:
            bye = a
        else:
            pairs.append((a, b))
    if len(pairs) * 2 + (bye is not None) != n:
        raise AssertionError("the matching left an entrant out")  # maxcardinality on a complete graph
    pairs.sort(key=lambda p: rank[p[0]])
    return pairs, bye


def rematches(pairs: Sequence[tuple[str, str]], met: Mapping[frozenset[str], int]) -> int:
    """How many of `pairs` have met before (the quantity the pairing makes least)."""
    return sum(met.get(frozenset(p), 0) for p in pairs)
