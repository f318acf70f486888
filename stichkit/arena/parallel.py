"""Running many games in worker processes, in order, with bounded memory.

`ordered_map(fn, items, workers)` is `map(fn, items)` in up to `workers` processes: never more
processes than there are items, and never more than a few items per worker taken from `items` at
a time, so a schedule of a billion games is streamed, not built, and results come back in order.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_WORKERS = 256  # more worker processes than this is a typo, not a machine
IN_FLIGHT = 4  # chunks queued per worker: enough to keep every worker busy


def _chunk_map(job: tuple[Callable[[Any], Any], list[Any]]) -> list[Any]:
    fn, chunk = job
    return [fn(x) for x in chunk]


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int, chunk: int = 1) -> Iterator[R]:
    """`fn` over `items`, results in order, in up to `workers` processes (`fn` must be picklable);
    `chunk` items go to a worker at once (fewer round trips for short tasks)."""
    it = iter(items)
    chunk = max(1, chunk)
    first = list(itertools.islice(it, max(1, workers) * chunk))
    procs = min(workers, MAX_WORKERS, -(-len(first) // chunk))  # never more processes than work
    if procs <= 1:
        yield from map(fn, first)
        yield from map(fn, it)
        return
    pool = ProcessPoolExecutor(max_workers=procs)
    pending: deque[Future[list[R]]] = deque()
    try:
        rest = itertools.chain(first, it)
        while True:
            batch = list(itertools.islice(rest, chunk))
            if not batch:
                break
            if len(pending) >= procs * IN_FLIGHT:
                yield from pending.popleft().result()
            pending.append(pool.submit(_chunk_map, (fn, batch)))
        while pending:
            yield from pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
