"""Swiss pairing: the documented rule, and against brute force on small fields."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from stichkit.arena.tournaments import Entrant, Settings, plan_round
from stichkit.arena.tournaments.swiss import BYE, pair, rematches


def matchings(nodes: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def cost(m: list[tuple[str, str]], points: dict[str, int], met: dict[frozenset[str], int], byes: dict[str, int]):
    low = min(points.values())
    repeats = sum(met.get(frozenset(p), 0) for p in m if BYE not in p)
    second_byes = sum(1 for a, b in m if BYE in (a, b) and byes.get(a if b == BYE else b, 0))
    squares = sum(
        (points[a] - low) ** 2 if b == BYE else (points[b] - low) ** 2 if a == BYE else (points[a] - points[b]) ** 2
        for a, b in m
    )
    return repeats, second_byes, squares


def test_first_round_pairs_top_half_against_bottom_half() -> None:
    ranked = [f"e{i}" for i in range(8)]
    pairs, bye = pair(ranked, dict.fromkeys(ranked, 0), {}, {})
    assert pairs == [("e0", "e4"), ("e1", "e5"), ("e2", "e6"), ("e3", "e7")]
    assert bye is None


def test_score_groups_pair_within_and_float_down() -> None:
    ranked = ["a", "b", "c", "d", "e", "f"]
    points = {"a": 4, "b": 4, "c": 4, "d": 2, "e": 2, "f": 0}
    pairs, _ = pair(ranked, points, {}, {})
    # one of the three leaders floats down to the 2-point group, and one of those to f
    assert len(pairs) == 3
    assert sum((points[x] - points[y]) ** 2 for x, y in pairs) == 8


def test_a_rematch_is_avoided_even_if_scores_are_farther_apart() -> None:
    ranked = ["a", "b", "c", "d"]
    points = {"a": 4, "b": 4, "c": 0, "d": 0}
    pairs, _ = pair(ranked, points, {frozenset("ab"): 1, frozenset("cd"): 1}, {})
    assert rematches(pairs, {frozenset("ab"): 1, frozenset("cd"): 1}) == 0


def test_the_bye_goes_to_the_lowest_who_has_had_none() -> None:
    ranked = ["a", "b", "c", "d", "e"]
    points = {"a": 4, "b": 2, "c": 2, "d": 0, "e": 0}
    _, bye = pair(ranked, points, {}, {"e": 1})
    assert bye == "d"
    _, bye = pair(ranked, points, {}, {})
    assert bye == "e"


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[str], dict[str, int], dict[frozenset[str], int], dict[str, int]]:
    n = draw(st.integers(2, 8))
    ranked = [f"e{i}" for i in range(n)]
    points = {e: draw(st.integers(0, 6)) for e in ranked}
    ranked.sort(key=lambda e: -points[e])
    met: dict[frozenset[str], int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            times = draw(st.integers(0, 2) if draw(st.booleans()) else st.just(0))
            if times:
                met[frozenset((ranked[i], ranked[j]))] = times
    byes = {e: draw(st.integers(0, 1)) for e in ranked}
    return ranked, points, met, byes


@settings(max_examples=150, deadline=None)
@given(fields())
def test_no_rematch_or_second_bye_while_avoidable_as_brute_force_finds(field) -> None:  # type: ignore[no-untyped-def]
    ranked, points, met, byes = field
    pairs, bye = pair(ranked, points, met, byes)
    seated = [e for p in pairs for e in p] + ([bye] if bye else [])
    assert sorted(seated) == sorted(ranked)  # everyone once
    nodes = ranked + ([BYE] if len(ranked) % 2 else [])
    best = min(cost(m, points, met, byes) for m in matchings(nodes))
    got = cost([*pairs, *([(bye, BYE)] if bye else [])], points, met, byes)
    assert got == best  # rematches least, then second byes, then score differences


def test_a_whole_swiss_never_rematches_while_rounds_allow() -> None:
    """Eight entrants, seven rounds (a round robin's worth): nobody meets anyone twice."""
    entrants = [Entrant(f"p{i}") for i in range(8)]
    s = Settings(game="stichwahl", format="swiss", options={"players": 2}, rounds=7)
    from stichkit.arena.tournaments.plans import GamePlayed

    plans, results = [], []
    for r in range(1, 8):
        plan = plan_round(s, entrants, r, seed=3, plans=plans, results=results)
        plans.append(plan)
        for t in plan.tables:  # the first seat always wins: scores spread out
            for g in t.games:
                results.append(GamePlayed.of(r, t.number, g, [30, 10], [0]))
    pairs = [frozenset(t.entrants) for p in plans for t in p.tables]
    assert len(pairs) == len(set(pairs)) == 28
