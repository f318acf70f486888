"""A whole Stich-Meister game, round after round, as the rulebook's "Ablauf einer Spielrunde" runs:

deal → 1. choose rule cards (secret, in turn from the dealer's left) → reveal → 2. trump →
setup phases that basic rules add (pass, face down, show, discard; number order) →
3. tricks (rule 34: the winner removes a card after each) → 4. scoring → next round.

The hot path (legal_actions, apply, undo, clone) works on int masks and per-round tables
(trick.TrickTables, built once per rule set and trump order and shared), caches the legal mask,
resolves the canonical actions by identity and makes no views. Undo keeps a snapshot of the
whole (small) position before each action, but inside a trick only one, before its first card:
undoing a later card restores it and plays the trick's earlier cards again (as Jass does).
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError
from stichkit.core.game import Entry

from . import position, refusals, sampling, views
from .actions import (
    ACTION_ID_OF,
    ACTION_TEXTS,
    ACTIONS,
    CHOOSE,
    CHUNKS,
    OVER,
    PHASE_NAMES,
    PICK_ACTION,
    PICK_PREFIXES,
    PLAY,
    REMOVE,
    REMOVE_ACTION,
    RULE_ACTION,
    SETUP,
)  # fmt: skip
from .deals import RULE_HAND, deal_json, deal_rule_hands, refill_rule_hands
from .position import COPIED_FIELDS, SHARED_FIELDS, Snapshot
from .round_setup import RoundSetup
from .rulecards import RuleCard
from .rules import RoundRules
from .scoring import round_points, taken_tricks
from .trick import TrickTables
from .trump import NO_TRUMPS, Trumps

_SHIFT = 1 << 16  # State.SEAT_SHIFT: a log decision is seat * _SHIFT + action id
_ACTION_MASK = _SHIFT - 1


class StichMeisterState(RoundSetup):
    game: Any  # the StichMeister game (its deck, rule deck, rounds)

    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS

    def __init__(self, game: Any, seed: int, given: dict[Any, Any]) -> None:
        self.game = game
        self._log: list[Entry] = []
        self._undo: list[Snapshot] = []
        self._seed = seed
        self._given = given
        self._n: int = game.num_players
        self._cards: tuple[RuleCard, ...] = game.rule_cards
        self._rules: RoundRules | None = None
        self._trumps: Trumps = NO_TRUMPS
        self._tab: TrickTables | None = None
        self._legal = -1
        n = self._n
        deck = given.get("rule_deck") or game.shuffle_rule_deck(seed)
        self._log.append(("chance", ("rule_deck", tuple(deck))))
        self._rule_hands, self._rule_pile = deal_rule_hands(deck, n)
        self._used: tuple[int, ...] = ()
        self._scores: tuple[int, ...] = (0,) * n
        # per finished round: (active rules, points, takers, tricks, its RoundRules, its Trumps)
        self._history: tuple[tuple[Any, ...], ...] = ()
        self._round = -1
        self._dealer = game.options["first_player"]
        self._start_round()

    # -- the flow of a round ----------------------------------------------------------------------
    # Lists (mutated in place): _hands, _voids, _trick, _pending_voids, _vis (and _log, _undo).
    # Every other field holds immutable values and is replaced when it changes.

    def _start_round(self) -> None:
        self._round += 1
        n = self._n
        self._dealer = (self.game.options["first_player"] + self._round) % n
        hands = self._given.get(self._round) or self.game.deal_hands(self._seed, self._round)
        self._log.append(("chance", ("hands", tuple(hands))))
        self._deal: tuple[int, ...] = tuple(hands)
        self._hands: list[int] = list(hands)
        left = (self._dealer + 1) % n
        order = [(left + i) % n for i in range(n)]
        if n == 5:
            order = order[1:]  # 5 players: the dealer's left neighbour picks no rule card
        self._choosers: tuple[int, ...] = tuple(order)
        self._chosen: tuple[int, ...] = (0,) * n
        self._active: tuple[int, ...] = ()
        self._extra = 0
        self._dyn_suit = -1
        self._rules = None
        self._trumps = NO_TRUMPS
        self._tab = None
        self._phase = CHOOSE
        self._player = order[0]
        self._phase_idx = 0
        self._picks: tuple[int, ...] = (0,) * n
        self._resolved: tuple[tuple[int, ...], ...] = ()  # picks of each finished setup phase
        self._shown: tuple[int, ...] = (0,) * n
        self._face_down: tuple[int, ...] = (0,) * n
        self._discarded: tuple[int, ...] = (0,) * n
        self._trick: list[tuple[int, int, bool]] = []  # (seat, card, face up)
        self._vis: list[int] = []  # the face-up cards of the trick, in play order
        self._leader = left
        self._direction = 1
        # (leader, ((seat, card), ...), winner, taker, removed) per finished trick
        self._tricks: tuple[tuple[Any, ...], ...] = ()
        self._pending: tuple[Any, ...] = ()  # a full trick waiting for rule 34's removal
        self._voids: list[int] = [0] * n
        self._pending_voids: list[tuple[int, int]] = []
        self._played = 0

    def visible_trick(self) -> list[int]:
        """The cards of the trick in progress that everybody sees (rule 26 hides all but the lead)."""
        return [c for _, c, up in self._trick if up]

    def trumps_broken(self) -> bool:
        """Whether a trump was played this round, as everybody knows it: a card lying face down in
        the trick (rule 26) counts only once turned up (before the next lead, where it matters)."""
        played = self._played
        for _s, c, up in self._trick:
            if not up:
                played &= ~(1 << c)
        return bool(played & self._trumps.mask)

    def _play(self, card: int, auto: bool = False) -> None:
        p = self._player
        t = self._tab
        assert t is not None
        bit = 1 << card
        trick = self._trick
        if not auto:
            # What everybody learns about the rest of the hand (trick.inferred_voids, by tables).
            vis = self._vis
            void = t.revealed(card, vis, not vis and t.need_break and self.trumps_broken())
            face_up = not (t.face_down and trick)
            if void:
                if face_up:
                    self._voids[p] |= void
                else:
                    self._pending_voids.append((p, void))
            self._hands[p] &= ~bit
            if face_up and self._shown[p] & bit:  # a shown card played face down stays listed until the reveal
                shown = self._shown
                self._shown = (*shown[:p], shown[p] & ~bit, *shown[p + 1 :])
        else:
            face_up = True
            down = self._face_down
            self._face_down = (*down[:p], down[p] & ~bit, *down[p + 1 :])
        if not trick:
            self._leader = p
            if t.rules.dynamic_trump_rule and len(self._tricks) == 1 and self._dyn_suit < 0:
                self._dyn_suit = card // 15  # rule 21: this card's suit is trump from now on
                self._load_rules()
        trick.append((p, card, face_up))
        if face_up:
            self._vis.append(card)
        self._played |= bit
        if len(trick) == self._n:
            self._end_trick()
        else:
            self._player = (p + self._direction) % self._n

    def _end_trick(self) -> None:
        t = self._tab
        assert t is not None
        voids = self._voids
        for p, void in self._pending_voids:  # rule 26: the face-down cards are revealed now
            voids[p] |= void
        self._pending_voids = []
        trick = self._trick
        if any(self._shown):
            shown = list(self._shown)
            for p, c, _up in trick:
                shown[p] &= ~(1 << c)
            self._shown = tuple(shown)
        plays = tuple([(s, c) for s, c, _ in trick])
        winner = trick[t.winner([c for _, c, _ in trick])][0]
        if t.rules.remove_from_trick:
            self._pending = (self._leader, plays, winner)
            self._trick = []
            self._vis = []
            self._phase = REMOVE
            self._player = winner
            return
        self._finish_trick(self._leader, plays, winner, -1)

    def _finish_trick(self, leader: int, plays: tuple[tuple[int, int], ...], winner: int, removed: int) -> None:
        rules = self._rules
        assert rules is not None
        n = self._n
        took = (winner + 1) % n if rules.trick_to_left else winner  # trick.taker
        self._tricks += ((leader, plays, winner, took, removed),)
        self._trick = []
        self._vis = []
        self._pending = ()
        # trick.next_leader, trick.direction_after
        self._leader = self._player = (winner - 1) % n if rules.right_of_winner_leads else winner
        if rules.reverse_direction:
            self._direction = -self._direction
        self._phase = PLAY
        if not any(self._hands):
            if any(self._face_down):
                self._auto_last_trick()
            else:
                self._end_round()

    def _auto_last_trick(self) -> None:
        """Rule 24: the cards laid face down are played, in turn, to the last trick."""
        n = self._n
        lead = self._leader
        for i in range(n):
            s = (lead + i * self._direction) % n
            if self._phase != PLAY:
                break
            self._player = s
            for c in bits(self._face_down[s]):
                self._play(c, auto=True)
                break

    def _end_round(self) -> None:
        rules = self._rules
        assert rules is not None
        trumps = self._trumps
        points, takers = round_points(self._tricks, rules, trumps, self._n)
        self._scores = tuple([self._scores[s] + points[s] for s in range(self._n)])
        # The finished round, for its summary (views show it until the next round's first action).
        self._history += ((self._active, tuple(points), takers, self._tricks, rules, trumps),)
        self._used += self._active
        if self._round + 1 >= self.game.rounds:
            self._phase = OVER
            self._player = -1
            return
        self._rule_hands, self._rule_pile = refill_rule_hands(self._rule_hands, self._rule_pile, self._dealer)
        self._start_round()

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._player

    @property
    def round_number(self) -> int:
        return self._round

    def _legal_mask(self) -> int:
        phase = self._phase
        p = self._player
        if phase == PLAY:  # trick.legal_plays, by the round's tables
            t = self._tab
            assert t is not None
            vis = self._vis
            return t.legal(self._hands[p], vis, not vis and t.need_break and self.trumps_broken())
        if phase == CHOOSE:
            return sum(1 << (RULE_ACTION + k - 1) for k in self._rule_hands[p])
        if phase == SETUP:
            rules = self._rules
            assert rules is not None
            base = PICK_ACTION[rules.phases[self._phase_idx].action]
            return (self._hands[p] & ~self._picks[p]) << base
        if phase == REMOVE:
            return sum(1 << c for _, c in self._pending[1]) << REMOVE_ACTION
        return 0

    def legal_actions(self) -> list[Action]:
        m = self._legal
        if m < 0:
            m = self._legal = self._legal_mask()
        if m >> 60:
            return [ACTIONS[i] for i in bits(m)]
        t = CHUNKS
        return [
            *t[0][m & 1023],
            *t[1][m >> 10 & 1023],
            *t[2][m >> 20 & 1023],
            *t[3][m >> 30 & 1023],
            *t[4][m >> 40 & 1023],
            *t[5][m >> 50],
        ]

    def legal_action_mask(self) -> list[int]:
        m = self._legal
        if m < 0:
            m = self._legal = self._legal_mask()
        return [(m >> i) & 1 for i in range(len(ACTIONS))]

    def apply(self, action: Action | str) -> None:
        a = ACTION_ID_OF(id(action), -1)  # the canonical Actions by identity: the hot path
        if a < 0:
            a = self.game.action_id(action)
        m = self._legal
        if m < 0:
            m = self._legal_mask()
        if not m >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        phase = self._phase
        if phase != PLAY or not self._trick:
            self._undo.append(self._snapshot())  # a later card of this trick is undone by replay
        self._legal = -1
        p = self._player
        self._log.append(p * _SHIFT + a)
        if a < 60:
            self._play(a)
        elif a < 120:
            self._choose(a - RULE_ACTION + 1)
        elif a < REMOVE_ACTION:
            self._pick((a - 120) % 60)
        else:
            leader, plays, winner = self._pending
            self._finish_trick(leader, plays, winner, a - REMOVE_ACTION)

    def why_not(self, card: str) -> str:
        """Why the player to move may not play `card` now ("" if it may): the renderer's hint."""
        try:
            a = self.game.parse_action(card).id
        except IllegalActionError as e:
            return str(e)
        return "" if self._legal_mask() >> a & 1 else self._why_illegal(a)

    def _why_illegal(self, a: int) -> Reason:
        return refusals.why_illegal(self, a)

    def _snapshot(self) -> Snapshot:
        return position.snapshot(self)

    def _restore(self, u: Snapshot) -> None:
        position.restore(self, u)

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo[-1]
        log = self._log
        last = len(log) - 1 if type(log[-1]) is int else len(log) - 2  # skip a new round's deal entry
        again = log[u.log : last]  # the snapshot is from before the first card of this trick
        if not again:
            self._undo.pop()
        self._restore(u)
        for e in again:  # cards of one trick: always decisions, never the trick's last card
            log.append(e)
            self._play(e & _ACTION_MASK)  # type: ignore[operator]

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        top = max(self._scores)
        return [s for s in range(self._n) if self._scores[s] == top]

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> StichMeisterState:
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        # Not the caches (rules, trumps, tables: they follow from the rest), the log itself.
        snap = self._snapshot()._replace(rules=None, trumps=NO_TRUMPS, tables=None, visible=(), log=-1)
        return (snap, tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        return f"<StichMeisterState round {self._round} {PHASE_NAMES[self._phase]} scores {list(self._scores)}>"


# Names that code outside the package imports from here.
__all__ = [
    "ACTIONS", "ACTION_TEXTS", "CHOOSE", "OVER", "PHASE_NAMES", "PICK_ACTION", "PICK_PREFIXES", "PLAY", "REMOVE",
    "REMOVE_ACTION", "RULE_ACTION", "RULE_HAND", "SETUP", "StichMeisterState", "taken_tricks",
]  # fmt: skip
