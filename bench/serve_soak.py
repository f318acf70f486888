"""The table server's memory under long play: resident size over time, which should stay flat
once warmed up.

A fresh `stich serve` (SQLite by default) gets `--tables` Jass tables, each with two scripted
players and two server bots (`heuristic` and `ismcts:time=0.05`), played to 300 points and
rematched without end. The players think 0.2 to 0.8 s a move, now and then ask for a hint, drop
their connection and come back, and fetch the replay of a finished game. Beside them, tables of
four bots are opened, watched for a while and left (the server sweeps them), so tables come
and go. Every `--every` seconds a line gives the server's resident size, its bot workers'
(every process the server started: the bot workers and the analysis process; in all and each),
the moves, games and reconnects so far, and the load average.

At the end: the target, how much each resident size grew from the end of the warm-up (the
first fifth of the run, at least a minute) to the end, beside its reference, the size at the
end of the warm-up, and its slope over the last 10 minutes (MB a minute: a least-squares line).
Flat is within a few per cent and a slope near 0: allocators keep what they once had. `--out`
keeps the samples as JSON.

    .venv/bin/python bench/serve_soak.py                      # 5 minutes, 30 tables
    .venv/bin/python bench/serve_soak.py --minutes 32 --every 60 --probe   # the soak docs/benchmarks.md gives

With `--probe` the server runs under memory_probe.py, probed at each sample, and the end says
which structures and objects grew, in the server and each worker (as bench/serve_memory.py;
the sampling loop and the probe are serve_load.py's, shared by both).

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets
from serve_load import PROBE, children, join, open_table, probe, rss_mb, sample_for, seat_socket, serving, show_process

SEATS = ["human", "bot:heuristic", "human", "bot:ismcts:time=0.05"]


@dataclass
class Counts:
    moves: int = 0
    games: int = 0
    reconnects: int = 0
    hints: int = 0
    replays: int = 0
    errors: int = 0
    bot_tables: int = 0


async def seat(base: str, table: str, token: str, counts: Counts, rng: random.Random, stop: asyncio.Event) -> None:
    """One scripted player: plays, asks for hints, rematches, drops its connection now and then."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            try:
                async with seat_socket(base, table, token, open_timeout=60, ping_interval=None) as ws:
                    await play(ws, http, table, counts, rng, stop)
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.5)
            counts.reconnects += 1


async def play(ws: Any, http: httpx.AsyncClient, table: str, counts: Counts, rng: random.Random,
               stop: asyncio.Event) -> None:  # fmt: skip
    game_seen = 0
    while not stop.is_set():
        m = json.loads(await asyncio.wait_for(ws.recv(), 120))
        if m["type"] == "error" and m["code"] not in ("stale", "busy", "not_your_turn"):
            counts.errors += 1
        if m["type"] != "state":
            continue
        info = m["table"]
        if info["status"] == "over" and m["game_no"] > game_seen:
            game_seen = m["game_no"]
            counts.games += 1
            if rng.random() < 0.2:
                r = await http.get(f"/api/tables/{table}/replay", params={"game": m["game_no"]})
                counts.replays += r.status_code == 200
            await ws.send(json.dumps({"type": "rematch"}))
            continue
        if not m["legal"]:
            continue
        if rng.random() < 0.05:
            await ws.send(json.dumps({"type": "hint", "version": m["version"]}))
            counts.hints += 1
        await asyncio.sleep(rng.uniform(0.2, 0.8))
        await ws.send(json.dumps({"type": "act", "action": rng.choice(m["legal"]), "version": m["version"]}))
        counts.moves += 1
        if rng.random() < 0.01:
            return  # drop the connection; the player comes back at once


async def bot_tables(base: str, counts: Counts, rng: random.Random, stop: asyncio.Event) -> None:
    """Tables of bots alone, opened, watched a while and left for the sweep."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            body = {"game": rng.choice(["stichling", "stichwahl", "jass"]), "seats": ["bot:random"] * 2}
            if body["game"] == "jass":
                body["seats"] = ["bot:random"] * 4
            r = await http.post("/api/tables", json=body)
            if r.status_code == 201:
                counts.bot_tables += 1
                with contextlib.suppress(OSError, websockets.ConnectionClosed, TimeoutError):
                    async with seat_socket(base, r.json()["id"], None, open_timeout=60, ping_interval=None) as ws:
                        watch_until = time.monotonic() + rng.uniform(5, 20)
                        while time.monotonic() < watch_until and not stop.is_set():
                            await asyncio.wait_for(ws.recv(), 60)
            await asyncio.sleep(rng.uniform(1, 4))


async def soak(base: str, pid: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    counts = Counts()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        players = []
        for _ in range(args.tables):
            body = {"game": "jass", "seats": SEATS, "options": {"target": 300}, "takeover": "off", "private": True}
            t = await open_table(http, body)
            for name in ("Ida", "Jon"):  # two people: two browsers, each with its own identity cookie
                players.append((t, await join(base, t, name)))
    tasks = [asyncio.create_task(seat(base, t, tok, counts, random.Random(rng.random()), stop)) for t, tok in players]
    tasks += [asyncio.create_task(bot_tables(base, counts, random.Random(rng.random()), stop)) for _ in range(3)]

    async def sample(minute: float) -> dict[str, Any]:
        health = (await asyncio.to_thread(httpx.get, base + "/api/health", timeout=30)).json()
        each = {c: rss_mb(c) for c in children(pid)}
        row: dict[str, Any] = {
            "server": rss_mb(pid),
            "workers": sum(each.values()),
            "each": each,
            "tables": health["tables"],
            "games": counts.games,
            "moves": counts.moves,
        }
        if args.probe:
            row["probe"] = await asyncio.to_thread(probe, pid, args.probe)
        return row

    def line(row: dict[str, Any]) -> str:
        return (f"{row['minute']:6.1f} {row['server']:9.1f} {row['workers']:10.1f} {row['tables']:6} "
                f"{counts.moves:8} {counts.games:6} {counts.reconnects:10} {counts.hints:6} {counts.replays:7} "
                f"{counts.bot_tables:10} {counts.errors:6} {row['load']:5.1f}  "
                f"{' '.join(f'{mb:.1f}' for mb in row['each'].values())}")  # fmt: skip

    header = (f"{'minute':>6} {'server MB':>9} {'workers MB':>10} {'tables':>6} {'moves':>8} {'games':>6} "
              f"{'reconnects':>10} {'hints':>6} {'replays':>7} {'bot tables':>10} {'errors':>6} {'load':>5}  "
              "each worker MB")  # fmt: skip
    return await sample_for(args.minutes, args.every, tasks, stop, sample, header, line)


def slope(samples: list[dict[str, Any]], key: str) -> float:
    """MB a minute: the least-squares line through the samples' `key`."""
    xs, ys = [s["minute"] for s in samples], [s[key] for s in samples]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0


def verdict(samples: list[dict[str, Any]], warmup: float, pid: int) -> None:
    after = [s for s in samples if s["minute"] >= warmup]
    if len(after) < 2:
        print("too short a run to say: run longer than the warm-up")
        return
    last = [s for s in after if s["minute"] >= after[-1]["minute"] - 10]
    for key in ("server", "workers"):
        start, end = after[0][key], after[-1][key]
        peak = max(s[key] for s in after)
        print(f"{key:8} at the start {samples[0][key]:7.1f} MB; reference (after {warmup:.1f} min of warm-up) "
              f"{start:7.1f} MB; target, at the end {end:7.1f} MB ({100 * (end - start) / start:+.1f}%), "
              f"peak {peak:7.1f} MB; slope over the last {last[-1]['minute'] - last[0]['minute']:.1f} min "
              f"{slope(last, key):+.2f} MB/min")  # fmt: skip
    loads = [s["load"] for s in samples]
    print(f"load average (1 min) during the run: {min(loads):.1f} to {max(loads):.1f}")
    a, b = after[0].get("probe"), after[-1].get("probe")
    if a and b:  # --probe: what grew, structure by structure
        games = after[-1]["games"] - after[0]["games"]
        for p in sorted(set(a) & set(b), key=lambda p: p != pid):
            show_process("server" if p == pid else f"worker {p}", a[p], b[p], games, "game finished")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=5.0, help="how long to play (5; the soak of the docs: 30)")
    p.add_argument("--tables", type=int, default=30, help="Jass tables of two players and two bots (30)")
    p.add_argument("--every", type=float, default=30.0, help="seconds between samples (30)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    p.add_argument("--server-flag", action="append", default=[], help="an extra flag for stich serve (repeatable)")
    p.add_argument("--probe", action="store_true",
                   help="run the server under memory_probe.py and say at the end which structures grew")  # fmt: skip
    p.add_argument("--out", metavar="FILE", help="write the samples (JSON) here as well")
    args = p.parse_args()
    warmup = max(1.0, args.minutes / 5)
    with tempfile.TemporaryDirectory(prefix="stichkit-soak-") as d:
        db = args.db or f"sqlite:///{d}/soak.db"
        # the players come from one address: its limits are the operator's to set, not the soak's
        flags = ["--bot-delay", "0.1", "--bot-workers", "2", "--client-tables", "0", "--client-bot-seats", "0",
                 "--client-hints", "0", "--client-workers", "0", "--table-bot-time", "0", "--sweep-unwatched", "30",
                 *args.server_flag]  # fmt: skip
        probing = {"launcher": PROBE, "env": {"STICHKIT_PROBE_OUT": f"{d}/probe"}} if args.probe else {}
        args.probe = f"{d}/probe" if args.probe else None
        with serving(db, Path(d) / "server.log", *flags, **probing) as served:  # type: ignore[arg-type]
            print(f"stich serve for {args.minutes:g} minutes: {args.tables} Jass tables (2 players, 2 bots), "
                  f"bots-only tables coming and going; {os.cpu_count()} CPUs, load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
            samples = asyncio.run(soak(served.base, served.pid, args))
            verdict(samples, warmup, served.pid)
            if args.out:
                Path(args.out).write_text(json.dumps(samples, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
