"""A bot's reply at a normal table while another visitor abuses the server's bots, on loopback.

A fresh `stich serve` (SQLite, `--bot-workers 2`, the default limits per client) gets a player
at a Jass table with three `heuristic` bots, who plays `--moves` moves; each time, the seconds
from the move sent to the first bot's reply are taken. That is done on the quiet server (the
reference), and again while a second visitor (from 127.0.0.2) keeps every table it may open
(`--client-tables`) full of four `ismcts:time=1` bots (the target: about the same). Before the
workers were shared fairly, such a visitor held every worker, and each reply waited for the
whole queue of slow bots (43 s were seen with 20 tables of five 5-second bots).

    .venv/bin/python bench/fair_bots.py                 # 30 moves each way
    .venv/bin/python bench/fair_bots.py --moves 60 --abuser-tables 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from serve_load import join, open_table, seat_socket, serving

ABUSER = "127.0.0.2"
SLOW_BOT = "bot:ismcts:time=1"


async def reply_times(base: str, moves: int) -> list[float]:
    """Open a table for one player and three heuristic bots, and time each first bot reply."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
        table = await open_table(http, {"game": "jass", "seats": seats})
    token = await join(base, table, "Ida")
    times: list[float] = []
    async with seat_socket(base, table, token) as ws:

        async def state(version: int | None = None) -> dict[str, Any]:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if m["type"] == "state" and (version is None or m["version"] == version):
                    return m

        s = await state()
        while len(times) < moves:
            if s["table"]["status"] != "playing":
                break
            if not s["legal"]:
                s = await state()
                continue
            v, began = s["version"], time.monotonic()
            await ws.send(json.dumps({"type": "act", "action": s["legal"][0], "version": v}))
            s = await state(v + 1)
            if s["legal"]:
                continue
            s = await state(v + 2)
            times.append(time.monotonic() - began)
    return times


def abuse(base: str, tables: int) -> int:
    """The other visitor opens as many tables of slow bots as it may; how many it got."""
    got = 0
    transport = httpx.HTTPTransport(local_address=ABUSER)
    with httpx.Client(base_url=base, timeout=30, transport=transport) as c:
        for _ in range(tables):
            body = {"game": "jass", "seats": [SLOW_BOT] * 4, "options": {"target": 2500}}
            got += c.post("/api/tables", json=body).status_code == 201
    return got


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"p50 {1000 * statistics.median(times):7.0f} ms   p90 {1000 * p90:7.0f} ms   max {1000 * max(times):7.0f} ms"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=30, help="moves timed each way (30)")
    p.add_argument("--abuser-tables", type=int, default=20, help="tables the abuser tries to open (20)")
    p.add_argument("--server-flag", action="append", default=[], help="an extra flag for stich serve (repeatable)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="stichkit-bench-") as d:
        flags = ["--bot-workers", "2", *args.server_flag]
        with serving(f"sqlite:///{d}/fair.db", Path(d) / "server.log", *flags) as served:
            base = served.base
            print(f"a bot's reply at a normal table ({args.moves} moves); {os.cpu_count()} CPUs, "
                  f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
            quiet = asyncio.run(reply_times(base, args.moves))
            got = abuse(base, args.abuser_tables)
            time.sleep(2.0)
            busy = asyncio.run(reply_times(base, args.moves))
            print(f"reference, quiet server:                        {summary(quiet)}")
            print(f"target, another visitor with {got:2} tables of slow bots: {summary(busy)}")
            gap = 1000 * (statistics.median(busy) - statistics.median(quiet))
            print(f"target: p50 within 250 ms of the reference; it is {gap:+.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
