"""A whole Stichling game, three deals, as the rulebook's "Spielverlauf" runs:

deal (12 cards each) → every player secretly lays out their three score tiles (phase `order`,
in seat order from the deal's starter; the choice is hidden from the others) → 12 rounds of
play onto up to four open tricks (phase `play`) → the face-up tiles score → the next deal,
begun by the left neighbour of the previous starter → after the third deal the game is over.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
import struct
from collections.abc import Sequence
from typing import Any, NamedTuple

from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, Reason, UndoError
from stichkit.core.game import Entry, State

from .cards import COLOURS, DEALS, HAND_SIZE, ORDER_TEXTS, ORDERS, TILES, StichlingDeck, position_after, tile_value
from .rules import FULL, NEW, OpenTrick, Places, targets_by_colour, why_not

ORDER, PLAY, OVER = range(3)
PHASE_NAMES = ("order", "play", "over")
TARGETS = 5  # places 1-4 and "new"
PLAY_CARD, LAY, WHOLE = range(3)  # the kinds of undo records


def action_texts(deck: StichlingDeck) -> list[str]:
    """The fixed action table: card × (place 1-4, new), card-major, then the six tile orders."""
    cards = [f"{name}>{t}" for name in deck.names for t in ("1", "2", "3", "4", "new")]
    return [*cards, *ORDER_TEXTS]


@functools.lru_cache(maxsize=4096)  # a pure function; searches redeal the same seeds many times
def deal_hands(seed: int, number: int, deck: StichlingDeck) -> tuple[int, ...]:
    """Deal `number` (0-2) of the game with this seed, 12 cards each. A hash, not the Mersenne
    Twister: independent of play (undo and redo give the same deal) and of the platform."""
    size = deck.size
    digest = hashlib.shake_128(b"stichling/%d/%d/%d" % (deck.players, seed, number)).digest(4 * size)
    keys = struct.unpack(f">{size}I", digest)
    order = sorted(range(size), key=keys.__getitem__)
    return tuple(sum(1 << c for c in order[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(deck.players))


class DealSummary(NamedTuple):
    """A finished deal: who began it, tricks taken, each seat's face-up tile (None: no trick)
    and the points scored (the face-up tile, else 0)."""

    number: int
    starter: int
    taken: tuple[int, ...]
    face_up: tuple[int | None, ...]
    points: tuple[int, ...]
    last_trick: Taken | None = None  # the deal's last full trick (`last_trick` shows it in the next deal)

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.number,
            "starter": self.starter,
            "taken": list(self.taken),
            "face_up": list(self.face_up),
            "points": list(self.points),
        }


def winners_of(points: Sequence[Sequence[int]]) -> list[int]:
    """The winners after three deals, from each deal's points per seat: the most points in total;
    on a tie, more points in the 3rd deal, then in the 2nd; if all three are equal, all win."""
    seats = range(len(points[0]))
    key = [(sum(d[s] for d in points), points[2][s], points[1][s]) for s in seats]
    best = max(key)
    return [s for s in seats if key[s] == best]


# A taken trick: (place index, cards as (seat, card), led colour, owner).
Taken = tuple[int, tuple[tuple[int, int], ...], int, int]

# -- precomputed tables for the hot path -------------------------------------------------------
#
# The led colours of the four places are kept as a "signature": 3 bits per place, the colour 0-3
# or EMPTY_CODE for a free place. Everything legal_actions and apply need from the places is
# looked up by it: where each colour may go, which (colour, target) pairs are legal, the lowest
# free place.
EMPTY_CODE = 4
EMPTY_SIG = sum(EMPTY_CODE << (3 * i) for i in range(4))
SIG_SIZE = 1 << 12


def _sig_tables() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[int], list[int]]:
    target_sets: dict[tuple[int, ...], int] = {}
    bases: list[tuple[int, ...]] = [()] * SIG_SIZE
    legal: list[int] = [0] * SIG_SIZE
    first_free: list[int] = [-1] * SIG_SIZE
    for codes in itertools.product(range(EMPTY_CODE + 1), repeat=4):
        places = tuple(None if c == EMPTY_CODE else OpenTrick((), c, 0, 0) for c in codes)
        sig = sum(c << (3 * i) for i, c in enumerate(codes))
        ok = 0
        base = []
        for colour, targets in enumerate(targets_by_colour(places)):
            tid = target_sets.setdefault(targets, len(target_sets))
            base.append((colour * 32 + tid) << 9)
            for t in targets:
                ok |= 1 << (colour * TARGETS + t)
        bases[sig] = tuple(base)
        legal[sig] = ok
        first_free[sig] = places.index(None) if None in places else -1
    assert len(target_sets) <= 32
    return list(target_sets), bases, legal, first_free


# TARGET_SETS[tid]: a colour's targets; SIG_BASES[sig][colour]: that colour's block in the legal
# table; SIG_LEGAL[sig]: bit colour * 5 + target set when legal; SIG_FREE[sig]: lowest free place.
TARGET_SETS, SIG_BASES, SIG_LEGAL, SIG_FREE = _sig_tables()
# FITS[real][known]: the tile orders agreeing with `real` on its first `known` positions.
FITS = tuple(
    tuple(tuple(o for o in range(6) if ORDERS[o][:known] == ORDERS[real][:known]) for known in range(4))
    for real in range(6)
)
SINGLE = tuple(tuple(((s, c),) for c in range(60)) for s in range(5))  # ((seat, card),), shared


class ActionTables:
    """One game's lookup tables: its Action objects by identity, and the legal actions of one
    colour's cards (a chunk of 8 values) for one target set, filled in on first use.

    Entry `(colour * 32 + tid) << 9 | half << 8 | chunk` lists the actions of the cards
    `colour * top + 8 * half + j` (bit j of `chunk`), card-major, targets in `TARGET_SETS[tid]`."""

    __slots__ = (
        "actions", "card_action", "colour_mask", "deck", "id_of", "order_actions", "order_base", "table", "top",
    )  # fmt: skip

    def __init__(self, deck: StichlingDeck, actions: tuple[Action, ...]) -> None:
        self.deck = deck
        self.actions = actions
        self.top = deck.top
        self.colour_mask = (1 << deck.top) - 1
        self.order_base = deck.size * TARGETS
        self.order_actions = actions[self.order_base :]
        self.id_of = {id(a): a.id for a in actions}  # the game's own Action objects, by identity
        self.table: list[list[Action] | None] = [None] * (4 * 32 * 512)
        # Per card action id: (card, target, card bit, its bit in SIG_LEGAL, colour, value).
        self.card_action = tuple(
            (a // TARGETS, a % TARGETS, 1 << a // TARGETS, 1 << (deck.colour[a // TARGETS] * TARGETS + a % TARGETS),
             deck.colour[a // TARGETS], deck.value[a // TARGETS])
            for a in range(self.order_base)
        )  # fmt: skip

    def fill(self, key: int) -> list[Action]:
        colour, tid, half, chunk = key >> 14, key >> 9 & 31, key >> 8 & 1, key & 255
        first = colour * self.top + 8 * half
        targets = TARGET_SETS[tid]
        acts = self.actions
        out = [acts[(first + j) * TARGETS + t] for j in range(8) if chunk >> j & 1 for t in targets]
        self.table[key] = out
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        # Identities do not survive pickling: rebuild the tables from the (unpickled) actions.
        return (ActionTables, (self.deck, self.actions))


class StichlingState(State):
    SEAT_SHIFT = 512  # at most 60 * 5 + 6 = 306 actions
    __slots__ = (
        "game", "_deck", "_n", "_log", "_seed", "_given", "_undo", "_tables",
        "_deal_no", "_starter", "_phase", "_player", "_start", "_hands", "_orders", "_taken",
        "_cards", "_led", "_owner", "_best", "_sig", "_done", "_discarded", "_summaries", "_scores",
        "_order_base",
    )  # fmt: skip
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
        self._undo: list[tuple[Any, ...]] = []
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
        self._undo.append((LAY, p, self._orders[p]))
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
        a = self._tables.id_of.get(id(action), -1)
        if a < 0:
            a = self.game.parse_action(action).id  # type: ignore[arg-type]  # parse_action takes both
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
            record: tuple[Any, ...] = (PLAY_CARD, p, bit, i, (), -1, -1, 0, sig, self._done, -1)
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
                record = (PLAY_CARD, p, bit, i, old_cards, led, old_owner, old_best, sig, old_done, owner)
            else:
                cards_at[i] = cards
                owner_at[i] = owner
                best_at[i] = best
                record = (PLAY_CARD, p, bit, i, old_cards, led, old_owner, old_best, sig, old_done, -1)
        self._player = nxt
        if last:
            self._end_deal()
        else:
            self._undo.append(record)

    def _why_illegal(self, a: int) -> Reason:
        text = self.game.actions[a].text
        if self._phase == OVER:
            return Reason(f"{text}: the game is over", "game_over")
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
            return Reason(f"{text}: {who}, whose turn it is, does not hold {name}", "not_held", card=name, seat=p)
        return why_not(self._deck.colour[card], target, self._places, name).prefixed(f"{text}: ")

    def _snapshot(self, n_log: int) -> tuple[Any, ...]:
        """Everything, for undoing a move that ends a deal (the other moves keep a small record)."""
        return (
            WHOLE, self._phase, self._player, self._deal_no, self._starter, self._start, tuple(self._hands),
            tuple(self._orders), tuple(self._taken), tuple(self._cards), tuple(self._led), tuple(self._owner),
            tuple(self._best), self._sig, self._done, self._discarded, tuple(self._scores), len(self._summaries),
            n_log,
        )  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        u = self._undo.pop()
        kind = u[0]
        if kind == PLAY_CARD:
            _, p, bit, i, self._cards[i], led, owner, best, self._sig, self._done, took = u
            self._hands[p] |= bit
            self._led[i], self._owner[i], self._best[i] = led, owner, best
            if took >= 0:
                self._taken[took] -= 1
            self._player = p
            self._log.pop()
        elif kind == LAY:
            _, p, self._orders[p] = u
            self._phase = ORDER
            self._player = p
            self._log.pop()
        else:
            (
                _, self._phase, self._player, self._deal_no, self._starter, self._start, hands,
                orders, taken, cards, led, owner, best, self._sig, self._done, self._discarded,
                scores, n_summaries, n_log,
            ) = u  # fmt: skip
            self._hands = list(hands)
            self._orders = list(orders)
            self._taken = list(taken)
            self._cards = list(cards)
            self._led = list(led)
            self._owner = list(owner)
            self._best = list(best)
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

    # -- what a seat may know -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        deck = self._deck
        names = deck.names
        n = self._n
        deal = min(self._deal_no, DEALS - 1)

        def cards_json(cards: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": names[c]} for s, c in cards]

        places: list[dict[str, Any] | None] = [
            None
            if t is None
            else {
                "place": i + 1,
                "led": COLOURS[t.led],
                "owner": t.owner,
                "best": names[t.cards[0][1]] if len(t.cards) == 1 else self._best_card(t),
                "cards": cards_json(t.cards),
            }
            for i, t in enumerate(self._places)
        ]
        own_order: list[int] | None = None
        own_action: str | None = None
        if seat is not None and self._orders[seat] >= 0:
            own_order = [tile_value(deal, self._orders[seat], i) for i in range(3)]
            own_action = ORDER_TEXTS[self._orders[seat]]
        v: dict[str, Any] = {
            "game": "stichling",
            "seat": seat,
            "options": dict(self.game.options),
            "players": n,
            "phase": PHASE_NAMES[self._phase],
            "current_player": self.current_player,
            "deal_number": self._deal_no,
            "deals": DEALS,
            "starter": self._starter,
            "hand": [] if seat is None else deck.notation(self._hands[seat]),
            "hand_sizes": [h.bit_count() for h in self._hands],
            "tiles": list(TILES[deal]),
            "tile_order": own_order,
            "tile_order_action": own_action,
            "tiles_laid": [o >= 0 for o in self._orders],
            "places": places,
            "taken": list(self._taken),
            "face_up": [self.face_up(s) for s in range(n)],
            "tiles_seen": [self._tiles_seen(s) for s in range(n)],
            "tricks": [
                {"place": i + 1, "led": COLOURS[led], "owner": owner, "cards": cards_json(cards)}
                for i, cards, led, owner in self._done
            ],
            "last_trick": self._last_trick_json(),
            "discarded": [
                {"place": i + 1, "led": COLOURS[led], "owner": owner, "cards": cards_json(cards)}
                for i, cards, led, owner in self._discarded
            ],
            "scores": list(self._scores),
            "previous_deals": [d.to_json() for d in self._summaries],
            "winners": self.winners() or None,
        }
        if seat is not None and seat == self.current_player:
            v["legal_actions"] = [a.text for a in self.legal_actions()]
        return v

    def _best_card(self, t: OpenTrick) -> str:
        deck = self._deck
        for _, c in t.cards:
            if deck.colour[c] == t.led and deck.value[c] == t.best:
                return deck.names[c]
        raise AssertionError("a trick without its best card")  # pragma: no cover

    def _tiles_seen(self, seat: int) -> list[int]:
        """The tiles of `seat` turned up so far this deal, by position (public: each was shown)."""
        k = min(self._taken[seat], 3)
        return [tile_value(self._deal_no, self._orders[seat], i) for i in range(k)]

    def _last_trick_json(self) -> dict[str, Any] | None:
        """The trick taken last (full, to its owner), even when it closed the previous deal (as Jass):
        its place, led colour, cards with their seats, who took it and the tile that turned up."""
        if self._done:
            deal, (i, cards, led, owner), tile = self._deal_no, self._done[-1], self.face_up(self._done[-1][3])
        elif self._summaries and self._summaries[-1].last_trick is not None:
            last = self._summaries[-1]
            deal, (i, cards, led, owner) = last.number, last.last_trick  # type: ignore[misc]
            tile = last.face_up[owner]
        else:
            return None
        names = self._deck.names
        return {
            "deal": deal, "place": i + 1, "led": COLOURS[led], "leader": cards[0][0],
            "cards": [{"seat": s, "card": names[c]} for s, c in cards], "winner": owner, "tile": tile,
        }  # fmt: skip

    def clone(self) -> StichlingState:
        new = object.__new__(StichlingState)
        new.game = self.game
        new._deck = self._deck
        new._n = self._n
        new._log = list(self._log)
        new._seed = self._seed
        new._given = dict(self._given)
        new._undo = list(self._undo)
        new._tables = self._tables
        new._deal_no = self._deal_no
        new._starter = self._starter
        new._phase = self._phase
        new._player = self._player
        new._start = self._start
        new._hands = list(self._hands)
        new._orders = list(self._orders)
        new._taken = list(self._taken)
        new._cards = list(self._cards)
        new._led = list(self._led)
        new._owner = list(self._owner)
        new._best = list(self._best)
        new._sig = self._sig
        new._done = self._done
        new._discarded = self._discarded
        new._summaries = list(self._summaries)
        new._scores = list(self._scores)
        new._order_base = self._order_base
        return new

    def sample_hidden(self, seat: int, rng: random.Random) -> StichlingState:
        """A state `seat` cannot tell from this one: the other hands of this deal redealt at random
        (Stichling reveals no voids: a throw-off is judged per card), every hidden tile order
        redrawn among those that agree with the tiles already turned up (this deal and earlier
        ones), and the deals to come reshuffled from `rng`."""
        self._check_seat(seat)
        if seat is None:
            raise ValueError("sample_hidden needs a seat")
        new = self.clone()
        new._undo = []  # the old snapshots hold the real hands and orders
        new._seed = rng.getrandbits(63)
        new._given = {k: v for k, v in self._given.items() if k < self._deal_no}
        n = self._n
        real = self._hands
        others = [s for s in range(n) if s != seat]
        unseen = 0
        for s in others:
            unseen |= real[s]
        # In card order: the sample may depend on the view and rng only.
        pool = [c for c, b in enumerate(bin(unseen)[:1:-1]) if b == "1"]
        rng.shuffle(pool)
        hands = list(real)
        at = 0
        for s in others:
            k = real[s].bit_count()
            hands[s] = sum(1 << c for c in pool[at : at + k])
            at += k
        start = tuple(hands[s] | (self._start[s] & ~real[s]) for s in range(n))
        new._hands = hands
        new._start = start
        if self._phase != OVER:
            new._given[self._deal_no] = start
        # Rewrite the log: this deal's chance entry and every hidden tile order of the others. Each
        # deal logs its chance entry, then the n tile orders, then 12 rounds of n cards.
        shift = self.SEAT_SHIFT
        base = self._order_base
        log = new._log
        size = len(log)
        summaries = self._summaries
        for deal in range(self._deal_no + 1):
            at = deal * (1 + 13 * n)
            current = deal == self._deal_no
            if current:
                log[at] = ("chance", start)
            taken = summaries[deal].taken if deal < len(summaries) else self._taken
            for i in range(at + 1, min(at + 1 + n, size)):
                e: int = log[i]  # type: ignore[assignment]  # a tile order: a decision
                s = e // shift
                if s == seat:
                    continue
                fits = FITS[e - s * shift - base][min(taken[s], 3)]
                order = fits[rng.randrange(len(fits))]
                log[i] = s * shift + base + order
                if current:
                    new._orders[s] = order
        return new

    def _position(self) -> tuple[Any, ...]:
        snap = self._snapshot(len(self._log))
        return (*snap[1:17], tuple(self._summaries), tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return {"hands": [self._deck.notation(h) for h in outcome]}

    def __repr__(self) -> str:
        return f"<StichlingState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self._scores}>"


__all__ = ["PHASE_NAMES", "DealSummary", "StichlingState", "action_texts", "deal_hands", "winners_of"]
