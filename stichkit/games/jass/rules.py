"""Which cards may be played: following, the Bour exception and the undertrump ban.

One function decides legality (`legal_cards`), and one explains a refusal (`why_not`), so the
hot path stays a handful of bit operations and the message path can take its time.
"""

from __future__ import annotations

from .cards import DECK, JACK, MODE_NAMES, SUIT_MASK, SUIT_NAMES_DE, SUITS, TRUMPS_ABOVE

BOUR_BIT = tuple(1 << (t * 9 + JACK) for t in range(4))


def legal_cards(hand: int, trick_len: int, led: int, mode: int, best_trump: int) -> int:
    """The cards of `hand` that may be played. `best_trump` is the highest trump in the trick, or -1."""
    if trick_len == 0:
        return hand
    if mode < 4:
        tmask = SUIT_MASK[mode]
        trumps = hand & tmask
        if led == mode:
            # Trump led: follow trump, but the Bour never has to be played.
            return trumps if trumps & ~BOUR_BIT[mode] else hand
        follow = hand & SUIT_MASK[led]
        ok_trumps = trumps & TRUMPS_ABOVE[mode][best_trump] if best_trump >= 0 else trumps
        if follow:
            return follow | ok_trumps
        if hand == trumps:
            return hand  # nothing but trumps: undertrumping is allowed
        return (hand & ~tmask) | ok_trumps
    follow = hand & SUIT_MASK[led]
    return follow or hand


def suit_name(suit: int) -> str:
    return f"{SUIT_NAMES_DE[suit]} ({SUITS[suit]})"


def why_not(card: int, hand: int, trick_len: int, led: int, mode: int, best_trump: int) -> str:
    """Why `card` may not be played now (assumes it may not)."""
    name = DECK.names[card]
    if not hand >> card & 1:
        return f"you do not hold {name}"
    suit = card // 9

    def held(m: int) -> str:
        return ", ".join(DECK.notation(m))

    if mode < 4 and led == mode:
        trumps = hand & SUIT_MASK[mode] & ~BOUR_BIT[mode]
        return f"trump {suit_name(mode)} was led: you must follow trump ({held(trumps)})"
    if mode < 4 and suit == mode and best_trump >= 0:
        return (
            f"undertrumping is not allowed: {name} is lower than {DECK.names[best_trump]} in the trick, "
            f"and you hold other cards"
        )
    follow = hand & SUIT_MASK[led]
    if mode < 4:
        # Name the trumps only when one may be played: a hand without trumps (or with only
        # trumps below the one in the trick) has no trump to play.
        trumps = hand & SUIT_MASK[mode]
        playable = trumps & TRUMPS_ABOVE[mode][best_trump] if best_trump >= 0 else trumps
        if playable:
            return f"you must follow {suit_name(led)} ({held(follow)}) or play a trump ({held(playable)})"
        return f"you must follow {suit_name(led)} ({held(follow)})"
    return f"you must follow {suit_name(led)} ({held(follow)}); {MODE_NAMES[mode]} has no trump"
