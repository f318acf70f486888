"""Duplicate: the same deals at every table of a round, scored against who held the same cards,
by the arena's own duplicate scoring (arena.duplicate.deal_means)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit.arena.duplicate import deal_means
from stichkit.arena.tournaments import Entrant, GamePlayed, Settings, plan_round, standings


def team_field(n: int) -> list[Entrant]:
    return [Entrant(f"t{i}", members=(f"t{i}a", f"t{i}b")) for i in range(n)]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.integers(1, 3), st.integers(0, 2**40), st.sampled_from(["jass", "differenzler"]))
def test_every_table_of_a_round_plays_the_same_deals(n: int, games: int, seed: int, game: str) -> None:
    entrants = team_field(n) if game == "jass" else [Entrant(f"p{i}") for i in range(n + 2)]
    s = Settings(game=game, format="duplicate", games_per_round=games, rounds=2)
    plan = plan_round(s, entrants, 1, seed=seed)
    seeds = {(g.deal): set() for t in plan.tables for g in t.games}
    for t in plan.tables:
        assert sorted({g.deal for g in t.games}) == list(range(games))
        for g in t.games:
            seeds[g.deal].add(g.seed)
    assert all(len(v) == 1 for v in seeds.values())  # one seed a deal: the same cards everywhere
    # and the same seed deals the same hands (every chance outcome comes from it)
    first = next(iter(seeds[0]))
    a = stichkit.load_game(game).new_state(seed=first).view(None)
    b = stichkit.load_game(game).new_state(seed=first).view(None)
    assert a == b


def test_a_team_plays_each_deal_with_both_sides_cards() -> None:
    s = Settings(game="jass", format="duplicate", games_per_round=2)
    plan = plan_round(s, team_field(2), 1, seed=1)
    (table,) = plan.tables
    assert [(g.deal, g.rotation) for g in table.games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    g0, g1 = table.games[0], table.games[1]
    assert set(g0.seats[0::2]) == set(g1.seats[1::2])  # the team of seats 0+2 holds 1+3's cards next
    assert g0.seed == g1.seed


def test_scored_against_the_field_by_the_arenas_deal_means() -> None:
    s = Settings(game="jass", format="duplicate", games_per_round=1)
    entrants = team_field(4)
    plan = plan_round(s, entrants, 1, seed=9)
    results = []
    for t in plan.tables:
        for g in t.games:
            results.append(GamePlayed.of(1, t.number, g, [900, 100, 900, 100], [0, 2]))
    rows = {r.entrant: r for r in standings(s, entrants, results, [plan])}
    # everyone held both sides' cards once: 500 a deal each, the field's mean, so 0 above it
    assert all(abs(r.score) < 1e-9 for r in rows.values())
    owner = {p: e.id for e in entrants for p in e.players}
    means = deal_means(([owner.get(p) if p else None for p in g.seats], g.scores) for g in results)
    assert means == {e.id: 500.0 for e in entrants}


def test_who_holds_the_same_cards_better_ranks_higher() -> None:
    s = Settings(game="differenzler", format="duplicate", games_per_round=1)
    entrants = [Entrant(f"p{i}") for i in range(8)]
    plan = plan_round(s, entrants, 1, seed=4)
    results = []
    for t in plan.tables:
        for g in t.games:  # p0 loses 10 points less than par wherever it sits
            scores = [-50 + (10 if p == "p0" else 0) for p in g.seats]
            results.append(GamePlayed.of(1, t.number, g, scores, [0]))
    rows = standings(s, entrants, results, [plan])
    assert rows[0].entrant == "p0"
    assert abs(sum(r.score for r in rows)) < 1e-9  # margins against the field add up to nothing
