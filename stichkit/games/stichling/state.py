"""A whole Stichling game, three deals, as the rulebook's "Spielverlauf" runs:

deal (12 cards each) → every player secretly lays out their three score tiles (phase `order`,
in seat order from the deal's starter; the choice is hidden from the others) → 12 rounds of
play onto up to four open tricks (phase `play`) → the face-up tiles score → the next deal,
begun by the left neighbour of the previous starter → after the third deal the game is over.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Sequence
from typing import Any, NamedTuple

from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, UndoError
from stichkit.core.game import Entry, State

from .cards import COLOURS, DEALS, HAND_SIZE, ORDER_TEXTS, ORDERS, TILES, StichlingDeck, position_after, tile_value
from .rules import EMPTY_PLACES, FULL, NEW, OpenTrick, Places, add_card, targets_by_colour, why_not

ORDER, PLAY, OVER = range(3)
PHASE_NAMES = ("order", "play", "over")
TARGETS = 5  # places 1-4 and "new"


def action_texts(deck: StichlingDeck) -> list[str]:
    """The fixed action table: card × (place 1-4, new), card-major, then the six tile orders."""
    cards = [f"{name}>{t}" for name in deck.names for t in ("1", "2", "3", "4", "new")]
    return [*cards, *ORDER_TEXTS]


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


class StichlingState(State):
    SEAT_SHIFT = 512  # at most 60 * 5 + 6 = 306 actions
    __slots__ = (
        "game", "_deck", "_n", "_log", "_seed", "_given", "_undo", "_legal", "_legal_ids",
        "_deal_no", "_starter", "_phase", "_player", "_start", "_hands", "_orders", "_taken",
        "_places", "_done", "_discarded", "_summaries", "_scores", "_order_base",
    )  # fmt: skip

    def __init__(self, game: Any, seed: int, given: dict[int, tuple[int, ...]]) -> None:
        self.game = game
        self._deck: StichlingDeck = game.deck
        self._n: int = game.num_players
        self._order_base = self._deck.size * TARGETS
        self._log: list[Entry] = []
        self._seed = seed
        self._given = given
        self._undo: list[tuple[Any, ...]] = []
        self._legal: list[Action] | None = None
        self._legal_ids: frozenset[int] = frozenset()
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
        self._places: Places = EMPTY_PLACES
        self._done: tuple[Taken, ...] = ()
        self._discarded = ()

    def _lay_tiles(self, order: int) -> None:
        p = self._player
        self._orders[p] = order
        nxt = (p + 1) % self._n
        if nxt == self._starter:
            self._phase = PLAY
        self._player = nxt

    def _play(self, card: int, target: int) -> None:
        p = self._player
        self._hands[p] ^= 1 << card
        places = self._places
        if target == NEW:
            target = places.index(None)  # a new trick takes the lowest free place
            trick = add_card(None, p, card, self._deck)
        else:
            trick = add_card(places[target], p, card, self._deck)
        if len(trick.cards) == FULL:
            # Full: the owner takes it at once and turns up their next tile; play goes on in turn.
            self._done += ((target, trick.cards, trick.led, trick.owner),)
            self._taken[trick.owner] += 1
            self._places = (*places[:target], None, *places[target + 1 :])
        else:
            self._places = (*places[:target], trick, *places[target + 1 :])
        self._player = (p + 1) % self._n
        if not any(self._hands):
            self._end_deal()

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
        self._summaries.append(DealSummary(self._deal_no, self._starter, tuple(self._taken), face, points))
        for s in range(self._n):
            self._scores[s] += points[s]
        if self._deal_no == DEALS - 1:
            self._discarded = tuple((i, t.cards, t.led, t.owner) for i, t in enumerate(self._places) if t is not None)
            self._places = EMPTY_PLACES
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
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
            self._legal_ids = frozenset(a.id for a in legal)
        return list(legal)

    def _compute_legal(self) -> list[Action]:
        acts = self.game.actions
        if self._phase == ORDER:
            return list(acts[self._order_base :])
        if self._phase == OVER:
            return []
        hand = self._hands[self._player]
        colour_of = self._deck.colour
        per_colour = targets_by_colour(self._places)
        out = []
        while hand:
            low = hand & -hand
            card = low.bit_length() - 1
            hand ^= low
            base = card * TARGETS
            out.extend([acts[base + t] for t in per_colour[colour_of[card]]])
        return out

    def apply(self, action: Action | str) -> None:
        a = self.game.parse_action(action).id  # type: ignore[arg-type]  # parse_action takes both
        if self._legal is None:
            self.legal_actions()
        if a not in self._legal_ids:
            raise IllegalActionError(self._why_illegal(a))
        self._undo.append(self._snapshot())
        self._log.append(self._player * self.SEAT_SHIFT + a)
        self._legal = None
        if a >= self._order_base:
            self._lay_tiles(a - self._order_base)
        else:
            self._play(a // TARGETS, a % TARGETS)

    def _why_illegal(self, a: int) -> str:
        text = self.game.actions[a].text
        if self._phase == OVER:
            return f"{text}: the game is over"
        who = f"seat {self._player}"
        if a >= self._order_base:
            return f"{text}: {who} has laid out their tiles for this deal; now a card is played"
        if self._phase == ORDER:
            return f"{text}: {who} must first lay out their score tiles ({ORDER_TEXTS[0]} … {ORDER_TEXTS[-1]})"
        card, target = divmod(a, TARGETS)
        name = self._deck.names[card]
        if not self._hands[self._player] >> card & 1:
            return f"{text}: {who}, whose turn it is, does not hold {name}"
        return f"{text}: {why_not(self._deck.colour[card], target, self._places, name)}"

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._phase, self._player, self._deal_no, self._starter, self._start, tuple(self._hands),
            tuple(self._orders), tuple(self._taken), self._places, self._done, self._discarded,
            tuple(self._scores), len(self._summaries), len(self._log),
        )  # fmt: skip

    def undo(self) -> None:
        if not self._undo:
            raise UndoError("nothing to undo: no action has been taken")
        (
            self._phase, self._player, self._deal_no, self._starter, self._start, hands,
            orders, taken, self._places, self._done, self._discarded,
            scores, n_summaries, n_log,
        ) = self._undo.pop()  # fmt: skip
        self._hands = list(hands)
        self._orders = list(orders)
        self._taken = list(taken)
        self._scores = list(scores)
        del self._summaries[n_summaries:]
        del self._log[n_log:]
        self._legal = None

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

    def clone(self) -> StichlingState:
        new = object.__new__(StichlingState)
        for name in StichlingState.__slots__:
            setattr(new, name, getattr(self, name))
        new._log = list(self._log)
        new._undo = list(self._undo)
        new._hands = list(self._hands)
        new._orders = list(self._orders)
        new._taken = list(self._taken)
        new._scores = list(self._scores)
        new._summaries = list(self._summaries)
        new._given = dict(self._given)
        if self._legal is not None:
            new._legal = list(self._legal)
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
        others = [s for s in range(n) if s != seat]
        unseen = 0
        for s in others:
            unseen |= self._hands[s]
        pool = list(bits(unseen))  # in card order: the sample may depend on the view and rng only
        rng.shuffle(pool)
        hands = list(self._hands)
        at = 0
        for s in others:
            k = self._hands[s].bit_count()
            hands[s] = sum(1 << c for c in pool[at : at + k])
            at += k
        start = tuple(hands[s] | (self._start[s] & ~self._hands[s]) for s in range(n))
        new._hands = hands
        new._start = start
        if self._phase != OVER:
            new._given[self._deal_no] = start
        # Rewrite the log: this deal's chance entry and every hidden tile order of the others.
        shift = self.SEAT_SHIFT
        base = self._order_base
        log = new._log
        deal = -1
        for i, e in enumerate(log):
            if not isinstance(e, int):
                deal += 1
                if deal == self._deal_no:
                    log[i] = ("chance", start)
                continue
            s, a = divmod(e, shift)
            if a < base or s == seat:
                continue
            taken = self._summaries[deal].taken[s] if deal < len(self._summaries) else self._taken[s]
            order = self._sample_order(a - base, min(taken, 3), rng)
            log[i] = s * shift + base + order
            if deal == self._deal_no:
                new._orders[s] = order
        new._legal = None
        new._legal_ids = frozenset()  # the cache named the real hand of the player to move
        return new

    @staticmethod
    def _sample_order(real: int, known: int, rng: random.Random) -> int:
        """A tile order agreeing with `real` on its first `known` positions (the tiles turned up)."""
        fits = [o for o in range(6) if ORDERS[o][:known] == ORDERS[real][:known]]
        return fits[rng.randrange(len(fits))]

    def _position(self) -> tuple[Any, ...]:
        snap = self._snapshot()
        return (*snap[:12], tuple(self._summaries), tuple(self._log))

    def _chance_json(self, outcome: Any) -> Any:
        return {"hands": [self._deck.notation(h) for h in outcome]}

    def __repr__(self) -> str:
        return f"<StichlingState deal {self._deal_no} {PHASE_NAMES[self._phase]} scores {self._scores}>"


__all__ = ["PHASE_NAMES", "DealSummary", "StichlingState", "action_texts", "deal_hands", "winners_of"]
