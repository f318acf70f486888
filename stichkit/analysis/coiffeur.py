"""A Coiffeur deal's last tricks solved with every hand known, as `stich analyse` reports them.

The announcing team plays to write as many points as it can, the other team to let it write as
few: a two-sided game, solved double-dummy by minimax over the engine itself, so every mode is
covered (the suits, Obenabe, Undenufe, and Slalom and Guschti, whose mode changes from trick to
trick and which the Jass solver in C does not play). A deal's value is what the announcing team
writes for it before the multiplier (its points, with a match's 257); the multiplier scales every
card of the deal alike. For each card a seat played in the last `ENDGAME_TRICKS` tricks, every
legal card is valued so: the best card(s) for the seat's team, and what the card played cost.
Earlier cards are not analysed: a search of the whole deal in Python takes too long.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stichkit.core import State

from . import endgame

ENDGAME_TRICKS = 3


@dataclass(frozen=True)
class CardReview:
    """One card played in a deal's last tricks, valued by what the announcing team writes."""

    deal: int
    trick: int  # from 1
    seat: int
    announcing: bool  # the seat's team announced the deal: it wants the value high
    played: str
    value: int  # what the announcing team writes after the card played, both sides playing on best
    best: tuple[str, ...]
    best_value: int
    values: dict[str, int]  # every legal card

    @property
    def loss(self) -> int:
        return self.best_value - self.value if self.announcing else self.value - self.best_value

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "trick": self.trick, "seat": self.seat, "announcing": self.announcing,
                "played": self.played, "value": self.value, "best": list(self.best), "best_value": self.best_value,
                "loss": self.loss, "values": dict(self.values)}  # fmt: skip


class Review(endgame.Review[CardReview]):
    """Every reviewed card of a game, and per seat: cards reviewed, errors, points lost."""

    SCHEMA = "stichkit-coiffeur-review"
    ENDGAME_TRICKS = ENDGAME_TRICKS


def value(state: State, deal: int, team: int) -> int:
    """What `team`, which announced `deal`, writes for it when both sides play on best."""
    view = state.view(None)
    if state.is_terminal() or view["deal_number"] != deal:
        return int(view["previous_deals"][deal]["written"])
    mover = state.current_player
    assert mover is not None
    results = []
    for action in state.legal_actions():
        state.apply(action)
        results.append(value(state, deal, team))
        state.undo()
    return max(results) if mover % 2 == team else min(results)


def review_game(state: State) -> Review:
    """Every card of the last ENDGAME_TRICKS tricks of each deal of a Coiffeur game, replayed from
    its history."""
    review = Review()
    for again, seat, action, view in endgame.last_tricks(state, ENDGAME_TRICKS):
        deal, team = view["deal_number"], view["chooser"] % 2
        values: dict[str, int] = {}
        for a in again.legal_actions():
            again.apply(a)
            values[a.text] = value(again, deal, team)
            again.undo()
        best = max(values.values()) if seat % 2 == team else min(values.values())
        review.cards.append(CardReview(
            deal, len(view["tricks"]) + 1, seat, seat % 2 == team, action.text, values[action.text],
            tuple(c for c, v in values.items() if v == best), best, values,
        ))  # fmt: skip
    return review
