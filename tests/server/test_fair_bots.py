"""The bot workers are shared fairly: while one visitor keeps every table it may open full of
slow search bots, a bot's reply at another visitor's table comes about as fast as on a quiet
server. (bench/fair_bots.py measures the same at length.)"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import httpx

from .harness import Client, Server, run

ABUSER = "127.0.0.2"
SLOW_BOT = "bot:ismcts:time=1"


async def reply_times(server: Server, table: str, token: str, moves: int) -> list[float]:
    """Seconds from each of the player's moves to the first bot's reply to it."""
    c = await Client.open(server, table, token)
    times: list[float] = []
    try:
        s = await c.state()
        while len(times) < moves and s["table"]["status"] == "playing":
            if not s["legal"]:
                s = await c.state()
                continue
            version, began = s["version"], time.monotonic()
            await c.send({"type": "act", "action": s["legal"][0], "version": version})
            s = await c.state(version=version + 1)
            if s["legal"]:  # the player's turn again (its trick): nobody replied
                continue
            s = await c.state(version=version + 2)
            times.append(time.monotonic() - began)
    finally:
        await c.close()
    return times


def abuse(server: Server, tables: int) -> list[str]:
    """Another visitor opens as many tables of slow bots as it may (and is refused beyond)."""
    opened = []
    with httpx.Client(base_url=server.http, timeout=30, transport=httpx.HTTPTransport(local_address=ABUSER)) as c:
        for _ in range(tables):
            r = c.post("/api/tables", json={"game": "jass", "seats": [SLOW_BOT] * 4, "options": {"target": 2500}})
            if r.status_code == 201:
                opened.append(r.json()["id"])
    return opened


def test_a_visitor_who_fills_its_limits_with_slow_bots_does_not_slow_another_tables_bots(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'fair.db'}", tmp_path / "server.log", "--bot-delay", "0",
                    "--bot-workers", "2", "--client-tables", "6", "--client-bot-seats", "24",
                    "--client-workers", "1").start()  # fmt: skip
    try:

        def table() -> tuple[str, str]:
            t = server.open_table("jass", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"])["id"]
            return t, server.join(t, "Ida")["token"]

        quiet = run(reply_times(server, *table(), moves=6))
        assert len(abuse(server, 10)) == 6
        time.sleep(1.0)  # every worker the abuser may have is busy thinking
        busy = run(reply_times(server, *table(), moves=6))
        # Before the workers were shared fairly, each reply waited for the slow bots' queue
        # (six tables, a second each, over two workers: about 3 s).
        assert statistics.median(busy) < statistics.median(quiet) + 0.4, (quiet, busy)
        assert max(busy) < 1.5, (quiet, busy)
    finally:
        server.stop()
