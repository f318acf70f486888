"""The fields of a Stich-Meister state, the snapshots undo restores, and the per-round tables
they point to.

Undo keeps a `Snapshot` of the whole (small) position before each action, but inside a trick
only one, before its first card: undoing a later card restores it and plays the trick's earlier
cards again (as Jass does). A round's rules, trumps and trick tables are composed once per set
of rule cards (and rule 21's suit) and shared by every state that meets them.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, NamedTuple

from stichkit.core.game import State

from .rulecards import RuleCard
from .rules import RoundRules, compose
from .trick import TrickTables
from .trump import Trumps, trump_order, with_dynamic

# Snapshots are made on the hot path: `new_tuple(Snapshot, values)` builds one without the
# Python-level __new__ a NamedTuple's constructor runs.
new_tuple = tuple.__new__


class Snapshot(NamedTuple):
    """The position as immutable values (undo restores it; clones share it)."""

    round: int
    dealer: int
    phase: int
    player: int
    rule_hands: tuple[tuple[int, ...], ...]
    rule_pile: tuple[int, ...]
    used: tuple[int, ...]  # rule cards of finished rounds
    chosen: tuple[int, ...]  # each seat's rule card this round (0: none yet)
    choosers: tuple[int, ...]
    active: tuple[int, ...]  # the rule cards in force, once revealed
    extra: int  # 3 players: the rule card from the pile
    dyn_suit: int  # rule 21's trump suit, or -1
    hands: tuple[int, ...]
    deal: tuple[int, ...]  # the hands as dealt
    phase_idx: int  # the setup phase in progress
    picks: tuple[int, ...]
    resolved: tuple[tuple[int, ...], ...]  # the picks of each finished setup phase
    shown: tuple[int, ...]
    face_down: tuple[int, ...]
    discarded: tuple[int, ...]
    trick: tuple[tuple[int, int, bool], ...]  # (seat, card, face up)
    leader: int
    direction: int
    tricks: tuple[tuple[Any, ...], ...]  # (leader, ((seat, card), ...), winner, taker, removed)
    pending: tuple[Any, ...]  # a full trick waiting for rule 34's removal
    voids: tuple[int, ...]
    pending_voids: tuple[tuple[int, int], ...]  # voids shown by face-down cards, known at the reveal
    played: int
    scores: tuple[int, ...]
    history: tuple[tuple[Any, ...], ...]  # per finished round: rules, points, takers, tricks, ...
    rules: RoundRules | None  # caches: the round's rules, trumps and tables
    trumps: Trumps
    tables: TrickTables | None
    visible: tuple[int, ...]  # the face-up cards of the trick
    log: int  # entries in the log when taken


def snapshot(st: StichMeisterFields) -> Snapshot:
    """The position of `st` as immutable values."""
    return new_tuple(Snapshot, (
        st._round, st._dealer, st._phase, st._player, st._rule_hands, st._rule_pile, st._used,
        st._chosen, st._choosers, st._active, st._extra, st._dyn_suit, tuple(st._hands),
        st._deal, st._phase_idx, st._picks, st._resolved, st._shown, st._face_down,
        st._discarded, tuple(st._trick), st._leader, st._direction, st._tricks, st._pending,
        tuple(st._voids), tuple(st._pending_voids), st._played, st._scores, st._history,
        st._rules, st._trumps, st._tab, tuple(st._vis), len(st._log),
    ))  # fmt: skip


def restore(st: StichMeisterFields, u: Snapshot) -> None:
    """Put `st` back to the position `u`; its log loses what came after."""
    (
        st._round, st._dealer, st._phase, st._player, st._rule_hands, st._rule_pile, st._used,
        st._chosen, st._choosers, st._active, st._extra, st._dyn_suit, hands,
        st._deal, st._phase_idx, st._picks, st._resolved, st._shown, st._face_down,
        st._discarded, trick, st._leader, st._direction, st._tricks, st._pending,
        voids, pending_voids, st._played, st._scores, st._history,
        st._rules, st._trumps, st._tab, vis, log_len,
    ) = u  # fmt: skip
    st._hands = list(hands)
    st._trick = list(trick)
    st._voids = list(voids)
    st._pending_voids = list(pending_voids)
    st._vis = list(vis)
    st._legal = -1
    del st._log[log_len:]


# Every field of StichMeisterFields, as clone() treats it: shared values (immutable, replaced when
# they change), then the lists that play changes in place (copied by a clone).
SHARED_FIELDS = (
    "game", "_seed", "_given", "_n", "_cards",
    "_round", "_dealer", "_phase", "_player", "_rule_hands", "_rule_pile", "_used", "_chosen", "_choosers",
    "_active", "_extra", "_dyn_suit", "_deal", "_phase_idx", "_picks", "_resolved", "_shown",
    "_face_down", "_discarded", "_leader", "_direction", "_tricks", "_pending",
    "_played", "_scores", "_history", "_rules", "_trumps", "_tab", "_legal",
)  # fmt: skip
COPIED_FIELDS = ("_log", "_undo", "_hands", "_trick", "_voids", "_pending_voids", "_vis")

# A round's rules and its trump orders, shared by every state of the same rule cards: compose
# and trump_order run once per rule set (and rule 21 suit), not once per round or per undo.
_RULES: dict[tuple[int, tuple[int, ...]], tuple[tuple[RuleCard, ...], RoundRules]] = {}
_TABLES: dict[tuple[int, int], tuple[RoundRules, Trumps, TrickTables]] = {}
_CACHE_SIZE = 4096


def round_rules(cards: tuple[RuleCard, ...], active: tuple[int, ...]) -> RoundRules:
    """The rules composed of the rule cards `active` (numbers into `cards`)."""
    key = (id(cards), active)
    hit = _RULES.get(key)
    if hit is None or hit[0] is not cards:
        if len(_RULES) >= _CACHE_SIZE:
            _RULES.clear()
        hit = _RULES[key] = (cards, compose([cards[k - 1] for k in active]))
    return hit[1]


def round_tables(rules: RoundRules, dyn_suit: int) -> tuple[Trumps, TrickTables]:
    """The trump order and trick tables of `rules`, with rule 21's suit `dyn_suit` (-1: none)."""
    key = (id(rules), dyn_suit)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not rules:
        if len(_TABLES) >= _CACHE_SIZE:
            _TABLES.clear()
        static = with_dynamic(rules.static_trumps, rules.dynamic_trump_rule, dyn_suit)
        trumps = trump_order(static, rules.reverse_ranks)
        hit = _TABLES[key] = (rules, trumps, TrickTables(rules, trumps))
    return hit[1], hit[2]


class StichMeisterFields(State):
    """The fields of a StichMeister state, declared once: the state (state.py) has them, and what reads
    them (views, sampling, the snapshots here) takes a `StichMeisterFields`, so that nothing imports the
    state back, not even for the type checker."""

    _seed: int
    _given: dict[int, Any]
    _n: int
    _cards: tuple[RuleCard, ...]
    _round: int
    _dealer: int
    _phase: int
    _player: int
    _rule_hands: tuple[tuple[int, ...], ...]
    _rule_pile: tuple[int, ...]
    _used: tuple[int, ...]
    _chosen: tuple[int, ...]
    _choosers: tuple[int, ...]
    _active: tuple[int, ...]
    _extra: int
    _dyn_suit: int
    _deal: tuple[int, ...]
    _phase_idx: int
    _picks: tuple[int, ...]
    _resolved: tuple[tuple[int, ...], ...]
    _shown: tuple[int, ...]
    _face_down: tuple[int, ...]
    _discarded: tuple[int, ...]
    _leader: int
    _direction: int
    _tricks: tuple[tuple[Any, ...], ...]
    _pending: tuple[Any, ...]
    _played: int
    _scores: tuple[int, ...]
    _history: tuple[tuple[Any, ...], ...]
    _rules: RoundRules | None
    _trumps: Trumps
    _tab: TrickTables | None
    _legal: int
    _log: list[int | tuple[str, Any]]
    _undo: list[Snapshot]
    _hands: list[int]
    _trick: list[tuple[int, int, bool]]
    _voids: list[int]
    _pending_voids: list[tuple[int, int]]
    _vis: list[int]

    game: Any  # the Stich-Meister game (its deck, rule deck, rounds)

    # What the state computes, declared for its readers (state.py).
    @abstractmethod
    def rules(self) -> RoundRules | None: ...
    @abstractmethod
    def trumps(self) -> Trumps: ...
    @abstractmethod
    def _auto_last_trick(self) -> None: ...
    @abstractmethod
    def visible_trick(self) -> list[int]: ...
    @abstractmethod
    def trumps_broken(self) -> bool: ...
    @abstractmethod
    def why_not(self, card: str) -> str: ...
