"""A whole Stich-Meister game, round after round, as the rulebook's "Ablauf einer Spielrunde" runs:

deal → 1. choose rule cards (secret, in turn from the dealer's left) → reveal → 2. trump →
setup phases that basic rules add (pass, face down, show, discard; number order) →
3. tricks (rule 34: the winner removes a card after each) → 4. scoring → next round.

Undo keeps a snapshot of the whole (small) position before each action.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, UndoError
from stichkit.core.game import Entry, State

from .cards import DECK, names, suit_of
from .rulecards import RuleCard
from .rules import RoundRules, compose
from .scoring import TakenTrick, score_round
from .trick import (
    direction_after,
    inferred_voids,
    legal_plays,
    next_leader,
    taker,
    why_not,
    winner_position,
)
from .trump import Trumps, trump_order, with_dynamic

CHOOSE, SETUP, PLAY, REMOVE, OVER = range(5)
PHASE_NAMES = ("choose", "setup", "play", "remove", "over")
RULE_HAND = 3
# The fixed action table: cards, rule choices, then one block of 60 per setup or trick decision.
RULE_ACTION = 60
PICK_PREFIXES = ("pass", "down", "show", "discard")
PICK_ACTION = {p: 120 + 60 * i for i, p in enumerate(PICK_PREFIXES)}
REMOVE_ACTION = 360
ACTION_TEXTS = (
    *DECK.names,
    *(f"rule:{n}" for n in range(1, 61)),
    *(f"{p}:{c}" for p in PICK_PREFIXES for c in DECK.names),
    *(f"remove:{c}" for c in DECK.names),
)
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))

# Fields copied into undo snapshots (lists hold only immutable values, so a shallow copy is enough).
_FIELDS = (
    "_round", "_dealer", "_phase", "_player", "_rule_hands", "_rule_pile", "_used", "_chosen", "_choosers",
    "_active", "_extra", "_dyn_suit", "_hands", "_deal", "_phase_idx", "_picks", "_resolved", "_shown",
    "_face_down", "_discarded", "_trick", "_leader", "_direction", "_tricks", "_pending", "_voids",
    "_pending_voids", "_played", "_scores", "_history",
)  # fmt: skip


class StichMeisterState(State):
    game: Any  # the StichMeister game (its deck, rule deck, rounds)

    def __init__(self, game: Any, seed: int, given: dict[Any, Any]) -> None:
        self.game = game
        self._log: list[Entry] = []
        self._undo: list[tuple[Any, ...]] = []
        self._seed = seed
        self._given = given
        self._n: int = game.num_players
        self._cards: tuple[RuleCard, ...] = game.rule_cards
        self._rules: RoundRules | None = None
        self._trumps: Trumps | None = None
        n = self._n
        deck = given.get("rule_deck") or game.shuffle_rule_deck(seed)
        self._log.append(("chance", ("rule_deck", tuple(deck))))
        self._rule_hands: list[tuple[int, ...]] = [
            tuple(sorted(deck[RULE_HAND * s : RULE_HAND * s + 3])) for s in range(n)
        ]
        self._rule_pile: tuple[int, ...] = tuple(deck[RULE_HAND * n :])
        self._used: tuple[int, ...] = ()
        self._scores = [0] * n
        self._history: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...] = ()
        self._round = -1
        self._dealer = game.options["first_player"]
        self._start_round()

    # -- the flow of a round ----------------------------------------------------------------------

    def _start_round(self) -> None:
        self._round += 1
        n = self._n
        self._dealer = (self.game.options["first_player"] + self._round) % n
        hands = self._given.get(self._round) or self.game.deal_hands(self._seed, self._round)
        self._log.append(("chance", ("hands", tuple(hands))))
        self._deal: tuple[int, ...] = tuple(hands)
        self._hands = list(hands)
        left = (self._dealer + 1) % n
        order = [(left + i) % n for i in range(n)]
        if n == 5:
            order = order[1:]  # 5 players: the dealer's left neighbour picks no rule card
        self._choosers: tuple[int, ...] = tuple(order)
        self._chosen: list[int] = [0] * n
        self._active: tuple[int, ...] = ()
        self._extra = 0
        self._dyn_suit = -1
        self._rules = None
        self._trumps = None
        self._phase = CHOOSE
        self._player = order[0]
        self._phase_idx = 0
        self._picks: list[int] = [0] * n
        self._resolved: tuple[tuple[int, ...], ...] = ()  # picks of each finished setup phase
        self._shown = [0] * n
        self._face_down = [0] * n
        self._discarded = [0] * n
        self._trick: list[tuple[int, int, bool]] = []  # (seat, card, face up)
        self._leader = left
        self._direction = 1
        self._tricks: list[tuple[Any, ...]] = []  # (leader, ((seat, card), ...), winner, taker, removed)
        self._pending: tuple[Any, ...] = ()  # a full trick waiting for rule 34's removal
        self._voids = [0] * n
        self._pending_voids: list[tuple[int, int]] = []
        self._played = 0

    def rules(self) -> RoundRules | None:
        """The round's composed rules once the rule cards are revealed."""
        if self._rules is None and self._active:
            self._rules = compose([self._cards[k - 1] for k in self._active])
        return self._rules

    def trumps(self) -> Trumps:
        if self._trumps is None:
            r = self.rules()
            if r is None:
                self._trumps = trump_order(())
            else:
                static = with_dynamic(r.static_trumps, r.dynamic_trump_rule, self._dyn_suit)
                self._trumps = trump_order(static, r.reverse_ranks)
        return self._trumps

    def _choose(self, number: int) -> None:
        p = self._player
        self._chosen[p] = number
        self._rule_hands[p] = tuple(x for x in self._rule_hands[p] if x != number)
        i = self._choosers.index(p)
        if i + 1 < len(self._choosers):
            self._player = self._choosers[i + 1]
            return
        active = [self._chosen[s] for s in self._choosers]
        if self._n == 3:  # 3 players: the top card of the rule deck is added
            self._extra = self._rule_pile[0]
            self._rule_pile = self._rule_pile[1:]
            active.append(self._extra)
        self._active = tuple(sorted(active))
        self._rules = None
        self._trumps = None
        self._next_setup()

    def _next_setup(self) -> None:
        rules = self.rules()
        assert rules is not None
        if self._phase_idx < len(rules.phases):
            self._phase = SETUP
            self._picks = [0] * self._n
            self._player = (self._dealer + 1) % self._n
            return
        self._phase = PLAY
        self._player = self._leader = (self._dealer + 1) % self._n
        self._direction = 1
        if not any(self._hands):
            self._auto_last_trick()

    def _pick(self, card: int) -> None:
        rules = self.rules()
        assert rules is not None
        phase = rules.phases[self._phase_idx]
        p = self._player
        self._picks[p] |= 1 << card
        if self._picks[p].bit_count() < phase.count:
            return
        nxt = (p + 1) % self._n
        if nxt != (self._dealer + 1) % self._n:
            self._player = nxt
            return
        picks = tuple(self._picks)
        n = self._n
        if phase.kind == "pass":
            hands = [self._hands[s] & ~picks[s] for s in range(n)]
            for s in range(n):
                hands[(s + phase.to) % n] |= picks[s]
            self._hands = hands
        elif phase.kind == "face_down_last":
            for s in range(n):
                self._hands[s] &= ~picks[s]
                self._face_down[s] |= picks[s]
        elif phase.kind == "show":
            for s in range(n):
                self._shown[s] |= picks[s]
        else:  # discard
            for s in range(n):
                self._hands[s] &= ~picks[s]
                self._discarded[s] |= picks[s]
                self._shown[s] &= ~picks[s]
        self._resolved += (picks,)
        self._picks = [0] * n
        self._phase_idx += 1
        self._next_setup()

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
        return bool(played & self.trumps().mask)

    def _play(self, card: int, auto: bool = False) -> None:
        p = self._player
        rules = self.rules()
        assert rules is not None
        bit = 1 << card
        if not auto:
            visible = self.visible_trick()
            void = inferred_voids(card, visible, rules, self.trumps(), self.trumps_broken())
            face_up = not (rules.face_down_followers and self._trick)
            if void:
                if face_up:
                    self._voids[p] |= void
                else:
                    self._pending_voids.append((p, void))
            self._hands[p] &= ~bit
            if face_up:  # a shown card played face down stays listed until the reveal
                self._shown[p] &= ~bit
        else:
            face_up = True
            self._face_down[p] &= ~bit
        if not self._trick:
            self._leader = p
            if rules.dynamic_trump_rule and len(self._tricks) == 1 and self._dyn_suit < 0:
                self._dyn_suit = suit_of(card)  # rule 21: this card's suit is trump from now on
                self._trumps = None
        self._trick.append((p, card, face_up))
        self._played |= bit
        if len(self._trick) == self._n:
            self._end_trick()
        else:
            self._player = (p + self._direction) % self._n

    def _end_trick(self) -> None:
        rules = self.rules()
        assert rules is not None
        for p, void in self._pending_voids:  # rule 26: the face-down cards are revealed now
            self._voids[p] |= void
        self._pending_voids = []
        for p, c, _up in self._trick:
            self._shown[p] &= ~(1 << c)
        cards = [c for _, c, _ in self._trick]
        winner = self._trick[winner_position(cards, rules, self.trumps())][0]
        if rules.remove_from_trick:
            self._pending = (self._leader, tuple((s, c) for s, c, _ in self._trick), winner)
            self._trick = []
            self._phase = REMOVE
            self._player = winner
            return
        self._finish_trick(self._leader, tuple((s, c) for s, c, _ in self._trick), winner, -1)

    def _finish_trick(self, leader: int, plays: tuple[tuple[int, int], ...], winner: int, removed: int) -> None:
        rules = self.rules()
        assert rules is not None
        n = self._n
        self._tricks.append((leader, plays, winner, taker(winner, rules, n), removed))
        self._trick = []
        self._pending = ()
        self._leader = self._player = next_leader(winner, rules, n)
        self._direction = direction_after(self._direction, rules)
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
        rules = self.rules()
        assert rules is not None
        trumps = self.trumps()
        taken = []
        for _leader, plays, winner, took, removed in self._tricks:
            cards = sum(1 << c for _, c in plays) & ~(1 << removed if removed >= 0 else 0)
            win_card = next(c for s, c in plays if s == winner)
            taken.append(TakenTrick(cards, winner, win_card, plays[0][1], took))
        points, _values = score_round(taken, rules, trumps, self._n)
        for s in range(self._n):
            self._scores[s] += points[s]
        self._history += ((self._active, tuple(points), tuple(t.taker for t in taken)),)
        self._used += self._active
        if self._round + 1 >= self.game.rounds:
            self._phase = OVER
            self._player = -1
            return
        n = self._n
        pile = list(self._rule_pile)
        hands = list(self._rule_hands)
        for i in range(n):  # refill to three, from the dealer's left
            s = (self._dealer + 1 + i) % n
            while len(hands[s]) < RULE_HAND and pile:
                hands[s] = tuple(sorted((*hands[s], pile.pop(0))))
        self._rule_hands = hands
        self._rule_pile = tuple(pile)
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
        if phase == PLAY:
            rules = self.rules()
            assert rules is not None
            return legal_plays(self._hands[p], self.visible_trick(), rules, self.trumps(), self.trumps_broken())
        if phase == CHOOSE:
            return sum(1 << (RULE_ACTION + k - 1) for k in self._rule_hands[p])
        if phase == SETUP:
            rules = self.rules()
            assert rules is not None
            base = PICK_ACTION[rules.phases[self._phase_idx].action]
            return (self._hands[p] & ~self._picks[p]) << base
        if phase == REMOVE:
            return sum(1 << c for _, c in self._pending[1]) << REMOVE_ACTION
        return 0

    def legal_actions(self) -> list[Action]:
        return [ACTIONS[i] for i in bits(self._legal_mask())]

    def legal_action_mask(self) -> list[int]:
        m = self._legal_mask()
        return [(m >> i) & 1 for i in range(len(ACTIONS))]

    def apply(self, action: Action | str) -> None:
        a = self.game.parse_action(action).id
        if not self._legal_mask() >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        self._undo.append(self._snapshot())
        p = self._player
        self._log.append(p * self.SEAT_SHIFT + a)
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

    def _why_illegal(self, a: int) -> str:
        text = ACTION_TEXTS[a]
        phase = self._phase
        if phase == OVER:
            return f"{text}: the game is over"
        p = self._player
        who = f"seat {p}"
        wants = {
            CHOOSE: "choose a rule card (rule:N)",
            SETUP: "pick a card for the setup phase",
            PLAY: "play a card",
            REMOVE: "remove a card of the trick (remove:CARD)",
        }[phase]
        if phase == CHOOSE:
            if RULE_ACTION <= a < 120:
                hand = ", ".join(f"rule:{k}" for k in self._rule_hands[p])
                return f"{text}: {who} does not hold rule card {a - RULE_ACTION + 1}; it holds {hand}"
            return f"{text}: {who} must first {wants}"
        rules = self.rules()
        assert rules is not None
        if phase == SETUP:
            ph = rules.phases[self._phase_idx]
            prefix = ph.action
            if not (PICK_ACTION[prefix] <= a < PICK_ACTION[prefix] + 60):
                return f"{text}: {who} must pick {ph.count} card(s) with {prefix}:CARD (rule {ph.rule}, {ph.kind})"
            c = a - PICK_ACTION[prefix]
            if self._picks[p] >> c & 1:
                return f"{text}: {DECK.names[c]} is already picked"
            return f"{text}: {who} does not hold {DECK.names[c]}"
        if phase == REMOVE:
            if a < REMOVE_ACTION:
                return f"{text}: {who} won the trick and must first {wants} (rule 34)"
            return f"{text}: {DECK.names[a - REMOVE_ACTION]} is not in the trick just won"
        if a >= 60:
            return f"{text}: it is the trick play; {who} must {wants}"
        if not self._hands[p] >> a & 1:
            return f"{text}: seat {p}, whose turn it is, does not hold {text}"
        reason = why_not(a, self._hands[p], self.visible_trick(), rules, self.trumps(), self.trumps_broken())
        return f"{text}: {reason}"

    def _snapshot(self) -> tuple[Any, ...]:
        out = []
        for f in _FIELDS:
            v = getattr(self, f)
            out.append(list(v) if isinstance(v, list) else v)
        out.append(len(self._log))
        return tuple(out)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        for f, v in zip(_FIELDS, snap, strict=False):
            setattr(self, f, list(v) if isinstance(v, list) else v)
        del self._log[snap[-1] :]
        self._rules = None
        self._trumps = None

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        self._restore(self._undo.pop())

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        top = max(self._scores)
        return [s for s in range(self._n) if self._scores[s] == top]

    # -- what a seat may know -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        from .views import view

        self._check_seat(seat)
        return view(self, seat)

    def clone(self) -> StichMeisterState:
        new = object.__new__(StichMeisterState)
        new.__dict__.update(self.__dict__)
        for f in _FIELDS:
            v = getattr(self, f)
            if isinstance(v, list):
                setattr(new, f, list(v))
        new._log = list(self._log)
        new._undo = list(self._undo)
        return new

    def sample_hidden(self, seat: int, rng: random.Random) -> StichMeisterState:
        from .sampling import sample_hidden

        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        return (*self._snapshot()[:-1], tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        kind, value = outcome
        if kind == "rule_deck":
            return {"rule_deck": list(value)}
        return {"hands": [names(h) for h in value]}

    def __repr__(self) -> str:
        return f"<StichMeisterState round {self._round} {PHASE_NAMES[self._phase]} scores {self._scores}>"


__all__ = ["ACTIONS", "ACTION_TEXTS", "PHASE_NAMES", "StichMeisterState"]
