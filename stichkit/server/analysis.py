"""Double-dummy analysis of finished Jass games, for the replay: `stich analyse` in the browser.

A game is solved deal by deal (stichkit.analysis.review: `parts`, `analyse_part`, `assemble`,
the fast way: every card's points lost, one best card in the first two tricks) in a worker
process of its own, so the bots' workers never wait for it. A whole-deal search can take minutes
(docs/analysis.md), so games are analysed one at a time, a few at most wait, and each asker sees
the deals done so far. With a keeper (`DbKeeper`), a game is claimed in the database before it
is begun, so of several server processes only one solves it; it tells the others how far it has
come every few seconds, and finished analyses are kept there for whoever asks again. A claim
whose process has gone silent is taken over by the next process asked.

The queue has priorities: a player's request (`PLAYER`) before the server's own work
(`BACKGROUND`: a finished Jass tournament's games, tournament_analyses.py). Each priority has its
own budget of games queued or in work in this process (`waiting` for the players, beside the
visitor's own limit; `background` for the server's own, which no visitor's limit sees), the queue
hands out the highest priority first, and a game in work yields between its deals to one of a
higher priority that waits, going on after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from stichkit.analysis.review import Part, PartResult, analyse_part, assemble, parts
from stichkit.core import State

from .botrunner import worker_init
from .db.store import Store, StoredAnalysis
from .quotas import LimitReached

log = logging.getLogger("stichkit.server")

Key = tuple[str, int]  # (table id, game number)
PLAYER, BACKGROUND = 0, 1  # the queue's priorities, the lower first
BEAT = 5.0  # seconds between a process's signs of life (with progress) for the analyses it has in work
CLAIM_TIMEOUT = 30.0  # a claim without a sign of life for this long is taken over by the next asker


def silent(stored: StoredAnalysis, now: float) -> bool:
    """Has the process that claimed this analysis gone silent (died, or stopped without saying)?"""
    return stored.status == "working" and now - stored.updated_at > CLAIM_TIMEOUT


class Busy(Exception):
    """Too many games are waiting for their analysis."""


@dataclass
class Job:
    state: State
    parts: list[Part]
    status: str = "queued"  # queued | working | done | failed
    results: list[PartResult] = field(default_factory=list)
    error: str | None = None
    client: str | None = None  # who asked for it first (clients.client_key)
    priority: int = PLAYER  # PLAYER, or BACKGROUND: queued by the server itself (a tournament's games)
    told: int = -1  # what the keeper was last told: the results, plus one once in work (-1: nothing)
    # The analysis assembled from the results so far (how many, and it): answered again on every
    # follow-up POST and every beat, assembled again only when a deal came in.
    assembled: tuple[int, dict[str, Any] | None] = (0, None)

    def to_json(self) -> dict[str, Any]:
        if self.assembled[0] != len(self.results):
            self.assembled = (len(self.results), assemble(self.state, self.results).to_json())  # type: ignore[arg-type]
        analysis = self.assembled[1]
        return {"status": self.status, "deals_done": len(self.results), "deals": len(self.parts),
                "error": self.error, "analysis": analysis}  # fmt: skip


class Keeper(Protocol):
    """Where analyses are claimed, their progress told and the finished ones kept."""

    async def claim(self, key: Key, answer: dict[str, Any], seen: StoredAnalysis | None) -> bool: ...
    async def beat(self, progress: dict[Key, dict[str, Any] | None]) -> None: ...
    async def done(self, key: Key, answer: dict[str, Any]) -> None: ...
    async def failed(self, key: Key) -> None: ...


class DbKeeper:
    """The server's keeper: its database, shared by its processes (`owner` names this one)."""

    def __init__(self, db: Callable[..., Awaitable[Any]], store: Store, owner: str) -> None:
        self.db, self.store, self.owner = db, store, owner

    async def claim(self, key: Key, answer: dict[str, Any], seen: StoredAnalysis | None) -> bool:
        return bool(await self.db(self.store.claim_analysis, *key, self.owner, answer, time.time(), seen))

    async def beat(self, progress: dict[Key, dict[str, Any] | None]) -> None:
        await self.db(self.store.analysis_progress, self.owner, progress, time.time())

    async def done(self, key: Key, answer: dict[str, Any]) -> None:
        await self.db(self.store.save_analysis, *key, answer, time.time())

    async def failed(self, key: Key) -> None:
        await self.db(self.store.release_analyses, self.owner, [key])


class Analyses:
    """This process's analyses: one worker process, at most `waiting` players' games and
    `background` of the server's own queued or in work, the last `keep` finished ones remembered
    here (the keeper has them for restarts and the other processes)."""

    def __init__(self, waiting: int = 4, keep: int = 32, keeper: Keeper | None = None, per_client: int = 0,
                 background: int = 1, trim_seconds: float = 0.0) -> None:  # fmt: skip
        self.waiting = waiting
        self.trim_seconds = trim_seconds  # the worker's own malloc_trim (trim.py)
        self.budgets = {PLAYER: waiting, BACKGROUND: background}  # games of each priority queued or in work
        self.per_client = per_client  # games one client may have waiting or in work here (0: no limit)
        self.keeper = keeper
        self.keep = keep
        self.jobs: OrderedDict[Key, Job] = OrderedDict()
        self._queue: asyncio.PriorityQueue[tuple[int, int, Key]] = asyncio.PriorityQueue()  # (priority, arrival, game)
        self._arrived = 0
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def get(self, key: Key) -> Job | None:
        return self.jobs.get(key)

    def budget(self, priority: int) -> int:
        """How many games of `priority` may be queued or in work here (0: none is begun)."""
        return self.budgets[priority] if self.waiting else 0

    def _in_work(self, priority: int) -> int:
        return sum(1 for j in self.jobs.values() if j.status in ("queued", "working") and j.priority == priority)

    def _full(self, priority: int) -> Busy | None:
        busy, budget = self._in_work(priority), self.budgets[priority]
        if busy < budget:
            return None
        if priority == BACKGROUND:
            return Busy(f"this server analyses {budget} of its own games at a time")
        return Busy(f"this server is analysing {busy} games already; ask again in a few minutes")

    async def begin(self, key: Key, state: State, seen: StoredAnalysis | None = None,
                    client: str | None = None, priority: int = PLAYER) -> Job | None:  # fmt: skip
        """The game's analysis: the one begun here already, or a new one queued after every game of
        its `priority` and above once the keeper gave this process the claim (`seen`: the silent
        claim to take over, as read). None: another process claimed it first. Busy: the
        priority's budget is spent here; LimitReached: `client` has as many waiting as one client
        may."""
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        if self.waiting == 0:
            raise Busy("this server analyses no games (stich serve --max-analyses 0)")
        mine = sum(1 for j in self.jobs.values() if j.client == client and j.status in ("queued", "working"))
        if client is not None and self.per_client and mine >= self.per_client:
            reason = (
                f"{mine} games you asked for are being analysed already, the most one visitor may have "
                f"({self.per_client}); ask again when they are done"
            )
            raise LimitReached("client_analyses", reason)
        full = self._full(priority)
        if full is not None:
            raise full
        job = Job(state, parts(state, full=False), client=client, priority=priority)
        if self.keeper is not None:
            if not await self.keeper.claim(key, job.to_json(), seen):
                return None
            full = self._full(priority)
            if full is not None:
                await self.keeper.failed(key)  # others were begun here while claiming this one
                raise full
        self._enqueue(key, job)
        return job

    def _enqueue(self, key: Key, job: Job) -> None:
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        self._arrived += 1
        self._queue.put_nowait((job.priority, self._arrived, key))
        if not self._tasks:
            self._tasks = [asyncio.create_task(self._work())]
            if self.keeper is not None:
                self._tasks.append(asyncio.create_task(self._beat(self.keeper)))

    async def _beat(self, keeper: Keeper) -> None:
        """Every few seconds: a sign of life for the claims in work, with what came further."""
        while True:
            await asyncio.sleep(BEAT)
            progress: dict[Key, dict[str, Any] | None] = {}
            for key, job in list(self.jobs.items()):
                if job.status in ("queued", "working"):
                    told = len(job.results) + (job.status == "working")
                    progress[key] = job.to_json() if told != job.told else None
                    job.told = told
            if progress:
                try:
                    await keeper.beat(progress)
                except asyncio.CancelledError:
                    raise
                except Exception:  # the next beat tells it again, if the database is back by then
                    log.exception("telling the database how far the analyses are failed")
                    for key in progress:
                        self.jobs[key].told = -1

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            priority, arrived, key = await self._queue.get()
            job = self.jobs.get(key)
            if job is None:
                continue
            job.status = "working"
            log.info("analysing game %s of table %s (%d deals)", key[1], key[0], len(job.parts))
            try:
                for part in job.parts[len(job.results) :]:
                    if self._outranked(priority):
                        break  # a game of a higher priority waits: it goes first, this one after it
                    job.results.append(await loop.run_in_executor(self._executor(), analyse_part, part))
                if len(job.results) < len(job.parts):
                    job.status = "queued"
                    self._queue.put_nowait((priority, arrived, key))
                    continue
                job.status = "done"
            except asyncio.CancelledError:
                raise
            except BrokenProcessPool as e:
                # The worker process ended under it: killed, or a signal to the whole process group
                # as the server stops. No traceback: nothing in the analysis went wrong.
                self._pool = None
                log.warning("the analysis worker of game %s of table %s ended; it is begun again when asked",
                            key[1], key[0])  # fmt: skip
                job.status, job.error = "failed", f"the analysis failed: {e}"
            except Exception as e:
                log.exception("analysing game %s of table %s failed", key[1], key[0])
                job.status, job.error = "failed", f"the analysis failed: {e}"
            if self.keeper is not None:
                try:
                    if job.status == "done":
                        await self.keeper.done(key, job.to_json())
                    else:  # whoever asks next begins it again
                        await self.keeper.failed(key)
                except asyncio.CancelledError:
                    raise
                except Exception:  # still answered from memory here; a restart would solve it again
                    log.exception("keeping the analysis of game %s of table %s failed", key[1], key[0])
            self._forget_old()

    def _outranked(self, priority: int) -> bool:
        return any(j.status == "queued" and j.priority < priority for j in self.jobs.values())

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "failed")]
        for k in finished[: max(0, len(finished) - self.keep)]:
            del self.jobs[k]

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=ctx, initializer=worker_init,
                                             initargs=(os.getpid(), self.trim_seconds))  # fmt: skip
        return self._pool

    def close(self) -> None:
        """Stop at once: a search in progress may run for minutes, so its process is ended."""
        for task in self._tasks:
            task.cancel()
        if self._pool is not None:
            processes = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                with contextlib.suppress(Exception):
                    p.terminate()
            self._pool = None
