"""The fields of a Coiffeur state and the snapshots undo restores.

Undo keeps one `Snapshot` per decision (a deal has at most 5 mode decisions and 36 cards).
`DealFacts` bundles what is fixed once the mode is chosen: one snapshot slot for nine fields.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import NamedTuple

from stichkit.core import deal_by_deal
from stichkit.core.deal_by_deal import DealByDealState

from .deals import Hands

# Snapshots are made on the hot path (one per action): `new_tuple(Snapshot, values)` builds one
# without the Python-level __new__ a NamedTuple's constructor runs.
new_tuple = tuple.__new__

Trick = tuple[int, tuple[int, ...], int, int]  # a taken trick: leader, cards in order, winner, points


class DealFacts(NamedTuple):
    """What is fixed for the rest of the deal once the mode is chosen."""

    deal_no: int
    forehand: int
    start: Hands  # the hands as dealt
    pushed: bool
    chooser: int  # -1 until the mode is chosen
    play_mode: int  # index in PLAY_MODES, -1 until chosen
    row: int  # the row of the chooser's team's sheet the deal is written in, -1 until chosen
    pushes: int  # pushes so far in this deal (push="around": up to one per seat asked)
    asked: tuple[int, ...]  # the seats asked to announce, in order (pushing.asked)


class Snapshot(NamedTuple):
    """The state before one decision, as immutable values: undo restores from it."""

    phase: int
    player: int
    fixed: DealFacts
    hands: Hands
    trick: tuple[int, ...]
    leader: int
    led: int
    win_seat: int
    win_str: int
    best_trump: int
    tricks: tuple[Trick, ...]
    taken: tuple[int, int]  # points each team has taken in this deal
    won: tuple[int, int]  # tricks each team has taken in this deal
    voids: tuple[int, ...]
    filled: tuple[int, int]  # per team, the rows played (a bit each)
    entries: tuple[tuple[int, ...], tuple[int, ...]]  # per team and row: what was written, -1 if open
    summaries: int  # deal summaries written so far
    log: int  # entries in the log


class DealSummary(NamedTuple):
    """A finished deal: who chose what, the points each team took, what went on the sheet."""

    number: int
    forehand: int
    chooser: int
    pushed: bool
    play_mode: int
    row: int
    points: tuple[int, int]
    tricks: tuple[int, int]
    written: int  # the chooser's team's points (with the match bonus), before the multiplier
    score: int  # written × the row's multiplier
    last_trick: Trick
    pushes: int = 0  # how many times the choice was pushed on (push="around": up to one per seat asked)


# Every field of CoiffeurFields as clone() treats it, after the deal-by-deal ones (core.deal_by_deal):
# shared values (immutable, or replaced rather than changed), then the lists and dicts that play
# changes in place (copied by a clone).
SHARED_FIELDS = (
    *deal_by_deal.STATE_SHARED, "_sheet", "_fixed", "_forehand", "_start", "_pushed", "_pushes", "_around", "_asked",
    "_chooser", "_play_mode", "_row", "_leader", "_led", "_win_seat", "_win_str", "_best_trump", "_tricks",
)  # fmt: skip
COPIED_FIELDS = (
    *deal_by_deal.COPIED, "_hands", "_trick", "_taken", "_won", "_voids", "_filled", "_entries",
)  # fmt: skip


class CoiffeurFields(DealByDealState[Hands, DealSummary, Snapshot]):
    """The fields of a Coiffeur state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `CoiffeurFields`, so that nothing imports the
    state back, not even for the type checker."""

    _sheet: tuple[tuple[str, int], ...]
    _fixed: DealFacts
    _forehand: int
    _start: tuple[int, int, int, int]
    _pushed: bool
    _pushes: int
    _around: bool
    _asked: tuple[int, ...]
    _chooser: int
    _play_mode: int
    _row: int
    _leader: int
    _led: int
    _win_seat: int
    _win_str: int
    _best_trump: int
    _tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]
    _hands: list[int]
    _trick: list[int]
    _taken: list[int]
    _won: list[int]
    _voids: list[int]
    _filled: list[int]
    _entries: list[tuple[int, ...]]

    # What the state computes, declared for its readers (state.py).
    @abstractmethod
    def totals(self) -> list[int]: ...
    @abstractmethod
    def pushed_by(self) -> list[int]: ...
