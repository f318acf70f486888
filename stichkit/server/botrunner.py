"""Bots at the table: their specs checked once, their thinking done in worker processes.

A search bot can think for seconds; in the event loop it would stop every table. So every bot
but `random` (microseconds) decides in a process pool: the loop sends the game's record, the
worker replays it into a State and asks the bot. Bots choose from a State and read only what
their seat may see (`sample_hidden` for the search), as everywhere in stichkit.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from stichkit import bots, replay
from stichkit.arena.duplicate import BotSpec, parse_bot
from stichkit.core import OptionError, State

log = logging.getLogger("stichkit.server")

BOT_PREFIX = "bot:"
INLINE = frozenset({"random"})  # bots cheap enough to decide in the event loop


@dataclass(frozen=True)
class SeatBot:
    """A bot as a table names it (`heuristic`, `ismcts:time=0.5`), with the server's caps applied."""

    label: str
    spec: BotSpec
    params: tuple[tuple[str, str], ...]  # what the bot is made with (the spec's, plus the time cap)

    @property
    def inline(self) -> bool:
        return self.spec.name in INLINE

    def make(self) -> bots.Bot:
        return bots.make(self.spec.name, **dict(self.params))


CLOCKS = ("time", "timeout")  # the parameters that bound how long a bot may take per move


def parse_seat(text: Any, max_time: float, game: str | None = None, allow_remote: bool = False) -> SeatBot | None:
    """`human` → None; `bot:SPEC` → the bot. Raises OptionError with what is allowed."""
    if not isinstance(text, str):
        raise OptionError(f"a seat is 'human' or 'bot:NAME' (e.g. 'bot:heuristic'), not {text!r}")
    if text.strip().lower() == "human":
        return None
    if not text.lower().startswith(BOT_PREFIX):
        raise OptionError(
            f"a seat is 'human' or 'bot:SPEC' (e.g. 'bot:heuristic', 'bot:ismcts:time=0.5'), not {text!r}"
        )
    return parse_bot_spec(text[len(BOT_PREFIX) :], max_time, game, allow_remote)


def parse_bot_spec(text: str, max_time: float, game: str | None = None, allow_remote: bool = False) -> SeatBot:
    """A bot for a table: as the arena parses it, refused when it sees hidden cards, when it calls
    other servers (unless the operator allows it), or when it would think longer than `max_time`."""
    name = text.strip().partition(":")[0].strip().lower()
    if bots.address_param(name) is not None and not allow_remote:
        raise OptionError(f"bot {name!r} calls another server; this server does not seat such bots "
                          "(its operator may allow them: stich serve --allow-remote-bots)")  # fmt: skip
    spec = parse_bot(text, game)  # OptionError naming the bots and parameters allowed
    if spec.cheats:
        raise OptionError(f"bot {spec.name!r} sees every hand: it is for evaluations, not for a table")
    params = dict(spec.params)
    probe = bots.make(spec.name, **params)
    for clock in CLOCKS:
        if clock not in probe.params:
            continue
        seconds = probe.params[clock]
        if clock in params:
            if seconds is not None and seconds > max_time:
                raise OptionError(f"bot {spec.label!r}: {clock}={seconds:g} is over this server's limit of "
                                  f"{max_time:g} s per move")  # fmt: skip
        elif seconds is None or seconds > max_time:  # no clock (an iteration budget alone), or a longer default
            params[clock] = f"{max_time:g}"
    return SeatBot(spec.label, spec, tuple(params.items()))


# -- the worker side -------------------------------------------------------------------------

_WORKER_BOTS: dict[tuple[str, tuple[tuple[str, str], ...]], bots.Bot] = {}


def _watch_parent(parent: int) -> None:
    """A worker whose server died (even by SIGKILL) ends too, instead of lingering."""
    while True:
        time.sleep(0.2)
        if os.getppid() != parent:
            os._exit(0)


def worker_init(parent: int) -> None:
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _ready(pause: float) -> int:
    """A worker that has started and imported the bots (the pause makes each call land on its own worker)."""
    time.sleep(pause)
    return os.getpid()


def _decide(name: str, params: tuple[tuple[str, str], ...], record: dict[str, Any], seat: int) -> str:
    bot = _WORKER_BOTS.get((name, params))
    if bot is None:
        bot = _WORKER_BOTS[(name, params)] = bots.make(name, **dict(params))
    state = replay(record)
    return bot.choose(state, seat).text


# -- the server side -------------------------------------------------------------------------


class BotRunner:
    """Asks bots for moves without blocking the event loop."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._inline: dict[str, bots.Bot] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a running event loop and its threads
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=worker_init,
                                             initargs=(os.getpid(),))  # fmt: skip
        return self._pool

    async def warm(self) -> None:
        """Start every worker now: a worker started on demand costs its first move a second or more."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*[loop.run_in_executor(pool, _ready, 0.5) for _ in range(self.workers)])

    async def decide(self, bot: SeatBot, state: State, seat: int) -> str:
        """The bot's move for `seat` in `state` (which the caller must not change meanwhile)."""
        if bot.inline:
            player = self._inline.get(bot.label)
            if player is None:
                player = self._inline[bot.label] = bot.make()
            return player.choose(state, seat).text
        return await self.decide_record(bot, state.record(), seat)

    async def decide_record(self, bot: SeatBot, record: dict[str, Any], seat: int) -> str:
        """The bot's move for `seat` in the game `record` holds, worked out in a worker process."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._executor(), _decide, bot.spec.name, bot.params, record, seat)
            except BrokenProcessPool:
                log.warning("bot worker processes died; starting new ones (attempt %d)", attempt)
                self._pool = None
        raise RuntimeError("bot workers keep dying")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
