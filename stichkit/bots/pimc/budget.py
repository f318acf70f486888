"""pimc's budget: how long a decision may take and how far before the end of a deal it solves.

One rule for every decision (`Budget`): stop between worlds once the next one would not fit, so
no decision overruns its clock by more than its slowest world. `Budgeted` is the bot as the
variants' decisions (coiffeur.py, differenzler.py) see it: its budget, its horizons and its play
before them; the bot imports the variants, so they name it by this protocol and not by its class.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Protocol

from stichkit.core import Action, State

DEFAULT_TIME = 1.0
DEFAULT_SAMPLES = 100  # with a clock: late in a deal solves are cheap, this bounds the loop

# The horizons by budget: with a clock of at least FULL_BUDGET seconds a decision, those the strength
# figures were measured with (docs/benchmarks.md, pimc); below it or without a clock, the cheaper ones.
FULL_BUDGET = 1.0
FULL_HORIZONS = (28, 24)
SHORT_HORIZONS = (24, 20)


def horizons(seconds: float | None) -> tuple[int, int]:
    """The default (horizon, trump_horizon) for a clock of `seconds` a decision (None: no clock)."""
    return FULL_HORIZONS if seconds is not None and seconds >= FULL_BUDGET else SHORT_HORIZONS


class Budget:
    """A decision's budget of worlds: at most `samples`, and with `seconds`, stop between worlds
    once the next would not fit (at the mean time a world has taken so far). One rule for every
    decision, so no decision overruns the clock by more than its slowest world."""

    def __init__(self, samples: int, seconds: float | None) -> None:
        self.samples = samples
        self.start = self.now = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.done = 0  # worlds finished

    def __iter__(self) -> Iterator[int]:
        """The worlds to do, numbered; a world counts as done when the loop asks for the next."""
        while self.done < self.samples:
            self.now = now = time.perf_counter()
            if self.deadline is not None and self.done and now + (now - self.start) / self.done > self.deadline:
                return  # the next world would not fit: stop between worlds
            yield self.done
            self.done += 1

    def left(self) -> int:
        """How many worlds there may still be, the one about to be drawn included (at the last
        check's time)."""
        left = self.samples - self.done
        if self.deadline is not None and self.done:
            pace = max((self.now - self.start) / self.done, 1e-9)
            left = min(left, int((self.deadline - self.now) / pace) + 1)
        return left

    def seconds(self) -> float:
        return time.perf_counter() - self.start


class Budgeted(Protocol):
    """What a variant's decision uses of the bot (PIMCBot): the clock and the worlds a decision
    may take, the horizons, the play before them, and where it says what it did."""

    time: float | None
    samples: int
    trump_horizon: int
    announce: str  # Coiffeur: "search" or "heuristic"
    last_stats: dict[str, Any]

    def budget(self) -> Budget: ...

    def horizon_for(self, state: State) -> int: ...

    def early_kind(self, state: State) -> str: ...

    def early_by_ismcts(self, state: State, seat: int) -> Action: ...
