"""The fields of a Stichling state and the records undo keeps.

Undo keeps, per action, the smallest record that takes it back: a `CardPlay` (what one card
changed on its place), a `TilesLaid`, or, for the move that ends a deal, a `Snapshot` of
everything.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, NamedTuple

from stichkit.core import deal_by_deal
from stichkit.core.deal_by_deal import DealByDealFields

from .cards import StichlingDeck
from .rules import ActionTables, Places

# Undo records are made on the hot path: `new_tuple(CardPlay, values)` builds one without the
# Python-level __new__ a NamedTuple's constructor runs.
new_tuple = tuple.__new__

# A taken trick: (place index, cards as (seat, card), led colour, owner).
Taken = tuple[int, tuple[tuple[int, int], ...], int, int]
Cards = tuple[tuple[int, int], ...]  # a place's cards as (seat, card), in play order


class DealSummary(NamedTuple):
    """A finished deal: who began it, tricks taken, each seat's face-up tile (None: no trick)
    and the points scored (the face-up tile, else 0)."""

    number: int
    starter: int
    taken: tuple[int, ...]
    face_up: tuple[int | None, ...]
    points: tuple[int, ...]
    last_trick: Taken | None = None  # the deal's last full trick (`last_trick` shows it in the next deal)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.number,
            "starter": self.starter,
            "taken": list(self.taken),
            "face_up": list(self.face_up),
            "points": list(self.points),
        }


class CardPlay(NamedTuple):
    """What undoing a card needs: the place as it was, and who took the trick it filled."""

    seat: int
    bit: int  # the card, as its bit
    place: int
    cards: Cards  # the place's cards before
    led: int
    owner: int
    best: int
    sig: int  # the places' signature before
    done: tuple[Taken, ...]  # the deal's taken tricks before
    took: int  # the seat that took the trick this card filled, or -1


class TilesLaid(NamedTuple):
    """What undoing a tile order needs."""

    seat: int
    order: int  # the seat's order before (-1: none)


class Snapshot(NamedTuple):
    """Everything, for undoing a move that ends a deal."""

    phase: int
    player: int
    deal_no: int
    starter: int
    start: tuple[int, ...]  # the hands as dealt
    hands: tuple[int, ...]
    orders: tuple[int, ...]
    taken: tuple[int, ...]
    cards: tuple[Cards, ...]  # per place
    led: tuple[int, ...]
    owner: tuple[int, ...]
    best: tuple[int, ...]
    sig: int
    done: tuple[Taken, ...]
    discarded: tuple[Taken, ...]
    scores: tuple[int, ...]
    summaries: int  # deal summaries written
    log: int  # entries in the log


Undo = CardPlay | TilesLaid | Snapshot

SINGLE = tuple(tuple(((s, c),) for c in range(60)) for s in range(5))  # ((seat, card),), shared

# Every field of StichlingFields as clone() treats it, after the deal-by-deal ones (core.deal_by_deal):
# shared values (immutable, or replaced rather than changed), then the lists and dicts that play
# changes in place (copied by a clone).
SHARED_FIELDS = (
    *deal_by_deal.SHARED, "_deck", "_n", "_tables", "_starter", "_start", "_sig", "_done", "_discarded", "_order_base",
)  # fmt: skip
COPIED_FIELDS = (
    *deal_by_deal.COPIED, "_hands", "_orders", "_taken", "_cards", "_led", "_owner", "_best", "_scores",
)  # fmt: skip


class StichlingFields(DealByDealFields[tuple[int, ...], DealSummary, Undo]):
    """The fields of a Stichling state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `StichlingFields`, so that nothing imports the
    state back, not even for the type checker."""

    _deck: StichlingDeck
    _n: int
    _tables: ActionTables
    _starter: int
    _start: tuple[int, ...]
    _sig: int
    _done: tuple[tuple[int, tuple[tuple[int, int], ...], int, int], ...]
    _discarded: tuple[tuple[int, tuple[tuple[int, int], ...], int, int], ...]
    _order_base: int
    _hands: list[int]
    _orders: list[int]
    _taken: list[int]
    _cards: list[tuple[tuple[int, int], ...]]
    _led: list[int]
    _owner: list[int]
    _best: list[int]
    _scores: list[int]

    # What the state computes, declared for its readers (state.py).
    @property
    @abstractmethod
    def _places(self) -> Places: ...
    @abstractmethod
    def face_up(self, seat: int) -> int | None: ...
