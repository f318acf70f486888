"""The fields of a Differenzler state and the snapshots undo restores.

Undo keeps one `Snapshot` per decision (a deal has 4 predictions and 36 cards, so this stays
small). `DealFacts` bundles what is fixed once a deal is dealt: one snapshot slot for six fields.
"""

from __future__ import annotations

from typing import NamedTuple

from stichkit.core import deal_by_deal
from stichkit.core.deal_by_deal import DealByDealState

from .deals import Deal, Hands

# Snapshots are made on the hot path (one per action): `new_tuple(Snapshot, values)` builds one
# without the Python-level __new__ a NamedTuple's constructor runs.
new_tuple = tuple.__new__

Trick = tuple[int, tuple[int, ...], int, int]  # a taken trick: leader, cards in order, winner, points


class DealFacts(NamedTuple):
    """What is fixed for the rest of the deal once it is dealt."""

    deal_no: int
    forehand: int
    dealer: int
    start: Hands  # the hands as dealt
    trump: int  # suit 0-3
    trump_card: int  # the turned-up card (trump="turned-up"), or -1


class Snapshot(NamedTuple):
    """The state before one decision, as immutable values: undo restores from it."""

    phase: int
    player: int
    fixed: DealFacts
    hands: Hands
    predictions: tuple[int, ...]  # per seat, -1 until made
    trick: tuple[int, ...]
    leader: int
    led: int
    win_seat: int
    win_str: int
    best_trump: int
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]  # points each seat has taken in this deal
    won: tuple[int, ...]  # tricks each seat has taken in this deal
    voids: tuple[int, ...]
    penalties: tuple[int, ...]  # each seat's total over the finished deals
    summaries: int  # deal summaries written so far
    log: int  # entries in the log


class DealSummary(NamedTuple):
    """A finished deal, everything revealed: the predictions, the points taken, the penalties."""

    number: int
    forehand: int
    dealer: int
    trump: int
    trump_card: int
    predictions: tuple[int, ...]
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    penalties: tuple[int, ...]
    last_trick: Trick


# Every field of DifferenzlerFields as clone() treats it, after the deal-by-deal ones (core.deal_by_deal):
# shared values (immutable, or replaced rather than changed), then the lists and dicts that play
# changes in place (copied by a clone).
SHARED_FIELDS = (
    *deal_by_deal.STATE_SHARED, "_deals", "_open", "_trump_rule", "_exact_bonus", "_fixed", "_forehand", "_dealer",
    "_start", "_trump", "_trump_card", "_leader", "_led", "_win_seat", "_win_str", "_best_trump", "_tricks",
)  # fmt: skip
COPIED_FIELDS = (
    *deal_by_deal.COPIED, "_hands", "_predictions", "_trick", "_taken", "_won", "_voids", "_penalties",
)  # fmt: skip


class DifferenzlerFields(DealByDealState[Deal, DealSummary, Snapshot]):
    """The fields of a Differenzler state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `DifferenzlerFields`, so that nothing imports the
    state back, not even for the type checker."""

    _deals: int
    _open: bool
    _trump_rule: str
    _exact_bonus: int
    _fixed: DealFacts
    _forehand: int
    _dealer: int
    _start: tuple[int, int, int, int]
    _trump: int
    _trump_card: int
    _leader: int
    _led: int
    _win_seat: int
    _win_str: int
    _best_trump: int
    _tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]
    _hands: list[int]
    _predictions: list[int]
    _trick: list[int]
    _taken: list[int]
    _won: list[int]
    _voids: list[int]
    _penalties: list[int]
