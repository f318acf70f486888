"""A whole Stichling game, three deals, as the rulebook's "Spielverlauf" runs:

deal (12 cards each) → every player secretly lays out their three score tiles (phase `order`,
in seat order from the deal's starter; the choice is hidden from the others) → 12 rounds of
play onto up to four open tricks (phase `play`) → the face-up tiles score → the next deal,
begun by the left neighbour of the previous starter → after the third deal the game is over.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError, game_over, not_held
from stichkit.core.game import Entry

from . import sampling, views
from .actions import ORDER, OVER, PHASE_NAMES, PLAY, TARGETS, action_texts
from .cards import DEALS, ORDER_TEXTS, StichlingDeck, position_after, tile_value
from .deals import deal_hands, deal_json
from .position import (
    COPIED_FIELDS,
    SHARED_FIELDS,
    SINGLE,
    CardPlay,
    DealSummary,
    Snapshot,
    StichlingFields,
    Taken,
    TilesLaid,
    Undo,
    new_tuple,
)  # fmt: skip
from .rules import (
    EMPTY_CODE,
    EMPTY_SIG,
    FULL,
    NEW,
    SIG_BASES,
    SIG_FREE,
    SIG_LEGAL,
    ActionTables,
    OpenTrick,
    Places,
    why_not,
    winners_of,
)


class StichlingState(StichlingFields):
    SEAT_SHIFT = 512  # at most 60 * 5 + 6 = 306 actions
    SHARED_FIELDS = SHARED_FIELDS
    COPIED_FIELDS = COPIED_FIELDS
    __slots__ = SHARED_FIELDS + COPIED_FIELDS
    # The four trick places: `_cards[i]` the cards as (seat, card) in play order (() when free),
    # `_led[i]` the led colour (-1), `_owner[i]` the owner (-1), `_best[i]` the owner's value (0);
    # `_sig` the led colours as a signature (see above).

    def __init__(self, game: Any, seed: int, given: dict[int, tuple[int, ...]]) -> None:
        self.game = game
        self._deck: StichlingDeck = game.deck
        self._n: int = game.num_players
        self._order_base = self._deck.size * TARGETS
        tables = getattr(game, "_tables", None)
        if tables is None or tables.actions is not game.actions:
            tables = ActionTables(self._deck, game.actions)
        self._tables: ActionTables = tables
        self._log: list[Entry] = []
        self._seed = seed
        self._given = given
        self._undo: list[Undo] = []
        self._summaries: list[DealSummary] = []
        self._scores = [0] * self._n
        self._deal_no = -1
        self._starter = game.options["first_player"]
        self._discarded: tuple[Taken, ...] = ()
        self._start_deal()

    # -- the flow of the game -------------------------------------------------------------------

    def _start_deal(self) -> None:
        self._deal_no += 1
        n = self._deal_no
        hands = self._given.get(n) or deal_hands(self._seed, n, self._deck)
        self._log.append(("chance", hands))
        self._start: tuple[int, ...] = hands
        self._hands = list(hands)
        if n > 0:
            self._starter = (self._starter + 1) % self._n  # the left neighbour begins the next deal
        self._phase = ORDER
        self._player = self._starter
        self._orders = [-1] * self._n
        self._taken = [0] * self._n
        self._clear_places()
        self._done: tuple[Taken, ...] = ()
        self._discarded = ()

    def _clear_places(self) -> None:
        self._cards: list[tuple[tuple[int, int], ...]] = [(), (), (), ()]
        self._led = [-1, -1, -1, -1]
        self._owner = [-1, -1, -1, -1]
        self._best = [0, 0, 0, 0]
        self._sig = EMPTY_SIG

    @property
    def _places(self) -> Places:
        """The trick places as OpenTricks (None: free); built on demand, off the hot path."""
        return tuple(
            OpenTrick(c, self._led[i], self._owner[i], self._best[i]) if c else None for i, c in enumerate(self._cards)
        )

    def _lay_tiles(self, order: int) -> None:
        p = self._player
        self._undo.append(new_tuple(TilesLaid, (p, self._orders[p])))
        self._orders[p] = order
        nxt = (p + 1) % self._n
        if nxt == self._starter:
            self._phase = PLAY
        self._player = nxt

    def face_up(self, seat: int) -> int | None:
        """The value of `seat`'s face-up tile in the current deal (None: no trick taken yet)."""
        taken = self._taken[seat]
        if taken == 0:
            return None
        return tile_value(self._deal_no, self._orders[seat], position_after(taken))

    def _end_deal(self) -> None:
        """After 12 rounds: open tricks are discarded, each face-up tile scores (0 without a trick)."""
        face = tuple(self.face_up(s) for s in range(self._n))
        points = tuple(0 if f is None else f for f in face)
        last = self._done[-1] if self._done else None
        self._summaries.append(DealSummary(self._deal_no, self._starter, tuple(self._taken), face, points, last))
        for s in range(self._n):
            self._scores[s] += points[s]
        if self._deal_no == DEALS - 1:
            self._discarded = tuple(
                (i, cards, self._led[i], self._owner[i]) for i, cards in enumerate(self._cards) if cards
            )
            self._clear_places()
            self._phase = OVER
            self._player = -1
        else:
            self._start_deal()

    # -- the protocol ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._player

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    def legal_actions(self) -> list[Action]:
        if self._phase != PLAY:
            return list(self._tables.order_actions) if self._phase == ORDER else []
        hand = self._hands[self._player]
        tables = self._tables
        table = tables.table
        top = tables.top
        mask = tables.colour_mask
        out: list[Action] = []
        for base in SIG_BASES[self._sig]:  # colour by colour: card-major, in card order
            pattern = hand & mask
            hand >>= top
            if pattern:
                key = base | (pattern & 255)
                acts = table[key]
                out += acts if acts is not None else tables.fill(key)
                if pattern > 255:
                    key = base | 256 | (pattern >> 8)
                    acts = table[key]
                    out += acts if acts is not None else tables.fill(key)
        return out

    @property
    def _legal_ids(self) -> frozenset[int]:
        """The ids of the legal actions (computed on demand: no cache is kept in the state)."""
        return frozenset(a.id for a in self.legal_actions())

    def apply(self, action: Action | str) -> None:
        a = self.game.action_id_of(id(action), -1)  # the game's own Actions by identity: the hot path
        if a < 0:
            a = self.game.action_id(action)
        phase = self._phase
        if phase == PLAY:
            if a < self._order_base:
                card, target, bit, legal_bit, colour, value = self._tables.card_action[a]
                p = self._player
                hands = self._hands
                hand = hands[p]
                sig = self._sig
                if hand & bit and SIG_LEGAL[sig] & legal_bit:
                    self._log.append(p * 512 + a)  # = p * SEAT_SHIFT + a
                    self._play(p, hands, hand, card, target, bit, colour, value, sig)
                    return
        elif phase == ORDER and a >= self._order_base:
            self._log.append(self._player * 512 + a)
            self._lay_tiles(a - self._order_base)
            return
        raise IllegalActionError(self._why_illegal(a))

    def _play(
        self, p: int, hands: list[int], hand: int, card: int, target: int, bit: int, colour: int, value: int, sig: int
    ) -> None:
        """Seat `p` plays `card` (of `colour` and `value`) from `hand` to `target` (a place 0-3 or
        NEW); `sig` is the places' signature before. Legal: checked by `apply`."""
        nxt = p + 1
        if nxt == self._n:
            nxt = 0
        last = hand == bit and not hands[nxt]  # the deal's last card: keep a whole snapshot
        if last:
            self._undo.append(self._snapshot(len(self._log) - 1))  # before this move's log entry
        hands[p] = hand ^ bit
        cards_at = self._cards
        led_at = self._led
        owner_at = self._owner
        best_at = self._best
        if target == NEW:
            i = SIG_FREE[sig]  # a new trick takes the lowest free place
            cards_at[i] = SINGLE[p][card]
            led_at[i] = colour
            owner_at[i] = p
            best_at[i] = value
            self._sig = sig + ((colour - EMPTY_CODE) << (3 * i))
            record = new_tuple(CardPlay, (p, bit, i, (), -1, -1, 0, sig, self._done, -1))
        else:
            i = target
            old_cards = cards_at[i]
            led = led_at[i]
            old_owner = owner = owner_at[i]
            old_best = best = best_at[i]
            cards = old_cards + SINGLE[p][card]
            if colour == led and value > best:
                owner, best = p, value
            old_done = self._done
            if len(cards) == FULL:
                # Full: the owner takes it at once and turns up their next tile; play goes on in turn.
                self._done = (*old_done, (i, cards, led, owner))
                self._taken[owner] += 1
                cards_at[i] = ()
                led_at[i] = -1
                owner_at[i] = -1
                best_at[i] = 0
                self._sig = sig + ((EMPTY_CODE - led) << (3 * i))
                record = new_tuple(CardPlay, (p, bit, i, old_cards, led, old_owner, old_best, sig, old_done, owner))
            else:
                cards_at[i] = cards
                owner_at[i] = owner
                best_at[i] = best
                record = new_tuple(CardPlay, (p, bit, i, old_cards, led, old_owner, old_best, sig, old_done, -1))
        self._player = nxt
        if last:
            self._end_deal()
        else:
            self._undo.append(record)

    def _why_illegal(self, a: int) -> Reason:
        text = self.game.actions[a].text
        if self._phase == OVER:
            return game_over(text)
        p = self._player
        who = f"seat {p}"
        if a >= self._order_base:
            return Reason(f"{text}: {who} has laid out their tiles for this deal; now a card is played",
                          "not_legal_now", expected="play", seat=p)  # fmt: skip
        if self._phase == ORDER:
            return Reason(f"{text}: {who} must first lay out their score tiles ({ORDER_TEXTS[0]} … {ORDER_TEXTS[-1]})",
                          "not_legal_now", expected="order", seat=p)  # fmt: skip
        card, target = divmod(a, TARGETS)
        name = self._deck.names[card]
        if not self._hands[p] >> card & 1:
            return not_held(text, p, name)
        return why_not(self._deck.colour[card], target, self._places, name).prefixed(f"{text}: ")

    def _snapshot(self, n_log: int) -> Snapshot:
        """Everything, for undoing a move that ends a deal (the other moves keep a small record)."""
        return new_tuple(Snapshot, (
            self._phase, self._player, self._deal_no, self._starter, self._start, tuple(self._hands),
            tuple(self._orders), tuple(self._taken), tuple(self._cards), tuple(self._led), tuple(self._owner),
            tuple(self._best), self._sig, self._done, self._discarded, tuple(self._scores), len(self._summaries),
            n_log,
        ))  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo.pop()
        if isinstance(u, CardPlay):
            p, bit, i, self._cards[i], led, owner, best, self._sig, self._done, took = u
            self._hands[p] |= bit
            self._led[i], self._owner[i], self._best[i] = led, owner, best
            if took >= 0:
                self._taken[took] -= 1
            self._player = p
            self._log.pop()
        elif isinstance(u, TilesLaid):
            p, self._orders[p] = u
            self._phase = ORDER
            self._player = p
            self._log.pop()
        else:
            (
                self._phase, self._player, self._deal_no, self._starter, self._start, hands,
                orders, taken, cards, leds, owners, bests, self._sig, self._done, self._discarded,
                scores, n_summaries, n_log,
            ) = u  # fmt: skip
            self._hands = list(hands)
            self._orders = list(orders)
            self._taken = list(taken)
            self._cards = list(cards)
            self._led = list(leds)
            self._owner = list(owners)
            self._best = list(bests)
            self._scores = list(scores)
            del self._summaries[n_summaries:]
            del self._log[n_log:]

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def scores(self) -> list[int]:
        """Points of the finished deals per seat (the running deal's face-up tile is not banked yet)."""
        return list(self._scores)

    def winners(self) -> list[int]:
        """Most points; ties broken by the 3rd deal's points, then the 2nd's; else all tied win."""
        if self._phase != OVER:
            return []
        return winners_of([d.points for d in self._summaries])

    # -- what a seat may know (views.py, sampling.py) -----------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        return views.view(self, seat)

    def sample_hidden(self, seat: int, rng: random.Random) -> StichlingState:
        """A state `seat` cannot tell from this one: the other hands of this deal redealt at random
        (Stichling reveals no voids: a throw-off is judged per card), every hidden tile order
        redrawn among those that agree with the tiles already turned up (this deal and earlier
        ones), and the deals to come reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        return sampling.sample_hidden(self, seat, rng)

    def _position(self) -> tuple[Any, ...]:
        snap = self._snapshot(-1)._replace(summaries=-1)  # the summaries and the log themselves
        return (snap, tuple(self._summaries), tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return deal_json(outcome, self._deck)

    def __repr__(self) -> str:
        return f"<StichlingState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self._scores}>"


# Names that code outside the package imports from here.
__all__ = ["PHASE_NAMES", "DealSummary", "StichlingState", "Taken", "action_texts", "deal_hands", "winners_of"]
