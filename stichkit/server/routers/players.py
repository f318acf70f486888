"""Players' pages: a profile (games, wins, ratings and their history, recent games, Jass errors)
and a leaderboard per game."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Path, Query

import stichkit

from ..db.profiles import GamePlayed
from ..dependencies import HubDep
from ..errors import HubError
from ..ratings import Rating
from ..usernames import name_key

router = APIRouter(tags=["players"])

RECENT = 20  # recent games on a profile
HISTORY = 100  # rated games per game in a rating's history


def _rating(r: Rating | None, games: int = 0) -> dict[str, Any] | None:
    if r is None:
        return None
    return {"rating": round(r.shown, 2), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "games": games}


def _game(g: GamePlayed) -> dict[str, Any]:
    replay = f"/tables/{g.table_id}?replay={g.game_no}"
    return {
        "table": g.table_id, "game_no": g.game_no, "game": g.game, "seat": g.seat, "place": g.place,
        "players": g.players, "won": g.won, "left": g.left, "rated": g.rated,
        "rating": None if g.rating is None else round(g.rating, 2),
        "change": None if g.change is None else round(g.change, 2), "finished_at": g.finished_at,
        "replay": replay, "analysis": replay + "&analyse=1" if g.game == "jass" else None,
    }  # fmt: skip


@router.get("/api/players/{name}")
async def profile(hub: HubDep, name: str = Path(max_length=200)) -> dict[str, Any]:
    """A player's profile, by user name (names that look alike find the same player)."""
    account = await hub.db(hub.accounts_store.find, name_key(name))
    if account is None or account.banned:
        raise HubError(404, f"no player {name[:40]!r} here")
    p = await hub.db(hub.profile_store.profile, account.id, RECENT, HISTORY)
    errors = None
    if p.jass is not None:
        j = p.jass
        errors = {"games": j.games, "cards": j.cards, "errors": j.errors, "lost": j.lost,
                  "per_card": round(j.lost / j.cards, 3) if j.cards else None}  # fmt: skip
    return {
        "name": account.name, "since": account.created_at,
        "games": [{
            "game": g.game, "played": g.played, "won": g.won, "left": g.left,
            "win_share": round(g.won / g.played, 4) if g.played else None,
            "rating": _rating(g.rating, g.rated_games),
            "history": [{"rating": h.rating, "change": h.change, "table": h.table_id, "game_no": h.game_no,
                         "finished_at": h.finished_at} for h in g.history],
        } for g in p.stats],
        "recent": [_game(g) for g in p.recent],
        "jass_errors": errors,
    }  # fmt: skip


@router.get("/api/leaderboard/{game}")
async def leaderboard(
    game: str,
    hub: HubDep,
    min_games: int | None = Query(default=None, ge=1, le=10000),
    limit: int = Query(default=50, ge=1, le=500),
) -> dict[str, Any]:
    """The best ratings in one game, of players with at least `min_games` rated games."""
    if game not in stichkit.game_names():
        raise HubError(400, f"unknown game {game[:32]!r}; games: {', '.join(stichkit.game_names())}")
    least = min_games if min_games is not None else hub.settings.leaderboard_min_games
    leaders = await hub.db(hub.profile_store.leaderboard, game, least, limit)
    return {
        "game": game, "min_games": least, "at": time.time(),
        "players": [{"rank": i, "name": x.name, "rating": round(x.rating.shown, 2), "games": x.games,
                     "wins": x.wins} for i, x in enumerate(leaders, 1)],
    }  # fmt: skip
