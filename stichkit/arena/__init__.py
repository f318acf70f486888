"""The arena: duplicate tournaments between bots, with confidence intervals and ratings.

`run_tournament(game, seats, deals)` plays every deal once per distinct rotation of the seats, so
every bot plays every hand from every seat (in Jass each bot plays each deal for both teams), in
worker processes or on a Ray cluster if asked (`executors`, docs/cluster.md). `summarize` turns
the games into mean scores with 95% intervals, win shares, win rates and openskill ratings. See
docs/arena.md.
"""

from __future__ import annotations

from .duplicate import BotSpec, GameResult, Task, parse_bot, play_task, rotations, run_tournament, schedule
from .executors import Executor, ExecutorError, ProcessExecutor, RayExecutor, SerialExecutor, make_executor
from .stats import mean_ci, t975
from .summary import summarize

__all__ = [
    "BotSpec", "Executor", "ExecutorError", "GameResult", "ProcessExecutor", "RayExecutor", "SerialExecutor", "Task",
    "make_executor", "mean_ci", "parse_bot", "play_task", "rotations", "run_tournament", "schedule", "summarize",
    "t975",
]  # fmt: skip
