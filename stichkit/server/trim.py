"""Giving freed memory back to the system (glibc only).

Under long play the server's Python objects and the C heap in use stay flat, but glibc keeps
what was freed among them (the replays built, each a moment's 0.6 MB of objects) and the
resident size creeps up with it (docs/benchmarks.md, "Memory under long play").
`malloc_trim(0)` hands the free pages of every arena back. The scheduler calls `trim` at most
every `Settings.malloc_trim` seconds, in a thread: the call holds each arena's lock in turn,
not the event loop. The bot and analysis workers trim themselves as often, from a thread of
their own (`trim_every`): their searches free as much as the server does.

Elsewhere (musl, macOS, Windows, a libc without `malloc_trim`) there is nothing to call, and
`trim` does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from collections.abc import Callable
from functools import cache

log = logging.getLogger("stichkit.server")

# What the trims of this process cost so far (bench/memory_probe.py reads them): how many, and
# their seconds in all and the longest.
STATS = {"trims": 0, "seconds": 0.0, "longest": 0.0}


@cache
def malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library has none."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


def trim() -> float | None:
    """Give the free pages back; the seconds it took, or None where there is no `malloc_trim`."""
    fn = malloc_trim()
    if fn is None:
        return None
    began = time.perf_counter()
    fn(0)
    took = time.perf_counter() - began
    STATS["trims"] += 1
    STATS["seconds"] += took
    STATS["longest"] = max(STATS["longest"], took)
    log.debug("malloc_trim: %.1f ms", took * 1000)
    return took


def trim_every(seconds: float) -> None:
    """In a worker process: `trim` every `seconds` (0: never), from a daemon thread, so that the
    worker's searches, which allocate and free as the server's replays do, give memory back too."""
    if seconds <= 0 or malloc_trim() is None:
        return

    def loop() -> None:
        while True:
            time.sleep(seconds)
            trim()

    threading.Thread(target=loop, name="malloc-trim", daemon=True).start()
