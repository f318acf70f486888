"""Tournaments for people and bots: Swiss, Schieber "Passe" with rotating partners, duplicate,
and free tables (Differenzler and the free-for-all games). Pure: no server, no clock, no
database; a server stores the plain data here (to_json / from_json) and plays the planned games
at its tables. See docs/tournaments.md.

    settings = Settings(game="jass", format="swiss", rounds=5)
    plan = plan_round(settings, entrants, 1, seed=seed)           # tables, seats, game seeds
    table = standings(settings, entrants, results, plans=[plan])  # ranks with tie-breaks
"""

from __future__ import annotations

from .formats import FORMATS, REGISTRATIONS, TEAM_GAMES, Entrant, Settings
from .plans import GamePlayed, PlannedGame, RoundPlan, TablePlan
from .rounds import check_entrants, deal_seed, game_seed, meetings, plan_round, players_at
from .standings import TIEBREAKS, Standing, standings

__all__ = [
    "FORMATS", "REGISTRATIONS", "TEAM_GAMES", "TIEBREAKS", "Entrant", "GamePlayed", "PlannedGame", "RoundPlan",
    "Settings", "Standing", "TablePlan", "check_entrants", "deal_seed", "game_seed", "meetings", "plan_round",
    "players_at", "standings",
]  # fmt: skip
