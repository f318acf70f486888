"""The deals of a Stich-Meister game: the rule deck shuffled once a game, the cards dealt anew
each round, and explicit deals written as hands.

A stored format: a record keeps only its seed and the decisions, so these functions must give
the same deals for as long as records are replayed. A string seed makes `random.Random` hash it
with SHA-512, the same on every platform and Python version. The golden files in tests/golden/
pin them; changing them is a new record version.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError

from .cards import DECK

RULE_HAND = 3  # rule cards each player holds


def shuffle_rule_deck(rule_deck: tuple[int, ...], seed: int) -> tuple[int, ...]:
    """The game's rule deck in the order the seed shuffles it: three per seat in seat order, then
    the pile, top first."""
    deck = list(rule_deck)
    random.Random(f"stichmeister/{seed}/rules").shuffle(deck)
    return tuple(deck)


def deal_rule_hands(deck: tuple[int, ...], players: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The rule cards of a shuffled rule deck dealt: three to each seat in seat order (each hand
    sorted), the rest the pile, top first."""
    hands = tuple(tuple(sorted(deck[RULE_HAND * s : RULE_HAND * s + RULE_HAND])) for s in range(players))
    return hands, tuple(deck[RULE_HAND * players :])


def refill_rule_hands(
    hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...], dealer: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """After a round: every hand refilled to three from the top of the pile, from the dealer's
    left, while the pile lasts."""
    n = len(hands)
    rest = list(pile)
    out = list(hands)
    for i in range(n):
        s = (dealer + 1 + i) % n
        while len(out[s]) < RULE_HAND and rest:
            out[s] = tuple(sorted((*out[s], rest.pop(0))))
    return tuple(out), tuple(rest)


def deal_hands(deck: int, players: int, hand_size: int, seed: int, number: int) -> tuple[int, ...]:
    """Round `number`'s hands: the cards of `deck` (a mask) in order, shuffled by the seed and the
    round, dealt in consecutive slices of `hand_size` from seat 0. Independent of play, so undo
    and redo deal the same."""
    cards = [c for c in range(60) if deck >> c & 1]
    random.Random(f"stichmeister/{seed}/deal/{number}").shuffle(cards)
    return tuple(sum(1 << c for c in cards[hand_size * s : hand_size * s + hand_size]) for s in range(players))


def parse_rule_deck(deck: Any, rule_deck: tuple[int, ...]) -> tuple[int, ...]:
    """An explicit rule deck: every number of `rule_deck` once, in the order to deal them."""
    if not isinstance(deck, list | tuple):
        raise DealError("rule_deck is a list of rule-card numbers")
    for k in deck:
        if type(k) is not int or k not in rule_deck:
            raise DealError(f"rule_deck: {k!r} is not a rule card of this game (numbers {len(rule_deck)})")
    if len(set(deck)) != len(deck):
        dup = next(k for k in deck if list(deck).count(k) > 1)
        raise DealError(f"rule_deck: rule card {dup} appears twice")
    if sorted(deck) != sorted(rule_deck):
        raise DealError(f"rule_deck must hold all {len(rule_deck)} rule cards of this game, once each")
    return tuple(deck)


def parse_round_hands(hands: Any, deck: int, players: int, hand_size: int) -> tuple[int, ...]:
    """Explicit hands of one round: `hand_size` cards of the `players`-player deck per seat."""
    return parse_hands(
        hands,
        DECK,
        players=players,
        hand_size=hand_size,
        what="a Stich-Meister deal",
        card_help="a Stich-Meister card (F M K T + value 1-15)",
        allowed=deck,
        not_allowed=f"the {players}-player deck (no 1s, 10s, 13s)",
    )


def deal_json(outcome: tuple[str, tuple[int, ...]]) -> dict[str, Any]:
    """A chance outcome as records write it: the rule deck, or a round's hands."""
    kind, value = outcome
    if kind == "rule_deck":
        return {"rule_deck": list(value)}
    return {"hands": [DECK.notation(h) for h in value]}
