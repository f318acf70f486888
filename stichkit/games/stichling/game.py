"""Stichling as a Game: options, explicit deals, and the action table."""

from __future__ import annotations

from typing import Any

from stichkit.core.errors import DealError, OptionError
from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import action_texts
from .cards import DECKS, StichlingDeck
from .deals import parse_deal
from .rules import ActionTables
from .state import StichlingState


def _seat_check(value: int) -> str | None:
    return None if 0 <= value < 5 else "a seat number 0..players-1"


class Stichling(Game):
    """2 to 5 players, each for themselves; play runs clockwise (seat + 1)."""

    name = "stichling"
    OPTIONS = (
        Option("players", 4, "number of players: 2, 3, 4 or 5", choices=(2, 3, 4, 5)),
        Option(
            "first_player",
            0,
            "the seat that begins the first deal (the rulebook: the oldest player), 0..players-1",
            kind=int,
            check=_seat_check,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["players"]
        if self.options["first_player"] >= n:
            raise OptionError(
                f"option first_player={self.options['first_player']!r} is not allowed: "
                f"with {n} players the seats are 0..{n - 1}"
            )
        self.num_players: int = n
        self.deck: StichlingDeck = DECKS[n]
        self._set_actions(action_texts(self.deck))
        self._tables = ActionTables(self.deck, self.actions)  # shared by all states of this game

    def notation_help(self) -> str:
        top = self.deck.top
        return (
            f"play a card onto a trick place: colour G Y P B + value 1-{top}, '>', then the place 1-4 "
            f"or 'new' (e.g. G7>2, B{top}>new); lay out the score tiles: order:123 … order:321 "
            "(1 = smallest tile, left to right)"
        )

    def new_state(self, seed: int | None = None, deal: Any = None) -> StichlingState:
        """A whole game. `deal`, if given, is the first deal: `{"hands": [[12 cards] × players]}`."""
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal, self.deck)}
        return StichlingState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> StichlingState:
        """A state whose deals are `chances`, in order; later deals come from `seed` (fresh if None)."""
        if len(chances) > 3:
            raise DealError(f"a Stichling game has 3 deals, not {len(chances)}")
        given = {i: parse_deal(c, self.deck) for i, c in enumerate(chances)}
        return StichlingState(self, fresh_seed() if seed is None else seed, given)


__all__ = ["Stichling", "parse_deal"]  # parse_deal lives in deals.py
