"""The table server's memory per table churned: what a table opened, played, left and swept
leaves behind, measured structure by structure.

A fresh `stich serve` (SQLite by default, two bot workers) runs under bench/memory_probe.py,
which makes the server and each of its workers write what they hold when sent SIGUSR1. Then
`--lanes` lanes each open one table after another, for `--minutes`: a Jass table (target 157, one
deal or two) of two scripted players and two server bots (`heuristic`, `ismcts:time=0.05`), where
the players move at once, now and then ask for a hint, say a line of chat, take a move back,
drop their connection and come back; a spectator looks in for a while; after `--games` games
(rematched) a replay and a record are fetched, both players leave, and the server sweeps the
table. Beside them one lane opens tables of four bots, watches them to the end and leaves them
to the sweep. So tables, connections, clients, hints and games come and go as fast as the two
cores allow: a leak per table shows in minutes, where a steady soak takes hours.

Every `--every` seconds the server and its workers are probed. At the end, from the first probe
after the warm-up (the first fifth of the run, at least a minute) to the last:
- the target: the server's resident size per table churned (KB), beside its reference, the same
  figure the tables' own data would make if nothing were freed (a table's stored game);
- each structure's size at the start and end (tables held, connections, the bot-time windows,
  the caches), so a structure that grows with every table shows by name;
- the live Python objects by type that grew most, and the C heap (glibc: in use, and free but
  kept: fragmentation);
- the same for each bot worker;
- with `--trace N`, the allocations that grew most (tracemalloc, grouped by N frames of
  traceback; it slows the server, so fewer tables are churned).

    .venv/bin/python bench/serve_memory.py                       # 6 minutes, 12 lanes
    .venv/bin/python bench/serve_memory.py --minutes 10 --trace 8  # where the growth is allocated

CI does not run it; it takes as long as it is told.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from serve_load import PROBE, children, probe, rss_mb, sample_for, serving, show_process
from websockets.typing import Subprotocol

SEATS = ["human", "bot:heuristic", "human", "bot:ismcts:time=0.05"]
# A table with its two games as the database holds them: what the server would grow by per table
# if it kept every table it ever had.
REFERENCE_KB = 60.0


# answers a player who moves at once, and asks for hints and takebacks, may get
EXPECTED = ("stale", "busy", "not_your_turn", "no_takeback", "takeback_open", "nothing_to_take_back")


@dataclass
class Counts:
    tables: int = 0  # tables opened by the lanes (both kinds)
    closed: int = 0  # tables all players have left (the sweep takes them away)
    games: int = 0
    moves: int = 0
    connections: int = 0
    hints: int = 0
    chats: int = 0
    takebacks: int = 0
    replays: int = 0
    errors: int = 0
    codes: Counter[str] = field(default_factory=Counter)  # the errors by code (or exception)


def ws_url(base: str, table: str) -> str:
    return base.replace("http", "ws") + f"/ws/tables/{table}"


def token_protocols(token: str) -> list[Subprotocol]:
    return [Subprotocol("stichkit"), Subprotocol(f"stichkit.token.{token}")]


async def player(base: str, table: str, token: str, games: int, counts: Counts, rng: random.Random) -> None:
    """One scripted player at one table: plays `games` games to their end, then returns."""
    seen = 0
    while True:
        counts.connections += 1
        try:
            async with websockets.connect(ws_url(base, table), subprotocols=token_protocols(token), max_size=None,
                                          open_timeout=60, ping_interval=None) as ws:  # fmt: skip
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if m["type"] == "error" and m["code"] not in EXPECTED:
                        counts.errors += 1
                        counts.codes[m["code"]] += 1
                    if m["type"] != "state":
                        continue
                    info = m["table"]
                    if info["status"] == "over":
                        if m["game_no"] > seen:
                            seen = m["game_no"]
                            counts.games += 1
                        if seen >= games:
                            return
                        await ws.send(json.dumps({"type": "rematch"}))
                        continue
                    tb = info.get("takeback")
                    if tb and tb["declined"] is None and tb["seat"] != m["seat"]:
                        await ws.send(json.dumps({"type": "takeback_answer", "accept": True}))
                    if not m["legal"]:
                        continue
                    r = rng.random()
                    if r < 0.04:
                        await ws.send(json.dumps({"type": "hint", "version": m["version"]}))
                        counts.hints += 1
                    elif r < 0.06:
                        await ws.send(json.dumps({"type": "chat", "text": f"Gut gespielt {rng.randrange(1000)}"}))
                        counts.chats += 1
                    elif r < 0.07 and m["version"] > 4:
                        await ws.send(json.dumps({"type": "takeback", "version": m["version"]}))
                        counts.takebacks += 1
                        continue
                    await asyncio.sleep(rng.uniform(0.02, 0.1))
                    await ws.send(json.dumps({"type": "act", "action": rng.choice(m["legal"]),
                                              "version": m["version"]}))  # fmt: skip
                    counts.moves += 1
                    if rng.random() < 0.01:
                        break  # drop the connection; the player comes back at once
        except (OSError, websockets.ConnectionClosed, TimeoutError) as e:
            counts.errors += 1
            counts.codes[type(e).__name__] += 1
            await asyncio.sleep(0.5)


async def spectator(base: str, table: str, seconds: float) -> None:
    with contextlib.suppress(OSError, websockets.ConnectionClosed, TimeoutError):
        async with websockets.connect(ws_url(base, table), max_size=None, open_timeout=60, ping_interval=None) as ws:
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                await asyncio.wait_for(ws.recv(), 60)


async def people_lane(base: str, games: int, counts: Counts, rng: random.Random, stop: asyncio.Event) -> None:
    """Tables of two people and two bots, one after another."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            body = {"game": "jass", "seats": SEATS, "options": {"target": 157}, "takeover": "off", "private": True}
            r = await http.post("/api/tables", json=body)
            if r.status_code != 201:
                counts.errors += 1
                await asyncio.sleep(1)
                continue
            table = r.json()["id"]
            counts.tables += 1
            tokens = []
            for name in ("Ida", "Jon"):  # two people: two browsers, each with its own identity cookie
                async with httpx.AsyncClient(base_url=base, timeout=60) as own:
                    tokens.append((await own.post(f"/api/tables/{table}/join", json={"name": name})).json()["token"])
            watch = asyncio.create_task(spectator(base, table, rng.uniform(2, 10)))
            await asyncio.gather(*[player(base, table, tok, games, counts, random.Random(rng.random()))
                                   for tok in tokens])  # fmt: skip
            await watch
            for game_no in range(1, games + 1):
                if rng.random() < 0.3:
                    ok = await http.get(f"/api/tables/{table}/replay", params={"game": game_no})
                    await http.get(f"/api/tables/{table}/record", params={"game": game_no})
                    counts.replays += ok.status_code == 200
            for tok in tokens:
                await http.post(f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {tok}"})
            counts.closed += 1


async def bots_lane(base: str, counts: Counts, rng: random.Random, stop: asyncio.Event) -> None:
    """Tables of bots alone, watched to their end and left to the sweep."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            game = rng.choice(["stichling", "stichwahl"])
            body = {"game": game, "seats": ["bot:heuristic", "bot:random"], "options": {"players": 2}}
            r = await http.post("/api/tables", json=body)
            if r.status_code != 201:
                counts.errors += 1
                await asyncio.sleep(1)
                continue
            counts.tables += 1
            with contextlib.suppress(OSError, websockets.ConnectionClosed, TimeoutError):
                async with websockets.connect(ws_url(base, r.json()["id"]), max_size=None, open_timeout=60,
                                              ping_interval=None) as ws:  # fmt: skip
                    until = time.monotonic() + 60
                    while time.monotonic() < until:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if m.get("table", {}).get("status") == "over":
                            break
            counts.closed += 1


async def churn(base: str, pid: int, out: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    counts = Counts()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(people_lane(base, args.games, counts, random.Random(rng.random()), stop))
             for _ in range(args.lanes)]  # fmt: skip
    tasks.append(asyncio.create_task(bots_lane(base, counts, random.Random(rng.random()), stop)))

    async def sample(minute: float) -> dict[str, Any]:
        probes = await asyncio.to_thread(probe, pid, out)
        return {"counts": {**vars(counts), "codes": dict(counts.codes)}, "server": probes.get(pid, {}),
                "workers": {p: d for p, d in probes.items() if p != pid}}  # fmt: skip

    def line(row: dict[str, Any]) -> str:
        held = row["server"].get("structures", {}).get("tables", -1)
        return (f"{row['minute']:6.1f} {rss_mb(pid):9.1f} {sum(rss_mb(c) for c in children(pid)):10.1f} {held:5} "
                f"{counts.tables:6} {counts.closed:6} {counts.games:6} {counts.moves:7} {counts.connections:6} "
                f"{counts.hints:5} {counts.chats:5} {counts.takebacks:9} {counts.replays:7} {counts.errors:6} "
                f"{row['load']:5.1f}")  # fmt: skip

    header = (f"{'minute':>6} {'server MB':>9} {'workers MB':>10} {'held':>5} {'opened':>6} {'closed':>6} "
              f"{'games':>6} {'moves':>7} {'conns':>6} {'hints':>5} {'chats':>5} {'takebacks':>9} {'replays':>7} "
              f"{'errors':>6} {'load':>5}")  # fmt: skip
    return await sample_for(args.minutes, args.every, tasks, stop, sample, header, line)


def show_trace(a: dict[str, Any], b: dict[str, Any], frames: int) -> None:
    if "snapshot" not in a or "snapshot" not in b:
        return
    old = tracemalloc.Snapshot.load(a["snapshot"])
    new = tracemalloc.Snapshot.load(b["snapshot"])
    print(f"\nallocations that grew most (tracemalloc, {frames} frames):")
    for stat in new.compare_to(old, "traceback")[:12]:
        print(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks (now {stat.size / 1024:.1f} KB)")
        for frame in list(stat.traceback)[::-1][:frames]:  # the allocation first
            print(f"      {frame.filename}:{frame.lineno}")


def verdict(samples: list[dict[str, Any]], warmup: float, frames: int) -> None:
    after = [s for s in samples if s["minute"] >= warmup and s["server"]]
    if len(after) < 2:
        print("too short a run to say: run longer than the warm-up")
        return
    a, b = after[0], after[-1]
    churned = b["counts"]["closed"] - a["counts"]["closed"]
    games = b["counts"]["games"] - a["counts"]["games"]
    conns = b["counts"]["connections"] - a["counts"]["connections"]
    grown = b["server"]["status"]["VmRSS"] - a["server"]["status"]["VmRSS"]
    per_table = 1024 * grown / max(1, churned)
    loads = [s["load"] for s in after]
    print(f"\nerrors by code: {dict(b['counts']['codes'])}")
    print(f"from minute {a['minute']:.1f} to {b['minute']:.1f}: {churned} tables churned, {games} games, {conns} "
          f"connections; load average {min(loads):.1f} to {max(loads):.1f}")  # fmt: skip
    print(f"server resident size per table churned: target {per_table:+.2f} KB, reference {REFERENCE_KB:.0f} KB "
          "(a table and its stored games; a leak of whole tables would grow by it)")  # fmt: skip
    cache = b["server"]["structures"].get("replay cache KB", 0) - a["server"]["structures"].get("replay cache KB", 0)
    print(f"  of which the replays kept (at most 8 MB, filling up): {cache:+d} KB; the rest "
          f"{per_table - cache / max(1, churned):+.2f} KB per table")  # fmt: skip
    show_process("server", a["server"], b["server"], churned)
    workers_a, workers_b = a["workers"], b["workers"]
    for pid in sorted(set(workers_a) & set(workers_b)):
        show_process(f"worker {pid}", workers_a[pid], workers_b[pid], churned)
    show_trace(a["server"], b["server"], frames)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=6.0, help="how long to churn tables (6)")
    p.add_argument("--lanes", type=int, default=12, help="tables of people open at once (12)")
    p.add_argument("--games", type=int, default=2, help="games played at each table before it is left (2)")
    p.add_argument("--every", type=float, default=30.0, help="seconds between probes (30)")
    p.add_argument(
        "--trace",
        type=int,
        default=0,
        metavar="FRAMES",
        help="trace the server's allocations with this many frames (0: off; it slows the server)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    p.add_argument("--keep", help="a directory to keep the probes and the server's log in")
    args = p.parse_args()
    warmup = max(1.0, args.minutes / 5)
    with tempfile.TemporaryDirectory(prefix="stichkit-memory-") as tmp:
        d = Path(args.keep or tmp)
        d.mkdir(parents=True, exist_ok=True)
        out = str(d / "probe")
        flags = ["--bot-delay", "0.1", "--bot-workers", "2", "--client-tables", "0", "--client-bot-seats", "0",
                 "--client-hints", "0", "--client-workers", "0", "--table-bot-time", "0", "--sweep-unwatched", "5",
                 "--sweep-finished", "5", "--max-connections-per-client", "100000"]  # fmt: skip
        env = {"STICHKIT_PROBE_OUT": out, "STICHKIT_PROBE_FRAMES": str(args.trace)}
        db = args.db or f"sqlite:///{tmp}/memory.db"
        with serving(db, d / "server.log", *flags, launcher=PROBE, env=env) as served:
            print(f"stich serve for {args.minutes:g} minutes: {args.lanes} lanes of Jass tables (2 players, 2 bots, "
                  f"{args.games} games each, then left and swept) and one of bots-only tables; {os.cpu_count()} CPUs, "
                  f"load average {os.getloadavg()[0]:.1f}; tracing {args.trace or 'off'}", flush=True)  # fmt: skip
            samples = asyncio.run(churn(served.base, served.pid, out, args))
            verdict(samples, warmup, args.trace)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
