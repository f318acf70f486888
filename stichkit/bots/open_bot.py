"""`open`: CHEATS — sees all hands. An evaluation upper bound only, never an opponent for people.

It runs the `ismcts` search on the true state itself instead of on `sample_hidden` draws, so it
plays as if every card were face up (perfect-information UCT to the end of the deal). Comparing
a bot with `open` shows how much a perfect reader of the cards would gain; `stich tournament`
marks it as cheating wherever it appears, and the honesty tests leave it out on purpose.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from stichkit.core import State

from .base import SEED
from .ismcts import DETERMINIZATIONS, HORIZON, ITERATIONS, ROLLOUT, TIME, C, ISMCTSBot

CHEAT_NOTE = "cheats: sees all hands; evaluation upper bound only"


class OpenBot(ISMCTSBot):
    """Cheats: sees all hands (UCT on the true state); an evaluation upper bound only."""

    name = "open"
    cheats: ClassVar[bool] = True
    PARAMS = (ITERATIONS, TIME, C, DETERMINIZATIONS, ROLLOUT, HORIZON, SEED)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.max_dets = 1  # one world: the true one

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return state.clone()  # the real hands: this is the cheat

    def __repr__(self) -> str:
        return f"{super().__repr__()}  # {CHEAT_NOTE}"
