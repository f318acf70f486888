"""Explicit deals: hands written in card notation, checked once for every game."""

from __future__ import annotations

from typing import Any

from stichkit.cards import Deck

from .errors import DealError, quote


def parse_hands(
    hands: Any,
    deck: Deck,
    *,
    players: int,
    hand_size: int,
    what: str,
    card_help: str,
    allowed: int | None = None,
    not_allowed: str = "",
) -> tuple[int, ...]:
    """One card bitmask per seat from `hands` (a list per seat of card notation), or a DealError
    that says what is wrong: the number of hands or cards, an unknown card, a card outside this
    deck (`allowed`, described by `not_allowed`), or a card dealt twice.

    `what` names the deal ("a Jass deal"); `card_help` says what a card looks like."""
    if not isinstance(hands, list | tuple) or len(hands) != players:
        count = len(hands) if isinstance(hands, list | tuple) else "no"
        raise DealError(f"{what} has exactly {players} hands, one per seat; this one has {count} hands")
    seen: dict[int, int] = {}
    masks = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list | tuple) or len(hand) != hand_size:
            size = len(hand) if isinstance(hand, list | tuple) else "no"
            raise DealError(f"seat {seat}'s hand has {size} cards; every hand has {hand_size}")
        m = 0
        for text in hand:
            try:
                card = deck.parse(text)
            except (KeyError, AttributeError, TypeError):
                raise DealError(f"seat {seat}: {quote(text)} is not {card_help}") from None
            if allowed is not None and not allowed >> card & 1:
                raise DealError(f"seat {seat}: {deck.names[card]} is not in {not_allowed}")
            if card in seen:
                raise DealError(f"{deck.names[card]} is dealt twice (seats {seen[card]} and {seat})")
            seen[card] = seat
            m |= 1 << card
        masks.append(m)
    return tuple(masks)
