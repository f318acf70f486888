"""Stichwahl as a Game: its options, new games from a seed or an explicit deal, and the notation
help."""

from __future__ import annotations

from typing import Any

from stichkit.core.files import DataFile
from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import action_texts
from .cards import SHIPPED, CardTableError, table_from
from .deals import parse_deal
from .state import StichwahlState

MAX_TARGET = 10**9  # a game that never ends (bench/jass_playout.py --endless plays to it)


def _positive(value: int) -> str | None:
    return None if value > 0 else "the target must be a positive number of points"


def _card_table(value: DataFile | None) -> str | None:
    if value is None:
        return None
    try:
        table_from(value)
    except CardTableError as e:
        return str(e)
    return None


class Stichwahl(Game):
    """3 or 4 players (2 without the 5s), each for themselves; play runs clockwise (seat + 1)."""

    name = "stichwahl"
    OPTIONS = (
        Option("players", 4, "number of players", choices=(4, 3, 2)),
        Option("first_player", 0, "the seat that starts the first deal (who last saw a whale)", kind=int),
        Option("target", 30, "points to end the game: a positive whole number (30 in the rulebook)", kind=int,
               check=_positive, maximum=MAX_TARGET),
        Option("next_deal", "left", "who starts a later deal: 'left' = the player left of the previous deal's "
               "starter, 'same' = first_player every deal", choices=("left", "same")),
        Option("top_up", "missing", "when the trick holds fewer cards than the prize's pearls, the winner draws "
               "'missing' = as many as missing, 'one' = one card (the rulebook's 'noch eine Karte' read literally)",
               choices=("missing", "one")),
        Option("cards", None, "a corrected card table (path of a TOML file like the shipped cards.toml); "
               "None = the shipped, reconstructed table", check=_card_table, data_file="the card table"),
    )  # fmt: skip

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["players"]
        fp = self.options["first_player"]
        if not 0 <= fp < n:
            from stichkit.core.errors import OptionError

            raise OptionError(f"option first_player={fp!r} is not allowed: a seat 0..{n - 1}")
        self.num_players = n
        data = self.files.get("cards")
        self.table = SHIPPED if data is None else table_from(data)
        self._set_actions(action_texts(n))

    def notation_help(self) -> str:
        return (
            "play a card: family O P N B + value 1-4, 6-9 (e.g. N2) or a 5 (5a 5b 5c 5d); "
            "bonus:N2 lays N2 as the first bonus card; use:O2 uses a flip bonus, use:O3:N a trump "
            f"bonus naming Narwal; prize:N2 chooses the prize; lead:0 .. lead:{self.num_players - 1} "
            "chooses the next leader"
        )

    def new_state(self, seed: int | None = None, deal: Any = None) -> StichwahlState:
        """A whole game. `deal` gives the first deal: {"draws": [...], "hands": [[9 cards] per seat],
        "pile": [...]} (see parse_deal)."""
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal, self.num_players)}
        return StichwahlState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> StichwahlState:
        given = {i: parse_deal(c, self.num_players) for i, c in enumerate(chances)}
        return StichwahlState(self, fresh_seed() if seed is None else seed, given)


__all__ = ["MAX_TARGET", "Stichwahl", "parse_deal"]  # parse_deal lives in deals.py
