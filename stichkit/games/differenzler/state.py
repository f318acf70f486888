"""A whole Differenzler game, deal after deal, as the players run it:
deal (trump shown) → each player predicts, forehand first, the dealer last → nine tricks →
each player's penalty, the difference between prediction and points taken → next deal, until
the agreed number of deals is played. The lowest total penalty wins.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError, game_over, not_held
from stichkit.games.jass.trick_play import TrickPlay

from . import sampling, views
from .actions import (
    ACTION_ID_OF,
    ACTION_TEXTS,
    BY_SUIT,
    OVER,
    PHASE_NAMES,
    PLAY,
    PREDICT,
    PREDICT_ACTION,
    PREDICT_MASK,
    PREDICTIONS,
)
from .cards import MAX_PREDICTION
from .deals import Deal, deal_cards, deal_json
from .position import (
    COPIED_FIELDS,
    SHARED_FIELDS,
    DealFacts,
    DealSummary,
    DifferenzlerFields,
    Snapshot,
    Trick,
    new_tuple,
)
from .rules import dealer_of, forehand_of, legal_cards, penalty, why_not

SHIFT = 256  # 194 actions: seat * 256 + id


class DifferenzlerState(TrickPlay, DifferenzlerFields):
    SEAT_SHIFT = SHIFT
    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS

    def __init__(self, game: Any, seed: int, given: dict[int, Deal]) -> None:
        self._begin(game, seed, given)
        self._deals: int = game.options["deals"]
        self._open = game.options["predictions"] == "open"
        self._trump_rule: str = game.options["trump"]
        self._exact_bonus: int = game.options["exact_bonus"]
        self._penalties = [0, 0, 0, 0]
        self._start_deal()

    # -- the flow of a deal -------------------------------------------------------------------

    def _deal_from_seed(self, seed: int, n: int) -> Deal:
        return deal_cards(seed, n, self._trump_rule)

    def _start_deal(self) -> None:
        deal = self._next_deal()
        n = self._deal_no
        self._forehand = forehand_of(n)
        self._dealer = dealer_of(n)
        self._start = deal.hands
        self._trump = deal.trump
        self._trump_card = deal.trump_card
        self._hands = list(deal.hands)
        self._predictions = [-1, -1, -1, -1]
        self._phase = PREDICT
        self._player = self._forehand
        self._trick: list[int] = []
        self._leader = self._forehand
        self._led = self._win_seat = self._win_str = self._best_trump = -1
        self._tricks: tuple[Trick, ...] = ()
        self._taken = [0, 0, 0, 0]
        self._won = [0, 0, 0, 0]
        self._voids = [0, 0, 0, 0]
        self._legal = -1
        self._fixed = new_tuple(DealFacts, (n, self._forehand, self._dealer, self._start, self._trump,
                                            self._trump_card))  # fmt: skip

    def _predict(self, points: int) -> None:
        p = self._player
        self._predictions[p] = points
        if p == self._dealer:  # the dealer predicts last; then the forehand leads
            self._phase = PLAY
            self._player = self._leader = self._forehand
        else:
            self._player = (p + 3) & 3

    def _trick_mode(self) -> int:
        return self._trump  # one trump for the whole deal

    def _take(self, winner: int, points: int) -> None:
        self._taken[winner] += points
        self._won[winner] += 1

    def _end_deal(self) -> None:
        """After the last trick: every prediction is revealed and each seat's penalty written."""
        bonus = self._exact_bonus
        pen = tuple(penalty(self._predictions[s], self._taken[s], self._won[s], bonus) for s in range(4))
        for s in range(4):
            self._penalties[s] += pen[s]
        self._summaries.append(DealSummary(
            self._deal_no, self._forehand, self._dealer, self._trump, self._trump_card, tuple(self._predictions),
            tuple(self._taken), tuple(self._won), pen, self._tricks[-1],
        ))  # fmt: skip
        if self._deal_no + 1 >= self._deals:
            self._phase = OVER
            self._player = -1
        else:
            self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    def _legal_mask(self) -> int:
        """Legal action ids as a bitmask (cards are ids 0-35, predictions 36-193)."""
        if self._legal >= 0:
            return self._legal
        phase = self._phase
        if phase == PLAY:
            m = legal_cards(self._hands[self._player], len(self._trick), self._led, self._trump, self._best_trump)
        elif phase == PREDICT:
            m = PREDICT_MASK
        else:
            m = 0
        self._legal = m
        return m

    def legal_actions(self) -> list[Action]:
        phase = self._phase
        if phase == PLAY:
            m = self._legal_mask()
            t = BY_SUIT
            return t[0][m & 511] + t[1][(m >> 9) & 511] + t[2][(m >> 18) & 511] + t[3][m >> 27]
        if phase == PREDICT:
            return list(PREDICTIONS)
        return []

    def apply(self, action: Action | str) -> None:
        a = ACTION_ID_OF(id(action), -1)  # the canonical Actions by identity: the hot path
        if a < 0:
            a = self.game.action_id(action)
        if not self._legal_mask() >> a & 1:
            raise IllegalActionError(self._why_illegal(a))
        self._undo.append(self._snapshot())
        self._log.append(self._player * SHIFT + a)
        self._legal = -1
        if a < PREDICT_ACTION:
            self._play(a)
        else:
            self._predict(a - PREDICT_ACTION)

    def _why_illegal(self, a: int) -> Reason:
        phase = self._phase
        text = ACTION_TEXTS[a]
        if phase == OVER:
            return game_over(text)
        p = self._player
        if phase == PREDICT:
            return Reason(f"{text}: seat {p} must first predict its points (predict:0 to predict:{MAX_PREDICTION})",
                          "not_legal_now", expected="predict", seat=p)  # fmt: skip
        if a >= PREDICT_ACTION:
            return Reason(f"{text}: the predictions are made; seat {p} plays a card", "not_legal_now",
                          expected="play", seat=p)  # fmt: skip
        hand = self._hands[p]
        if not hand >> a & 1:  # usually a card of another seat, played out of turn
            return not_held(text, p, text)
        return why_not(a, hand, len(self._trick), self._led, self._trump, self._best_trump).prefixed(f"{text}: ")

    def _snapshot(self) -> Snapshot:
        h = self._hands
        return new_tuple(Snapshot, (
            self._phase, self._player, self._fixed, (h[0], h[1], h[2], h[3]), tuple(self._predictions),
            tuple(self._trick), self._leader, self._led, self._win_seat, self._win_str, self._best_trump,
            self._tricks, tuple(self._taken), tuple(self._won), tuple(self._voids), tuple(self._penalties),
            len(self._summaries), len(self._log),
        ))  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        (
            self._phase, self._player, fixed, hands, predictions, trick, self._leader, self._led, self._win_seat,
            self._win_str, self._best_trump, self._tricks, taken, won, voids, penalties, n_summaries, n_log,
        ) = self._undo.pop()  # fmt: skip
        self._fixed = fixed
        self._deal_no, self._forehand, self._dealer, self._start, self._trump, self._trump_card = fixed
        self._hands = list(hands)
        self._predictions = list(predictions)
        self._trick = list(trick)
        self._taken = list(taken)
        self._won = list(won)
        self._voids = list(voids)
        self._penalties = list(penalties)
        self._forget_after(n_summaries, n_log)

    def scores(self) -> list[int]:
        """Each seat's total penalty, negated: more is better, as in every game (view: `penalties`)."""
        return [-p for p in self._penalties]

    def winners(self) -> list[int]:
        """The seats with the lowest total penalty (all of them on a tie)."""
        if self._phase != OVER:
            return []
        low = min(self._penalties)
        return [s for s in range(4) if self._penalties[s] == low]

    def predictions_known_to(self, seat: int | None) -> list[int | None]:
        """The predictions of the deal in progress that `seat` knows: its own once made, and the
        others' once made if they are open; None for the rest. Bots and views read only this."""
        return views.predictions_known_to(self, seat)

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> DifferenzlerState:
        """A state that `seat` cannot tell from this one: the other hands redealt at random,
        keeping hand sizes, revealed voids and the turned-up card; hidden predictions of the
        others replaced by what the rule of thumb predicts for their new hands; later deals
        reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        return (self._snapshot()._replace(log=-1), tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome)

    def __repr__(self) -> str:
        return f"<DifferenzlerState deal {self._deal_no} {PHASE_NAMES[self._phase]} penalties {self._penalties}>"


__all__ = ["SHIFT", "DifferenzlerState"]
