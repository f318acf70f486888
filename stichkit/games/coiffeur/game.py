"""Coiffeur as a Game: its options (the sheet), new games from a seed or an explicit deal, and the
notation help."""

from __future__ import annotations

from typing import Any

from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import ACTIONS
from .cards import PLAY_MODES
from .deals import parse_deal
from .pushing import PUSH_RULES
from .rules import ROWS_HELP, SHEETS, parse_rows
from .state import CoiffeurState


def _rows(value: str) -> str | None:
    if not value:
        return None
    try:
        parse_rows(value)
    except ValueError as e:
        return str(e)
    return None


class Coiffeur(Game):
    """Four players in two teams (seats 0+2 against 1+3), play counter-clockwise; seat 0 announces first."""

    name = "coiffeur"
    OPTIONS = (
        Option(
            "sheet",
            "8-rows",
            "the rows each team plays once: '8-rows' (S1 C2 D3 H4 obe5 une6 joker7 joker8), '8-rows-swiss' "
            "(C1 H2 S3 D4 obe5 une6 joker7 joker8), '10-rows' (H1 C2 S3 D4 obe5 une6 slalom7 guschti8 joker9 "
            "joker10) or '6-rows' (D1 H2 S3 C4 obe5 une6)",
            choices=tuple(SHEETS),
        ),
        Option(
            "rows",
            "",
            f"a sheet of your own instead of a named one (empty: the named sheet); {ROWS_HELP}",
            kind=str,
            check=_rows,
        ),
        Option(
            "push",
            "partner",
            "who gets the choice after a push: 'partner' (the partner, who must announce, as in the Schieber) or "
            "'around' (Swisslos: the next player counter-clockwise, who may push on; when all have pushed, the "
            "first must announce; a deal goes on the sheet of whoever announces)",
            choices=PUSH_RULES,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.num_players = 4
        self._set_actions(ACTIONS)

    def notation_help(self) -> str:
        modes = ", ".join(f"trump:{m}" for m in PLAY_MODES)
        return f"play a card: suit D H S C + rank 6-10 J Q K A (e.g. D7, H10, SJ); announce a mode by {modes}; or push"

    def new_state(self, seed: int | None = None, deal: Any = None) -> CoiffeurState:
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal)}
        return CoiffeurState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> CoiffeurState:
        """A state whose deals are `chances`, in order; later deals come from `seed` (fresh if None)."""
        given = {i: parse_deal(c) for i, c in enumerate(chances)}
        return CoiffeurState(self, fresh_seed() if seed is None else seed, given)


__all__ = ["Coiffeur"]
