"""Scoring a round (rulebook, "4. Wertung der Stiche"): every trick starts worth 1 point; the
scoring rules in force change it, in number order ("in der Reihenfolge ihrer Nummerierung").

Two passes, so that each card acts on what its text names:
1. **What each trick is worth.** The per-trick cards (per card, count cards, won with, odd
   tricks, equal values, a player's later tricks, negation) in number order, each on the value the
   ones before it left. Then the cards that set a trick's *total* value (`trick_positions`, the
   seed's card 41: "Der Gesamtwert ... der ersten beiden Stiche beträgt 0, der letzte Stich ...
   verdreifacht"), after every card that changes what a trick is worth.
   A trick's value depends only on the trick, its position in the round and its taker's earlier
   tricks, so it is final as soon as the trick is taken (`trick_value`).
2. **Each player's round score**: the sum of the values of the tricks the player took, then the
   player cards in number order: bonuses by trick counts (44, 52, 54, 55), and the cards that
   scale a round score (56 halve, 60 double), which add the difference to the bonus.
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


# Effect kinds by pass (rulecards.EFFECT_PARAMS lists every kind with its parameters).
TRICK_KINDS = (
    "negate_tricks", "per_card", "count_cards", "won_with", "zero_odd_tricks", "equal_values_bonus", "tricks_after",
)  # fmt: skip
TOTAL_KINDS = ("trick_positions",)  # set a trick's total value: after every other per-trick card
PLAYER_KINDS = (
    "no_trick_bonus", "exact_tricks_bonus", "most_tricks", "fewest_tricks", "halve_leader", "double_if_no_trump",
)  # fmt: skip

TrickStep = tuple[int, str, dict[str, Any], int]  # (rule number, effect kind, effect, mask of matching cards)
PlayerStep = tuple[int, str, dict[str, Any]]


@dataclass(frozen=True)
class ScoringPlan:
    """A round's scoring rules in the order they apply, with their card masks for one trump set."""

    trick: tuple[TrickStep, ...]  # pass 1: per-trick cards in number order, then the total-value cards
    player: tuple[PlayerStep, ...]  # pass 2: player cards in number order


_PLANS: dict[tuple[int, int], tuple[RoundRules, ScoringPlan]] = {}


def plan(rules: RoundRules, trumps: Trumps) -> ScoringPlan:
    """The scoring plan of these rules under these trumps (memoised per rules object and trump set)."""
    key = (id(rules), trumps.mask)
    hit = _PLANS.get(key)
    if hit is None or hit[0] is not rules:
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        steps: list[TrickStep] = []
        totals: list[TrickStep] = []
        player: list[PlayerStep] = []
        for number, effect in rules.scoring:
            e: dict[str, Any] = dict(effect)
            kind = str(e["kind"])
            if kind in PLAYER_KINDS:
                player.append((number, kind, e))
                continue
            m = match_mask(e["match"], trumps) if kind in ("per_card", "count_cards") else 0
            (totals if kind in TOTAL_KINDS else steps).append((number, kind, e, m))
        hit = _PLANS[key] = (rules, ScoringPlan((*steps, *totals), tuple(player)))
    return hit[1]


def _equal_values(cards: int) -> bool:
    """Two cards of one value: the four suits' value patterns overlap (fewer values than cards)."""
    values = (cards | cards >> 15 | cards >> 30 | cards >> 45) & 0x7FFF
    return values.bit_count() < cards.bit_count()


def trick_value(
    steps: Sequence[TrickStep], trumps: Trumps, cards: int, win: int, lead: int, idx: int, total: int, before: int
) -> int:
    """What a trick is worth after the per-trick steps (`plan(...).trick`): the trick holds `cards`
    (rule 34's removed card left out), was won with `win` and led with `lead`, is trick `idx` of the
    round's `total`, and its taker had taken `before` tricks before it."""
    v = 1
    for _n, kind, e, m in steps:
        if kind == "per_card":
            v += e["points"] * (cards & m).bit_count()
        elif kind == "count_cards":
            v = (cards & m).bit_count()
        elif kind == "won_with":
            if matches(win, e["match"], trumps, lead):
                v = v * e["factor"] + e["add"]
        elif kind == "negate_tricks":
            v = -v
        elif kind == "zero_odd_tricks":
            if idx % 2 == 0:
                v = 0
        elif kind == "equal_values_bonus":
            if _equal_values(cards):
                v += e["points"]
        elif kind == "tricks_after":
            if before + 1 > e["after"]:
                v = e["value"]
        elif kind == "trick_positions":
            if idx == total - 1:
                v *= e["last_factor"]
            if idx < e["zero_first"]:
                v = 0
    return v


def trick_values(
    steps: Sequence[TrickStep], tricks: Sequence[TakenTrick], trumps: Trumps, players: int, total: int
) -> list[int]:
    """The value of each of the round's first tricks; `total`: how many tricks the round has."""
    if not steps:
        return [1] * len(tricks)
    counts = [0] * players
    out = []
    for i, t in enumerate(tricks):
        out.append(trick_value(steps, trumps, t.cards, t.win_card, t.lead_card, i, total, counts[t.taker]))
        counts[t.taker] += 1
    return out


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


PLAYER_STEPS: dict[str, Callable[[Tally, dict[str, Any]], None]] = {
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
    """(round points per seat, final value per trick) after every scoring rule."""
    p = plan(rules, trumps)
    s = Tally(tricks, trumps, trick_values(p.trick, tricks, trumps, players, len(tricks)), [0] * players)
    for _n, kind, e in p.player:
        PLAYER_STEPS[kind](s, e)
    return [s.total(q) for q in range(players)], list(s.values)


def score_by_rule(
    tricks: Sequence[TakenTrick], rules: RoundRules, trumps: Trumps, players: int
) -> tuple[list[int], list[int], list[tuple[int, list[int]]]]:
    """`score_round` with what each scoring card gave each seat, in the order the cards apply:
    (points, values, [(rule number, points per seat)]). A seat's points are its tricks (1 each)
    plus what every card gave it."""
    p = plan(rules, trumps)
    n = len(tricks)
    by_rule: list[tuple[int, list[int]]] = []
    prev = [1] * n
    for k in range(len(p.trick)):
        now = trick_values(p.trick[: k + 1], tricks, trumps, players, n)
        gave = [0] * players
        for t, a, b in zip(tricks, prev, now, strict=True):
            gave[t.taker] += b - a
        by_rule.append((p.trick[k][0], gave))
        prev = now
    s = Tally(tricks, trumps, prev, [0] * players)
    for number, kind, e in p.player:
        before = list(s.bonus)
        PLAYER_STEPS[kind](s, e)
        by_rule.append((number, [b - a for a, b in zip(before, s.bonus, strict=True)]))
    return [s.total(q) for q in range(players)], list(s.values), by_rule


def taken_tricks(tricks: tuple[tuple[Any, ...], ...]) -> list[TakenTrick]:
    """A round's finished tricks (leader, plays, winner, taker, removed) as scoring reads them."""
    out = []
    for _leader, plays, winner, took, removed in tricks:
        cards = 0
        win_card = -1
        for s, c in plays:
            cards |= 1 << c
            if s == winner and win_card < 0:
                win_card = c
        if removed >= 0:
            cards &= ~(1 << removed)
        out.append(TakenTrick(cards, winner, win_card, plays[0][1], took))
    return out


def round_points(
    tricks: tuple[tuple[Any, ...], ...], rules: RoundRules, trumps: Trumps, n: int
) -> tuple[list[int], tuple[int, ...]]:
    """A finished round's points per seat, and who took each trick: by the scoring rules in force,
    or a point per trick taken when none is."""
    takers = tuple([t[3] for t in tricks])
    if rules.scoring:
        points, _values = score_round(taken_tricks(tricks), rules, trumps, n)
        return list(points), takers
    return [takers.count(s) for s in range(n)], takers
