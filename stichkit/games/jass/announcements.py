"""What a player says beside the cards: an announced Weis (option weis="announce") and an
announced Stöck (stoeck="announce").

A game with either plays as `AnnouncingJassState`, the Jass state with these two sayings among
the legal actions; a game with neither plays the plain `JassState`, whose card play never asks
about them. The game chooses once, when it makes the state (game.py), so that a plain deal pays
nothing for the options it does not use.
"""

from __future__ import annotations

from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError

from .actions import ACTION_ID_OF, ACTIONS, ACTIONS_STOECK, ANNOUNCE, BY_SUIT, CALL_STOECK, PLAY
from .cards import STOECK_PAIR
from .rules import legal_cards
from .state import JassState


class AnnouncingJassState(JassState):
    """A Jass game in which Weis or Stöck (or both) are announced by the player."""

    __slots__ = ()

    def _may_announce(self) -> bool:
        """weis="announce": the player to move holds a Weis, has not announced it, and has not
        played a card of the deal yet (it is announced with the first card, as the sheet says:
        "bevor der/die nächste Spieler/in seine/ihre Karte ablegt")."""
        p = self._player
        return not self._tricks and bool(self._held[p]) and not self._weis[p]

    def _sayings_mask(self, m: int) -> int:
        """The legal cards `m` with what may be said now (weis="announce", stoeck="announce")."""
        if self._announce and self._may_announce():
            m |= 1 << ANNOUNCE
        if self._stoeck_said:
            m = self._stoeck_mask(m)
        return m

    def _stoeck_mask(self, m: int) -> int:
        """stoeck="announce": "stoeck" is open to the holder just before the second card of the
        pair, when that card may be played; once said, that card is all that may follow."""
        p = self._player
        if self._calling:
            return m & self._hands[p] & STOECK_PAIR[self._trump]
        if p != self._stoeck_seat or self._stoeck_done:
            return m
        left = self._hands[p] & STOECK_PAIR[self._trump]
        if left & (left - 1) or not left & m:  # both still in hand, or the second may not be played now
            return m
        return m | 1 << CALL_STOECK

    def _announce_weis(self) -> None:
        p = self._player
        self._weis = tuple(self._held[s] if s == p else self._weis[s] for s in range(4))
        self._fix()

    def _legal_mask(self) -> int:
        m = self._legal
        if m < 0 and self._phase == PLAY:
            m = legal_cards(self._hands[self._player], len(self._trick), self._led, self._trump, self._best_trump)
            m = self._legal = self._sayings_mask(m)
        return m if m >= 0 else super()._legal_mask()

    def legal_actions(self) -> list[Action]:
        if self._phase != PLAY:
            return super().legal_actions()
        m = self._legal_mask()
        said = [ACTIONS_STOECK[a] for a in (ANNOUNCE, CALL_STOECK) if m >> a & 1]
        m &= (1 << 36) - 1
        t = BY_SUIT
        return t[0][m & 511] + t[1][(m >> 9) & 511] + t[2][(m >> 18) & 511] + t[3][m >> 27] + said

    def apply(self, action: Action | str) -> None:
        a = ACTION_ID_OF(id(action), -1)
        if a < 0:
            a = self.game.action_id(action)
        if not self._legal_mask() >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        if a in (ANNOUNCE, CALL_STOECK):
            if not self._trick and not self._calling:
                self._undo.append(self._snapshot())  # undone with the trick, as its cards are
            self._log.append(self._player * self.SEAT_SHIFT + a)
            self._legal = -1
            self._again(a)
        elif self._calling:  # the called card: its trick's snapshot was taken at the call
            self._log.append(self._player * self.SEAT_SHIFT + a)
            self._legal = -1
            self._play(a)
        else:
            super().apply(ACTIONS[a])

    def _again(self, a: int) -> None:
        """One decision of the trick in progress, played again after a restore (undo)."""
        if a == ANNOUNCE:
            self._announce_weis()
        elif a == CALL_STOECK:
            self._calling = True
        else:
            self._play(a)
