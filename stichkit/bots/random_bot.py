"""`random`: plays a uniformly random legal action. The baseline every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from stichkit.core import Action, State

from .announce import SAYINGS
from .base import SEED, Bot, View


class RandomBot(Bot):
    """A uniformly random legal action. `seed` makes its sequence of choices reproducible."""

    name = "random"
    PARAMS = (SEED,)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.rng = random.Random(self.params["seed"])

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if isinstance(state_or_view, State) and state_or_view.current_player == seat:
            # Fast path: the legal actions are part of the seat's own view (same list, same order),
            # so they may be taken from the state without building the whole view.
            legal = state_or_view.legal_actions()
            if legal[-1].text not in SAYINGS:
                return self.rng.choice(legal)
        return super().choose(state_or_view, seat)  # an announcement is decided as every bot does

    def decide(self, view: View) -> str:
        legal: list[str] = view["legal_actions"]
        return self.rng.choice(legal)
