"""SIGKILL at random moments: every table comes back at its exact version, nothing lost or doubled.

Bot tables play fast, a scripted human plays at another, and spectators note every version they
are shown. The server process is killed (SIGKILL, no clean-up) many times at random moments and
started again on the same database (SQLite and PostgreSQL). After each kill the database must
hold, for every table, one action per version with nothing missing; every version anyone was
shown must be in it, exactly as shown (the spectator's view is compared with the engine's replay
of the stored actions); each table must come back at that version; and its bots must play on.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import websockets

import stichkit
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store
from stichkit.server.model import StoredTable

from .harness import Client, Server, postgres_database, run, wait_until

KILLS = 5
TABLES = [
    ("jass", ["bot:random"] * 4, {"target": 2500}),
    ("stichmeister", ["bot:random", "bot:heuristic", "bot:random"], {}),
    ("stichling", ["bot:random"] * 5, {}),
    ("stichwahl", ["bot:random", "bot:random"], {"target": 60}),
]
HUMAN_TABLE = ("stichling", ["human", "bot:random", "bot:random"], {})


def stored_tables(db: str) -> dict[str, StoredTable]:
    engine = make_engine(parse_db_url(db))
    try:
        return {t.id: t for t in Store(engine).load_tables()}
    finally:
        engine.dispose()


def replayed_views(t: StoredTable) -> list[dict[str, Any]]:
    """view(None) at every version, rebuilt by the engine from the seed and the stored actions."""
    state = stichkit.load_game(t.game, **t.options).new_state(seed=t.seed)
    views = [state.view(None)]
    for a in t.actions:
        state.apply(a.action)
        views.append(state.view(None))
    return views


async def watch(server: Server, table: str, seen: dict[str, dict[int, dict[str, Any]]]) -> None:
    """A spectator noting the view of every version it is shown, until its connection dies."""
    try:
        c = await Client.open(server, table)
        while True:
            m = await c.recv(60)
            if m["type"] == "state":
                seen[table][m["version"]] = m["view"]
    except (websockets.ConnectionClosed, OSError, TimeoutError):
        return


async def human(server: Server, table: str, token: str, acked: list[tuple[int, str]], rng: random.Random) -> None:
    """A player at seat 0 who moves at once and notes each of its moves the server confirmed."""
    mine: dict[int, str] = {}
    try:
        c = await Client.open(server, table, token)
        while True:
            m = await c.recv(60)
            if m["type"] != "state":
                continue
            v = m["version"]
            if m["last"] and m["last"]["seat"] == 0 and m["last"]["by"] == "human" and v in mine:
                acked.append((v, mine[v]))
            if m["legal"]:
                action = rng.choice(m["legal"])
                mine[v + 1] = action
                await c.send({"type": "act", "action": action, "version": v})
    except (websockets.ConnectionClosed, OSError, TimeoutError):
        return


def group_gone(pgid: int, timeout: float = 10) -> bool:
    def gone() -> bool:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        return False

    return wait_until(gone, timeout, every=0.1)


def kill_and_restart_many_times(db: str, log: Path, seed: int) -> None:
    rng = random.Random(seed)
    server = Server(db, log, "--bot-delay", "0.02", "--bot-workers", "1").start()
    try:
        ids = [server.open_table(g, seats, options=o)["id"] for g, seats, o in TABLES]
        g, seats, o = HUMAN_TABLE
        human_table = server.open_table(g, seats, options=o)["id"]
        ids.append(human_table)
        token = server.join(human_table, "Zora")["token"]
        seen: dict[str, dict[int, dict[str, Any]]] = {t: {} for t in ids}
        acked: list[tuple[int, str]] = []
        last: dict[str, int] = {}
        history: dict[str, list[tuple[int, str]]] = {}
        for round_ in range(KILLS):

            async def until_killed(seen: dict[str, dict[int, dict[str, Any]]]) -> None:
                tasks = [asyncio.create_task(watch(server, t, seen)) for t in ids]
                tasks.append(asyncio.create_task(human(server, human_table, token, acked, rng)))
                await asyncio.sleep(rng.uniform(0.3, 1.5))
                assert server.proc is not None
                pgid = server.proc.pid
                server.proc.kill()  # SIGKILL to the server alone: its bot workers must notice by themselves
                server.proc.wait(10)
                server.proc = None
                await asyncio.wait(tasks, timeout=30)
                assert group_gone(pgid), "bot worker processes outlived their server"

            run(until_killed(seen))
            stored = stored_tables(db)
            for t in ids:
                s = stored[t]
                assert [a.version for a in s.actions] == list(range(1, len(s.actions) + 1)), "a version is missing"
                views = replayed_views(s)  # every stored action is legal, in order
                for v, view in seen[t].items():
                    assert v < len(views), f"round {round_}: table {t} showed version {v}, stored only {len(views) - 1}"
                    assert view == views[v], f"round {round_}: table {t} showed a version {v} that is not stored"
                before = history.get(t, [])
                assert [(a.version, a.action) for a in s.actions[: len(before)]] == before, (
                    f"round {round_}: table {t} did not go on from the version it was restored at"
                )
                history[t] = [(a.version, a.action) for a in s.actions]
                last[t] = len(s.actions)
            moves = {a.version: a.action for a in stored[human_table].actions if a.seat == 0 and a.by == "human"}
            for v, action in acked:
                assert moves.get(v) == action, f"the confirmed move {action} at version {v} was lost"
            server.start()
            for t in ids:  # (its bots may have moved on already; the next round checks they went on from last[t])
                assert server.get(f"/api/tables/{t}").json()["version"] >= last[t], "restored at an older version"
            seen = {t: {} for t in ids}
        # The bots play on after the last restart.
        stalled = {t for t in ids if stored_tables(db)[t].status == "playing"} - {human_table}

        def all_moved() -> bool:
            moved = [t for t in stalled if server.get(f"/api/tables/{t}").json()["version"] > last[t]]
            stalled.difference_update(moved)
            return not stalled

        assert wait_until(all_moved, 30), f"these tables' bots did not play on: {sorted(stalled)}"
        assert len(acked) > 0
    finally:
        if server.proc is not None:
            pgid = server.proc.pid
            server.stop()
            group_gone(pgid)


def test_sigkill_at_random_moments_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    kill_and_restart_many_times(f"sqlite:///{tmp_path / 'kill.db'}", tmp_path / "server.log", seed=11)


def test_sigkill_at_random_moments_loses_nothing_on_postgresql(tmp_path: Path) -> None:
    with postgres_database() as db:
        kill_and_restart_many_times(db, tmp_path / "server.log", seed=12)
