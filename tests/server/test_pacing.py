"""The time a seat takes says nothing about its hand: a bot's replies take as long when it had
one legal card (forced) as when it chose among several, and the pause is drawn before it thinks."""

from __future__ import annotations

import asyncio
import math
import random
import time
from pathlib import Path

from stichkit.server.botrunner import parse_bot_spec
from stichkit.server.pacing import least, pause

from .inprocess import Listener, running

BOT = "bot:ismcts:time=0.05"  # a search bot on a short clock: forced, it answers at once


class Timed(Listener):
    """A spectator that notes when each state came."""

    def __init__(self) -> None:
        super().__init__()
        self.came: dict[int, float] = {}

    def send(self, text: str) -> None:
        super().send(text)
        if '"type":"state"' in text:
            self.came[self.sent[-1]["version"]] = time.monotonic()


def ks_distance(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the two samples'
    distribution functions."""
    points = sorted(a + b)
    return max(abs(sum(x <= p for x in a) / len(a) - sum(x <= p for x in b) / len(b)) for p in points)


def test_a_bots_forced_replies_take_as_long_as_its_free_ones(tmp_path: Path) -> None:
    async def go() -> tuple[list[float], list[float]]:
        seats = (BOT,) * 4
        async with running(tmp_path, game="jass", seats=seats, options={"target": 2500}, bot_delay=0.02) as (_, t):
            ear = Timed()
            t.clients.add(ear)  # type: ignore[arg-type]
            deadline = time.monotonic() + 120
            while t.version < 76 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            played = [a.text for _, a in t.state.history()]
            game, seed = t.game, t.seed
        state = game.new_state(seed=seed)
        forced, free = [], []
        for v, text in enumerate(played, start=1):
            one = len(state.legal_actions()) == 1
            state.apply(text)
            if v - 1 in ear.came and v in ear.came and v > 4:  # after the workers' first moves
                (forced if one else free).append(ear.came[v] - ear.came[v - 1])
        return forced, free

    forced, free = asyncio.run(go())
    assert len(forced) >= 6 and len(free) >= 30, (forced, free)
    # Before the pacing, a forced reply came after the pause alone and a free one after the pause
    # and the search (distance 1: every forced reply faster than every free one).
    n, m = len(forced), len(free)
    critical = 1.95 * math.sqrt((n + m) / (n * m))  # the KS test at the 0.1% level
    assert ks_distance(forced, free) < critical, (sorted(forced), sorted(free))


def test_the_pause_is_drawn_from_the_bots_clock_and_the_floor_alone() -> None:
    search = parse_bot_spec("ismcts:time=1", max_time=5)
    heuristic = parse_bot_spec("heuristic", max_time=5)
    assert least(search, 0.5) == 1 * 1.1 + 0.1  # never shorter than the bot may think
    assert least(search, 3.0) == 3.0  # nor than the pause for people to follow
    assert least(heuristic, 0.5) == 0.5 and least(heuristic, 0.0) == 0.0  # milliseconds: the floor alone
    rng = random.Random(7)
    draws = [pause(search, 0.5, rng) for _ in range(1000)]
    assert least(search, 0.5) <= min(draws) and max(draws) <= 1.5 * least(search, 0.5)
    assert max(draws) - min(draws) > 0.5  # spread out, not one fixed time
