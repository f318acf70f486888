"""The Stichwahl heuristic: rules of thumb from one seat's view only.

- First bonus card: a card with the pearl bonus (1 point at once) of middling value; else a weak
  middling card with a flip or trump bonus. Never a 5: the 5s are kept for control.
- Playing: win the trick with the cheapest card that wins it as it lies (exactly when last to
  play; otherwise it must beat what lies and be hard to beat). If no card wins, use a bonus card
  when that makes one win and the trick is worth it; else throw the card least useful for winning
  (a middling value), keeping 5s, which can always be played, for later.
- Prize: the card worth most to the winner (cards taken) minus what its bonus is worth to its
  owner; choosing a 5 costs nothing to anyone and takes away that player's leader choice.
- Next leader: itself.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.bots.base import game_of
from stichkit.games.stichwahl.cards import (
    FAMILIES,
    FAMILY_OF,
    FIRST_FIVE,
    FLIP,
    NAMES,
    PEARL,
    TRUMP,
    VALUE_OF,
    CardTable,
)
from stichkit.games.stichwahl.rules import trick_winner

CARD = {n: i for i, n in enumerate(NAMES)}
BONUS_WORTH = {FLIP: 0.8, TRUMP: 0.9, PEARL: 1.0}  # to the card's owner, in points


def _table(view: dict[str, Any]) -> CardTable:
    table: CardTable = game_of(view).table  # type: ignore[attr-defined]
    return table


def _extremeness(card: int) -> int:
    """How likely a card wins under some marker: 1 and 9 best, 4 and 6 worst; 5s rank high (control)."""
    if card >= FIRST_FIVE:
        return 10
    v = VALUE_OF[card]
    return max(v - 5, 5 - v)


def decide(view: dict[str, Any], rng: random.Random | None = None) -> str:
    legal: list[str] = view["legal_actions"]
    phase = view["phase"]
    if len(legal) == 1:
        return legal[0]
    if phase == "first_bonus":
        return _first_bonus(view, legal)
    if phase == "prize":
        return _prize(view, legal)
    if phase == "lead":
        return f"lead:{view['seat']}"
    return _play(view, legal, rng)


def _first_bonus(view: dict[str, Any], legal: list[str]) -> str:
    table = _table(view)

    def key(action: str) -> tuple[float, str]:
        c = CARD[action.removeprefix("bonus:")]
        if c >= FIRST_FIVE:
            return (100.0, action)
        kind = table.kind[c]
        return (_extremeness(c) - (2.5 if kind == PEARL else 1.0), action)

    return min(legal, key=key)


def _prize(view: dict[str, Any], legal: list[str]) -> str:
    table = _table(view)
    n = len(view["hand_sizes"])
    pile = view["draw_pile"]
    me = view["seat"]

    def worth(action: str) -> tuple[float, str]:
        c = CARD[action.removeprefix("prize:")]
        if c >= FIRST_FIVE:
            return (1.0 + 0.3, action)
        want = table.pearls[c]
        missing = max(0, want - (n - 1))
        gain = min(want, n - 1) + min(missing if view["options"]["top_up"] == "missing" else min(missing, 1), pile)
        owner_gain = BONUS_WORTH.get(table.kind[c], 0.0)
        five_owner = any(p["card"].startswith("5") and p["seat"] != me for p in view["trick"])
        return (gain - owner_gain / max(1, n - 2) - (0.3 if five_owner else 0.0), action)

    return max(legal, key=worth)


def _wins(view: dict[str, Any], card: int, trump: int, high: bool) -> bool:
    cards = [CARD[p["card"]] for p in view["trick"]] + [card]
    return trick_winner(cards, trump, high) == len(cards) - 1


def _safe(view: dict[str, Any], card: int, trump: int, high: bool) -> bool:
    """Wins now, and (unless last to play) is a top card: value 9/1 or 8/2 for the marker's side."""
    if not _wins(view, card, trump, high):
        return False
    if len(view["trick"]) == len(view["hand_sizes"]) - 1:
        return True
    v = VALUE_OF[card]
    return v in ((9, 8) if high else (1, 2)) and (FAMILY_OF[card] == trump or not view["trick"])


def _play(view: dict[str, Any], legal: list[str], rng: random.Random | None) -> str:
    cards = [CARD[a] for a in legal if not a.startswith("use:")]
    uses = [a for a in legal if a.startswith("use:")]
    trump = FAMILIES.index(view["trump"])
    high = view["marker"] == 9
    table = _table(view)
    trick_value = sum(table.pearls[CARD[p["card"]]] for p in view["trick"] if not p["card"].startswith("5"))
    winners = [c for c in cards if _safe(view, c, trump, high)]
    if winners:
        plain = [c for c in winners if c < FIRST_FIVE] or winners
        return NAMES[min(plain, key=lambda c: (_extremeness(c), c))]
    last = len(view["trick"]) == len(view["hand_sizes"]) - 1
    if uses and last and trick_value >= 2:
        for u in uses:
            parts = u.split(":")
            t2, h2 = (trump, not high) if len(parts) == 2 else (FAMILIES.index(parts[2]), high)
            if any(_wins(view, c, t2, h2) for c in cards):
                return u
    plain = [c for c in cards if c < FIRST_FIVE] or cards
    return NAMES[min(plain, key=lambda c: (_extremeness(c), c))]
