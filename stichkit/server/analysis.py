"""Double-dummy analysis of finished Jass games, for the replay: `stich analyse` in the browser.

A game is solved deal by deal (stichkit.analysis.review: `parts`, `analyse_part`, `assemble`,
the fast way: every card's points lost, one best card in the first two tricks) in a worker
process of its own, so the bots' workers never wait for it. A whole-deal search can take minutes
(docs/analysis.md), so games are analysed one at a time, a few at most wait, and each asker sees
the deals done so far. Finished analyses are kept (the hub stores them in the database) for
whoever asks again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from stichkit.analysis.review import Part, PartResult, analyse_part, assemble, parts
from stichkit.core import State

from .botrunner import worker_init

log = logging.getLogger("stichkit.server")

Key = tuple[str, int]  # (table id, game number)


class Busy(Exception):
    """Too many games are waiting for their analysis."""


@dataclass
class Job:
    state: State
    parts: list[Part]
    status: str = "queued"  # queued | working | done | failed
    results: list[PartResult] = field(default_factory=list)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        analysis = assemble(self.state, self.results).to_json() if self.results else None  # type: ignore[arg-type]
        return {"status": self.status, "deals_done": len(self.results), "deals": len(self.parts),
                "error": self.error, "analysis": analysis}  # fmt: skip


class Analyses:
    """The server's analyses: one worker process, `waiting` games at most queued or in work, the
    last `keep` finished ones remembered here (`done` keeps each in the database, for restarts
    and the other processes)."""

    def __init__(self, waiting: int = 4, keep: int = 32,
                 done: Callable[[Key, dict[str, Any]], Awaitable[None]] | None = None) -> None:  # fmt: skip
        """`done(key, answer)` is told of each finished analysis (the hub keeps it in the database)."""
        self.waiting = waiting
        self.done = done
        self.keep = keep
        self.jobs: OrderedDict[Key, Job] = OrderedDict()
        self._queue: asyncio.Queue[Key] = asyncio.Queue()
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None

    def get(self, key: Key) -> Job | None:
        return self.jobs.get(key)

    def start(self, key: Key, state: State) -> Job:
        """The game's analysis: the one begun already, or a new one at the end of the queue."""
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job
        if self.waiting == 0:
            raise Busy("this server analyses no games (stich serve --max-analyses 0)")
        busy = sum(1 for j in self.jobs.values() if j.status in ("queued", "working"))
        if busy >= self.waiting:
            raise Busy(f"this server is analysing {busy} games already; ask again in a few minutes")
        job = self.jobs[key] = Job(state, parts(state, full=False))
        self.jobs.move_to_end(key)
        self._queue.put_nowait(key)
        if self._task is None:
            self._task = asyncio.create_task(self._work())
        return job

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            key = await self._queue.get()
            job = self.jobs.get(key)
            if job is None:
                continue
            job.status = "working"
            try:
                for part in job.parts:
                    job.results.append(await loop.run_in_executor(self._executor(), analyse_part, part))
                job.status = "done"
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if isinstance(e, BrokenProcessPool):
                    self._pool = None
                log.exception("analysing game %s of table %s failed", key[1], key[0])
                job.status, job.error = "failed", f"the analysis failed: {e}"
            if job.status == "done" and self.done is not None:
                try:
                    await self.done(key, job.to_json())
                except asyncio.CancelledError:
                    raise
                except Exception:  # still answered from memory here; a restart would solve it again
                    log.exception("keeping the analysis of game %s of table %s failed", key[1], key[0])
            self._forget_old()

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "failed")]
        for k in finished[: max(0, len(finished) - self.keep)]:
            del self.jobs[k]

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        """Stop at once: a search in progress may run for minutes, so its process is ended."""
        if self._task is not None:
            self._task.cancel()
        if self._pool is not None:
            processes = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                with contextlib.suppress(Exception):
                    p.terminate()
            self._pool = None
