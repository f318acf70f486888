"""Trump: the union of all trump rules in force, and the trump order.

All cards named by any trump rule form one trump suit and leave their own suit. Order within the
trumps (rulebook, "2. Trumpf ermitteln"): cards named by more trump rules are higher; then cards
of the rule with the lower number; then by value, 15 high to 1 low (1 high under rule 31).
Equal keys are equal cards (in a trick the later one wins).
"""

from __future__ import annotations

from dataclasses import dataclass

from stichkit.cards import bits

from .cards import SUIT_MASK, value_of


@dataclass(frozen=True)
class Trumps:
    mask: int  # the trump cards
    rank: tuple[int, ...]  # per card: height among trumps (1 = lowest), 0 for non-trumps
    groups: tuple[int, ...]  # masks of equal trumps, highest first

    def is_trump(self, card: int) -> bool:
        return bool(self.mask >> card & 1)


NO_TRUMPS = Trumps(0, (0,) * 60, ())


def value_height(card: int, reverse: bool) -> int:
    """A card's height by value: 15 high .. 1 low, or 1 high .. 15 low when ranks are reversed."""
    v = value_of(card)
    return 16 - v if reverse else v


def trump_order(rules: tuple[tuple[int, int], ...], reverse: bool = False) -> Trumps:
    """The trumps of these (rule number, card mask) trump rules, with their order."""
    if not rules:
        return NO_TRUMPS
    named: dict[int, list[int]] = {}
    mask = 0
    for number, cards in sorted(rules):
        mask |= cards
        for c in bits(cards):
            named.setdefault(c, []).append(number)
    # More rules first; then the lower rule numbers (compared in order); then the value.
    keys = {c: (len(ns), tuple(-n for n in ns), value_height(c, reverse)) for c, ns in named.items()}
    distinct = sorted(set(keys.values()))
    height = {k: i + 1 for i, k in enumerate(distinct)}
    rank = [0] * 60
    for c, k in keys.items():
        rank[c] = height[k]
    groups = []
    for k in reversed(distinct):
        groups.append(sum(1 << c for c, kk in keys.items() if kk == k))
    return Trumps(mask, tuple(rank), tuple(groups))


def with_dynamic(static: tuple[tuple[int, int], ...], dynamic_rule: int, suit: int) -> tuple[tuple[int, int], ...]:
    """The trump rules once rule 21's suit is known (the suit of the second trick's first card)."""
    if not dynamic_rule or suit < 0:
        return static
    return (*static, (dynamic_rule, SUIT_MASK[suit]))
