"""Duplicate deals: every deal is played once per distinct rotation of the seats, in parallel.

Deal i of a tournament uses game seed `seed + i`, so all rotations of a deal get the same cards
(every chance outcome comes from the game seed). Rotation r puts the bot of seat (s + r) mod n at
seat s; rotations that give the same line-up (e.g. r = 0 and 2 for `A,B,A,B`) are played once.
Every bot is seeded from (deal, rotation, seat), so a tournament repeats exactly with any number
of workers, as long as the bots search by iterations rather than by the clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

import stichkit
from stichkit import bots
from stichkit.core import Game, OptionError, RecordError
from stichkit.core.errors import quote

from .executors import Executor, make_executor


@dataclass(frozen=True)
class BotSpec:
    """A bot as the arena names it: `label` is how it is written (`ismcts:iterations=200`)."""

    label: str
    name: str
    params: tuple[tuple[str, str], ...] = ()

    @property
    def cheats(self) -> bool:
        return bots.is_cheating(self.name)

    def make(self, seed: int | None) -> bots.Bot:
        """The bot, seeded with `seed` unless its spec gives a seed (or it takes none)."""
        params: dict[str, Any] = dict(self.params)
        bot = bots.make(self.name, **params)
        if seed is not None and "seed" not in params and "seed" in bot.params:
            bot = bots.make(self.name, seed=seed, **params)
        return bot


def parse_bot(text: str, game: str | None = None) -> BotSpec:
    """`name` or `name:key=value:key=value`, checked by making the bot once. A bot with an address
    (`remote`) is written `name:ADDRESS` with optional `:key=value` after it: the address may hold
    colons of its own (`remote:http://127.0.0.1:5000/heuristic:timeout=2`). With `game`, a bot that
    cannot play that game (`remote` plays only Jass) is refused here, not at its first move."""
    head, sep, rest = text.strip().partition(":")
    name = head.strip().lower()
    params: list[tuple[str, str]] = []
    address = bots.address_param(name) if name else None
    if address is not None:
        rest, params = _split_address(rest, name, address)
        if not rest:
            raise OptionError(f"bot {name!r} is written {name}:{address.upper()} (e.g. "
                              f"remote:http://127.0.0.1:5000/heuristic), not {text!r}")  # fmt: skip
        params.insert(0, (address, rest))
        rest = ""
        sep = ""
    for p in rest.split(":") if sep else []:
        key, sep, value = p.strip().partition("=")
        if not sep or not key.strip():
            raise OptionError(f"bot parameters are written name:key=value (e.g. ismcts:time=0.5), not {quote(text)}")
        params.append((key.strip(), value.strip()))
    bots.make(name, **dict(params))  # raises OptionError naming what is allowed
    games = bots.bot_class(name).GAMES  # type: ignore[union-attr]  # make() found the class
    if game is not None and games is not None and game not in games:
        raise OptionError(f"bot {name!r} plays only {', '.join(games)}, not {game}")
    label = name + "".join(f":{v}" if k == address else f":{k}={v}" for k, v in params)
    return BotSpec(label, name, tuple(params))


def _split_address(rest: str, name: str, address: str) -> tuple[str, list[tuple[str, str]]]:
    """The address and the `:key=value` parameters after it (keys the bot declares, but the address)."""
    cls = bots.bot_class(name)
    assert cls is not None  # it has an address, so it exists
    keys = {p.name for p in cls.PARAMS} - {address}
    params: list[tuple[str, str]] = []
    while ":" in rest:
        head, _, tail = rest.rpartition(":")
        key, sep, value = tail.partition("=")
        if not sep or key.strip() not in keys:
            break
        params.insert(0, (key.strip(), value.strip()))
        rest = head
    return rest.strip(), params


T = TypeVar("T")


def rotate(lineup: Sequence[T], rotation: int) -> tuple[T, ...]:
    """The line-up of rotation r: seat s gets the player of seat (s + r) mod n. The cards stay
    with the seats (they come from the game seed), so the players move round the hands."""
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


def rotations(n: int, labels: Sequence[str | None]) -> list[int]:
    """The rotations r (seat s gets seat (s + r) mod n's bot) that give distinct line-ups."""
    if len(labels) != n:
        raise ValueError(f"a line-up of {n} seats, not {len(labels)}")
    seen: set[tuple[str | None, ...]] = set()
    out = []
    for r in range(n):
        lineup = rotate(labels, r)
        if lineup not in seen:
            seen.add(lineup)
            out.append(r)
    return out


def seat_means(players: Sequence[str | None], scores: Sequence[float]) -> dict[str, float]:
    """Each player's score in one game: the mean of its seats (Jass partners of one bot, or a
    team, count once). Seats without a player (None) are left out."""
    out: dict[str, float] = {}
    for label in dict.fromkeys(p for p in players if p is not None):
        seats = [s for s, p in enumerate(players) if p == label]
        out[label] = sum(scores[s] for s in seats) / len(seats)
    return out


def deal_means(games: Iterable[tuple[Sequence[str | None], Sequence[float]]]) -> dict[str, float]:
    """The duplicate score of one deal: each player's `seat_means` in every game of the deal (its
    rotations, at one table or many), averaged over the games it played. Every player holds every
    hand, so the luck of the cards cancels out. The arena's table and the tournaments' duplicate
    standings both score a deal by this one function."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for players, scores in games:
        for label, score in seat_means(players, scores).items():
            sums[label] = sums.get(label, 0.0) + score
            counts[label] = counts.get(label, 0) + 1
    return {label: sums[label] / counts[label] for label in sums}


@dataclass(frozen=True)
class Task:
    """One game of a tournament: picklable, for worker processes."""

    game: str
    options: dict[str, Any]
    specs: tuple[BotSpec, ...]  # by seat, already rotated
    deal: int  # index of the deal in the tournament
    seed: int  # the game seed of this deal
    rotation: int
    keep_record: bool = False


@dataclass
class GameResult:
    deal: int
    seed: int
    rotation: int
    players: list[str]  # bot label per seat
    scores: list[int]
    winners: list[int]
    moves: int
    decisions: list[int]  # per seat
    seconds: list[float] | None  # thinking time per seat; None: unknown (read from an untimed record)
    record: dict[str, Any] | None = field(default=None, repr=False)
    # Moves a seat's bot did not make itself (a remote player that failed): per seat.
    fallbacks: list[int] = field(default_factory=list)


def bot_seed(seed: int, rotation: int, seat: int) -> int:
    return (seed * 1009 + rotation) * 31 + seat


def play_task(task: Task) -> GameResult:
    """Play one game of the tournament to its end (runs in a worker process)."""
    state = stichkit.load_game(task.game, **task.options).new_state(seed=task.seed)
    n = state.game.num_players
    players = [spec.make(bot_seed(task.seed, task.rotation, s)) for s, spec in enumerate(task.specs)]
    decisions = [0] * n
    seconds = [0.0] * n
    moves = 0
    clock = time.perf_counter
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        t0 = clock()
        action = players[seat].choose(state, seat)
        seconds[seat] += clock() - t0
        decisions[seat] += 1
        state.apply(action)
        moves += 1
    labels = [spec.label for spec in task.specs]
    fallbacks = [int(getattr(bot, "fallback_count", 0)) for bot in players]
    record = None
    if task.keep_record:
        record = state.record()
        record["players"] = labels  # extra keys are ignored by stichkit.replay
        record["arena"] = {"deal": task.deal, "rotation": task.rotation,
                           "cheating": [s for s, spec in enumerate(task.specs) if spec.cheats],
                           "decisions": decisions, "seconds": seconds, "fallbacks": fallbacks}  # fmt: skip
    return GameResult(task.deal, task.seed, task.rotation, labels, state.scores(), state.winners(), moves,
                      decisions, seconds, record, fallbacks)  # fmt: skip


def result_from_record(task: Task, record: Any) -> GameResult:
    """The result of a game already played, from its record (a resumed tournament).

    The record must be this task's game: the same game, options and card tables, game seed, bots by
    seat, deal and rotation, and the deals its seed gives; it is replayed, so its moves and result
    are checked too. RecordError otherwise."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    labels = [spec.label for spec in task.specs]
    arena = record.get("arena")
    if not isinstance(arena, dict):
        raise RecordError("not a tournament record: it has no 'arena' section")
    _compare(
        {"game": task.game, "seed": task.seed, "players": labels, "deal": task.deal, "rotation": task.rotation},
        {"game": record.get("game"), "seed": record.get("seed"), "players": record.get("players"),
         "deal": arena.get("deal"), "rotation": arena.get("rotation")},
    )  # fmt: skip
    # RecordError for anything malformed or inconsistent, and for deals that are not the seed's
    state = stichkit.replay(record, from_seed=True)
    game = stichkit.load_game(task.game, **task.options)
    _compare(  # a custom card table by its text, not only by its path
        {"options": dict(game.options), "card tables": {k: f.sha256 for k, f in game.files.items()}},
        {"options": dict(state.game.options), "card tables": {k: f.sha256 for k, f in state.game.files.items()}},
    )
    n = state.game.num_players
    moves = [m for m in record["moves"] if "seat" in m]
    decisions = [sum(1 for m in moves if m["seat"] == s) for s in range(n)]
    seconds = arena.get("seconds")
    if not (isinstance(seconds, list) and len(seconds) == n and all(isinstance(x, int | float) for x in seconds)):
        seconds = None  # written before records carried the thinking time
    fallbacks = arena.get("fallbacks")
    if not (isinstance(fallbacks, list) and len(fallbacks) == n and all(type(x) is int for x in fallbacks)):
        fallbacks = [0] * n  # written before records counted fallbacks, or by bots that never fall back
    return GameResult(task.deal, task.seed, task.rotation, labels, state.scores(), state.winners(), len(moves),
                      decisions, seconds, record, fallbacks)  # fmt: skip


@dataclass(frozen=True)
class Schedule(Sequence[Task]):
    """Every game of a tournament, deal by deal, rotation by rotation: a sequence computed on
    demand, so a run of any length costs no memory for its schedule."""

    game: str
    options: dict[str, Any]  # portable: a custom card table's text, not its path (Game.portable_options)
    specs: tuple[BotSpec, ...]  # by seat, not rotated
    deals: int
    seed: int
    rotations: tuple[int, ...]
    records: bool = False

    def __len__(self) -> int:
        return self.deals * len(self.rotations)

    @overload
    def __getitem__(self, i: int) -> Task: ...
    @overload
    def __getitem__(self, i: slice) -> list[Task]: ...
    def __getitem__(self, i: int | slice) -> Task | list[Task]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("schedule index out of range")
        deal, k = divmod(i, len(self.rotations))
        return self._task(deal, self.rotations[k])

    def __iter__(self) -> Iterator[Task]:
        for deal in range(self.deals):
            for r in self.rotations:
                yield self._task(deal, r)

    def task(self, deal: int, rotation: int) -> Task | None:
        """The game of this deal and rotation, None if the tournament has no such game."""
        if 0 <= deal < self.deals and rotation in self.rotations:
            return self._task(deal, rotation)
        return None

    def _task(self, deal: int, r: int) -> Task:
        return Task(self.game, self.options, rotate(self.specs, r), deal, self.seed + deal, r, self.records)


def _compare(expected: dict[str, Any], found: dict[str, Any]) -> None:
    for key, value in expected.items():
        if found[key] != value or type(found[key]) is not type(value):
            raise RecordError(
                f"the tournament's game here has {key} {quote(value, 200)}, but the record has {quote(found[key], 200)}"
            )


def schedule(game: Game, specs: Sequence[BotSpec], deals: int, seed: int, *, records: bool = False) -> Schedule:
    """Every game of the tournament, deal by deal, rotation by rotation (computed on demand)."""
    n = game.num_players
    if len(specs) != n:
        raise OptionError(f"{game.name} has {n} seats, but {len(specs)} bots were given")
    if deals < 1:
        raise OptionError("a tournament needs at least 1 deal")
    rots = tuple(rotations(n, [s.label for s in specs]))
    return Schedule(game.name, game.portable_options(), tuple(specs), deals, seed, rots, records)


def run_tournament(
    game: Game,
    specs: Sequence[BotSpec],
    deals: int,
    seed: int,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    records: bool = False,
    on_result: Callable[[GameResult], None] | None = None,
    finished: Mapping[tuple[int, int], GameResult] | None = None,
) -> list[GameResult]:
    """Play the whole schedule on `executor` (default: `workers` local processes); results in
    schedule order, whichever game finished first.

    `finished` maps (deal, rotation) to games already played (`result_from_record`): those are
    not played again, so an interrupted tournament goes on where it stopped. `on_result` is
    called for each game played now, as soon as it ends (to write its record at once). The
    schedule is streamed: only the results are kept."""
    done = dict(finished or {})
    tasks = schedule(game, specs, deals, seed, records=records)
    todo = (t for t in tasks if (t.deal, t.rotation) not in done)
    with ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(make_executor(None, workers))
        for _, r in executor.completed(play_task, todo):
            done[(r.deal, r.rotation)] = r
            if on_result is not None:
                on_result(r)
    return [done[(t.deal, t.rotation)] for t in tasks]
