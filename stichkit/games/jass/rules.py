"""Which cards may be played: following, the Bour exception and the undertrump ban.

One function decides legality (`legal_cards`), and one explains a refusal (`why_not` for a card,
`why_refused` for any action in any phase), so the hot path stays a handful of bit operations and
the message path can take its time. What a played card tells everybody about the hand it came
from (`cannot_hold`) follows from the same rules, and so does the trump a later trump must not go
under (`next_reference`).
"""

from __future__ import annotations

from stichkit.core.errors import Reason, game_over, not_held

from .actions import ACTION_TEXTS, OVER, PUSH, PUSHED, TRUMP, TRUMP_ACTION
from .cards import ALL_CARDS, DECK, JACK, MODE_NAMES, MODES, SUIT_MASK, SUIT_NAMES_DE, SUITS, TRUMP_ORDER, TRUMPS_ABOVE

BOUR_BIT = tuple(1 << (t * 9 + JACK) for t in range(4))

# Option `undertrump`: which trump of the trick a later trump may not go under.
UNDERTRUMP_RULES = ("swiss", "jass-kit")


def next_reference(reference: int, card: int, lowest_plain: bool) -> int:
    """The trick's reference trump after the trump `card` is played into it (-1: none yet).

    Swiss rule: the highest trump in the trick. jass-kit 2.0.5 (`lowest_plain`): the trump of the
    trick that ranks lowest in the plain order A K Q J 10 9 8 7 6, whatever its rank as trump."""
    if reference < 0:
        return card
    if lowest_plain:
        return card if card < reference else reference
    return card if TRUMP_ORDER[card % 9] > TRUMP_ORDER[reference % 9] else reference


def legal_cards(hand: int, trick_len: int, led: int, mode: int, best_trump: int) -> int:
    """The cards of `hand` that may be played. `best_trump` is the trick's reference trump (see
    `next_reference`: under the Swiss rule the highest trump in the trick), or -1."""
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


def cannot_hold(card: int, led: int, mode: int, best_trump: int) -> int:
    """The cards a player shows they no longer hold by playing `card` (not the first of the trick)
    into a trick led with suit `led`, with reference trump `best_trump` (or -1); 0 if nothing.

    `card` is legal exactly when the rest of the hand holds none of these cards, so this is all
    that a legal card reveals."""
    suit = card // 9
    if suit == led:
        return 0
    if mode >= 4:
        return SUIT_MASK[led]
    if led == mode:
        return SUIT_MASK[mode] & ~BOUR_BIT[mode]  # not following trump: no trump but the Bour
    if suit != mode:
        return SUIT_MASK[led]
    if best_trump >= 0 and not TRUMPS_ABOVE[mode][best_trump] >> card & 1:
        return ALL_CARDS & ~SUIT_MASK[mode]  # undertrumped: nothing but trumps left
    return 0


def suit_name(suit: int) -> str:
    return f"{SUIT_NAMES_DE[suit]} ({SUITS[suit]})"


def why_not(card: int, hand: int, trick_len: int, led: int, mode: int, best_trump: int) -> Reason:
    """Why `card` may not be played now (assumes it may not), with its code and params."""
    name = DECK.names[card]
    if not hand >> card & 1:
        return Reason(f"you do not hold {name}", "not_held", card=name)
    suit = card // 9

    def held(m: int) -> str:
        return ", ".join(DECK.notation(m))

    if mode < 4 and led == mode:
        trumps = hand & SUIT_MASK[mode] & ~BOUR_BIT[mode]
        return Reason(
            f"trump {suit_name(mode)} was led: you must follow trump ({held(trumps)})",
            "must_follow_trump", card=name, suit=SUITS[mode], cards=DECK.notation(trumps),
        )  # fmt: skip
    if mode < 4 and suit == mode and best_trump >= 0:
        return Reason(
            f"undertrumping is not allowed: {name} is lower than {DECK.names[best_trump]} in the trick, "
            f"and you hold other cards",
            "no_undertrump", card=name, best=DECK.names[best_trump],
        )  # fmt: skip
    follow = hand & SUIT_MASK[led]
    cards = DECK.notation(follow)
    if mode < 4:
        # Name the trumps only when one may be played: a hand without trumps (or with only
        # trumps below the one in the trick) has no trump to play.
        trumps = hand & SUIT_MASK[mode]
        playable = trumps & TRUMPS_ABOVE[mode][best_trump] if best_trump >= 0 else trumps
        if playable:
            return Reason(
                f"you must follow {suit_name(led)} ({held(follow)}) or play a trump ({held(playable)})",
                "must_follow_or_trump", card=name, suit=SUITS[led], cards=cards, trumps=DECK.notation(playable),
            )  # fmt: skip
        return Reason(f"you must follow {suit_name(led)} ({held(follow)})", "must_follow",
                      card=name, suit=SUITS[led], cards=cards)  # fmt: skip
    return Reason(
        f"you must follow {suit_name(led)} ({held(follow)}); {MODE_NAMES[mode]} has no trump",
        "must_follow", card=name, suit=SUITS[led], cards=cards,
    )  # fmt: skip


def why_refused(a: int, phase: int, seat: int, hand: int, trick_len: int, led: int, mode: int, best_trump: int,
                choices: str, profile: str) -> Reason:  # fmt: skip
    """Why action `a` is refused now: `seat` is to move in `phase` holding `hand`; the trick so far
    as in `legal_cards`; `choices` the trump choices open (in the trump phases), `profile` the
    rule profile's name. Only the refusal path asks this; legality is `legal_cards`."""
    text = ACTION_TEXTS[a]
    if phase == OVER:
        return game_over(text)
    who = f"seat {seat}"
    if phase in (TRUMP, PUSHED):
        if a < TRUMP_ACTION:
            return Reason(f"{text}: {who} must first choose trump ({choices})", "not_legal_now",
                          expected="trump", seat=seat)  # fmt: skip
        if a == PUSH:
            return Reason(f"push: {who}'s partner already pushed; {who} must choose trump ({choices})",
                          "already_pushed", seat=seat)  # fmt: skip
        return Reason(f"{text}: {MODE_NAMES[a - TRUMP_ACTION]} is not played in the {profile} profile",
                      "mode_not_played", mode=MODES[a - TRUMP_ACTION], profile=profile)  # fmt: skip
    if a >= TRUMP_ACTION:
        return Reason(f"{text}: trump is already chosen ({MODE_NAMES[mode]}); play a card", "not_legal_now",
                      expected="play", seat=seat)  # fmt: skip
    if not hand >> a & 1:  # usually a card of another seat, played out of turn
        return not_held(text, seat, text)
    return why_not(a, hand, trick_len, led, mode, best_trump).prefixed(f"{text}: ")
