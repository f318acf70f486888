"""Duplicate: the same deals at every table of a round, scored against who held the same cards,
by the arena's own duplicate scoring (arena.duplicate.deal_means)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit.arena.duplicate import deal_means, rotations
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


def test_a_lone_table_plays_each_deal_with_both_sides_cards() -> None:
    """Two teams make one table: there the same-table rotation is the only way to hold both hands."""
    s = Settings(game="jass", format="duplicate", games_per_round=2)
    plan = plan_round(s, team_field(2), 1, seed=1)
    (table,) = plan.tables
    assert [(g.deal, g.rotation) for g in table.games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    g0, g1 = table.games[0], table.games[1]
    assert set(g0.seats[0::2]) == set(g1.seats[1::2])  # the team of seats 0+2 holds 1+3's cards next
    assert g0.seed == g1.seed


def test_with_two_tables_a_team_holds_at_its_table_what_another_team_held_at_the_other() -> None:
    s = Settings(game="jass", format="duplicate", games_per_round=2)
    entrants = team_field(4)
    plan = plan_round(s, entrants, 1, seed=1)
    one, two = plan.tables
    owner = {p: e.id for e in entrants for p in e.players}
    for deal in range(2):
        (g1,) = [g for g in one.games if g.deal == deal]  # each deal once at each table
        (g2,) = [g for g in two.games if g.deal == deal]
        assert g1.seed == g2.seed
        a, b = owner[g1.seats[0]], owner[g1.seats[1]]  # A holds seats 0+2 at table 1, B 1+3
        c, d = owner[g2.seats[1]], owner[g2.seats[0]]
        assert {a, b} == set(one.entrants) and {c, d} == set(two.entrants)
        assert g1.rotation != g2.rotation  # the deal is turned round from one table to the other
    # over the two deals each team holds both hands
    for table in plan.tables:
        assert {tuple(owner[p] for p in g.seats[0::2]) for g in table.games} == {
            tuple(owner[p] for p in g.seats[1::2]) for g in table.games
        }


def _entrants(game: str, n: int) -> list[Entrant]:
    return team_field(n) if game == "jass" else [Entrant(f"p{i}") for i in range(n)]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["jass", "differenzler", "stichwahl"]), st.integers(2, 14), st.integers(1, 4),
       st.integers(0, 2**40), st.data())  # fmt: skip
def test_duplicate_rounds_share_deals_spread_rotations_and_add_up(game: str, n: int, games: int, seed: int,
                                                                   data: st.DataObject) -> None:  # fmt: skip
    options = {"players": 2} if game == "stichwahl" else {}
    s = Settings(game=game, format="duplicate", games_per_round=games, rounds=1, options=options)
    entrants = _entrants(game, n)
    plan = plan_round(s, entrants, 1, seed=seed)
    seeds: dict[int, set[int]] = {}
    for t in plan.tables:
        for g in t.games:
            seeds.setdefault(g.deal, set()).add(g.seed)
    assert sorted(seeds) == list(range(games)) and all(len(v) == 1 for v in seeds.values())
    owner = {p: e.id for e in entrants for p in e.players}
    if len(plan.tables) >= 2:
        for t in plan.tables:  # nobody sees a deal's cards twice
            assert sorted(g.deal for g in t.games) == list(range(games))
        for deal in range(games):  # the rotations of a deal spread over the tables, evenly
            used = [g.rotation for t in plan.tables for g in t.games if g.deal == deal]
            first = plan.tables[0].games[0].seats
            turns = len(rotations(len(first), [owner.get(p) if p else None for p in first]))
            counts = [used.count(r) for r in range(turns)] if len(used) >= turns else [used.count(r) for r in used]
            assert max(counts) - min(counts) <= 1  # every rotation as often as the tables allow
    else:
        (t,) = plan.tables  # a lone table: every hand of each deal at the table
        for deal in range(games):
            held = {tuple(owner.get(p) if p else None for p in g.seats) for g in t.games if g.deal == deal}
            assert len(held) == len([g for g in t.games if g.deal == deal])
    results = []
    for t in plan.tables:
        for g in t.games:
            scores = data.draw(st.lists(st.integers(0, 300), min_size=len(g.seats), max_size=len(g.seats)))
            if game == "jass":
                scores[2], scores[3] = scores[0], scores[1]  # partners score alike
            results.append(GamePlayed.of(1, t.number, g, scores, [0]))
    rows = standings(s, entrants, results, [plan])
    assert abs(sum(r.score for r in rows)) < 1e-6  # margins against the field add up to nothing
    played = {e for t in plan.tables for e in t.entrants}
    assert {r.entrant for r in rows if r.games} == played


def test_scored_against_who_held_the_same_cards() -> None:
    s = Settings(game="jass", format="duplicate", games_per_round=1)
    entrants = team_field(4)
    plan = plan_round(s, entrants, 1, seed=9)
    results = []
    for t in plan.tables:
        for g in t.games:  # seats 0+2 hold the better cards: 900 against 100
            results.append(GamePlayed.of(1, t.number, g, [900, 100, 900, 100], [0, 2]))
    rows = {r.entrant: r for r in standings(s, entrants, results, [plan])}
    # who held the good cards made par with the other team who held them, and so did the others
    assert all(abs(r.score) < 1e-9 for r in rows.values())
    owner = {p: e.id for e in entrants for p in e.players}
    means = deal_means(([owner.get(p) if p else None for p in g.seats], g.scores) for g in results)
    assert sorted(means.values()) == [100.0, 100.0, 900.0, 900.0]
    # one team better than the other with the same cards: above the field by half the difference
    better = owner[results[0].seats[0]]
    results[0] = GamePlayed.of(1, 1, plan.tables[0].games[0], [940, 60, 940, 60], [0, 2])
    rows = {r.entrant: r for r in standings(s, entrants, results, [plan])}
    assert rows[better].score == 20.0 and rows[better].rank == 1
    assert abs(sum(r.score for r in rows.values())) < 1e-9


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
