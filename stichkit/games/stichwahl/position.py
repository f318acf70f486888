"""The fields of a Stichwahl state and the snapshots undo restores.

Undo keeps, per action, either a `CardPlay` (a card changes only its player's hand and voids and
the trick, the most common action) or a `Snapshot` of every field that changes during a game.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from stichkit.core.game import State

from .cards import CardTable
from .deals import Deal

# Snapshots are made on the hot path: `new_tuple(Snapshot, values)` builds one without the
# Python-level __new__ a NamedTuple's constructor runs.
new_tuple = tuple.__new__


class Trick(NamedTuple):
    """A finished trick of the current deal, all public."""

    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    trump: int  # trump family and marker when the trick was decided
    high: bool
    winner: int
    prize: int
    taken: int  # cards the winner took from the trick
    from_pile: int  # cards the winner took from the draw pile
    bonus_to: int  # the prize's player, now holding it as a bonus card; -1 for a 5
    pearl_to: int  # the prize's player, scored at once for a pearl bonus; -1 otherwise
    chooser: int  # who chose the next leader (the player of an unchosen 5), -1: nobody
    next_leader: int  # -1 after the deal's last trick, or while the choice is open


class CardPlay(NamedTuple):
    """What undoing a card play needs."""

    seat: int
    card: int
    voids: int  # the seat's void families before the card
    led: int  # the family led before the card


class Snapshot(NamedTuple):
    """Every field that changes during a game, as immutable values."""

    log: int  # entries in the log
    scores: tuple[int, ...]
    deals: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]  # pile, bonus, total per deal
    winners: tuple[int, ...]
    deal_no: int
    starter: int
    deal: Deal
    trump: int
    high: bool  # the marker on 9
    hands: tuple[int, ...]
    pile_pos: int  # cards drawn from the pile
    picks: tuple[int, ...]  # first bonus cards, hidden until everyone has chosen (-1: not yet)
    first: tuple[int, ...]  # the first bonus cards, once turned up
    bonus: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]  # cards in each point pile
    hidden: tuple[int, ...]  # of them, cards from the draw pile
    used: tuple[tuple[int, int, int, int], ...]  # (seat, card, family or -1 = flip, trick)
    trick: tuple[tuple[int, int], ...]
    led: int
    tricks: tuple[Trick, ...]
    voids: tuple[int, ...]
    leader: int
    phase: int
    player: int
    prev_last: Trick | None  # the previous deal's last trick


Undo = CardPlay | Snapshot

# Every field of StichwahlFields, as clone() treats it: shared values (immutable, replaced when
# they change), then the lists and dicts that play changes in place (copied by a clone).
SHARED_FIELDS = (
    "game", "_table", "_n", "_target", "_rotate", "_top_up_all", "_seed", "_deals", "_winners", "_deal_no",
    "_starter", "_prev_last", "_deal", "_trump", "_high", "_pile_pos", "_first", "_used", "_trick", "_led",
    "_legal", "_tricks", "_leader", "_phase", "_player",
)  # fmt: skip
COPIED_FIELDS = ("_log", "_undo", "_given", "_scores", "_hands", "_picks", "_bonus", "_points", "_hidden", "_voids")


class StichwahlFields(State):
    """The fields of a Stichwahl state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `StichwahlFields`, so that nothing imports the
    state back, not even for the type checker."""

    _table: CardTable
    _n: int
    _target: int
    _rotate: bool
    _top_up_all: bool
    _seed: int
    _deals: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    _winners: tuple[int, ...]
    _deal_no: int
    _starter: int
    _prev_last: Trick | None
    _deal: Deal
    _trump: int
    _high: bool
    _pile_pos: int
    _first: tuple[int, ...]
    _used: tuple[tuple[int, int, int, int], ...]
    _trick: tuple[tuple[int, int], ...]
    _led: int
    _legal: list[int] | None
    _tricks: tuple[Trick, ...]
    _leader: int
    _phase: int
    _player: int
    _log: list[int | tuple[str, Any]]
    _undo: list[CardPlay | Snapshot]
    _given: dict[int, Deal]
    _scores: list[int]
    _hands: list[int]
    _picks: list[int]
    _bonus: list[tuple[int, ...]]
    _points: list[int]
    _hidden: list[int]
    _voids: list[int]
