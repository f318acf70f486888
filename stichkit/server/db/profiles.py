"""What a profile page and a leaderboard read: an account's finished games (`played`), its
ratings, and for Jass the points it lost per card in the games that were analysed."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import sessionmaker

from ..ratings import Rating
from .models import AccountRow, AnalysisRow, PlayedRow, RatingRow
from .repository import value_of


@dataclass(frozen=True)
class GamePlayed:
    table_id: str
    game_no: int
    game: str
    seat: int
    place: int
    players: int
    won: bool
    left: bool
    rated: bool
    rating: float | None  # shown rating after the game (rated games)
    change: float | None
    finished_at: float


@dataclass
class GameStats:
    """One game's line of a profile: how many played, won and left, the rating and its history."""

    game: str
    played: int = 0
    won: int = 0
    left: int = 0
    rating: Rating | None = None
    rated_games: int = 0
    history: list[GamePlayed] = field(default_factory=list)  # rated games, oldest first


@dataclass(frozen=True)
class JassErrors:
    """Points lost against the best card, over the account's analysed Jass games."""

    games: int
    cards: int
    errors: int
    lost: int


@dataclass(frozen=True)
class Profile:
    stats: list[GameStats]
    recent: list[GamePlayed]
    jass: JassErrors | None


@dataclass(frozen=True)
class Leader:
    name: str
    rating: Rating
    games: int
    wins: int


def _played(r: PlayedRow) -> GamePlayed:
    shown = None if r.mu is None or r.sigma is None else Rating(r.mu, r.sigma).shown
    return value_of(GamePlayed, r, rating=shown)


class ProfileStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def profile(self, account_id: int, recent: int, history: int) -> Profile:
        with self.sessions() as s:
            rows = list(s.scalars(select(PlayedRow).where(PlayedRow.account_id == account_id)
                                  .order_by(PlayedRow.finished_at, PlayedRow.table_id, PlayedRow.game_no)))  # fmt: skip
            rated = {r.game: r for r in s.scalars(select(RatingRow).where(RatingRow.account_id == account_id))}
            stats: dict[str, GameStats] = {}
            for r in rows:
                g = stats.setdefault(r.game, GameStats(r.game))
                g.played += 1
                g.won += int(r.won)
                g.left += int(r.left)
                if r.rated:
                    g.history.append(_played(r))
            for game, rr in rated.items():
                g = stats.setdefault(game, GameStats(game))
                g.rating, g.rated_games = Rating(rr.mu, rr.sigma), rr.games
            for g in stats.values():
                g.history = g.history[-history:]
            jass = [r for r in rows if r.game == "jass"]
            errors = self._jass_errors(s, jass) if jass else None
        newest = [_played(r) for r in reversed(rows[-recent:])]
        return Profile(sorted(stats.values(), key=lambda g: g.game), newest, errors)

    @staticmethod
    def _jass_errors(s: Any, games: list[PlayedRow]) -> JassErrors | None:
        """The account's seat in each analysed game: cards played, cards that lost points, points lost."""
        seat_of = {(r.table_id, r.game_no): r.seat for r in games}
        by_table: dict[str, list[int]] = defaultdict(list)
        for t, n in seat_of:
            by_table[t].append(n)
        found = cards = errors = lost = 0
        for table_id, numbers in by_table.items():
            q = select(AnalysisRow.game_no, AnalysisRow.document).where(
                AnalysisRow.table_id == table_id, AnalysisRow.game_no.in_(numbers), AnalysisRow.status == "done"
            )
            for game_no, doc in s.execute(q):
                seats = ((doc or {}).get("analysis") or {}).get("seats") or []
                mine = [x for x in seats if x.get("seat") == seat_of[(table_id, game_no)]]
                if (doc or {}).get("status") != "done" or not mine:
                    continue
                found += 1
                cards += int(mine[0].get("decisions", 0))
                errors += int(mine[0].get("errors", 0))
                lost += int(mine[0].get("lost", 0))
        return JassErrors(found, cards, errors, lost) if found else None

    def leaderboard(self, game: str, min_games: int, limit: int) -> list[Leader]:
        """The best shown ratings in `game` of accounts with at least `min_games` rated games
        (banned accounts left out), best first."""
        shown = RatingRow.mu - 3 * RatingRow.sigma
        q = (select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.wins)
             .join(AccountRow, AccountRow.id == RatingRow.account_id)
             .where(RatingRow.game == game, RatingRow.games >= min_games, AccountRow.banned_at.is_(None))
             .order_by(shown.desc(), AccountRow.name).limit(limit))  # fmt: skip
        with self.sessions() as s:
            return [Leader(name, Rating(mu, sigma), games, wins) for name, mu, sigma, games, wins in s.execute(q)]
