"""pimc for Differenzler: worlds drawn from the seat's view, each deal's last tricks solved for
the seat's own penalty.

Differenzler has four players each for themselves, so a world has no two-sided value to solve.
The reading is `stich analyse`'s, "double-dummy for four" (stichkit.analysis.differenzler): in a
world every player knows all hands and plays to come as close as it can to its own prediction
(the others' hidden predictions are the world's, made up by `sample_hidden` for their hands); a
max^n search gives each player's points under that play, each mover taking the card that leaves it
the smallest penalty (ties to the first card in deck order). A card of the seat is worth its
penalty `|prediction - points|` after it, and the card with the smallest mean penalty over the
worlds is played. So the solver answers "how close to N points", not "how many points".

The search has no pruning (max^n), so it is done from `horizon` cards left (12 by default: the
last three tricks, a few milliseconds a world); before that the cards are searched by ismcts with
the heuristic's playouts (its measured setting in Differenzler), or with `early=playout` each card
is played out by the heuristic to the horizon and solved from there. The prediction is found by
sampling, as ismcts finds it (stichkit.bots.predictions): candidates tried in sampled deals played
out by the heuristic, the smallest mean penalty wins.
"""

from __future__ import annotations

import random
import time
from typing import Any

from stichkit.cards import bits
from stichkit.core import Action, State
from stichkit.games.differenzler.cards import LAST_TRICK_BONUS, POINTS, STRENGTH
from stichkit.games.differenzler.rules import legal_cards, next_reference, penalty

from ..base import View
from ..differenzler_heuristic import decide as differenzler_decide
from ..predictions import is_prediction, predict
from . import worlds
from .budget import Budgeted
from .worlds import after_each, card_by_worlds, deals_begun

HORIZON = 12  # the default: card decisions solved from the last three tricks (max^n has no pruning)

Points = tuple[int, int, int, int]


class MaxN:
    """Each player's points at the end of the deal when everybody plays, every hand known, to come
    as close as it can to its own prediction. A table at the start of each trick (hands, leader,
    points so far, who has a trick: what the rest of the play depends on)."""

    def __init__(self, trump: int, predictions: tuple[int, ...], exact_bonus: int) -> None:
        self.trump = trump
        self.predictions = predictions
        self.bonus = exact_bonus
        self.table: dict[tuple[Any, ...], tuple[Points, int]] = {}

    def penalty(self, seat: int, points: Points, won: int) -> int:
        return penalty(self.predictions[seat], points[seat], won >> seat & 1, self.bonus)

    def root(self, w: Any) -> dict[int, tuple[Points, int]]:
        """After each legal card of the world's mover: every player's points at the end, and who
        has taken a trick (a bit per seat)."""
        trick = tuple(w._trick)
        taken = (w._taken[0], w._taken[1], w._taken[2], w._taken[3])
        won = sum(1 << s for s in range(4) if w._won[s])
        hands = (w._hands[0], w._hands[1], w._hands[2], w._hands[3])
        pts = sum(POINTS[self.trump][c] for c in trick)
        legal = legal_cards(hands[w._player], len(trick), w._led, self.trump, w._best_trump)
        return {
            c: self.card(c, hands, len(trick), w._led, w._win_seat, w._win_str, w._best_trump, w._player,
                         len(w._tricks), taken, won, pts)
            for c in bits(legal)
        }  # fmt: skip

    def trick(self, hands: tuple[int, ...], leader: int, done: int, taken: Points, won: int) -> tuple[Points, int]:
        key = (hands, leader, taken, won)
        found: tuple[Points, int] | None = self.table.get(key)
        if found is None:
            found = self.table[key] = self.play(hands, 0, -1, -1, -1, -1, leader, done, taken, won, 0)
        return found

    def play(self, hands: tuple[int, ...], n: int, led: int, win_seat: int, win_str: int, ref: int, player: int,
             done: int, taken: Points, won: int, pts: int) -> tuple[Points, int]:  # fmt: skip
        best: tuple[Points, int] | None = None
        low = 0
        for c in bits(legal_cards(hands[player], n, led, self.trump, ref)):
            out = self.card(c, hands, n, led, win_seat, win_str, ref, player, done, taken, won, pts)
            p = self.penalty(player, *out)
            if best is None or p < low:
                best, low = out, p
        assert best is not None
        return best

    def card(self, c: int, hands: tuple[int, ...], n: int, led: int, win_seat: int, win_str: int, ref: int,
             player: int, done: int, taken: Points, won: int, pts: int) -> tuple[Points, int]:  # fmt: skip
        trump = self.trump
        h = list(hands)
        h[player] ^= 1 << c
        nh = (h[0], h[1], h[2], h[3])
        strength = STRENGTH[trump]
        if n == 0:
            led = c // 9
            win_seat, win_str = player, strength[led][c]
            ref = c if led == trump else -1
        else:
            st = strength[led][c]
            if st > win_str:
                win_seat, win_str = player, st
            if c // 9 == trump:
                ref = next_reference(ref, c, False)
        pts += POINTS[trump][c]
        if n < 3:
            return self.play(nh, n + 1, led, win_seat, win_str, ref, (player + 3) & 3, done, taken, won, pts)
        if done == 8:
            pts += LAST_TRICK_BONUS
        t = list(taken)
        t[win_seat] += pts
        new: Points = (t[0], t[1], t[2], t[3])
        won |= 1 << win_seat
        if done == 8:
            return new, won
        return self.trick(nh, win_seat, done + 1, new, won)


def penalties(world: State, seat: int) -> dict[int, int]:
    """Each legal card of the world's mover `seat` (by id): the seat's penalty for the deal when
    everybody plays on to its own prediction, every hand known (max^n)."""
    w: Any = world
    search = MaxN(w._trump, tuple(w._predictions), w._exact_bonus)
    return {c: search.penalty(seat, *out) for c, out in search.root(w).items()}


def play_to(world: State, cards_left: int) -> None:
    """Play `world` on by the Differenzler heuristic (each seat from its own view of the world)
    until `cards_left` cards are left in the deal or the deal is over."""
    worlds.play_to(world, cards_left, differenzler_decide)


def penalty_after_playout(world: State, seat: int, cards_left: int) -> int:
    """The seat's penalty for the world's deal: the heuristic's play down to `cards_left` cards,
    then max^n. `world` is played on."""
    deal = deals_begun(world)
    play_to(world, cards_left)
    if world.current_player is None or deals_begun(world) != deal:
        return int(world.view(None)["previous_deals"][deal - 1]["penalties"][seat])
    w: Any = world
    search = MaxN(w._trump, tuple(w._predictions), w._exact_bonus)
    mover = w._player
    out = min(search.root(w).values(), key=lambda o: search.penalty(mover, *o))  # the mover's best, first on ties
    return search.penalty(seat, *out)


# -- the decisions -------------------------------------------------------------------------------


def choose(bot: Budgeted, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
    """A Differenzler decision: the prediction by sampled deals, a card by the worlds."""
    if is_prediction(legal):
        start = time.perf_counter()
        deadline = None if bot.time is None else start + bot.time
        chosen, stats = predict(state, seat, legal, rng, differenzler_decide, bot.samples, deadline)
        bot.last_stats = {"worlds": int(stats["worlds"]), "solves": 0, "seconds": time.perf_counter() - start,
                          "mean_penalty": stats["mean_penalty"]}  # fmt: skip
        return chosen
    if sum(view["hand_sizes"]) > bot.horizon_for(state):
        if bot.early_kind(state) == "ismcts":
            return bot.early_by_ismcts(state, seat)
        return _early_card(bot, state, seat, legal, rng)
    return _card(bot, state, seat, legal, rng)


def _card(bot: Budgeted, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """The legal card with the smallest mean penalty over the worlds (ties: lowest in more worlds)."""
    chosen, bot.last_stats = card_by_worlds(
        bot.budget(), legal, lambda: state.sample_hidden(seat, rng), lambda world: penalties(world, seat), smaller=True
    )
    return chosen


def _early_card(bot: Budgeted, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """`early=playout`: in each world each legal card is played, the heuristic plays on to the
    horizon and max^n solves the rest; the smallest mean penalty wins."""

    left = bot.horizon_for(state)
    value = after_each(legal, lambda w: float(penalty_after_playout(w, seat, left)))
    chosen, bot.last_stats = card_by_worlds(
        bot.budget(), legal, lambda: state.sample_hidden(seat, rng), value, smaller=True, by_best=False,
        solves=len(legal), stats={"early": "playout"},
    )  # fmt: skip
    return chosen


__all__ = ["HORIZON", "MaxN", "choose", "penalties", "penalty_after_playout"]
