"""Following ("bedienen") and the trick winner, as the rulebook's Spielablauf 2) and 3) say.

- Follow the led family if you can. A 5 may always be played; it takes the led family.
- The led family is the family of the trick's first card that is not a 5 (a led 5 takes the
  family of the next non-5 card; until then anything may be played).
- Winner, marker on 9: the highest trump, else the highest card of the led family. Marker on 1:
  the lowest. Equal values (only 5s can tie): the earlier card wins. Only 5s: the first 5 wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from stichkit.core.errors import Reason

from .cards import FAMILIES, FAMILY_MASK, FAMILY_NAMES, FAMILY_OF, FIVE_MASK, NAMES, VALUE_OF


def led_family(cards: Sequence[int]) -> int:
    """The family to follow in a trick with these cards (play order): -1 while only 5s lie."""
    for c in cards:
        f = FAMILY_OF[c]
        if f >= 0:
            return f
    return -1


def legal_cards(hand: int, led: int) -> int:
    """The cards of `hand` that may be played when `led` is the family to follow (-1: any)."""
    if led < 0:
        return hand
    same = hand & FAMILY_MASK[led]
    return same | (hand & FIVE_MASK) if same else hand


def why_not(card: int, hand: int, led: int) -> Reason:
    """Why `card` may not be played from `hand` (it is held), with its code and params."""
    cards = [NAMES[c] for c in range(32) if hand >> c & FAMILY_MASK[led] >> c & 1]
    return Reason(
        f"must follow {FAMILY_NAMES[led]} ({FAMILIES[led]}) with " + " ".join(cards) + " or play a 5",
        "must_follow", card=NAMES[card], suit=FAMILIES[led], cards=cards,
    )  # fmt: skip


def trick_winner(cards: Sequence[int], trump: int, high: bool) -> int:
    """The index (in play order) of the card that wins `cards` under this trump family and marker.

    A 5 counts as a card of the led family (so as a trump when the led family is trump)."""
    led = led_family(cards)
    if led < 0:
        return 0
    best, best_key = 0, (-1, 0)
    for i, c in enumerate(cards):
        fam = FAMILY_OF[c]
        if fam < 0:
            fam = led
        rank = 2 if fam == trump else 1 if fam == led else 0
        v = VALUE_OF[c]
        key = (rank, v if high else -v)
        if key > best_key:  # strictly better: the earlier card wins a tie
            best, best_key = i, key
    return best


def deal_points(pile: int, unused_bonus: int) -> int:
    """A deal's points: the cards in the point pile + 1 for every 2 unused bonus cards."""
    return pile + unused_bonus // 2
