"""Where a card may go ("Stichregeln"), and who owns a trick ("Anzeigestein").

Up to four tricks are open at once, each on one of four trick places with a stable number 1-4
(index 0-3 here). A card goes

- onto an open trick of its own colour (the colour led there: "bedienen"), or
- onto a free place, opening a new trick with any colour, while fewer than four are open, or
- onto a trick of another colour ("abwerfen") only when it can go colour-matching nowhere: no
  open trick of its colour and no free place. This is judged for the card alone: another card
  of the same hand that could follow somewhere does not matter (RULINGS.md, Stichling).

A trick belongs to whoever played its highest card of the led colour; thrown-off cards never win.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from stichkit.core.action import Action
from stichkit.core.errors import Reason

from .actions import TARGETS
from .cards import COLOUR_NAMES, COLOURS, StichlingDeck

NEW = 4  # target "new": open a trick on the lowest free place
PLACES = 4
FULL = 4  # a trick is full with its fourth card


class OpenTrick(NamedTuple):
    """A trick on the table: its cards as (seat, card) in play order, the led colour, the
    current owner (the seat of the highest card of the led colour) and that card's value."""

    cards: tuple[tuple[int, int], ...]
    led: int
    owner: int
    best: int


Places = tuple[OpenTrick | None, ...]
EMPTY_PLACES: Places = (None, None, None, None)
ALL_PLACES = (0, 1, 2, 3)


def colour_targets(colour: int, places: Places) -> tuple[int, ...]:
    """The targets (place indices 0-3, NEW) a card of `colour` may go to, in that order."""
    matching = tuple(i for i, t in enumerate(places) if t is not None and t.led == colour)
    free = any(t is None for t in places)
    if free:
        return (*matching, NEW)
    if matching:
        return matching
    return ALL_PLACES  # four tricks open, none of its colour: it may be thrown off anywhere


def targets_by_colour(places: Places) -> tuple[tuple[int, ...], ...]:
    """`colour_targets` for all four colours at once, in one pass over the places."""
    matching: list[tuple[int, ...]] = [(), (), (), ()]
    free = False
    for i, t in enumerate(places):
        if t is None:
            free = True
        else:
            matching[t.led] += (i,)
    if free:
        return tuple((*m, NEW) for m in matching)
    return tuple(m or ALL_PLACES for m in matching)


def why_not(colour: int, target: int, places: Places, card_text: str) -> Reason:
    """Why a card of `colour` may not go to `target` (assumed not among `colour_targets`), with its
    code and params."""
    if target == NEW:
        return Reason(f"{card_text} cannot open a new trick: all four trick places are taken", "no_free_place",
                      card=card_text)  # fmt: skip
    trick = places[target]
    if trick is None:
        return Reason(
            f"{card_text} cannot go onto place {target + 1}: no trick is open there (open one with {card_text}>new)",
            "no_trick_there", card=card_text, place=target + 1,
        )  # fmt: skip
    led = COLOUR_NAMES[trick.led]
    if any(t is None for t in places):
        return Reason(
            f"{card_text} may not be thrown off onto place {target + 1} ({led} led): it can open a new trick",
            "no_throw_off_free_place", card=card_text, place=target + 1, led=COLOURS[trick.led],
        )  # fmt: skip
    own = [i + 1 for i, t in enumerate(places) if t is not None and t.led == colour]
    return Reason(
        f"{card_text} may not be thrown off onto place {target + 1} ({led} led): "
        f"it can follow {COLOUR_NAMES[colour]} on place {', '.join(map(str, own))}",
        "no_throw_off_can_follow", card=card_text, place=target + 1, led=COLOURS[trick.led], suit=COLOURS[colour],
        places=own,
    )  # fmt: skip


def add_card(trick: OpenTrick | None, seat: int, card: int, deck: StichlingDeck) -> OpenTrick:
    """The trick after `seat` places `card` on it (None: the card opens a new trick)."""
    colour, value = deck.colour[card], deck.value[card]
    if trick is None:
        return OpenTrick(((seat, card),), colour, seat, value)
    cards = (*trick.cards, (seat, card))
    if colour == trick.led and value > trick.best:
        return OpenTrick(cards, trick.led, seat, value)
    return OpenTrick(cards, trick.led, trick.owner, trick.best)


def winners_of(points: Sequence[Sequence[int]]) -> list[int]:
    """The winners after three deals, from each deal's points per seat: the most points in total;
    on a tie, more points in the 3rd deal, then in the 2nd; if all three are equal, all win."""
    seats = range(len(points[0]))
    key = [(sum(d[s] for d in points), points[2][s], points[1][s]) for s in seats]
    best = max(key)
    return [s for s in seats if key[s] == best]


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


class ActionTables:
    """One game's lookup tables: the legal actions of one colour's cards (a chunk of 8 values)
    for one target set, filled in on first use, and what each card action is.

    Entry `(colour * 32 + tid) << 9 | half << 8 | chunk` lists the actions of the cards
    `colour * top + 8 * half + j` (bit j of `chunk`), card-major, targets in `TARGET_SETS[tid]`."""

    __slots__ = (
        "actions", "card_action", "colour_mask", "deck", "order_actions", "order_base", "table", "top",
    )  # fmt: skip

    def __init__(self, deck: StichlingDeck, actions: tuple[Action, ...]) -> None:
        self.deck = deck
        self.actions = actions
        self.top = deck.top
        self.colour_mask = (1 << deck.top) - 1
        self.order_base = deck.size * TARGETS
        self.order_actions = actions[self.order_base :]
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
        # Rebuilt from the (unpickled) actions: the tables hold those very objects.
        return (ActionTables, (self.deck, self.actions))
