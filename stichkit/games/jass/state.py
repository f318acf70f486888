"""A whole Jass game, deal after deal, as the rule sheet's "Ablauf einer Partie" runs:
deal → trump choice (or push) → nine tricks (Weis after the first, Stöck when shown) → next deal.

Points are claimed the moment they arise, in the Swiss order Stöck → Weis → tricks, and the game
ends as soon as a team reaches the target.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError

from . import passe, position, sampling, views
from .actions import (
    ACTION_ID_OF,
    ACTION_TEXTS,
    ACTIONS,
    ANNOUNCE,
    BY_SUIT,
    CALL_STOECK,
    OVER,
    PHASE_NAMES,
    PLAY,
    PUSH,
    PUSHED,
    TRUMP,
    TRUMP_ACTION,
)
from .ausmachen import Ausmachen
from .cards import DECK, LAST_TRICK_BONUS, POINTS, STOECK_PAIR, STOECK_POINTS, STRENGTH
from .deals import START_CARD, Hands, deal_hands, deal_json
from .position import COPIED_FIELDS, SHARED_FIELDS, DealFacts, JassFields, PlayPosition, Snapshot, Trick, new_tuple
from .rules import cannot_hold, legal_cards, next_reference, why_refused
from .scoring import EMPTY_TALLY, STOECK, TRICKS
from .weis import Weis, best_weis


class JassState(Ausmachen, JassFields):
    SEAT_SHIFT = 64  # 43 actions: seat * 64 + id stays a cached small int
    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS

    def __init__(self, game: Any, seed: int, given: dict[int, Hands]) -> None:
        self._begin(game, seed, given)
        self._profile = game.profile
        self._target: int = passe.target_of(game.options)  # none when a fixed number of deals is played
        self._deals: int = game.options.get("deals", 0)
        self._weis_on = game.options["weis"] != "off"
        self._announce = game.options["weis"] == "announce"  # each player announces, or stays silent
        self._stoeck_on = bool(game.options["stoeck"])
        self._stoeck_said = game.options["stoeck"] == "announce"  # Stöck counts only when called
        self._calling = False  # "Stöck!" said: the second card of the pair comes now
        self._first_forehand: int | str = game.options["first_forehand"]
        self._lowest_plain = game.options["undertrump"] == "jass-kit"
        self._mults: tuple[int, ...] = game.multipliers  # by trump mode: what the deal's points count
        self._ausmachen = game.options["ausmachregel"] == "stoeck-weis-stich"  # Stöck may be shown early
        self._scores = [0, 0]
        self._winner = -1
        self._forehand = -1
        self._start_deal()

    # -- the flow of a deal -------------------------------------------------------------------

    def _deal_from_seed(self, seed: int, n: int) -> Hands:
        return deal_hands(seed, n)

    def _start_deal(self) -> None:
        hands = self._next_deal()
        n = self._deal_no
        self._start: Hands = hands
        self._hands = list(hands)
        if n == 0:
            first = self._first_forehand
            self._forehand = (
                next(s for s in range(4) if hands[s] >> START_CARD & 1) if first == "start-card" else int(first)
            )
        else:
            self._forehand = (self._forehand + 3) & 3  # the player right of the last chooser
        self._phase = TRUMP
        self._player = self._forehand
        self._trump = -1
        self._mult = 1
        self._chooser = -1
        self._pushed = False
        self._trick: list[int] = []
        self._leader = self._forehand
        self._led = -1
        self._win_seat = -1
        self._win_str = -1
        self._win_card = -1
        self._best_trump = -1
        self._tricks: tuple[Trick, ...] = ()
        self._deal_tricks = [0, 0]
        self._voids = [0, 0, 0, 0]
        self._weis: tuple[tuple[Weis, ...], ...] = ((), (), (), ())
        self._held: tuple[tuple[Weis, ...], ...] = ((), (), (), ())
        self._weis_teams: tuple[int, ...] | None = None  # None until shown after the first trick
        self._stoeck_seat = -1
        self._stoeck_done = False
        self._tally = list(EMPTY_TALLY)
        self._match = -1
        self._legal = -1
        self._fix()

    def _fix(self) -> None:
        """Bundle the fields that change only with the deal or the trump choice: one snapshot slot."""
        self._fixed = new_tuple(DealFacts, (
            self._deal_no, self._forehand, self._start, self._trump, self._chooser, self._pushed,
            self._weis, self._stoeck_seat, self._held,
        ))  # fmt: skip

    def _choose_trump(self, mode: int) -> None:
        self._trump = mode
        self._mult = self._mults[mode]
        self._chooser = self._player
        self._phase = PLAY
        self._player = self._forehand
        if self._weis_on:
            prof = self._profile
            self._held = tuple(map(best_weis, self._start, (prof, prof, prof, prof)))
            # Declared by the engine ("auto"), or only once the player announces them.
            self._weis = ((), (), (), ()) if self._announce else self._held
        self._stoeck_seat = self._stoeck_holder()
        self._fix()
        if self._stoeck_seat >= 0:
            self._stoeck_now()  # Stöck enough to finish is shown at once

    def _play(self, card: int) -> None:
        p = self._player
        hand = self._hands[p]
        self._hands[p] = hand ^ (1 << card)
        trick = self._trick
        mode = self._trump
        if not trick:
            self._leader = p
            led = self._led = card // 9
            self._win_seat, self._win_card = p, card
            self._win_str = STRENGTH[mode][led][card]
            self._best_trump = card if card // 9 == mode else -1
        else:
            led = self._led
            suit = card // 9
            if suit != led:  # what everybody learns about this hand from the card it did not play
                self._voids[p] |= cannot_hold(card, led, mode, self._best_trump)
            st = STRENGTH[mode][led][card]
            if st > self._win_str:
                self._win_seat, self._win_card, self._win_str = p, card, st
            if suit == mode:
                self._best_trump = next_reference(self._best_trump, card, self._lowest_plain)
        trick.append(card)
        if p == self._stoeck_seat and not self._stoeck_done and not self._hands[p] & STOECK_PAIR[mode]:
            self._stoeck_done = True  # the second of the pair is played: "Stöck!"
            # (a call is always followed by this card: only it is legal after "stoeck")
            calling, self._calling = self._calling, False
            if self._stoeck_said and not calling:  # played in silence: Stöck is lost
                if len(trick) == 4:
                    self._end_trick()
                else:
                    self._player = (p + 3) & 3
                return
            self._tally[STOECK + (p & 1)] += STOECK_POINTS
            if self._claim(p & 1, STOECK_POINTS * self._mult):
                return
        if len(trick) == 4:
            self._end_trick()
        else:
            self._player = (p + 3) & 3

    def _end_trick(self) -> None:
        trick = self._trick
        pts_table = POINTS[self._trump]
        pts = pts_table[trick[0]] + pts_table[trick[1]] + pts_table[trick[2]] + pts_table[trick[3]]
        winner = self._win_seat
        team = winner & 1
        number = len(self._tricks)
        if number == 8:
            pts += LAST_TRICK_BONUS
        self._tricks += ((self._leader, tuple(trick), winner, pts),)
        self._trick = []
        self._led = self._win_seat = self._win_str = self._win_card = self._best_trump = -1
        self._deal_tricks[team] += 1
        if number == 0 and (
            (self._stoeck_seat >= 0 and self._stoeck_before_weis(team, pts)) or (self._weis_on and self._show_weis())
        ):
            return  # Stöck, then Weis, are claimed before the first trick's points, and ended the game
        self._tally[TRICKS + team] += pts
        if number == 8:
            self._end_deal(team, pts)
            return
        score = self._scores[team] + pts * self._mult
        self._scores[team] = score
        if score >= self._target:
            self._game_over(team)
        elif not (self._stoeck_seat >= 0 and self._stoeck_seat & 1 == team and self._stoeck_now()):
            self._player = self._leader = winner

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def multiplier(self) -> int | None:
        """What this deal's points count (option `multipliers`), or None before trump is named."""
        return None if self._trump < 0 else self._mults[self._trump]

    def _legal_mask(self) -> int:
        """Legal action ids as a bitmask (cards are ids 0-35)."""
        if self._legal >= 0:
            return self._legal
        phase = self._phase
        if phase == PLAY:
            m = legal_cards(self._hands[self._player], len(self._trick), self._led, self._trump, self._best_trump)
        elif phase == OVER:
            m = 0
        else:
            m = 0
            for mode in self._profile.trump_modes:
                m |= 1 << (TRUMP_ACTION + mode)
            if phase == TRUMP:
                m |= 1 << PUSH
        self._legal = m
        return m

    def legal_actions(self) -> list[Action]:
        m = self._legal
        if self._phase == PLAY:
            if m < 0:
                trick = self._trick
                hand = self._hands[self._player]
                m = legal_cards(hand, len(trick), self._led, self._trump, self._best_trump) if trick else hand
                self._legal = m
            t = BY_SUIT
            return t[0][m & 511] + t[1][(m >> 9) & 511] + t[2][(m >> 18) & 511] + t[3][m >> 27]
        return [ACTIONS[i] for i in bits(self._legal_mask())]

    def apply(self, action: Action | str) -> None:
        a = ACTION_ID_OF(id(action), -1)  # the canonical Actions by identity: the hot path
        if a < 0:
            a = self.game.action_id(action)
        m = self._legal
        if m < 0:
            m = self._legal_mask()
        if not m >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        p = self._player
        if not self._trick:
            # Undo keeps one snapshot per trick (and per trump decision); a later card of the
            # trick is undone by restoring it and playing the trick's earlier cards again.
            self._undo.append(self._snapshot())
        self._log.append(p * 64 + a)  # = p * SEAT_SHIFT + a; small ints are cached, nothing allocated
        self._legal = -1
        if a < 36:
            self._play(a)
        elif a == PUSH:
            self._pushed = True
            self._phase = PUSHED
            self._player = (self._forehand + 2) & 3
            self._fix()
        else:
            self._choose_trump(a - TRUMP_ACTION)

    def _why_illegal(self, a: int) -> Reason:
        p = self._player
        choices = ", ".join(ACTION_TEXTS[i] for i in bits(self._legal_mask())) if self._phase in (TRUMP, PUSHED) else ""
        if a == ANNOUNCE and self._phase == PLAY:
            return self._why_no_announcement(p)
        if a == CALL_STOECK and self._phase == PLAY:
            return self._why_no_stoeck(p)
        if self._calling and a < 36 and self._phase == PLAY:
            card = ", ".join(DECK.notation(self._hands[p] & STOECK_PAIR[self._trump]))
            return Reason(f"{ACTION_TEXTS[a]}: seat {p} said 'Stöck': {card} is to be played now", "stoeck_card",
                          card=card, seat=p)  # fmt: skip
        if a == CALL_STOECK and self._phase != OVER:
            return Reason(f"stoeck: seat {p} must first choose trump ({choices})", "not_legal_now", expected="trump",
                          seat=p)  # fmt: skip
        if a == ANNOUNCE and self._phase != OVER:
            return Reason(f"weis: seat {p} must first choose trump ({choices})", "not_legal_now", expected="trump",
                          seat=p)  # fmt: skip
        return why_refused(a, self._phase, p, self._hands[p], len(self._trick), self._led, self._trump,
                           self._best_trump, choices, self._profile.name)  # fmt: skip

    def _why_no_stoeck(self, p: int) -> Reason:
        if not self._stoeck_said:
            return Reason(f"stoeck: this game counts Stöck itself (option stoeck={self.game.options['stoeck']!r}); "
                          "a called Stöck needs stoeck='announce'", "stoeck_not_announced")  # fmt: skip
        return Reason(f"stoeck: seat {p} is not about to play the second of trump King and Queen (or may not play it "
                      "now)", "no_stoeck", seat=p)  # fmt: skip

    def _why_no_announcement(self, p: int) -> Reason:
        if not self._announce:
            how = "plays without Weis" if not self._weis_on else "declares every player's Weis itself"
            return Reason(f"weis: this game {how} (option weis={self.game.options['weis']!r}); "
                          "announced Weis need weis='announce'", "weis_not_announced")  # fmt: skip
        if self._weis[p]:
            return Reason(f"weis: seat {p} has announced its Weis already; play a card", "already_announced", seat=p)
        if self._tricks:
            return Reason(f"weis: a Weis is announced with the first card of the deal; seat {p} has played it",
                          "weis_too_late", seat=p)  # fmt: skip
        return Reason(f"weis: seat {p} holds no Weis (three in sequence or four of a kind) to announce", "no_weis",
                      seat=p)  # fmt: skip

    def _snapshot(self) -> Snapshot:
        """The state between tricks (see position.Snapshot); taken only when no trick is in progress."""
        return new_tuple(Snapshot, (
            self._phase, self._player, self._fixed, tuple(self._hands), self._leader, self._tricks,
            tuple(self._deal_tricks), tuple(self._voids), self._weis_teams, self._stoeck_done,
            tuple(self._scores), self._winner, len(self._summaries), len(self._log),
            tuple(self._tally), self._match,
        ))  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo[-1]
        log = self._log
        last = len(log) - 1 if type(log[-1]) is int else len(log) - 2  # skip the next deal's chance entry
        again = log[u.log : last]  # the snapshot is from before the trick's first card
        if not again:
            self._undo.pop()
        self._restore(u)
        for e in again:
            log.append(e)
            self._again(e & 63)  # type: ignore[operator]  # the decisions of one trick: cards (and sayings)
        self._legal = -1

    _again = _play  # a decision of the trick in progress played again after a restore (announcements.py)

    def _restore(self, u: Snapshot) -> None:
        (
            self._phase, self._player, fixed, hands, self._leader, self._tricks,
            deal_tricks, voids, self._weis_teams, self._stoeck_done,
            scores, self._winner, n_summaries, n_log, tally, self._match,
        ) = u  # fmt: skip
        self._fixed = fixed
        self._calling = False
        (
            self._deal_no, self._forehand, self._start, self._trump, self._chooser, self._pushed,
            self._weis, self._stoeck_seat, self._held,
        ) = fixed  # fmt: skip
        self._mult = self._mults[self._trump] if self._trump >= 0 else 1
        self._hands = list(hands)
        self._trick = []
        self._led = self._win_seat = self._win_str = self._win_card = self._best_trump = -1
        self._deal_tricks = list(deal_tricks)
        self._voids = list(voids)
        self._scores = list(scores)
        self._tally = list(tally)
        self._forget_after(n_summaries, n_log)

    def play_position(self) -> PlayPosition | None:
        """The card play of the deal as plain values, read-only, for solvers that search it (see
        stichkit.analysis); None unless a card is to be played (trump phases, game over)."""
        return position.play_position(self)

    def pending_claims(self) -> tuple[int, tuple[int, int], int]:
        """What the deal may still claim besides the tricks (position.pending_claims). Read-only."""
        return position.pending_claims(self)

    def scores(self) -> list[int]:
        s = self._scores
        return [s[0], s[1], s[0], s[1]]

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        if self._winner < 0:
            return [0, 1, 2, 3]  # equal totals after a fixed number of deals: a draw (passe.py)
        return [self._winner, self._winner + 2]

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> JassState:
        """A state that `seat` cannot tell from this one: the other hands redealt at random,
        keeping hand sizes, revealed voids and shown Weis; later deals reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        snap = self._snapshot()._replace(log=-1)  # the log itself, not its length
        trick = (tuple(self._trick), self._led, self._win_seat, self._win_str, self._win_card, self._best_trump)
        return (snap, trick, tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        # The same score form as scores(): one entry per seat, partners carrying their team's.
        return f"<JassState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self.scores()}>"


# Names that code outside the package imports from here (stichkit.native, analysis, bots).
__all__ = [
    "ACTIONS", "ACTION_TEXTS", "PHASE_NAMES", "PUSH", "START_CARD", "TRUMP_ACTION", "Hands", "JassState",
    "PlayPosition", "deal_hands",
]  # fmt: skip
