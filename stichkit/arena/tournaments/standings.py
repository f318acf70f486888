"""Standings: each entrant's score by the format, its tie-breaks, and the marks for games a bot
played for a player who was gone ("wenn der Computer übernimmt", as Swisslos marks them).

By format (docs/tournaments.md):
- swiss: match points: a round won 2, drawn 1, lost 0, a bye 2. A round at a table is won by the
  side that won more of its games, at equal games by more points; else drawn. Tie-breaks:
  Buchholz (the sum of the opponents' match points; a bye adds none), then the game points.
- passe: the sum of the team's points over the games a player played with each partner.
  Tie-breaks: games won, then the fewer points conceded (the opponents' points).
- duplicate: per deal and hand, each entrant's duplicate score (arena.duplicate.deal_means) less
  the mean of the field who held the same hand at any table; averaged over the hands it held
  (one, or all of them at a lone table), summed over deals. Tie-breaks: deals above the field, then the game points.
- free: Differenzler by its total (the negated penalty, so more is better); the games played to
  a target by place: at a table of n, place k earns 2 (n - k) points, places shared on equal
  results share their points. Tie-breaks: games won, then the game points (placement only).
Entrants equal in score and every tie-break share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stichkit.arena.duplicate import deal_means, seat_means

from .formats import Entrant, Settings
from .plans import GamePlayed, RoundPlan


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `points`: the game points the entrant made (its seats' mean in
    each game: a team counts once); `replaced`: its games in which a bot played for one of its
    players (marked in the table)."""

    rank: int
    entrant: str
    score: float
    tiebreaks: tuple[tuple[str, float], ...]
    points: float
    games: int
    wins: int
    byes: int = 0
    replaced: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrant": self.entrant, "score": self.score,
                "tiebreaks": [{"name": k, "value": v} for k, v in self.tiebreaks], "points": self.points,
                "games": self.games, "wins": self.wins, "byes": self.byes, "replaced": self.replaced}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        breaks = tuple((str(t["name"]), float(t["value"])) for t in data["tiebreaks"])
        counts = (int(data["games"]), int(data["wins"]), int(data.get("byes", 0)), int(data.get("replaced", 0)))
        rank, score, points = int(data["rank"]), float(data["score"]), float(data["points"])
        return cls(rank, str(data["entrant"]), score, breaks, points, *counts)


TIEBREAKS = {
    "swiss": ("buchholz", "points"),
    "passe": ("wins", "conceded"),
    "duplicate": ("above_field", "points"),
    "free": ("wins", "points"),
}
LOWER_IS_BETTER = frozenset({"conceded"})


def player_entrants(entrants: Sequence[Entrant]) -> dict[str, str]:
    """Each player id to the entrant it plays for."""
    return {p: e.id for e in entrants for p in e.players}


def side_labels(game: GamePlayed, owner: Mapping[str, str]) -> list[str | None]:
    """The entrant at each seat (None: the fill bot, or a player of no entrant)."""
    return [None if p is None else owner.get(p) for p in game.seats]


@dataclass
class _Tally:
    score: float = 0.0
    points: float = 0.0
    conceded: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    replaced: int = 0
    above: int = 0


def standings(
    settings: Settings,
    entrants: Sequence[Entrant],
    results: Sequence[GamePlayed],
    plans: Sequence[RoundPlan] = (),
) -> list[Standing]:
    """The standings after `results` (and the byes of `plans`), best first."""
    owner = player_entrants(entrants)
    tally = {e.id: _Tally() for e in entrants}
    opponents: dict[str, list[str]] = {e.id: [] for e in entrants}
    for game in results:
        labels = side_labels(game, owner)
        won = set(game.winners)
        means = seat_means(labels, game.scores)
        for e, pts in means.items():
            t = tally[e]
            seats = [s for s, x in enumerate(labels) if x == e]
            t.points += pts
            t.games += 1
            t.wins += any(s in won for s in seats)
            t.replaced += any(s in game.replaced for s in seats)
    if settings.format == "swiss":
        _swiss(results, plans, labels_of=lambda g: side_labels(g, owner), tally=tally, opponents=opponents)
    elif settings.format == "passe":
        for game in results:
            labels = side_labels(game, owner)
            for s, who in enumerate(labels):
                if who is None:
                    continue
                tally[who].score += game.scores[s]
                side = s % 2
                against = [game.scores[x] for x in range(len(labels)) if x % 2 != side]
                tally[who].conceded += sum(against) / len(against)
    elif settings.format == "duplicate":
        _duplicate(results, lambda g: side_labels(g, owner), tally)
    else:
        for game in results:
            labels = side_labels(game, owner)
            for s, who in enumerate(labels):
                if who is not None:
                    tally[who].score += game.scores[s] if settings.scoring == "total" else place_points(game, s)
    names = TIEBREAKS[settings.format]
    rows = []
    for entrant in entrants:
        t = tally[entrant.id]
        values = {"buchholz": sum(tally[o].score for o in opponents[entrant.id]), "points": t.points,
                  "wins": t.wins, "conceded": t.conceded, "above_field": t.above}  # fmt: skip
        rows.append((entrant.id, t, tuple((k, float(values[k])) for k in names)))

    def key(row: tuple[str, _Tally, tuple[tuple[str, float], ...]]) -> tuple[float, ...]:
        _, t, breaks = row
        return (-round(t.score, 9), *(v if k in LOWER_IS_BETTER else -v for k, v in breaks))

    rows.sort(key=key)
    out: list[Standing] = []
    for i, row in enumerate(rows):
        rank = out[-1].rank if out and key(rows[i - 1]) == key(row) else i + 1
        e, t, breaks = row
        out.append(Standing(rank, e, t.score, breaks, t.points, t.games, t.wins, t.byes, t.replaced))
    return out


def place_points(game: GamePlayed, seat: int) -> float:
    """Placement points of `seat` at its table of n: place k earns 2 (n - k); the winners are
    first, the rest by score; equal results share the places' points (always a whole number)."""
    n = len(game.seats)

    def result(s: int) -> tuple[bool, int]:
        return s in game.winners, game.scores[s]

    better = sum(1 for s in range(n) if result(s) > result(seat))
    equal = sum(1 for s in range(n) if result(s) == result(seat))
    places = range(better + 1, better + equal + 1)
    return sum(2 * (n - k) for k in places) // equal


def _swiss(results: Sequence[GamePlayed], plans: Sequence[RoundPlan], *, labels_of: Any,
           tally: dict[str, _Tally], opponents: dict[str, list[str]]) -> None:  # fmt: skip
    by_table: dict[tuple[int, int], list[GamePlayed]] = {}
    for game in results:
        by_table.setdefault((game.round, game.table), []).append(game)
    planned = {(p.round, t.number): len(t.games) for p in plans for t in p.tables}
    for where, games in by_table.items():
        if len(games) < planned.get(where, 0):
            continue  # the match is decided when the table's last game of the round is in
        wins: dict[str, int] = {}
        points: dict[str, float] = {}
        for game in games:
            labels = labels_of(game)
            for e, pts in seat_means(labels, game.scores).items():
                seats = [s for s, x in enumerate(labels) if x == e]
                wins[e] = wins.get(e, 0) + any(s in game.winners for s in seats)
                points[e] = points.get(e, 0.0) + pts
        sides = list(wins)
        if len(sides) != 2:
            continue  # a table without two entrants (a side left) decides no match
        a, b = sides
        ka, kb = (wins[a], points[a]), (wins[b], points[b])
        tally[a].score += 2 if ka > kb else 1 if ka == kb else 0
        tally[b].score += 2 if kb > ka else 1 if ka == kb else 0
        opponents[a].append(b)
        opponents[b].append(a)
    for plan in plans:
        for e in plan.byes:
            if e in tally:
                tally[e].score += 2
                tally[e].byes += 1


def _duplicate(results: Sequence[GamePlayed], labels_of: Any, tally: dict[str, _Tally]) -> None:
    """Each deal: every hand (the seats an entrant held: a team's two, a player's one) is scored
    against the field who held it, at any table, by the arena's deal_means, and an entrant's result
    on the deal is its margin over that field, averaged over the hands it held (one, or every hand
    when a lone table rotated the deal round)."""
    by_hand: dict[tuple[int, int], dict[tuple[int, ...], list[Any]]] = {}
    for game in results:
        labels = labels_of(game)
        for e in dict.fromkeys(x for x in labels if x is not None):
            hand = tuple(s for s, x in enumerate(labels) if x == e)
            only = [x if x == e else None for x in labels]  # this entrant's seats of the game
            by_hand.setdefault((game.round, game.deal), {}).setdefault(hand, []).append((only, game.scores))
    for hands in by_hand.values():
        margins: dict[str, list[float]] = {}
        for games in hands.values():
            means = deal_means(games)
            par = sum(means.values()) / len(means)
            for e, value in means.items():
                margins.setdefault(e, []).append(value - par)
        for e, values in margins.items():
            margin = sum(values) / len(values)
            tally[e].score += margin
            tally[e].above += margin > 1e-9
