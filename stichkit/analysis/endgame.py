"""What every review of a game's card play shares, whatever the game and the solver: the game
replayed from its first deal, the cards of each deal's last tricks, and per seat the cards
reviewed, the errors (cards that cost something) and what they cost in all.

The Jass analysis (review.py) solves every card with the double-dummy solver; Coiffeur
(coiffeur.py) and Differenzler (differenzler.py) search the last tricks over the engine itself.
Each says what a card is worth; this module counts, so that "errors" and "lost" mean one thing in
every report of `stich analyse`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from stichkit.core import State, UndoError
from stichkit.core.action import Action


class Reviewed(Protocol):
    """A card reviewed: whose it was, in which deal, and what it cost its seat (0: a best card)."""

    @property
    def seat(self) -> int: ...
    @property
    def deal(self) -> int: ...
    @property
    def loss(self) -> int: ...
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class SeatTotal:
    """One seat's cards reviewed, errors, and what the errors cost in all."""

    seat: int
    decisions: int = 0
    errors: int = 0
    lost: int = 0

    def plus(self, card: Reviewed) -> SeatTotal:
        return SeatTotal(self.seat, self.decisions + 1, self.errors + (card.loss > 0), self.lost + card.loss)

    def to_json(self) -> dict[str, int]:
        return {"seat": self.seat, "decisions": self.decisions, "errors": self.errors, "lost": self.lost}


def seat_totals(cards: Iterable[Reviewed], deal: int | None = None) -> list[SeatTotal]:
    """Per seat: cards reviewed, errors and what they cost, over one deal or (None) every deal."""
    out = [SeatTotal(s) for s in range(4)]
    for c in cards:
        if deal is None or c.deal == deal:
            out[c.seat] = out[c.seat].plus(c)
    return out


def sum_totals(per_game: Iterable[list[SeatTotal]]) -> list[SeatTotal]:
    """Per seat, the totals of many games added up."""
    out = [SeatTotal(s) for s in range(4)]
    for totals in per_game:
        for t in totals:
            o = out[t.seat]
            out[t.seat] = SeatTotal(t.seat, o.decisions + t.decisions, o.errors + t.errors, o.lost + t.lost)
    return out


C = TypeVar("C", bound=Reviewed)


@dataclass
class Review(Generic[C]):
    """Every card reviewed of a game, and its per-seat totals, written as one JSON document
    (`SCHEMA`, version 1) of the game's own kind."""

    SCHEMA: ClassVar[str] = "stichkit-review"
    ENDGAME_TRICKS: ClassVar[int] = 3

    cards: list[C] = field(default_factory=list)

    def totals(self) -> list[SeatTotal]:
        return seat_totals(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"schema": self.SCHEMA, "version": 1, "endgame_tricks": self.ENDGAME_TRICKS,
                "decisions": [c.to_json() for c in self.cards],
                "totals": [t.to_json() for t in self.totals()]}  # fmt: skip


S = TypeVar("S", bound=State)


def from_the_first_deal(state: S) -> S:
    """A copy of `state` taken back to its first deal, dealt as it was (the later deals stay in
    it: playing the history again deals them alike). `state` is left as it was."""
    again = state.clone()
    while True:
        try:
            again.undo()
        except UndoError:
            return again


def last_tricks(state: State, tricks: int) -> Iterator[tuple[State, int, Action, dict[str, Any]]]:
    """The game of `state` played again from its first deal. Before each card of a deal's last
    `tricks` tricks that had a choice, yields the position (to search, and leave as it was), the
    seat, the card it played, and the position's view with every hand shown."""
    again = from_the_first_deal(state)
    for seat, action in state.history():
        view = again.view(None)
        if view["phase"] == "play" and sum(view["hand_sizes"]) <= 4 * tricks and len(again.legal_actions()) > 1:
            yield again, seat, action, view
        again.apply(action.text)
