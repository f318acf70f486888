"""Passe with rotating partners: every pair partners once, the individual score is the team's."""

from __future__ import annotations

import pytest

from stichkit.arena.tournaments import Entrant, GamePlayed, Settings, plan_round, standings
from stichkit.arena.tournaments.passe import partner_rounds, partners


def partnerships(plan) -> list[frozenset[str]]:  # type: ignore[no-untyped-def]
    out = []
    for t in plan.tables:
        seats = t.games[0].seats
        for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
            if a is not None and b is not None:
                out.append(frozenset((a, b)))
    return out


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 12])
def test_every_pair_partners_exactly_once_over_the_schedule(n: int) -> None:
    entrants = [Entrant(f"p{i}") for i in range(n)]
    rounds = partner_rounds(n)
    s = Settings(game="jass", format="passe", rounds=rounds)
    plans = []
    for r in range(1, rounds + 1):
        plans.append(plan_round(s, entrants, r, seed=11, plans=plans))
    together = [pair for p in plans for pair in partnerships(p)]
    assert len(together) == len(set(together)) == n * (n - 1) // 2
    for plan in plans:  # each player sits once a round, at a table of four seats
        seated = [p for t in plan.tables for p in t.games[0].seats if p is not None]
        assert sorted(seated) == sorted(e.id for e in entrants)
        assert all(len(t.games[0].seats) == 4 for t in plan.tables)


def test_odd_fields_partner_the_fill_bot_in_turn() -> None:
    entrants = [Entrant(f"p{i}") for i in range(5)]
    s = Settings(game="jass", format="passe", rounds=5, fill_bot="random")
    plans = []
    alone = []
    for r in range(1, 6):
        plan = plan_round(s, entrants, r, seed=2, plans=plans)
        plans.append(plan)
        for t in plan.tables:
            seats = t.games[0].seats
            for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
                if (a is None) != (b is None):
                    alone.append(a or b)
    assert sorted(alone) == [f"p{i}" for i in range(5)]  # each once


def test_the_circle_turns_round_a_fixed_player() -> None:
    assert partners(["a", "b", "c", "d"], 0) == [("a", "d"), ("b", "c")]
    assert partners(["a", "b", "c", "d"], 1) == [("a", "b"), ("c", "d")]
    assert partners(["a", "b", "c", "d"], 2) == [("a", "c"), ("d", "b")]
    assert partners(["a", "b", "c", "d"], 3) == partners(["a", "b", "c", "d"], 0)  # then it starts again


def test_the_individual_score_is_the_teams_points_over_the_games_together() -> None:
    entrants = [Entrant(x) for x in "abcd"]
    s = Settings(game="jass", format="passe", rounds=3, games_per_round=2)
    plan = plan_round(s, entrants, 1, seed=5)
    table = plan.tables[0]
    p0, p1, p2, p3 = table.games[0].seats
    results = []
    for g in table.games:  # p0 and p2 make 600 in every game, wherever they sit; the others 400
        scores = [600 if p in (p0, p2) else 400 for p in g.seats]
        winners = [s for s, p in enumerate(g.seats) if p in (p0, p2)]
        results.append(GamePlayed.of(1, table.number, g, scores, winners))
    assert table.games[1].seats != table.games[0].seats  # the first seat moves on
    rows = {r.entrant: r for r in standings(s, entrants, results, [plan])}
    assert rows[p0].score == rows[p2].score == 1200
    assert rows[p1].score == rows[p3].score == 800
    assert rows[p1].tiebreaks == (("wins", 0.0), ("conceded", 1200.0))
    assert [rows[p].rank for p in (p0, p2, p1, p3)] == [1, 1, 3, 3]
