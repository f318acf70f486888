"""The deals of a Differenzler game: what a seed deals, the trump each deal has, and explicit deals.

A stored format: a record keeps only its seed and the decisions, so `deal_cards(seed, number, rule)`
must deal the same cards for as long as records are replayed, on every platform. The golden
playthroughs in tests/golden/ pin it; changing it is a new record version.

Trump (option `trump`):
- "turned-up": the dealer's last card is turned face up and its suit is trump; the card stays
  in the dealer's hand, known to everybody until it is played.
- "random": a suit drawn at random, no card shown (as Swisslos's online game does).
- "in-turn": the suits in turn, one per deal: D, H, S, C, D, ...
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, NamedTuple

from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError, quote

from .cards import DECK, SUITS
from .rules import dealer_of, forehand_of

Hands = tuple[int, int, int, int]
TRUMP_RULES = ("turned-up", "random", "in-turn")

_KEYS = struct.Struct(">37I").unpack
_BIT = tuple(1 << c for c in range(36))
CARD_HELP = "a Jass card (suits D H S C, ranks 6-10 J Q K A)"


class Deal(NamedTuple):
    """One deal's chance outcome: the hands, the trump suit (0-3), the turned-up card (or -1)."""

    hands: Hands
    trump: int
    trump_card: int


def deal_cards(seed: int, number: int, rule: str) -> Deal:
    """Deal `number` of the game with this seed, independent of what was played before.

    The 36 cards are ordered by the first 36 of 37 big-endian 32-bit keys from SHAKE-128 of
    "differenzler/<seed>/<number>" (ties in deck order) and dealt in four packets of nine,
    counter-clockwise from the forehand, so the dealer gets the last nine and the very last card.
    Trump: that last card's suit ("turned-up"), the 37th key mod 4 ("random"), or the deal's
    number mod 4 ("in-turn")."""
    keys = _KEYS(hashlib.shake_128(b"differenzler/%d/%d" % (seed, number)).digest(148))
    order = sorted(range(36), key=keys.__getitem__)
    bit = _BIT.__getitem__
    hands = [0, 0, 0, 0]
    seat = forehand_of(number)
    for packet in range(4):
        hands[seat] = sum(map(bit, order[9 * packet : 9 * packet + 9]))
        seat = (seat + 3) & 3
    dealt: Hands = (hands[0], hands[1], hands[2], hands[3])
    if rule == "turned-up":
        return Deal(dealt, order[35] // 9, order[35])
    if rule == "random":
        return Deal(dealt, keys[36] & 3, -1)
    return Deal(dealt, number & 3, -1)


def parse_deal(deal: Any, rule: str, number: int) -> Deal:
    """A deal as written: {"hands": [[9 cards] x 4]}, with "trump_card" (a card of the dealer's,
    for trump="turned-up") or "trump" (a suit letter, for trump="random"; optional otherwise)."""
    what = "a Differenzler deal"
    if not isinstance(deal, dict) or "hands" not in deal or not set(deal) <= {"hands", "trump", "trump_card"}:
        raise DealError(f'{what} is {{"hands": [[9 cards] x 4], "trump": suit, "trump_card": card}}, not {quote(deal)}')
    m = parse_hands(deal["hands"], DECK, players=4, hand_size=9, what=what, card_help=CARD_HELP)
    hands: Hands = (m[0], m[1], m[2], m[3])
    trump = deal.get("trump")
    if trump is not None and (not isinstance(trump, str) or len(trump) != 1 or trump not in SUITS):
        raise DealError(f"trump {quote(trump)} is not a suit; suits: D, H, S, C")
    dealer = dealer_of(number)
    if rule == "turned-up":
        if "trump_card" not in deal:
            raise DealError(
                f'with trump="turned-up" a deal names its "trump_card", one of the dealer\'s (seat {dealer})'
            )
        try:
            card = DECK.parse(deal["trump_card"])
        except (KeyError, AttributeError, TypeError):
            raise DealError(f"trump_card {quote(deal['trump_card'])} is not {CARD_HELP}") from None
        if not hands[dealer] >> card & 1:
            raise DealError(f"trump_card {DECK.names[card]} is not in the dealer's hand (seat {dealer})")
        if trump is not None and SUITS.index(trump) != card // 9:
            raise DealError(f"trump {trump} is not the suit of the trump card {DECK.names[card]}")
        return Deal(hands, card // 9, card)
    if "trump_card" in deal:
        raise DealError(f'only trump="turned-up" turns a card up; with trump="{rule}" a deal has no "trump_card"')
    if rule == "random":
        if trump is None:
            raise DealError('with trump="random" a deal names its "trump" suit (D, H, S or C)')
        return Deal(hands, SUITS.index(trump), -1)
    if trump is not None and SUITS.index(trump) != number & 3:
        raise DealError(f'with trump="in-turn" deal {number} has trump {SUITS[number & 3]}, not {trump}')
    return Deal(hands, number & 3, -1)


def deal_json(deal: Deal) -> dict[str, Any]:
    """A deal as records and explicit deals write it."""
    out: dict[str, Any] = {"hands": [DECK.notation(h) for h in deal.hands], "trump": SUITS[deal.trump]}
    if deal.trump_card >= 0:
        out["trump_card"] = DECK.names[deal.trump_card]
    return out
