"""A Differenzler deal against the prediction: its last tricks solved with every hand and every
prediction known, as `stich analyse` reports them.

Differenzler has four players each for themselves, so there is no double-dummy value of two
sides to compare a card with. stichkit's reading, "double-dummy for four": every player plays to
come as close as it can to its own prediction, knowing everything; a max^n search gives each
player's penalty under that play (each mover takes the card that leaves it the smallest penalty,
ties to the first card in deck order). For each card a seat played in the last `ENDGAME_TRICKS`
tricks of a deal, every legal card is valued by the seat's penalty after it: the best card(s),
and what the card played cost (its penalty minus the best). Earlier cards are not analysed: the
search grows by a factor of some (4!)^4 a trick, too much for an analysis in Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stichkit.core import State

from . import endgame

ENDGAME_TRICKS = 3


@dataclass(frozen=True)
class CardReview:
    """One card played in a deal's last tricks, valued against its player's prediction."""

    deal: int
    trick: int  # from 1
    seat: int
    played: str
    penalty: int  # the seat's penalty for the deal after the card played, all playing on to their predictions
    best: tuple[str, ...]
    best_penalty: int
    penalties: dict[str, int]  # every legal card

    @property
    def loss(self) -> int:
        return self.penalty - self.best_penalty

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "trick": self.trick, "seat": self.seat, "played": self.played,
                "penalty": self.penalty, "best": list(self.best), "best_penalty": self.best_penalty,
                "loss": self.loss, "penalties": dict(self.penalties)}  # fmt: skip


class Review(endgame.Review[CardReview]):
    """Every reviewed card of a game, and per seat: cards reviewed, errors, penalty points lost."""

    SCHEMA = "stichkit-differenzler-review"
    ENDGAME_TRICKS = ENDGAME_TRICKS


def _penalties_after_deal(state: State, deal: int) -> tuple[int, ...]:
    summary = state.view(None)["previous_deals"][deal]
    return tuple(summary["penalties"])


def value(state: State, deal: int) -> tuple[int, ...]:
    """Each seat's penalty for `deal` when everybody plays on to its own prediction (max^n)."""
    view = state.view(None)
    if state.is_terminal() or view["deal_number"] != deal:
        return _penalties_after_deal(state, deal)
    mover = state.current_player
    assert mover is not None
    best: tuple[int, ...] | None = None
    for action in state.legal_actions():
        state.apply(action)
        v = value(state, deal)
        state.undo()
        if best is None or v[mover] < best[mover]:
            best = v
    assert best is not None
    return best


def review_game(state: State) -> Review:
    """Every card of the last ENDGAME_TRICKS tricks of each deal of a finished (or unfinished)
    Differenzler game, replayed from its history."""
    review = Review()
    for again, seat, action, view in endgame.last_tricks(state, ENDGAME_TRICKS):
        deal = view["deal_number"]
        penalties: dict[str, int] = {}
        for a in again.legal_actions():
            again.apply(a)
            penalties[a.text] = value(again, deal)[seat]
            again.undo()
        low = min(penalties.values())
        review.cards.append(CardReview(
            deal, len(view["tricks"]) + 1, seat, action.text, penalties[action.text],
            tuple(c for c, p in penalties.items() if p == low), low, penalties,
        ))  # fmt: skip
    return review
