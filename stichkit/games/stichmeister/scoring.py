"""Scoring a round: every trick starts worth 1 point, then the scoring rules in force change the
tricks' values or add points per player, one after the other in number order (rulebook, "4.
Wertung der Stiche"). Each step sees what the steps before it made: e.g. rule 41 triples the
last trick's value as it is when 41 runs; a later per-card rule adds to it untripled.

A round score is the sum of the values of the tricks a player took plus that player's bonus.
Player steps that scale a score (56 halve, 60 double) add the difference to the bonus.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, suit_of, value_of
from .rules import RoundRules
from .trump import Trumps


@dataclass(frozen=True)
class TakenTrick:
    cards: int  # the cards scored (rule 34's removed card is not among them)
    winner: int  # the seat whose card won
    win_card: int
    lead_card: int
    taker: int  # who got the trick (rule 35: the winner's left neighbour)


@dataclass
class Tally:
    """The work sheet of one round's scoring."""

    tricks: Sequence[TakenTrick]
    trumps: Trumps
    values: list[int]
    bonus: list[int]

    def count(self, seat: int) -> int:
        return sum(1 for t in self.tricks if t.taker == seat)

    def total(self, seat: int) -> int:
        return sum(v for t, v in zip(self.tricks, self.values, strict=True) if t.taker == seat) + self.bonus[seat]


def matches(card: int, match: dict[str, Any], trumps: Trumps, lead: int = -1) -> bool:
    """Does `card` have every property in `match` (suit, value, max_value, trump, lead)?"""
    if "suit" in match and suit_of(card) != SUITS.index(match["suit"]):
        return False
    if "value" in match and value_of(card) != match["value"]:
        return False
    if "max_value" in match and value_of(card) > match["max_value"]:
        return False
    if "trump" in match and bool(trumps.mask >> card & 1) != match["trump"]:
        return False
    return not ("lead" in match and (card == lead) != match["lead"])


_MATCH_MASKS: dict[tuple[tuple[tuple[str, Any], ...], int], int] = {}


def match_mask(match: dict[str, Any], trumps: Trumps) -> int:
    """The cards c with `matches(c, match, trumps)` (no lead card), as a mask; memoised."""
    key = (tuple(match.items()), trumps.mask)
    m = _MATCH_MASKS.get(key)
    if m is None:
        if len(_MATCH_MASKS) >= 4096:
            _MATCH_MASKS.clear()
        m = _MATCH_MASKS[key] = sum(1 << c for c in range(60) if matches(c, match, trumps))
    return m


def _count(cards: int, match: dict[str, Any], trumps: Trumps) -> int:
    return (cards & match_mask(match, trumps)).bit_count()


def _trick_positions(s: Tally, e: dict[str, Any]) -> None:
    if s.values:
        s.values[-1] *= e["last_factor"]
    for i in range(min(e["zero_first"], len(s.values))):
        s.values[i] = 0


def _negate(s: Tally, e: dict[str, Any]) -> None:
    s.values[:] = [-v for v in s.values]


def _per_card(s: Tally, e: dict[str, Any]) -> None:
    for i, t in enumerate(s.tricks):
        s.values[i] += e["points"] * _count(t.cards, e["match"], s.trumps)


def _count_cards(s: Tally, e: dict[str, Any]) -> None:
    for i, t in enumerate(s.tricks):
        s.values[i] = _count(t.cards, e["match"], s.trumps)


def _won_with(s: Tally, e: dict[str, Any]) -> None:
    for i, t in enumerate(s.tricks):
        if matches(t.win_card, e["match"], s.trumps, t.lead_card):
            s.values[i] = s.values[i] * e["factor"] + e["add"]


def _zero_odd(s: Tally, e: dict[str, Any]) -> None:
    for i in range(0, len(s.values), 2):
        s.values[i] = 0


def _equal_values(s: Tally, e: dict[str, Any]) -> None:
    for i, t in enumerate(s.tricks):
        # Two cards of one value: the four suits' value patterns overlap (fewer values than cards).
        m = t.cards
        values = (m | m >> 15 | m >> 30 | m >> 45) & 0x7FFF
        if values.bit_count() < m.bit_count():
            s.values[i] += e["points"]


def _tricks_after(s: Tally, e: dict[str, Any]) -> None:
    seen = [0] * len(s.bonus)
    for i, t in enumerate(s.tricks):
        seen[t.taker] += 1
        if seen[t.taker] > e["after"]:
            s.values[i] = e["value"]


def _no_trick(s: Tally, e: dict[str, Any]) -> None:
    for p in range(len(s.bonus)):
        if s.count(p) == 0:
            s.bonus[p] += e["points"]


def _exact(s: Tally, e: dict[str, Any]) -> None:
    for p in range(len(s.bonus)):
        if s.count(p) == e["tricks"]:
            s.bonus[p] += e["points"]


def _extreme(pick: Callable[[list[int]], int]) -> Callable[[Tally, dict[str, Any]], None]:
    def step(s: Tally, e: dict[str, Any]) -> None:
        counts = [s.count(p) for p in range(len(s.bonus))]
        target = pick(counts)
        for p, c in enumerate(counts):
            if c == target:
                s.bonus[p] += e["points"]

    return step


def _halve_leader(s: Tally, e: dict[str, Any]) -> None:
    totals = [s.total(p) for p in range(len(s.bonus))]
    top = max(totals)
    for p, t in enumerate(totals):
        if t == top:
            s.bonus[p] += int(t / 2) - t


def _double_if_no_trump(s: Tally, e: dict[str, Any]) -> None:
    for p in range(len(s.bonus)):
        mine = [t for t in s.tricks if t.taker == p]
        if mine and not any(t.cards & s.trumps.mask for t in mine):
            s.bonus[p] += s.total(p)


STEPS: dict[str, Callable[[Tally, dict[str, Any]], None]] = {
    "trick_positions": _trick_positions,
    "negate_tricks": _negate,
    "per_card": _per_card,
    "count_cards": _count_cards,
    "won_with": _won_with,
    "zero_odd_tricks": _zero_odd,
    "equal_values_bonus": _equal_values,
    "tricks_after": _tricks_after,
    "no_trick_bonus": _no_trick,
    "exact_tricks_bonus": _exact,
    "most_tricks": _extreme(max),
    "fewest_tricks": _extreme(min),
    "halve_leader": _halve_leader,
    "double_if_no_trump": _double_if_no_trump,
}


def score_round(
    tricks: Sequence[TakenTrick], rules: RoundRules, trumps: Trumps, players: int
) -> tuple[list[int], list[int]]:
    """(round points per seat, final value per trick) after every scoring rule in number order."""
    s = Tally(tricks, trumps, [1] * len(tricks), [0] * players)
    for _number, effect in rules.scoring:
        STEPS[str(effect["kind"])](s, effect)
    return [s.total(p) for p in range(players)], list(s.values)
