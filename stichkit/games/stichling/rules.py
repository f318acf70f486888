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

from typing import NamedTuple

from stichkit.core.errors import Reason

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
