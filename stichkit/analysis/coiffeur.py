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

from dataclasses import dataclass, field
from typing import Any

from stichkit.core import State, UndoError

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


@dataclass
class Review:
    """Every reviewed card of a game, and per seat: cards reviewed, errors, points lost."""

    cards: list[CardReview] = field(default_factory=list)

    def totals(self) -> list[dict[str, int]]:
        out = [{"seat": s, "decisions": 0, "errors": 0, "lost": 0} for s in range(4)]
        for c in self.cards:
            t = out[c.seat]
            t["decisions"] += 1
            t["errors"] += c.loss > 0
            t["lost"] += c.loss
        return out

    def to_json(self) -> dict[str, Any]:
        return {"schema": "stichkit-coiffeur-review", "version": 1, "endgame_tricks": ENDGAME_TRICKS,
                "decisions": [c.to_json() for c in self.cards], "totals": self.totals()}  # fmt: skip


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
    again = state.clone()
    while True:  # back to the first deal, dealt as it was
        try:
            again.undo()
        except UndoError:
            break
    review = Review()
    for seat, action in state.history():
        view = again.view(None)
        legal = again.legal_actions()
        if view["phase"] == "play" and sum(view["hand_sizes"]) <= 4 * ENDGAME_TRICKS and len(legal) > 1:
            deal, team = view["deal_number"], view["chooser"] % 2
            values: dict[str, int] = {}
            for a in legal:
                again.apply(a)
                values[a.text] = value(again, deal, team)
                again.undo()
            best = max(values.values()) if seat % 2 == team else min(values.values())
            review.cards.append(CardReview(
                deal, len(view["tricks"]) + 1, seat, seat % 2 == team, action.text, values[action.text],
                tuple(c for c, v in values.items() if v == best), best, values,
            ))  # fmt: skip
        again.apply(action.text)
    return review
