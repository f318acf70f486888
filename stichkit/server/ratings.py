"""How a finished game places its players, and how a rated game changes their ratings.

Ratings are openskill's (the Plackett-Luce model): each account has a `mu` and a `sigma` per
game; the rating shown is `mu - 3 sigma` (low while little is known of a player, as a
leaderboard wants it). Jass and Coiffeur are rated by team: partners win or lose together. Every
other game (Stichwahl, Stichling, Stich-Meister, Differenzler) is free-for-all: winners share the first
place, the others follow by their points (every game's `scores` are "more is better"), equal
points sharing a place.

A player who gave their seat up for good before the end (the takeover bot finished the game) is
rated as having lost, behind everyone who stayed. In a team game the leaver's partner is then not
rated at all: a game the partner could not win counts neither way for them. Being away and coming back
costs nothing: the seat stays the player's, and the game is rated by its result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
TEAM_GAMES = frozenset({"jass", "coiffeur"})  # partners across the table: seats 0 and 2 against 1 and 3


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The rating players see: what the player is at least, with good confidence."""
        return self.mu - 3 * self.sigma


def initial() -> Rating:
    r = MODEL.rating()
    return Rating(float(r.mu), float(r.sigma))


@dataclass(frozen=True)
class Finisher:
    """A seat at the end of a game: the account that began it, and whether it left for good."""

    seat: int
    account: int
    left: bool


@dataclass(frozen=True)
class Placing:
    """Where an account finished: `place` 1 is first (winners share it); a leaver is last."""

    account: int
    seat: int
    place: int
    won: bool
    left: bool


def seat_places(game: str, result: dict[str, Any], n: int, among: set[int] | None = None) -> dict[int, int]:
    """The places of the seats `among` (default: all) by the result, counting only them: winners 1,
    the others by points (more is better), equal points sharing a place, the next place counting
    those before (1, 1, 3). Jass: the winning team 1, the other 2."""
    seats = set(range(n)) if among is None else among
    winners = set(result.get("winners") or []) & seats
    scores = list(result.get("scores") or [0] * n)
    if game in TEAM_GAMES:
        return {s: 1 if s in winners else 2 for s in seats}
    out = {}
    for s in seats:
        if s in winners:
            out[s] = 1
            continue
        ahead = len(winners) + sum(1 for o in seats if o not in winners and scores[o] > scores[s])
        out[s] = ahead + 1
    return out


def placings(game: str, result: dict[str, Any], n: int, finishers: list[Finisher]) -> list[Placing]:
    """The places of the accounts that began the game, among those who stayed to the end (or
    whose seat was only taken over while they were away); leavers come last, sharing that place."""
    stayed = {f.seat for f in finishers if not f.left}
    places = seat_places(game, result, n, stayed if game not in TEAM_GAMES else None)
    last = max((places[s] for s in stayed), default=0) + 1
    winners = set(result.get("winners") or [])
    return [
        Placing(f.account, f.seat, last if f.left else places[f.seat], not f.left and f.seat in winners, f.left)
        for f in finishers
    ]


def rate(game: str, placed: list[Placing], before: dict[int, Rating]) -> dict[int, Rating]:
    """The new ratings of the accounts this game rates (a Jass leaver's partner is not among them)."""
    if game in TEAM_GAMES:
        groups, ranks = _jass_teams(placed)
    else:
        groups = [[p.account] for p in placed]
        ranks = [p.place for p in placed]
    if len(groups) < 2:
        return {}
    teams = [[MODEL.rating(mu=before[a].mu, sigma=before[a].sigma) for a in g] for g in groups]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return {
        a: Rating(float(r.mu), float(r.sigma))
        for g, team in zip(groups, rated, strict=True)
        for a, r in zip(g, team, strict=True)
    }


def _jass_teams(placed: list[Placing]) -> tuple[list[list[int]], list[int]]:
    """Teams that stayed whole play as teams; each leaver is a team of one, last."""
    groups: list[list[int]] = []
    ranks: list[int] = []
    for team in (0, 1):
        members = [p for p in placed if p.seat & 1 == team]
        if any(p.left for p in members):
            continue
        if members:
            groups.append([p.account for p in members])
            ranks.append(min(p.place for p in members))
    leavers = [p for p in placed if p.left]
    if leavers and groups:
        ranks = [1] * len(groups)  # whoever stayed beats whoever left
    for p in leavers:
        groups.append([p.account])
        ranks.append(3)
    return groups, ranks
