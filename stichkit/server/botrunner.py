"""Bots at the table: their specs checked once, their thinking done in worker processes.

A search bot can think for seconds; in the event loop it would stop every table. So every bot
but `random` (microseconds) decides in a process pool: the loop sends the game's record, the
worker replays it into a State and asks the bot. Bots choose from a State and read only what
their seat may see (`sample_hidden` for the search), as everywhere in stichkit.

The workers are shared fairly: each piece of work belongs to a client (the table's opener, or
whoever asked for a hint), the clients take turns for a free worker, and one client holds at most
`per_client` workers at once. A visitor who opens many tables of slow bots makes their own bots
wait, not everyone else's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from stichkit import bots, replay
from stichkit.arena.duplicate import BotSpec, parse_bot
from stichkit.core import OptionError, State

from .clients import UNKNOWN
from .trim import trim_every

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

    @property
    def clock(self) -> float | None:
        """The most seconds the bot thinks per move (None: no clock; it thinks for milliseconds)."""
        params = dict(self.params)
        for name in CLOCKS:
            if params.get(name) not in (None, "", "None"):
                return float(params[name])
        return None


CLOCKS = ("time", "timeout")  # the parameters that bound how long a bot may take per move

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The `size` values used last, by key. Table openers choose the bot specs (`ismcts:time=0.11`,
    `ismcts:time=0.12`, ...): a plain dict of bots made for them would grow for as long as the
    server runs."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        value = self._items.get(key)
        if value is None:
            value = self._items[key] = make()
            if len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        return value

    def __len__(self) -> int:
        return len(self._items)


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

_WORKER_BOTS: Recent[tuple[str, tuple[tuple[str, str], ...]], bots.Bot] = Recent(16)  # each worker's bots


def _watch_parent(parent: int) -> None:
    """A worker whose server died (even by SIGKILL) ends too, instead of lingering."""
    while True:
        time.sleep(0.2)
        if os.getppid() != parent:
            os._exit(0)


def worker_init(parent: int, trim_seconds: float = 0.0) -> None:
    """A worker's start: it ends with its server, and gives freed memory back every
    `trim_seconds` (the server's --malloc-trim; trim.py)."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    trim_every(trim_seconds)


def _ready(pause: float) -> int:
    """A worker that has started and imported the bots (the pause makes each call land on its own worker)."""
    time.sleep(pause)
    return os.getpid()


def _decide(name: str, params: tuple[tuple[str, str], ...], record: dict[str, Any], seat: int) -> str:
    bot = _WORKER_BOTS.get((name, params), lambda: bots.make(name, **dict(params)))
    state = replay(record)
    return bot.choose(state, seat).text


# -- the server side -------------------------------------------------------------------------


def _soon(loop: asyncio.AbstractEventLoop, fn: Any, *args: Any) -> None:
    """Call `fn` in the event loop, from a worker's thread; nothing once the loop has closed."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, *args)


class BotRunner:
    """Asks bots for moves without blocking the event loop, sharing the workers fairly."""

    def __init__(self, workers: int, per_client: int | None = None, trim_seconds: float = 0.0) -> None:
        self.workers = max(1, workers)
        self.trim_seconds = trim_seconds  # each worker's own malloc_trim, as often as the server's
        self.per_client = max(1, per_client or self.workers // 2)
        self._pool: ProcessPoolExecutor | None = None
        self._inline: Recent[str, bots.Bot] = Recent(16)
        # Work waiting for a worker, per client, the clients in the order of their turns; the
        # workers each client holds, and all held (a worker is held until its work ends, also
        # when whoever asked for it stopped waiting).
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._held: Counter[str] = Counter()
        self._busy = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # no fork of a running event loop and its threads
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=worker_init,
                                             initargs=(os.getpid(), self.trim_seconds))  # fmt: skip
        return self._pool

    async def warm(self) -> None:
        """Start every worker now: a worker started on demand costs its first move a second or more."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*[loop.run_in_executor(pool, _ready, 0.5) for _ in range(self.workers)])

    async def decide(self, bot: SeatBot, state: State, seat: int, who: str = UNKNOWN) -> str:
        """The bot's move for `seat` in `state` (which the caller must not change meanwhile), as
        work of client `who`."""
        if bot.inline:
            player = self._inline.get(bot.label, bot.make)
            return player.choose(state, seat).text
        return await self.decide_record(bot, state.record(), seat, who)

    async def decide_record(self, bot: SeatBot, record: dict[str, Any], seat: int, who: str = UNKNOWN) -> str:
        """The bot's move for `seat` in the game `record` holds, worked out in a worker process
        once it is client `who`'s turn for one."""
        for attempt in (1, 2):
            await self._turn(who)
            work = self._submit(who, bot, record, seat)
            try:
                return await asyncio.wrap_future(work)
            except BrokenProcessPool:
                log.warning("bot worker processes died; starting new ones (attempt %d)", attempt)
                self._pool = None
        raise RuntimeError("bot workers keep dying")

    async def _turn(self, who: str) -> None:
        """Wait until a worker is free and it is `who`'s turn; the worker is then held for `who`."""
        turn = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(who, deque()).append(turn)
        self._hand_out()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given a worker just as the wait was given up
                self._release(who)
            else:
                self._forget(who, turn)
            raise

    def _submit(self, who: str, bot: SeatBot, record: dict[str, Any], seat: int) -> Future[str]:
        loop = asyncio.get_running_loop()
        try:
            work = self._executor().submit(_decide, bot.spec.name, bot.params, record, seat)
        except BaseException:
            self._release(who)
            raise
        # the worker is free again when the work ends, whether or not anyone still waits for it
        work.add_done_callback(lambda _: _soon(loop, self._release, who))
        return work

    def _hand_out(self) -> None:
        """Give free workers to the waiting clients in turn, each up to `per_client` at once."""
        while self._busy < self.workers:
            for who in list(self._waiting):
                if self._held[who] < self.per_client:
                    break
            else:
                return
            queue = self._waiting.pop(who)
            turn = queue.popleft()
            if queue:
                self._waiting[who] = queue  # to the end of the line: the others go first
            if turn.done():  # its caller stopped waiting
                continue
            self._busy += 1
            self._held[who] += 1
            turn.set_result(None)

    def _release(self, who: str) -> None:
        self._busy -= 1
        self._held[who] -= 1
        if self._held[who] <= 0:
            del self._held[who]
        self._hand_out()

    def _forget(self, who: str, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(who)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[who]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
