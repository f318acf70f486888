"""The Differenzler heuristic: predict what the hand will take, then play to hit it, from one
seat's view only. The aim is the prediction, not the most points.

- Predicting: each card's chance of taking a trick (the Bour nearly always, the Nell and trump
  Ace often, a plain Ace when its suit is led early, small trumps by ruffing, more of them the
  longer the trump suit), times the points a trick brings on average (157 / 9), plus the card's
  own points when it is likely to take them home.
- Playing: `need` is the prediction minus the points taken so far. While points are needed, take
  the trick with the cheapest card that wins it as it lies when the trick is worth having (last to
  play: the card whose trick comes closest to the need); lead the strongest card. Once the need is
  met, stay under: play the strongest card that still loses (rid the hand of winners while it is
  safe), and when every card wins, the one that gives the fewest points. Leading then, the lowest
  card of the longest plain suit.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.games.differenzler.cards import DECK, MAX_PREDICTION, POINTS, STRENGTH, SUITS

CARD = {n: i for i, n in enumerate(DECK.names)}
TRICK_AVERAGE = MAX_PREDICTION / 9
# Chance that a trump of this rank (6 7 8 9 10 J Q K A) takes a trick.
TRUMP_TAKES = (0.3, 0.3, 0.3, 0.8, 0.35, 0.95, 0.35, 0.45, 0.6)


def estimate(hand: list[int], trump: int) -> int:
    """The points `hand` is expected to take with `trump` (see the module)."""
    trumps = [c for c in hand if c // 9 == trump]
    expected = 0.0
    for c in hand:
        suit, rank = divmod(c, 9)
        if suit == trump:
            take = TRUMP_TAKES[rank] + 0.05 * max(0, len(trumps) - 3)
        elif rank == 8:  # a plain Ace
            take = 0.6
        elif rank == 7 and any(x == suit * 9 + 8 for x in hand):  # a King behind its Ace
            take = 0.35
        else:
            take = 0.0
        expected += take * (TRICK_AVERAGE + POINTS[trump][c] / 2)
    return max(0, min(MAX_PREDICTION, round(expected)))


def decide(view: dict[str, Any], rng: random.Random | None = None) -> str:
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    me = view["seat"]
    trump = SUITS.index(view["trump"])
    hand = [CARD[c] for c in view["hand"]]
    if view["phase"] == "predict":
        return f"predict:{estimate(hand, trump)}"
    need = view["predictions"][me] - view["points"][me]
    cards = [CARD[c] for c in legal]
    trick = [CARD[p["card"]] for p in view["trick"]]
    last_trick = len(view["tricks"]) == 8
    if not trick:
        return DECK.names[_lead(cards, trump, need > 0)]
    led = trick[0] // 9
    strength = STRENGTH[trump]
    best = max(strength[led][c] for c in trick)
    points = POINTS[trump]
    lying = sum(points[c] for c in trick) + (5 if last_trick else 0)
    winners = [c for c in cards if strength[led][c] > best]
    losers = [c for c in cards if strength[led][c] <= best]
    if need > 0 and winners:
        if len(trick) == 3:  # last to play: the trick that comes closest to the need
            pick = min(winners, key=lambda c: (abs(need - lying - points[c]), strength[led][c]))
            if abs(need - lying - points[pick]) < need or not losers:
                return DECK.names[pick]
        elif lying + 5 <= need + 10 or not losers:
            return DECK.names[min(winners, key=lambda c: (strength[led][c], points[c]))]
    if losers:
        if need > 0:  # no trick worth taking: give away little
            return DECK.names[min(losers, key=lambda c: (points[c], strength[led][c]))]
        return DECK.names[max(losers, key=lambda c: (_power(c, trump), points[c]))]
    return DECK.names[min(cards, key=lambda c: (points[c], strength[led][c]))]


def _power(card: int, trump: int) -> int:
    """How likely a card takes a trick later: trumps above everything, then by rank."""
    return STRENGTH[trump][card // 9][card]


def _lead(cards: list[int], trump: int, want: bool) -> int:
    if want:
        return max(cards, key=lambda c: (_power(c, trump), -POINTS[trump][c]))
    plain = [c for c in cards if c // 9 != trump] or cards
    length = {s: sum(1 for c in plain if c // 9 == s) for s in range(4)}
    return min(plain, key=lambda c: (-length[c // 9], _power(c, trump), POINTS[trump][c]))
