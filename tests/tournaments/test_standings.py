"""Standings: they add up, places share points, tie-breaks, the bot's marks, plain JSON."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stichkit.arena.tournaments import Entrant, GamePlayed, RoundPlan, Settings, Standing, plan_round, standings
from stichkit.arena.tournaments.standings import place_points


def teams(n: int) -> list[Entrant]:
    return [Entrant(f"t{i}", members=(f"a{i}", f"b{i}")) for i in range(n)]


def players(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}") for i in range(n)]


FIELDS = {
    "swiss": (Settings(game="jass", format="swiss", rounds=4), teams),
    "passe": (Settings(game="jass", format="passe", rounds=4), lambda n: players(n + 2)),
    "duplicate": (Settings(game="jass", format="duplicate", rounds=3), teams),
    "free": (Settings(game="stichling", format="free", rounds=4, options={"players": 3}), players),
}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(FIELDS)), st.integers(2, 9), st.integers(0, 2**30), st.data())
def test_standings_add_up_to_the_tables(fmt: str, n: int, seed: int, data: st.DataObject) -> None:
    s, make = FIELDS[fmt]
    entrants = make(n)
    plans: list[RoundPlan] = []
    results: list[GamePlayed] = []
    for r in range(1, s.rounds + 1):
        plan = plan_round(s, entrants, r, seed=seed, plans=plans, results=results)
        plans.append(plan)
        for t in plan.tables:
            for g in t.games:
                k = len(g.seats)
                if s.team_game:
                    a, b = data.draw(st.integers(0, 1500)), data.draw(st.integers(0, 1500))
                    scores = [a, b, a, b]
                    winners = [0, 2] if a >= b else [1, 3]
                else:
                    scores = [data.draw(st.integers(0, 40)) for _ in range(k)]
                    winners = [i for i in range(k) if scores[i] == max(scores)]
                results.append(GamePlayed.of(r, t.number, g, scores, winners))
    rows = standings(s, entrants, results, plans)
    assert sorted(r.entrant for r in rows) == sorted(e.id for e in entrants)
    owner = {p: e.id for e in entrants for p in e.players}
    # the entrants' game points are the tables' points, each side once
    table_points = 0.0
    for g in results:
        sides = {}
        for seat, p in enumerate(g.seats):
            if p is not None:
                sides.setdefault(owner[p], g.scores[seat])
        table_points += (
            sum(sides.values())
            if fmt != "passe"
            else sum(g.scores[seat] for seat, p in enumerate(g.seats) if p is not None)
        )
    assert abs(sum(r.points for r in rows) - table_points) < 1e-6
    total = sum(r.score for r in rows)
    if fmt == "swiss":  # 2 match points a table and a bye
        assert total == 2 * sum(len(p.tables) + len(p.byes) for p in plans)
    elif fmt == "duplicate":
        assert abs(total) < 1e-6  # above and below the field cancel
    elif fmt == "passe":
        assert total == table_points
    else:  # placement points: 2 (n - k) for each place k of each table
        assert total == sum(2 * sum(range(len(g.seats))) for g in results) - sum(
            place_points(g, seat) for g in results for seat, p in enumerate(g.seats) if p is None
        )
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert [Standing.from_json(r.to_json()) for r in rows] == rows


def test_shared_places_share_their_points() -> None:
    g = GamePlayed(1, 1, 0, ("a", "b", "c", "d"), (30, 30, 10, 5), (0, 1))
    assert [place_points(g, s) for s in range(4)] == [5, 5, 2, 0]
    g = GamePlayed(1, 1, 0, ("a", "b", "c"), (7, 7, 7), (0, 1, 2))
    assert [place_points(g, s) for s in range(3)] == [2, 2, 2]


def test_swiss_buchholz_breaks_a_tie_and_a_bye_counts_a_win() -> None:
    s = Settings(game="stichwahl", format="swiss", options={"players": 2}, rounds=2)
    e = [Entrant(x) for x in "abcde"]
    plan = plan_round(s, e, 1, seed=1)
    results = [GamePlayed.of(1, t.number, g, [30, 20], [0]) for t in plan.tables for g in t.games]
    rows = standings(s, e, results, [plan])
    (bye,) = plan.byes
    by = {r.entrant: r for r in rows}
    assert by[bye].score == 2 and by[bye].byes == 1 and by[bye].games == 0
    winners = [t.games[0].seats[0] for t in plan.tables]
    assert all(by[w].score == 2 for w in winners)
    assert by[bye].tiebreaks[0] == ("buchholz", 0.0)  # a bye adds no opponent
    assert rows[-1].score == 0


def test_a_swiss_match_counts_when_its_last_game_is_in() -> None:
    s = Settings(game="stichwahl", format="swiss", options={"players": 2}, games_per_round=2)
    e = [Entrant(x) for x in "ab"]
    plan = plan_round(s, e, 1, seed=1)
    (t,) = plan.tables
    first = GamePlayed.of(1, 1, t.games[0], [30, 20], [0])
    assert all(r.score == 0 for r in standings(s, e, [first], [plan]))
    assert {r.games for r in standings(s, e, [first], [plan])} == {1}
    second = GamePlayed.of(1, 1, t.games[1], [30, 20], [0])  # the other one wins the return game
    rows = standings(s, e, [first, second], [plan])
    assert [r.score for r in rows] == [1, 1]  # one game each, 50 points each: a draw


def test_games_a_bot_played_for_a_gone_player_are_marked() -> None:
    s = Settings(game="jass", format="passe", rounds=1)
    e = [Entrant(x) for x in "abcd"]
    plan = plan_round(s, e, 1, seed=1)
    g = plan.tables[0].games[0]
    gone = g.seats[3]
    res = GamePlayed.of(1, 1, g, [500, 700, 500, 700], [1, 3], replaced=[3])
    rows = {r.entrant: r for r in standings(s, e, [res], [plan])}
    assert rows[gone].replaced == 1
    assert sum(r.replaced for r in rows.values()) == 1
    assert GamePlayed.from_json(res.to_json()) == res
    assert RoundPlan.from_json(plan.to_json()) == plan
