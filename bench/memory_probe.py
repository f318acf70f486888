"""`stich serve` with a memory probe, for bench/serve_memory.py only: run in place of `stich
serve` (`python bench/memory_probe.py serve ARGS`), SIGUSR1 makes the process write what it holds
to `$STICHKIT_PROBE_OUT.<pid>.<n>.json`: its resident size, the C allocator's and Python's own
heap, the live objects by type, and the size of every per-table, per-client, per-connection and
per-worker structure the server keeps. With `STICHKIT_PROBE_FRAMES=N` (N > 0) the server also
traces its allocations (tracemalloc, N frames) from the first probe on, and each later probe
dumps a snapshot beside its report.

The bot and analysis workers (spawned: they import this file as `__mp_main__`) get the same
handler, with their own structures (the bots each worker has made, the deal caches). The
server itself has no such hook: nothing here is reachable from outside the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from collections import Counter
from typing import Any

_count = 0


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]  # fmt: skip


def malloc_info() -> dict[str, int]:
    """glibc's heap: `arena` taken from the system by brk, `in_use` of it handed out, `free` kept
    (fragmentation), `mmapped` large blocks (empty where glibc is not the allocator)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        m = libc.mallinfo2()
        return {"arena": m.arena, "in_use": m.uordblks, "free": m.fordblks, "mmapped": m.hblkhd}
    return {}


def proc_status() -> dict[str, float]:
    found: dict[str, float] = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
                found[key] = float(value.split()[0]) / (1 if key == "Threads" else 1024)
    return found


def sizes_of(obj: Any, names: list[str]) -> dict[str, int]:
    """len() of each attribute path that exists ("a.b.c")."""
    out = {}
    for name in names:
        value: Any = obj
        try:
            for part in name.split("."):
                value = getattr(value, part)
            out[name] = len(value)
        except (AttributeError, TypeError):
            continue
    return out


def server_structures(objects: list[Any]) -> dict[str, int]:
    """Every structure of the table server that grows with tables, clients or connections."""
    from stichkit.server import botrunner, guard
    from stichkit.server.hub import Hub
    from stichkit.server.routers import records

    hubs = [o for o in objects if isinstance(o, Hub)]
    out: dict[str, int] = {"hubs": len(hubs)}
    if hubs:
        hub = hubs[0]
        out |= sizes_of(hub, [
            "tables", "_bot_cache", "bots._waiting", "bots._held", "bots._inline", "in_flight._held",
            "analyses.jobs", "peers._seen", "owner._owned", "_tasks", "moves._queue",
        ])  # fmt: skip
        storage = hub.bot_time._limiter.storage
        out |= {f"bot_time.{k}": len(getattr(storage, k)) for k in ("storage", "expirations", "events", "locks")}
        limits = getattr(hub.accounts, "limits", None)
        if limits is not None and hasattr(limits.storage, "storage"):
            out |= {f"login_limits.{k}": len(getattr(limits.storage, k))
                    for k in ("storage", "expirations", "events", "locks")}  # fmt: skip
        tables = list(hub.tables.values())
        out["table.clients (sum)"] = sum(len(t.clients) for t in tables)
        out["table.peers (sum)"] = sum(len(t.peers) for t in tables)
        out["table.hints_due (sum)"] = sum(len(t.hints_due) for t in tables)
        out["table.history (sum)"] = sum(len(t.state.history()) for t in tables)
        with contextlib.suppress(Exception):
            out["asyncio tasks"] = len(asyncio.all_tasks(hub._tasks[0].get_loop()))
        engine = getattr(hub, "engine", None)
        if engine is not None:
            cache = getattr(engine, "_compiled_cache", None)
            if cache is not None:
                out["sqlalchemy compiled cache"] = len(cache)
            out["sqlalchemy pool checked out"] = engine.pool.checkedout()
    out["replay cache"] = len(records.REPLAYS)
    out["replay cache KB"] = records.REPLAYS.size // 1024
    out["worker bots (server side)"] = len(botrunner._WORKER_BOTS)
    with contextlib.suppress(ImportError):
        from stichkit.server.trim import STATS

        out["malloc_trim calls"] = int(STATS["trims"])
        out["malloc_trim ms (longest)"] = round(STATS["longest"] * 1000)
        out["malloc_trim ms (all)"] = round(STATS["seconds"] * 1000)
    for counter in (o for o in objects if isinstance(o, guard.Counter)):
        out |= {f"guard.{k}": len(getattr(counter, k)) for k in ("open", "_held", "_warned")}
    return out


def worker_structures() -> dict[str, int]:
    """What a bot or analysis worker keeps between moves."""
    out: dict[str, int] = {}
    mods = sys.modules
    if "stichkit.server.botrunner" in mods:
        out["worker bots"] = len(mods["stichkit.server.botrunner"]._WORKER_BOTS)
    for name, attr in (("stichkit.games.stichling.deals", "deal_hands"), ("stichkit.games.stichwahl.deals",
                                                                          "deal_from_seed")):  # fmt: skip
        if name in mods:
            out[f"{name}.{attr} cache"] = getattr(mods[name], attr).cache_info().currsize
    for name, attr in (("stichkit.bots.base", "_GAMES"), ("stichkit.core.files", "_PARSED")):
        if name in mods:
            out[f"{name}.{attr}"] = len(getattr(mods[name], attr))
    return out


def report(signum: int, frame: Any) -> None:
    global _count
    _count += 1
    frames = int(os.environ.get("STICHKIT_PROBE_FRAMES", "0") or 0)
    began = time.monotonic()
    gc.collect()
    objects = gc.get_objects()
    types = Counter(type(o).__qualname__ for o in objects)
    data: dict[str, Any] = {
        "pid": os.getpid(), "role": "server" if __name__ == "__main__" else "worker", "at": time.time(),
        "status": proc_status(), "malloc": malloc_info(), "python_blocks": sys.getallocatedblocks(),
        "objects": len(objects), "types": dict(types.most_common(400)),
        "gc_garbage": len(gc.garbage),
    }  # fmt: skip
    try:
        data["structures"] = server_structures(objects) if __name__ == "__main__" else {}
    except Exception as e:  # the report says so rather than losing the sample
        data["structures_error"] = repr(e)
    data["structures"] = {**data.get("structures", {}), **worker_structures()}
    del objects
    base = f"{os.environ['STICHKIT_PROBE_OUT']}.{os.getpid()}.{_count}"
    if tracemalloc.is_tracing():
        data["traced"] = tracemalloc.get_traced_memory()
        probe = [tracemalloc.Filter(False, f, all_frames=True) for f in (tracemalloc.__file__, __file__)]
        snap = tracemalloc.take_snapshot().filter_traces(probe)  # not the probe's own
        snap.dump(base + ".snap")
        data["snapshot"] = base + ".snap"
    elif frames > 0 and __name__ == "__main__":  # the server's allocations from now on (not its start's)
        tracemalloc.start(frames)
    data["probe_seconds"] = time.monotonic() - began
    with open(base + ".json.tmp", "w") as f:
        json.dump(data, f)
    os.replace(base + ".json.tmp", base + ".json")


def install() -> None:
    signal.signal(signal.SIGUSR1, report)


if __name__ == "__main__":
    install()
    from stichkit.cli.main import main

    sys.exit(main(sys.argv[1:]))
elif __name__ == "__mp_main__" and os.environ.get("STICHKIT_PROBE_OUT"):
    install()  # a bot or analysis worker of the probed server
