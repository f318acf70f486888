"""A whole tournament of bots in each format, played through the arena with no server."""

from __future__ import annotations

import pytest

from stichkit.arena.tournaments import Entrant, Settings
from stichkit.arena.tournaments.groups import seat_tables
from stichkit.arena.tournaments.play import play_tournament

TEAMS = [Entrant(f"t{i}", f"Team {i}", members=(f"t{i}a", f"t{i}b")) for i in range(5)]
PLAYERS = [Entrant(f"p{i}", f"Player {i}") for i in range(9)]

CASES = [
    (Settings(game="jass", format="swiss", rounds=3, options={"target": 300}), TEAMS),
    (Settings(game="coiffeur", format="swiss", rounds=2, options={"sheet": "6-rows"}), TEAMS[:4]),
    (Settings(game="jass", format="passe", rounds=3, games_per_round=2, options={"target": 300}), PLAYERS[:8]),
    (Settings(game="jass", format="duplicate", rounds=2, options={"target": 300}), TEAMS[:4]),
    (Settings(game="differenzler", format="duplicate", rounds=1, options={"deals": 2}), PLAYERS[:8]),
    (Settings(game="differenzler", format="free", rounds=3, options={"deals": 2}), PLAYERS),
    (Settings(game="stichwahl", format="free", rounds=2, options={"players": 3, "target": 10}), PLAYERS[:7]),
    (Settings(game="stichling", format="swiss", rounds=3, options={"players": 2}), PLAYERS[:5]),
]


@pytest.mark.parametrize(("settings", "entrants"), CASES, ids=[f"{s.game}-{s.format}" for s, _ in CASES])
def test_a_whole_tournament_of_bots(settings: Settings, entrants: list[Entrant]) -> None:
    bot_of = {p: ("heuristic" if k % 2 else "random") for k, e in enumerate(entrants) for p in e.players}
    plans, results, table = play_tournament(settings, entrants, bot_of, seed=2026)
    assert [p.round for p in plans] == list(range(1, settings.rounds + 1))
    planned = sum(len(t.games) for p in plans for t in p.tables)
    assert len(results) == planned > 0
    assert sorted(r.entrant for r in table) == sorted(e.id for e in entrants)
    assert table[0].rank == 1 and all(r.games > 0 or r.byes > 0 for r in table)
    # the same seed plays the same tournament again, game for game
    again = play_tournament(settings, entrants, bot_of, seed=2026)
    assert again == (plans, results, table)


def test_free_tables_avoid_meeting_again_and_spread_the_fill_bots() -> None:
    ranked = [f"p{i}" for i in range(9)]
    tables = seat_tables(ranked, 4, dict.fromkeys(ranked, 0), {})
    assert [sum(p is None for p in t) for t in tables] == [1, 1, 1]
    met = {frozenset((a, b)): 1 for t in tables for a in t for b in t if a and b and a != b}
    second = seat_tables(ranked, 4, dict.fromkeys(ranked, 0), met)
    repeats = sum(1 for t in second for a in t for b in t if a and b and a < b and frozenset((a, b)) in met)
    assert repeats == 0  # 3 tables of 3: a Latin square's second round meets nobody again
