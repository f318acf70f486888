"""What the server keeps in memory stays bounded under long play: caches keyed by what table
openers choose (bot specs) keep only the most recently used, the replays kept for the next ask
are bounded by their size, not their number, tables of one game share the game, and a table
swept leaves nothing behind. (bench/serve_memory.py measures what a table churned leaves
behind, structure by structure; bench/serve_soak.py the resident size over a long run.)"""

from __future__ import annotations

import asyncio
import gc
import json
import platform
import sys
import time
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

import pytest

from stichkit import load_game
from stichkit.server import botrunner, scheduler
from stichkit.server import trim as trim_module
from stichkit.server.botrunner import Recent, parse_bot_spec
from stichkit.server.hub import Hub, NewTable
from stichkit.server.routers import records
from stichkit.server.settings import Settings

from .inprocess import Listener, running
from .stored_games import played, store_copies


def test_recent_keeps_the_values_used_last() -> None:
    kept: Recent[int, str] = Recent(2)
    assert kept.get(1, lambda: "one") == "one"
    kept.get(2, lambda: "two")
    assert kept.get(1, lambda: "again") == "one"  # used again: kept, and now the newest
    kept.get(3, lambda: "three")  # 2 was used longest ago: it goes
    assert len(kept) == 2 and kept.get(2, lambda: "made again") == "made again"


def test_bot_specs_table_openers_choose_do_not_pile_up(tmp_path: Path) -> None:
    hub = Hub(Settings(db=f"sqlite:///{tmp_path / 'hub.db'}", bot_workers=1))
    labels = [f"ismcts:iterations={n}" for n in range(10, 400)]
    for label in labels:
        assert hub.seat_bot(label).label == label
    assert len(hub._bot_cache) == 256
    # a worker makes each bot once and keeps the few used last
    state = load_game("stichling").new_state(seed=1)
    for n in range(1, 40):
        bot = parse_bot_spec(f"ismcts:iterations={n}", max_time=5)
        assert botrunner._decide(bot.spec.name, bot.params, state.record(), state.current_player)
    assert len(botrunner._WORKER_BOTS) == 16


def test_replays_kept_are_bounded_by_their_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen replays of 1000-point Jass games kept as Python objects held 60 MB (ten: 37 MB);
    what is kept now is their JSON, 8 MB of it at most, the ones asked for last."""
    game = played("jass", {"target": 1000}, seed=3)
    assert len(game.history()) > 300  # a long game: its replay is about 1 MB of JSON
    ids = [f"long{i}" for i in range(10)]
    store_copies(f"sqlite:///{tmp_path / 'hub.db'}", ids, game, seed=3)

    async def ask_all() -> tuple[int, dict[str, Any]]:
        async with running(tmp_path, table=ids[0]) as (hub, _):
            monkeypatch.setattr(records, "REPLAYS", records.Replays(records.REPLAY_CACHE_BYTES))  # this test's alone
            gc.collect()
            tracemalloc.start()
            try:
                for table_id in ids:
                    records.replay(table_id, hub, None)
                gc.collect()
                kept = tracemalloc.get_traced_memory()[0]
            finally:
                tracemalloc.stop()
            first = json.loads(bytes(records.replay(ids[0], hub, None).body))  # asked again: made again
            assert 0 < records.REPLAYS.size <= records.REPLAY_CACHE_BYTES
            last = json.loads(bytes(records.replay(ids[-1], hub, None).body))  # the newest is kept, and served as made
            assert last["frames"] == first["frames"] and last["table"] == ids[-1]
            return kept, first

    kept, first = asyncio.run(ask_all())
    assert len(first["frames"]) == len(game.history()) + 1
    assert first["frames"][-1]["view"] == json.loads(json.dumps(game.view(None)))
    assert kept < 12 * 2**20, f"the replays asked for keep {kept / 2**20:.1f} MB"


def test_a_replay_larger_than_the_budget_is_not_kept() -> None:
    kept = records.Replays(100)
    kept.keep(("a", 1), b"x" * 60)
    kept.keep(("b", 1), b"y" * 101)  # over the whole budget: not kept, and nothing else goes for it
    assert kept.get(("b", 1)) is None and kept.get(("a", 1)) == b"x" * 60
    kept.keep(("c", 1), b"z" * 50)  # 110 bytes: the one used longest ago goes
    assert kept.get(("a", 1)) is None and kept.size == 50 and len(kept) == 1


class Watcher(Listener):
    """A spectator's connection, as the hub holds one (it is stopped when it goes)."""

    async def stop(self) -> None:
        self.stopped = True


def test_tables_played_and_swept_leave_nothing_behind(tmp_path: Path) -> None:
    """Tables opened, watched, played to the end by bots and swept: the hub's structures are back
    at their size, and the tables, their games and their connections are collected."""

    def sizes(hub: Hub) -> dict[str, int]:
        storage: Any = hub.bot_time._limiter.storage  # the limits library's memory storage
        return {
            "tables": len(hub.tables), "bots waiting": len(hub.bots._waiting), "bots held": len(hub.bots._held),
            "in flight": len(hub.in_flight._held), "analyses": len(hub.analyses.jobs),
            "bot time": len(storage.storage) + len(storage.events), "bot specs": len(hub._bot_cache),
        }  # fmt: skip

    async def churn() -> tuple[dict[str, int], dict[str, int], list[weakref.ref[Any]]]:
        async with running(tmp_path, bot_delay=0.0) as (hub, _):
            await asyncio.sleep(0)
            before = sizes(hub)
            gone: list[weakref.ref[Any]] = []
            for n in range(6):
                game = ("stichling", "stichwahl")[n % 2]
                t = await hub.create_table(NewTable(
                    game=game, options={"players": 2}, seats=["bot:random", "bot:heuristic"], private=False,
                    name=None, takeover="hand", grace=60.0, takeover_bot="bot:heuristic", move_time=None,
                    client="address:127.0.0.1",
                ))  # fmt: skip
                watcher = Watcher()
                await hub.connect(t, watcher)  # type: ignore[arg-type]
                for _ in range(600):
                    if t.status == "over":
                        break
                    await asyncio.sleep(0.05)
                assert t.status == "over", f"{game}: the bots did not finish in 30 s"
                await hub.disconnect(t, watcher)  # type: ignore[arg-type]
                await hub.sweep(t, "played")
                gone += [weakref.ref(t), weakref.ref(t.state), weakref.ref(watcher)]
                del t, watcher
            await asyncio.sleep(0.1)  # the bots' last tasks end
            after = sizes(hub)
        return before, after, gone

    before, after, gone = asyncio.run(churn())
    gc.collect()
    assert after == before
    assert [r for r in gone if r() is not None] == [], "a swept table, its game or its connection is still held"


def test_tables_of_one_game_and_options_share_the_game(tmp_path: Path) -> None:
    """A Stichling game builds 0.6 MB of action tables once for all its states: forty times what
    a table's own state takes. Twenty tables held twenty of them; they share one now, read back
    from the database too."""

    def opened(game: str, options: dict[str, Any]) -> NewTable:
        return NewTable(game=game, options=options, seats=["human", "bot:random"], private=False, name=None,
                        takeover="hand", grace=60.0, takeover_bot="bot:heuristic", move_time=None)  # fmt: skip

    async def open_tables() -> tuple[int, list[str], bool]:
        async with running(tmp_path, game="stichling", seats=("human", "bot:random"), options={"players": 2}) as (
            hub,
            first,
        ):
            gc.collect()
            tracemalloc.start()
            try:
                tables = [await hub.create_table(opened("stichling", {"players": 2})) for _ in range(20)]
                gc.collect()
                held = tracemalloc.get_traced_memory()[0]
            finally:
                tracemalloc.stop()
            other = await hub.create_table(opened("stichwahl", {"players": 2, "target": 20}))
            assert other.game is not first.game and other.game.options["target"] == 20
            return held, [first.id, *(t.id for t in tables)], all(t.game is first.game for t in tables)

    held, ids, shared = asyncio.run(open_tables())
    assert held < 20 * 200 * 1024, f"20 Stichling tables hold {held / 2**20:.1f} MB"
    assert shared

    async def restored() -> None:
        async with running(tmp_path, table=ids[0]) as (hub, first):
            assert all(hub.tables[i].game is first.game for i in ids)

    asyncio.run(restored())


def test_the_scheduler_trims_the_c_heap_every_malloc_trim_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """glibc keeps what the server frees (replays built and dropped) and the resident size crept
    up under long play (docs/benchmarks.md): the scheduler's tick gives it back, once per
    `malloc_trim` seconds, and never with 0."""
    calls: list[float] = []
    monkeypatch.setattr(scheduler, "trim", lambda: calls.append(1.0) or 0.001)

    async def ticks(every: float) -> int:
        calls.clear()
        async with running(tmp_path, malloc_trim=every, tick=3600.0) as (hub, _):  # its own loop stays asleep
            start = time.time()
            for t in (start + 1, start + every + 1, start + every + 2, start + 2 * every + 2):
                await hub.scheduler.tick(t)
        return len(calls)

    assert asyncio.run(ticks(60.0)) == 2  # at 61 s and at 122 s; not at 1 s, nor 1 s after a trim
    assert asyncio.run(ticks(0.0)) == 0


def test_without_glibc_the_trim_does_nothing_and_the_server_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """musl, macOS, Windows: no `malloc_trim` to call; the tick goes on past it (it sweeps)."""

    class NoTrim:  # a C library without malloc_trim (musl's has none; macOS's libc neither)
        def __init__(self, name: str | None) -> None:
            pass

    monkeypatch.setattr(trim_module.ctypes, "CDLL", NoTrim)
    trim_module.malloc_trim.cache_clear()
    try:
        assert trim_module.malloc_trim() is None and trim_module.trim() is None

        async def go() -> None:
            async with running(tmp_path, malloc_trim=0.5, tick=3600.0) as (hub, t):
                now = time.time()
                await hub.scheduler.tick(now + 1)  # a trim is due: there is none to call
                await hub.scheduler.tick(now + 2 * hub.settings.sweep_waiting)  # and the tick still sweeps
                assert t.id not in hub.tables

        asyncio.run(go())
    finally:
        trim_module.malloc_trim.cache_clear()


@pytest.mark.skipif(sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_on_glibc_the_trim_runs_and_is_counted() -> None:
    before = trim_module.STATS["trims"]
    took = trim_module.trim()
    assert took is not None and took >= 0.0 and trim_module.STATS["trims"] == before + 1


def _trims_after(seconds: float) -> int:
    """In a worker: the trims it made while it waited `seconds`."""
    time.sleep(seconds)
    return int(trim_module.STATS["trims"])


@pytest.mark.skipif(sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_the_bot_and_analysis_workers_trim_themselves_as_often_as_the_server() -> None:
    """A bot worker's searches free as much as the server's replays: its own thread trims it every
    `--malloc-trim` seconds, and never with 0 (the workers' start is the pool's initializer)."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")
    for every, least, most in ((0.1, 3, 20), (0.0, 0, 0)):
        with ProcessPoolExecutor(1, mp_context=ctx, initializer=botrunner.worker_init,
                                 initargs=(os.getpid(), every)) as pool:  # fmt: skip
            trims = pool.submit(_trims_after, 0.6).result(timeout=60)
        assert least <= trims <= most, (every, trims)


def test_the_server_gives_its_workers_its_malloc_trim(tmp_path: Path) -> None:
    async def given() -> tuple[float, float]:
        async with running(tmp_path, malloc_trim=7.0, tick=3600.0) as (hub, _):
            return hub.bots.trim_seconds, hub.analyses.trim_seconds

    assert asyncio.run(given()) == (7.0, 7.0)
