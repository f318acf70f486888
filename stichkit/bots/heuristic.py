"""`heuristic`: a rule-of-thumb player per game, fast and without search."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from typing import Any

from stichkit.core import OptionError

from . import jass_heuristic
from .base import SEED, Bot, Param, View, view_key

# Game name -> decide(view, tie_break_rng_or_None) -> action notation.
POLICIES: dict[str, Callable[[View, random.Random | None], str]] = {
    "jass": jass_heuristic.decide,
}


def policy_for(game: str) -> Callable[[View, random.Random | None], str] | None:
    """The game's policy: `decide` in stichkit/bots/<game>_heuristic.py, found by its name."""
    if game not in POLICIES and isinstance(game, str) and game.isidentifier():
        module = f"stichkit.bots.{game}_heuristic"
        if importlib.util.find_spec(module) is not None:
            POLICIES[game] = importlib.import_module(module).decide
    return POLICIES.get(game)


FIXES = Param("fixes", "all",
              "Jass: the 2026-11 fixes in play (keep: the Nell and trump Ace kept under a partner's winning "
              "trump; bour: a long Bour suit named, not Obenabe): all, none, keep+bour, keep or bour",
              jass_heuristic.check_fixes)  # fmt: skip


class HeuristicBot(Bot):
    """Plays each game by its own rules of thumb (see docs/bots.md). With a `seed`, equally good
    choices are broken at random; the choice is still a pure function of the seed and the view.
    `fixes` (Jass only) keeps the play before the 2026-11 fixes reachable, for duplicate runs."""

    name = "heuristic"
    PARAMS = (SEED, FIXES)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.seed: int | None = self.params["seed"]
        self.fixes = jass_heuristic.fixes_of(self.params["fixes"])

    def decide(self, view: View) -> str:
        policy = policy_for(view["game"])
        if policy is None:
            have = ", ".join(sorted(POLICIES))
            raise OptionError(f"no heuristic bot for {view['game']} yet; heuristic bots exist for: {have}")
        rng = None if self.seed is None else random.Random(self.seed * 1_000_003 + view_key(view))
        if view["game"] == "jass" and self.fixes != jass_heuristic.ALL_FIXES:
            return jass_heuristic.decide(view, rng, self.fixes)
        return policy(view, rng)
