"""The setup of a Stich-Meister round, as the rulebook's "Ablauf einer Spielrunde" opens it: the
rule cards chosen in secret, in turn from the dealer's left (with 3 players the rule deck's top
card joins them), revealed and composed into the round's rules; then the setup phases that basic
rules add (pass, face down, show, discard), in number order, each player picking its cards; then
the first lead. `RoundSetup` is the part of the state (state.py) that runs it, on the fields the
state declares (position.py).
"""

from __future__ import annotations

from .actions import PLAY, SETUP
from .position import StichMeisterFields, round_rules, round_tables
from .rules import RoundRules
from .trump import Trumps


class RoundSetup(StichMeisterFields):
    """Choosing the rule cards and the setup phases of a round."""

    def rules(self) -> RoundRules | None:
        """The round's composed rules once the rule cards are revealed."""
        if self._rules is None and self._active:
            self._load_rules()
        return self._rules

    def trumps(self) -> Trumps:
        return self._trumps

    def _load_rules(self) -> None:
        """The round's rules, trumps and trick tables, from the active cards and rule 21's suit."""
        rules = self._rules = round_rules(self._cards, self._active)
        self._trumps, self._tab = round_tables(rules, self._dyn_suit)

    def _choose(self, number: int) -> None:
        p = self._player
        self._chosen = (*self._chosen[:p], number, *self._chosen[p + 1 :])
        hands = list(self._rule_hands)
        hands[p] = tuple(x for x in hands[p] if x != number)
        self._rule_hands = tuple(hands)
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
        self._load_rules()
        self._next_setup()

    def _next_setup(self) -> None:
        rules = self._rules
        assert rules is not None
        if self._phase_idx < len(rules.phases):
            self._phase = SETUP
            self._picks = (0,) * self._n
            self._player = (self._dealer + 1) % self._n
            return
        self._phase = PLAY
        self._player = self._leader = (self._dealer + 1) % self._n
        self._direction = 1
        if not any(self._hands):
            self._auto_last_trick()

    def _pick(self, card: int) -> None:
        rules = self._rules
        assert rules is not None
        phase = rules.phases[self._phase_idx]
        p = self._player
        picks = list(self._picks)
        picks[p] |= 1 << card
        self._picks = tuple(picks)
        if picks[p].bit_count() < phase.count:
            return
        nxt = (p + 1) % self._n
        if nxt != (self._dealer + 1) % self._n:
            self._player = nxt
            return
        n = self._n
        self._hands, self._face_down, self._shown, self._discarded = phase.resolve(
            self._hands, picks, self._face_down, self._shown, self._discarded
        )
        self._resolved += (self._picks,)
        self._picks = (0,) * n
        self._phase_idx += 1
        self._next_setup()
