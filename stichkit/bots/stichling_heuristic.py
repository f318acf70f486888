"""The Stichling heuristic: aim at the largest tile, from one seat's view only.

Tile order. The bot estimates how many tricks its hand will take (high cards take tricks: each
card counts by how close it is to the deck's top value) and lays its largest tile where that
count lands (1st, 2nd, 3rd position for 1/4, 2/5, 3/6 tricks), the middle tile on the
neighbouring count, the smallest on the remaining one.

Play. From its taken tricks and its own tile order it works out how many more tricks it wants:
the number (0, 1 or 2) that turns up the best tile, discounted for tricks still to be won. Then
it scores every legal placement by the chance that it ends up taking that trick: a full trick
goes to its owner at once; a trick it owns stays its own unless a higher card of the led colour
comes, judged from the unseen cards of that colour. Wanting tricks, it takes them as cheaply as
possible; not wanting any, it throws off, fills other players' tricks and sheds its high cards
where they cannot win.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.games.stichling.cards import COLOURS, DECKS, ORDER_TEXTS, ORDERS, TILES

View = dict[str, Any]


def decide(view: View, rng: random.Random | None) -> str:
    """The notation of the bot's action for the seat whose view this is (it must be to move)."""
    legal: list[str] = view["legal_actions"]
    if view["phase"] == "order":
        return choose_order(view)
    scored = [(score_play(view, a), a) for a in legal]
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if rng is None or len(top) == 1 else top[rng.randrange(len(top))]


# -- the tile order -----------------------------------------------------------------------------


def card_value(card: str) -> int:
    return int(card[1:])


def expected_tricks(hand: list[str], players: int) -> float:
    """A rough count of the tricks this hand takes: strong cards weigh much more than weak ones,
    scaled so that an average hand expects its share of the roughly 3 * players - 2 full tricks."""
    top = DECKS[players].top
    raw = sum(((card_value(c) - 1) / (top - 1)) ** 3 for c in hand)
    average = 12 * sum(((v - 1) / (top - 1)) ** 3 for v in range(1, top + 1)) / top
    share = (3 * players - 2) / players
    return raw / average * share


def choose_order(view: View) -> str:
    """The tile order whose largest tile counts after the expected number of tricks."""
    e = expected_tricks(view["hand"], view["players"])
    k = max(1, round(e))
    big = (k - 1) % 3
    other = k if e >= k else k - 2  # the neighbouring count, nearer to the estimate
    mid = other % 3 if other >= 0 and other % 3 != big else (big + 1) % 3
    ranks = [0, 0, 0]
    ranks[big] = 2
    ranks[mid] = 1
    return ORDER_TEXTS[ORDERS.index((ranks[0], ranks[1], ranks[2]))]


# -- placing cards ------------------------------------------------------------------------------


def tile_after(view: View, taken: int) -> int:
    """The value of the own tile face up after `taken` tricks (0 with none)."""
    if taken == 0:
        return 0
    order = view["tile_order"]
    return int(order[(taken - 1) % 3])


def wanted_tricks(view: View) -> int:
    """How many more tricks to take: 0, 1 or 2, whichever turns up the best tile, each extra
    trick discounted (it has to be won, and fewer cards are left to win it with)."""
    seat = view["seat"]
    taken = view["taken"][seat]
    cards_left = len(view["hand"])
    best, want = -1.0, 0
    for more in range(3):
        if more > cards_left:
            break
        value = tile_after(view, taken + more) * (0.7**more)
        if value > best + 1e-9:
            best, want = value, more
    return want


def unseen_cards(view: View) -> set[str]:
    """Cards neither in the own hand nor on the table nor in taken tricks (held by the others)."""
    deck = DECKS[view["players"]]
    seen = set(view["hand"])
    for place in view["places"]:
        if place is not None:
            seen.update(e["card"] for e in place["cards"])
    for trick in view["tricks"]:
        seen.update(e["card"] for e in trick["cards"])
    return set(deck.names) - seen


FILL = 0.9  # the chance that each missing card of a trick still comes before the deal ends


def keep_chance(best: int, colour: str, slots: int, unseen: set[str]) -> float:
    """The chance that the trick fills and no later card of the led colour beats `best` in the
    `slots` cards still to come: each coming card is an unseen card of that colour, or a throw-off."""
    same = [card_value(c) for c in unseen if c[0] == colour]
    higher = sum(1 for v in same if v > best)
    per_card = higher / (len(same) + 2)
    return ((1.0 - per_card) * FILL) ** slots


def take_chance(view: View, action: str, unseen: set[str]) -> float:
    """The chance that the trick this card goes to ends up taken by the own seat."""
    seat = view["seat"]
    card, _, target = action.partition(">")
    value, colour = card_value(card), card[0]
    if target == "new":
        return keep_chance(value, colour, 3, unseen)
    place = view["places"][int(target) - 1]
    cards = place["cards"]
    led = place["led"]
    owner = place["owner"]
    best = card_value(place["best"])
    if colour == led and value > best:
        owner, best = seat, value
    slots = 3 - len(cards)  # cards still to come after this one
    if slots == 0:
        return 1.0 if owner == seat else 0.0
    if owner != seat:
        return 0.0
    return keep_chance(best, led, slots, unseen)


def score_play(view: View, action: str) -> float:
    """Higher is better: the take chance (wanted or not), then a cheap card to take with, or a
    dangerous high card shed safely."""
    unseen = unseen_cards(view)
    p = take_chance(view, action, unseen)
    card = action.partition(">")[0]
    v = card_value(card) / (DECKS[view["players"]].top + 1)
    if wanted_tricks(view) > 0:
        return p - 0.05 * v  # take the trick with the cheapest card that does it
    return -p + 0.05 * v  # dodge; shed high cards while it is safe


__all__ = ["COLOURS", "TILES", "choose_order", "decide", "expected_tricks", "wanted_tricks"]
