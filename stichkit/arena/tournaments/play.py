"""A tournament of bots played through the arena, with no server: each planned game is an arena
`Task` (the game seed and the seats as planned), played by `play_task` in worker processes or
here. For tests, and to try a format out before people play it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack

from stichkit.arena.duplicate import Task, parse_bot, play_task
from stichkit.arena.executors import Executor, make_executor
from stichkit.core import OptionError
from stichkit.core.errors import quote

from .formats import Entrant, Settings
from .plans import GamePlayed, RoundPlan
from .rounds import plan_round
from .standings import Standing, standings


def round_tasks(settings: Settings, plan: RoundPlan, bot_of: Mapping[str, str]) -> list[tuple[int, Task]]:
    """Every game of the round as (table number, arena task); `bot_of` names each player's bot,
    the settings' fill bot takes the empty seats."""
    tasks = []
    for table in plan.tables:
        for game in table.games:
            labels = []
            for p in game.seats:
                if p is not None and p not in bot_of:
                    raise OptionError(f"player {quote(p)} has no bot to play for them")
                labels.append(settings.fill_bot if p is None else bot_of[p])
            specs = tuple(parse_bot(label, settings.game) for label in labels)
            tasks.append((table.number, Task(settings.game, settings.options, specs, game.index, game.seed,
                                             game.rotation)))  # fmt: skip
    return tasks


def play_round(
    settings: Settings, plan: RoundPlan, bot_of: Mapping[str, str], *, executor: Executor | None = None
) -> list[GamePlayed]:
    """Play every game of the round; results in plan order."""
    tasks = round_tasks(settings, plan, bot_of)
    games = [(t.number, g) for t in plan.tables for g in t.games]  # the same order as the tasks
    out: list[GamePlayed | None] = [None] * len(tasks)
    with ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(make_executor(None, 1))
        for i, result in executor.completed(play_task, [task for _, task in tasks]):
            table, game = games[i]
            out[i] = GamePlayed.of(plan.round, table, game, result.scores, result.winners)
    return [g for g in out if g is not None]


def play_tournament(
    settings: Settings,
    entrants: Sequence[Entrant],
    bot_of: Mapping[str, str],
    *,
    seed: int,
    executor: Executor | None = None,
) -> tuple[list[RoundPlan], list[GamePlayed], list[Standing]]:
    """Every round, planned from the standings before it, played by bots: the plans, the games
    and the final standings."""
    plans: list[RoundPlan] = []
    results: list[GamePlayed] = []
    for number in range(1, settings.rounds + 1):
        plan = plan_round(settings, entrants, number, seed=seed, plans=plans, results=results)
        plans.append(plan)
        results.extend(play_round(settings, plan, bot_of, executor=executor))
    return plans, results, standings(settings, entrants, results, plans)
