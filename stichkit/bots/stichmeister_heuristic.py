"""The Stich-Meister heuristic, from one seat's view only.

Rule choice: a trump rule that makes many of its own (high) cards trump, else a scoring rule
that suits the hand (negative scoring with a weak hand), else the first. Play: under scoring
that punishes tricks (negated tricks, a bonus for no trick, a penalty for most tricks) it ducks
with the highest card that does not win; otherwise it wins as cheaply as it can, else throws
its lowest card. Setup picks give away the highest cards when ducking, the lowest otherwise.
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.bots.base import game_of
from stichkit.games.stichmeister.cards import DECK, SUITS, value_of
from stichkit.games.stichmeister.rules import compose
from stichkit.games.stichmeister.trick import strength
from stichkit.games.stichmeister.trump import trump_order, with_dynamic

AVOID = {"negate_tricks", "no_trick_bonus", "most_tricks", "tricks_after"}


def _hand_strength(hand: list[str]) -> float:
    return sum(value_of(DECK.parse(c)) for c in hand) / max(1, len(hand))


def _choose_rule(view: dict[str, Any]) -> str:
    hand = [DECK.parse(c) for c in view["hand"]]
    cards = game_of(view).rule_cards  # type: ignore[attr-defined]
    weak = _hand_strength(view["hand"]) < 8
    best, best_score = "", -1.0
    for r in view["rule_hand"]:
        rules = compose([cards[r["number"] - 1]])
        mask = sum(m for _, m in rules.static_trumps)
        score = sum(value_of(c) / 15 + 0.5 for c in hand if mask >> c & 1)
        if rules.scoring:
            kind = str(rules.scoring[0][1]["kind"])
            score = max(score, 2.5 if (kind in AVOID) == weak else 0.5)
        if score > best_score:
            best, best_score = f"rule:{r['number']}", score
    return best


def _avoiding(view: dict[str, Any]) -> bool:
    cards = game_of(view).rule_cards  # type: ignore[attr-defined]
    return any(cards[r["number"] - 1].effect_kind in AVOID for r in view["active_rules"] or [])


def decide(view: dict[str, Any], rng: random.Random | None) -> str:
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "choose":
        return _choose_rule(view)
    avoid = _avoiding(view)
    by_value = sorted(legal, key=lambda a: value_of(DECK.parse(a.partition(":")[2] or a)))
    if phase == "setup":
        return by_value[-1] if avoid or view["setup"]["kind"] != "show" else by_value[0]
    if phase == "remove":
        return by_value[-1]
    cards = game_of(view).rule_cards  # type: ignore[attr-defined]
    rules = compose([cards[r["number"] - 1] for r in view["active_rules"]])
    dyn = SUITS.index(view["second_trick_suit"]) if view["second_trick_suit"] else -1
    trumps = trump_order(with_dynamic(rules.static_trumps, rules.dynamic_trump_rule, dyn), rules.reverse_ranks)
    shown = [DECK.parse(t["card"]) for t in view["trick"] if t["card"] is not None]
    if not shown:
        return by_value[-1] if not avoid else by_value[0]
    led = shown[0]
    best = max(strength(c, led, rules, trumps) for c in shown)
    wins = [a for a in by_value if strength(DECK.parse(a), led, rules, trumps) > best]
    loses = [a for a in by_value if a not in wins]
    if avoid:
        return loses[-1] if loses else wins[0]
    return wins[0] if wins else by_value[0]
