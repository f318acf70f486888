"""The fields of a Jass state, the snapshots undo restores, and the card play as plain values
for solvers (`play_position`, `pending_claims`).

Undo keeps one `Snapshot` per trick (and per trump decision), taken between tricks, so the
fields of a trick in progress need no saving. `DealFacts` bundles what changes only with the
deal or the trump choice: one snapshot slot for eight fields.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import NamedTuple

from stichkit.core import deal_by_deal
from stichkit.core.deal_by_deal import DealByDealState

from .actions import PLAY
from .deals import Hands
from .profiles import Profile
from .scoring import DealSummary
from .weis import Weis, scoring_teams

# Snapshots are made on the hot path (one per trick): `new_tuple(Snapshot, values)` builds one
# without the Python-level __new__ a NamedTuple's constructor runs (four times the cost).
new_tuple = tuple.__new__

Trick = tuple[int, tuple[int, ...], int, int]  # a taken trick: leader, cards in order, winner, points


class DealFacts(NamedTuple):
    """What is fixed for the rest of the deal once dealt or once trump is chosen."""

    deal_no: int
    forehand: int
    start: Hands  # the hands as dealt
    trump: int  # mode 0-5, or -1 before it is chosen
    chooser: int  # seat that chose trump, or -1
    pushed: bool
    weis: tuple[tuple[Weis, ...], ...]  # each seat's Weis that count (shown after the first trick); announced ones
    stoeck_seat: int  # the seat dealt trump King and Queen, or -1
    held: tuple[tuple[Weis, ...], ...]  # each seat's best Weis as dealt (weis="announce": maybe never announced)


class Snapshot(NamedTuple):
    """The state between tricks, as immutable values: undo restores from it, clones share it."""

    phase: int
    player: int
    fixed: DealFacts
    hands: Hands
    leader: int
    tricks: tuple[Trick, ...]
    deal_tricks: tuple[int, int]
    voids: tuple[int, ...]
    weis_teams: tuple[int, ...] | None
    stoeck_done: bool
    scores: tuple[int, int]
    winner: int
    summaries: int  # deal summaries written so far
    log: int  # entries in the log: the cards of the trick since are played again after a restore
    tally: tuple[int, ...]
    match: int


class PlayPosition(NamedTuple):
    """The card play of a deal at a card decision (`JassFields.play_position`)."""

    trump: int  # mode 0-5
    lowest_plain: bool  # undertrump option "jass-kit" (see rules.next_reference)
    hands: Hands
    trick: tuple[int, ...]  # cards of the trick in progress, in order
    leader: int  # seat that led the trick in progress (or leads the next)
    led: int  # suit led, or -1
    win_seat: int  # seat winning the trick so far, or -1
    win_str: int  # its STRENGTH, or -1
    best_trump: int  # the trick's reference trump for the undertrump ban, or -1
    tricks_done: int  # tricks of this deal already taken
    tricks_won: tuple[int, int]  # tricks each team has taken in this deal
    player: int  # seat to play


def play_position(state: JassFields) -> PlayPosition | None:
    """The card play of the deal as plain values, read-only, for solvers that search it (see
    stichkit.analysis); None unless a card is to be played (trump phases, game over)."""
    if state._phase != PLAY:
        return None
    h = state._hands
    return PlayPosition(
        state._trump, state._lowest_plain, (h[0], h[1], h[2], h[3]), tuple(state._trick), state._leader,
        state._led, state._win_seat, state._win_str, state._best_trump, len(state._tricks),
        (state._deal_tricks[0], state._deal_tricks[1]), state._player,
    )  # fmt: skip


def pending_claims(state: JassFields) -> tuple[int, tuple[int, int], int]:
    """What the deal may still claim besides the tricks, for solvers of the race to the target
    (stichkit.analysis.race): the seat that claims Stöck with its second card of the pair (-1:
    none), the Weis points each team claims when the first trick is complete ((0, 0) once shown
    or without Weis), and the team that claims its Weis first (the forehand's)."""
    stoeck = state._stoeck_seat if not state._stoeck_done and state._phase == PLAY else -1
    weis = [0, 0]
    if state._weis_on and state._weis_teams is None and state._phase == PLAY:
        counted = state._weis
        if state._announce:  # a seat that has not played yet may still announce: counted as if it will
            played = {(state._leader - k) & 3 for k in range(len(state._trick))}
            counted = tuple(state._held[s] if s not in played else state._weis[s] for s in range(4))
        for team in scoring_teams(counted, state._trump, state._forehand, state._profile):
            weis[team] = sum(w.points for seat in range(4) if seat & 1 == team for w in counted[seat])
    return stoeck, (weis[0], weis[1]), state._forehand & 1


# Every field of JassFields as clone() treats it, after the deal-by-deal ones (core.deal_by_deal):
# shared values (immutable, or replaced rather than changed), then the lists and dicts that play
# changes in place (copied by a clone).
SHARED_FIELDS = (
    *deal_by_deal.STATE_SHARED, "_profile", "_target", "_deals", "_mults", "_mult", "_ausmachen", "_weis_on",
    "_announce", "_held", "_stoeck_on", "_stoeck_said", "_calling", "_first_forehand", "_lowest_plain", "_winner",
    "_match", "_forehand", "_trump", "_chooser", "_pushed", "_start", "_leader", "_led", "_win_seat", "_win_str",
    "_win_card", "_best_trump", "_tricks", "_weis", "_weis_teams", "_stoeck_seat", "_stoeck_done", "_fixed",
)  # fmt: skip
COPIED_FIELDS = (
    *deal_by_deal.COPIED, "_scores", "_hands", "_trick", "_deal_tricks", "_voids", "_tally",
)  # fmt: skip


class JassFields(DealByDealState[Hands, DealSummary, Snapshot]):
    """The fields of a Jass state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `JassFields`, so that nothing imports the
    state back, not even for the type checker."""

    _profile: Profile
    _target: int
    _deals: int  # a game of fixed deals (passe.py), or 0
    _mults: tuple[int, ...]
    _mult: int
    _ausmachen: bool
    _weis_on: bool
    _announce: bool
    _held: tuple[tuple[Weis, ...], ...]
    _stoeck_on: bool
    _stoeck_said: bool
    _calling: bool
    _first_forehand: int | str
    _lowest_plain: bool
    _winner: int
    _match: int
    _forehand: int
    _trump: int
    _chooser: int
    _pushed: bool
    _start: tuple[int, int, int, int]
    _leader: int
    _led: int
    _win_seat: int
    _win_str: int
    _win_card: int
    _best_trump: int
    _tricks: tuple[tuple[int, tuple[int, ...], int, int], ...]
    _weis: tuple[tuple[Weis, ...], ...]
    _weis_teams: tuple[int, ...] | None
    _stoeck_seat: int
    _stoeck_done: bool
    _fixed: DealFacts
    _scores: list[int]
    _hands: list[int]
    _trick: list[int]
    _deal_tricks: list[int]
    _voids: list[int]
    _tally: list[int]

    # What the state computes, declared for its readers (state.py, ausmachen.py).
    @property
    @abstractmethod
    def multiplier(self) -> int | None: ...
    @abstractmethod
    def _fix(self) -> None: ...
    @abstractmethod
    def _stoeck_holder(self) -> int: ...
