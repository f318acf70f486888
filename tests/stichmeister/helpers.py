"""Shared helpers: rules composed from card numbers, cards by notation, states with chosen rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import stichkit
from stichkit.games.stichmeister import DECK, RULE_CARDS, compose
from stichkit.games.stichmeister.rules import RoundRules
from stichkit.games.stichmeister.scoring import TakenTrick
from stichkit.games.stichmeister.state import StichMeisterState
from stichkit.games.stichmeister.trick import legal_plays, why_not, winner_position
from stichkit.games.stichmeister.trump import Trumps, trump_order, with_dynamic


def rules_of(*numbers: int) -> RoundRules:
    return compose([RULE_CARDS[n - 1] for n in numbers])


def trumps_of(rules: RoundRules, dynamic_suit: int = -1) -> Trumps:
    return trump_order(with_dynamic(rules.static_trumps, rules.dynamic_trump_rule, dynamic_suit), rules.reverse_ranks)


def c(text: str) -> int:
    return DECK.parse(text)


def mask(*texts: str) -> int:
    return sum(1 << c(t) for t in texts)


def names(m: int) -> list[str]:
    return DECK.notation(m)


def winner(numbers: Sequence[int], *cards: str) -> str:
    """The card that wins a trick played in this order under these rule cards."""
    r = rules_of(*numbers)
    idx = [c(t) for t in cards]
    return cards[winner_position(idx, r, trumps_of(r))]


def legal(numbers: Sequence[int], hand: Sequence[str], trick: Sequence[str], broken: bool = False) -> list[str]:
    r = rules_of(*numbers)
    return names(legal_plays(mask(*hand), [c(t) for t in trick], r, trumps_of(r), broken))


def reason(numbers: Sequence[int], card: str, hand: Sequence[str], trick: Sequence[str], broken: bool = False) -> str:
    r = rules_of(*numbers)
    return why_not(c(card), mask(*hand), [c(t) for t in trick], r, trumps_of(r), broken)


def taken(cards: Sequence[str], winner: int, win: str, taker: int | None = None) -> TakenTrick:
    return TakenTrick(mask(*cards), winner, c(win), c(cards[0]), winner if taker is None else taker)


def choosers(players: int, dealer: int = 0) -> list[int]:
    order = [(dealer + 1 + i) % players for i in range(players)]
    return order[1:] if players == 5 else order


def with_rules(rules: Sequence[int], players: int = 4, hands: Any = None, seed: int = 0) -> StichMeisterState:
    """A new game whose first round has exactly these rule cards in force (3 players: the last one
    is the rule deck's top card), and `hands` (default: the seed's deal)."""
    game = stichkit.load_game("stichmeister", players=players)
    order = choosers(players)
    picks = list(rules[: len(order)])
    extra = list(rules[len(order) :])
    assert len(picks) == len(order) and len(extra) == (1 if players == 3 else 0), "one rule card per chooser"
    rest = [k for k in game.rule_deck if k not in rules]
    per_seat: dict[int, list[int]] = {s: [] for s in range(players)}
    for s, k in zip(order, picks, strict=True):
        per_seat[s].append(k)
    for s in range(players):
        while len(per_seat[s]) < 3:
            per_seat[s].append(rest.pop())
    deck = [k for s in range(players) for k in per_seat[s]] + extra + rest
    if hands is None:
        hands = [names(h) for h in game.deal_hands(seed, 0)]
    state = game.new_state(seed=seed, deal={"hands": hands, "rule_deck": deck})
    for k in picks:
        state.apply(f"rule:{k}")
    return state
