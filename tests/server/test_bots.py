"""Bots think in worker processes: a search bot thinking for a second at one table never holds
up the moves at another."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time

from .harness import Client, Server, run


def test_a_thinking_bot_never_delays_another_tables_moves(server: Server) -> None:
    # Two search bots and a quick human, who stops at the end so that the search stops too.
    search = server.open_table("stichmeister", ["human", "bot:ismcts:time=1", "bot:ismcts:time=1"], takeover="off")
    quick = server.join(search["id"], "Lea")["token"]
    humans = server.open_table("stichwahl", ["human", "human"], options={"target": 200})
    tokens = [server.join(humans["id"], n)["token"] for n in ("Ida", "Jon")]
    helper = server.open_table("stichwahl", ["human", "bot:heuristic"], options={"target": 30})
    solo = server.join(helper["id"], "Kai")["token"]

    async def go() -> tuple[list[float], list[float], int]:
        watcher = await Client.open(server, search["id"], quick)

        async def lea() -> None:
            while True:
                m = await watcher.state(timeout=60)
                if m["legal"]:
                    await watcher.send({"type": "act", "action": m["legal"][0], "version": m["version"]})

        lea_plays = asyncio.create_task(lea())
        started = time.monotonic()
        players = [await Client.open(server, humans["id"], tok) for tok in tokens]
        states = [await c.state() for c in players]
        lags: list[float] = []
        while time.monotonic() - started < 6 and states[0]["table"]["status"] == "playing":
            mover = 0 if states[0]["legal"] else 1
            m = states[mover]
            sent = time.monotonic()
            await players[mover].send({"type": "act", "action": m["legal"][0], "version": m["version"]})
            states = [await c.state(version=m["version"] + 1) for c in players]
            lags.append(time.monotonic() - sent)
            await asyncio.sleep(0.05)  # a human's pace, below the flood limit
        # A pool bot at a third table answers while the search goes on.
        kai = await Client.open(server, helper["id"], solo)
        replies: list[float] = []
        m = await kai.state()
        while len(replies) < 3:
            if not m["legal"]:
                m = await kai.state()
                continue
            sent = time.monotonic()
            await kai.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
            m = await kai.until(lambda x: x["type"] == "state" and (x["legal"] or x["table"]["status"] == "over"))
            if m["last"]["by"] == "bot":
                replies.append(time.monotonic() - sent)
            if m["table"]["status"] == "over":
                break
        lea_plays.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await lea_plays
        await watcher.drain()
        searched = [m for m in watcher.states() if m["last"] and m["last"]["by"] == "bot"]
        for c in (*players, kai, watcher):
            await c.close()
        return lags, replies, len(searched)

    lags, replies, search_versions = run(go())
    # The search bots moved about once a second: they were thinking all along.
    assert 3 <= search_versions <= 20
    assert len(lags) >= 10
    assert statistics.median(lags) < 0.25, lags  # a move blocked behind a 1 s search would wait ~0.5 s on average
    assert max(lags) < 0.9, lags
    assert replies and max(replies) < 1.0, replies
