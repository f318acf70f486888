"""The next round of a tournament, from its settings, its entrants and what was played: who sits
where, and every game's seed. Pure: the same inputs give the same plan in any process."""

from __future__ import annotations

import random
from collections.abc import Sequence

from stichkit.arena.duplicate import rotate, rotations
from stichkit.core import OptionError
from stichkit.core.errors import quote

from . import groups, passe, swiss
from .formats import Entrant, Settings
from .plans import GamePlayed, PlannedGame, RoundPlan, TablePlan
from .standings import player_entrants, standings

MAX_ENTRANTS = 1000


def game_seed(seed: int, round_number: int, table: int, index: int) -> int:
    """The seed of one game: from the tournament's seed, the same in every process."""
    return random.Random(f"{seed}:{round_number}:{table}:{index}").getrandbits(63)


def deal_seed(seed: int, round_number: int, deal: int) -> int:
    """The seed of a duplicate round's deal: the same at every table, so the cards are too."""
    return random.Random(f"{seed}:{round_number}:deal:{deal}").getrandbits(63)


def check_entrants(settings: Settings, entrants: Sequence[Entrant]) -> None:
    """OptionError unless the entrants fit the format: unique ids and players, teams of the size."""
    if len(entrants) > MAX_ENTRANTS:
        raise OptionError(f"a tournament has at most {MAX_ENTRANTS} entrants, not {len(entrants)}")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise OptionError(f"entrant {quote(next(i for i in ids if ids.count(i) > 1))} is entered twice")
    players = [p for e in entrants for p in e.players]
    if len(set(players)) != len(players):
        raise OptionError(f"player {quote(next(p for p in players if players.count(p) > 1))} plays for two entrants")
    size = settings.team_size
    for e in entrants:
        if len(e.players) != size:
            what = "fixed teams of two" if size == 2 else "single players (partners are drawn)"
            raise OptionError(f"entrant {quote(e.id)} has {len(e.players)} players; "
                              f"{settings.game} {settings.format} is played by {what}")  # fmt: skip


def meetings(plans: Sequence[RoundPlan]) -> dict[frozenset[str], int]:
    """How often two entrants sat at one table (in Passe: two players, as partners or opponents)."""
    met: dict[frozenset[str], int] = {}
    for plan in plans:
        for table in plan.tables:
            for i, a in enumerate(table.entrants):
                for b in table.entrants[i + 1 :]:
                    key = frozenset((a, b))
                    met[key] = met.get(key, 0) + 1
    return met


def plan_round(
    settings: Settings,
    entrants: Sequence[Entrant],
    round_number: int,
    *,
    seed: int,
    plans: Sequence[RoundPlan] = (),
    results: Sequence[GamePlayed] = (),
) -> RoundPlan:
    """Round `round_number` (from 1) after the rounds `plans` and their `results`. Withdrawn
    entrants are not seated (in Passe their place in the circle is the phantom's). `seed` is the
    tournament's: every draw and every game seed comes from it."""
    check_entrants(settings, entrants)
    if type(round_number) is not int or not 1 <= round_number <= settings.rounds:
        raise OptionError(f"round {quote(round_number)} is not a round of this tournament: 1 to {settings.rounds}")
    if [p.round for p in plans] != list(range(1, round_number)):
        raise OptionError(f"round {round_number} follows the plans of rounds 1 to {round_number - 1}, in order")
    active = [e for e in entrants if not e.withdrawn]
    least = 4 if settings.format == "passe" else 2
    players = sum(len(e.players) for e in active)
    if (players if settings.format == "passe" else len(active)) < least:
        raise OptionError(f"a {settings.format} round needs at least {least} "
                          f"{'players' if settings.format == 'passe' else 'entrants'}")  # fmt: skip
    table = standings(settings, entrants, results, plans)
    live = {e.id for e in active}
    ranked = [s.entrant for s in table if s.entrant in live]
    score = {s.entrant: s.score for s in table}
    met = meetings(plans)
    by_id = {e.id: e for e in entrants}
    n = settings.seats
    tables: list[tuple[list[str], list[str | None]]] = []  # (entrants, line-up by seat)
    byes: tuple[str, ...] = ()
    if settings.format == "passe":
        order = passe.draw_order([e.id for e in entrants], seed)
        circle = [None if by_id[p].withdrawn else p for p in order]
        partnerships = [(a, b) for a, b in passe.partners(circle, round_number - 1) if a or b]
        for (p0, p1), (q0, q1) in passe.tables(partnerships, met):
            lineup = [p0, q0, p1, q1]
            tables.append(([x for x in lineup if x is not None], lineup))
    elif n == 2 or settings.team_game:  # two sides a table: Swiss pairing (also duplicate's)
        points = {e: round(score[e]) for e in ranked}
        byes_had = {e.id: sum(e.id in p.byes for p in plans) for e in entrants}
        pairs, bye = swiss.pair(ranked, points, met, byes_had)
        byes = (bye,) if bye else ()
        firsts = {e.id: sum(t.entrants[0] == e.id for p in plans for t in p.tables) for e in entrants}
        for a, b in pairs:
            if firsts[b] < firsts[a]:
                a, b = b, a
            if settings.team_game:
                (a0, a1), (b0, b1) = by_id[a].players, by_id[b].players
                tables.append(([a, b], [a0, b0, a1, b1]))
            else:
                tables.append(([a, b], [a, b]))
    else:
        draw = seed if round_number == 1 else None
        for seats in groups.seat_tables(ranked, n, score, met, draw_seed=draw):
            tables.append(([x for x in seats if x is not None], list(seats)))
    owner = player_entrants(entrants)
    planned = []
    for number, (sides, lineup) in enumerate(tables, start=1):
        labels = [None if p is None else owner[p] for p in lineup]
        games = _games(settings, seed, round_number, (number, len(tables)), lineup, labels)
        planned.append(TablePlan(number, tuple(sides), tuple(games)))
    return RoundPlan(round_number, tuple(planned), byes)


def _games(settings: Settings, seed: int, round_number: int, table: tuple[int, int], lineup: list[str | None],
           labels: list[str | None]) -> list[PlannedGame]:  # fmt: skip
    """The games of table `table` = (its number, the round's count of tables)."""
    n = len(lineup)
    number, count = table
    out: list[PlannedGame] = []
    if settings.format == "duplicate":
        # the arena's duplicate: the same deal seeds at every table; the rotations that give the
        # entrants (a team counts once) other cards are spread across the tables, each table
        # playing each deal once (deal d at table t: rotation t - 1 + d, round the rotations), so
        # nobody sees a deal's cards twice. One table alone plays each deal once per rotation:
        # the only way to hold every hand (docs/tournaments.md, "Duplicate").
        turns = rotations(n, labels)
        for deal in range(settings.games_per_round):
            cards = deal_seed(seed, round_number, deal)
            chosen = turns if count == 1 else [turns[(number - 1 + deal) % len(turns)]]
            for r in chosen:
                out.append(PlannedGame(len(out), rotate(lineup, r), cards, deal, r))
        return out
    for index in range(settings.games_per_round):
        r = index % n  # the first seat moves round the table from game to game
        out.append(PlannedGame(index, rotate(lineup, r), game_seed(seed, round_number, number, index), index, r))
    return out


def players_at(plan: RoundPlan, entrants: Sequence[Entrant]) -> dict[str, int]:
    """Each seated player's table this round (to take a player to their table)."""
    owner = player_entrants(entrants)
    out: dict[str, int] = {}
    for table in plan.tables:
        for game in table.games:
            for p in game.seats:
                if p is not None and p in owner:
                    out[p] = table.number
    return out
