"""Differenzler as a Game: its options, new games from a seed or an explicit deal, and the
notation help."""

from __future__ import annotations

from typing import Any

from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import ACTIONS
from .cards import MAX_PREDICTION
from .deals import TRUMP_RULES, parse_deal
from .rules import EXACT_BONUSES
from .state import DifferenzlerState

MAX_DEALS = 1000


def _positive(value: int) -> str | None:
    return None if value > 0 else "the number of deals must be positive (12 is usual: three rounds of four)"


class Differenzler(Game):
    """Four players, each for themselves, play counter-clockwise; seat 0 leads the first deal."""

    name = "differenzler"
    OPTIONS = (
        Option(
            "deals",
            12,
            "deals in a game: a positive whole number (12: three rounds of four)",
            kind=int,
            check=_positive,
            maximum=MAX_DEALS,
        ),
        Option(
            "predictions",
            "hidden",
            "'hidden': each prediction is secret until the deal ends; 'open': said aloud as made",
            choices=("hidden", "open"),
        ),
        Option(
            "trump",
            "turned-up",
            "how each deal's trump is set: 'turned-up' (the dealer's last card), 'random', 'in-turn' (D H S C)",
            choices=TRUMP_RULES,
        ),
        Option(
            "exact_bonus",
            0,
            "points a prediction hit exactly takes off the penalty: 0 or 10",
            choices=EXACT_BONUSES,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.num_players = 4
        self._set_actions(ACTIONS)

    def notation_help(self) -> str:
        return (
            f"predict your points by predict:0 to predict:{MAX_PREDICTION} (e.g. predict:48); "
            "play a card: suit D H S C + rank 6-10 J Q K A (e.g. D7, H10, SJ)"
        )

    def new_state(self, seed: int | None = None, deal: Any = None) -> DifferenzlerState:
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal, self.options["trump"], 0)}
        return DifferenzlerState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> DifferenzlerState:
        """A state whose deals are `chances`, in order; later deals come from `seed` (fresh if None)."""
        rule = self.options["trump"]
        given = {i: parse_deal(c, rule, i) for i, c in enumerate(chances)}
        return DifferenzlerState(self, fresh_seed() if seed is None else seed, given)


__all__ = ["MAX_DEALS", "Differenzler"]
