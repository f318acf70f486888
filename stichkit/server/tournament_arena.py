"""A stored tournament as the arena counts it (stichkit.arena.tournaments): its settings, its
entrants (players, or fixed teams of two), its round plans, its results and its standings. The
rules are the arena's; the server's rooms of a tournament read them through here."""

from __future__ import annotations

from typing import Any

from stichkit.arena import tournaments as arena

from .errors import HubError
from .model import Entrant, StoredTournament

SERVER_KEYS = ("name", "max_entrants")  # what the server keeps beside the arena's settings


def arena_settings(stored: dict[str, Any]) -> arena.Settings:
    """The arena's settings of a stored tournament (the server's own keys left out)."""
    return arena.Settings.from_json({k: v for k, v in stored.items() if k not in SERVER_KEYS})


def player_id(e: Entrant) -> str:
    return str(e.number)


def arena_entrants(t: StoredTournament, settings: arena.Settings) -> list[arena.Entrant]:
    """The entrants as the arena counts them: players, or (in team formats) fixed teams of two,
    registered under one team name. HubError when a team is not complete."""
    if settings.team_size == 1:
        return [arena.Entrant(player_id(e), e.name) for e in t.entrants]
    teams: dict[str, list[Entrant]] = {}
    for e in t.entrants:
        teams.setdefault(e.team or f"#{e.number}", []).append(e)
    out = []
    for name, members in teams.items():
        if len(members) != 2:
            raise HubError(409, f"team {name!r} has {len(members)} player; {settings.game} {settings.format} "
                           "is played by teams of two (both register under one team name)")  # fmt: skip
        out.append(arena.Entrant("t" + player_id(members[0]), name, tuple(player_id(m) for m in members)))
    return out


def plans_of(t: StoredTournament) -> list[arena.RoundPlan]:
    return [arena.RoundPlan.from_json(r.plan) for r in t.rounds]


def results_of(t: StoredTournament) -> list[arena.GamePlayed]:
    return [arena.GamePlayed.from_json(g) for x in t.tables for g in x.results]


def standings_of(t: StoredTournament) -> list[arena.Standing]:
    """The standings from the results stored: the arena's, with its tie-breaks."""
    settings = arena_settings(t.settings)
    try:
        entrants = arena_entrants(t, settings)
    except HubError:
        return []  # a team still incomplete before the start: nothing to stand yet
    return arena.standings(settings, entrants, results_of(t), plans_of(t))
