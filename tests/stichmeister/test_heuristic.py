"""The Stich-Meister heuristic bot: its key decisions under the rules in force, legality,
determinism, and a small strength check against `random`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import stichkit
from stichkit.bots import make
from stichkit.bots.stichmeister_heuristic import decide, trick_value
from stichkit.games.stichmeister import DECK
from stichkit.games.stichmeister.cards import SUITS, suit_of, value_of
from stichkit.games.stichmeister.scoring import TakenTrick, score_round

from .helpers import rules_of, trumps_of, with_rules

BASE = [1, 2, 3]  # 2s, 3s and 4s are trump: the tests use only cards of value 5 and above


def position(fourth: int, plays: Sequence[str], mine: Sequence[str]) -> dict[str, Any]:
    """Seat 0's view, last to play to the first trick: seats 1, 2, 3 played `plays`, under rules
    1, 2, 3 and `fourth`. Seat 0 holds `mine` and fillers of other suits than the led one."""
    led = suit_of(DECK.parse(plays[0]))
    used = {*plays, *mine}
    spare = [c for c in DECK.names if c not in used and value_of(DECK.parse(c)) >= 5]
    fill0 = [c for c in spare if suit_of(DECK.parse(c)) != led][: 15 - len(mine)]
    rest = [c for c in DECK.names if c not in used and c not in fill0]
    hands: list[list[str]] = [[*mine, *fill0], [], [], []]
    for seat, card in zip((1, 2, 3), plays, strict=True):
        hands[seat] = [card, *rest[:14]]
        rest = rest[14:]
    state = with_rules([*BASE, fourth], hands=hands)
    for card in plays:
        state.apply(card)
    assert state.current_player == 0
    return state.view(0)


def test_ducks_under_negative_scoring() -> None:
    """42 (every trick -1): it follows with its highest card that does not win."""
    view = position(42, ["F9", "F5", "F6"], ["F15", "F10", "F8", "F7"])
    assert decide(view, None) == "F8"


def test_takes_a_trick_that_pays_with_its_cheapest_winner() -> None:
    """Plain scoring (rule 13 only adds the 14s to the trumps): it wins with its cheapest winner."""
    view = position(13, ["F9", "F5", "F6"], ["F15", "F10", "F8", "F7"])
    assert decide(view, None) == "F10"


def test_takes_valuable_cards_and_dodges_costly_ones() -> None:
    """47 (+2 per 7 taken): a trick full of 7s is taken. 46 (-2 per 15): a trick holding a 15
    is not trumped (plain scoring trumps it), and a 15 of its own is dumped on it."""
    assert decide(position(47, ["K7", "K6", "K9"], ["K11", "K8"]), None) == "K11"
    dodge = decide(position(46, ["F15", "F12", "F11"], ["K2", "K9"]), None)
    assert dodge != "K2" and value_of(DECK.parse(dodge)) == 15  # and it dumps its own 15 (M15) there
    assert decide(position(13, ["F15", "F12", "F11"], ["K2", "K9"]), None) == "M14"  # its lowest trump


def test_no_trick_bonus_makes_it_duck() -> None:
    """44 (10 points for no trick): with no trick yet it stays below the trick."""
    view = position(44, ["T9", "T5", "T6"], ["T15", "T10", "T8"])
    assert decide(view, None) == "T8"


def test_trick_to_the_left_neighbour() -> None:
    """35: the winner's left neighbour gets the trick. Seat 3 (the bot's right) is winning, so
    the trick comes to the bot; overtaking would hand it to seat 1."""
    view = position(35, ["F5", "F6", "F12"], ["F15", "F7"])
    assert decide(view, None) == "F7"


def test_second_highest_wins() -> None:
    """30: the engine's winner rule, not 'highest wins', decides which card takes the trick."""
    view = position(30, ["F9", "F5", "F6"], ["F15", "F7", "F8"])
    choice = decide(view, None)
    assert choice in ("F7", "F8")  # either is second highest behind F9; F15 would hand F9 the trick


def test_rule_choice_suits_the_hand() -> None:
    """A hand full of high Münze chooses Münze trump (15); a hand of low cards chooses the
    bonus for taking no trick (44) over plain trump rules."""
    game = stichkit.load_game("stichmeister")
    strong = [f"M{v}" for v in range(3, 16)] + ["F2", "K2"]
    others = [c for c in DECK.names if c not in strong]
    hands = [others[i * 15 : i * 15 + 15] for i in range(3)]
    state = game.new_state(seed=0, deal={"hands": [hands[0], strong, hands[1], hands[2]],
                                         "rule_hands": [[1, 2, 5], [14, 15, 16], [6, 7, 8], [9, 10, 11]]})  # fmt: skip
    assert decide(state.view(1), None) == "rule:15"
    weak = [f"{s}{v}" for s in SUITS for v in range(1, 5)][:15]
    others = [c for c in DECK.names if c not in weak]
    hands = [others[i * 15 : i * 15 + 15] for i in range(3)]
    state = game.new_state(seed=0, deal={"hands": [hands[0], weak, hands[1], hands[2]],
                                         "rule_hands": [[1, 2, 5], [14, 16, 44], [6, 7, 8], [9, 10, 11]]})  # fmt: skip
    assert decide(state.view(1), None) == "rule:44"


@pytest.mark.parametrize("numbers", [(15, 41, 47, 52), (20, 42, 46, 53), (21, 30, 49, 59), (17, 48, 51, 56)])
def test_trick_value_matches_the_engine(numbers: tuple[int, ...]) -> None:
    """The bot's per-trick value replays scoring.py's steps: equal to score_round's trick values."""
    rules = rules_of(*numbers)
    trumps = trumps_of(rules, 0)
    rng = random.Random(sum(numbers))
    cards = list(range(60))
    rng.shuffle(cards)
    tricks, before, counts = [], [], [0] * 4
    for i in range(15):
        chunk = cards[4 * i : 4 * i + 4]
        t = TakenTrick(sum(1 << c for c in chunk), 0, rng.choice(chunk), chunk[0], rng.randrange(4))
        tricks.append(t)
        before.append(counts[t.taker])
        counts[t.taker] += 1
    _points, values = score_round(tricks, rules, trumps, 4)
    from stichkit.bots.stichmeister_heuristic import _scoring

    sc = _scoring(rules, trumps)
    mine = [trick_value(sc, trumps, t.cards, t.win_card, t.lead_card, i, 15, before[i]) for i, t in enumerate(tricks)]
    assert mine == values


@pytest.mark.parametrize("players", [3, 4, 5])
def test_always_legal_and_deterministic(players: int) -> None:
    """Whole games of heuristic bots: every choice is legal (apply would raise) and the same view
    gives the same choice."""
    game = stichkit.load_game("stichmeister", players=players)
    state = game.new_state(seed=players)
    bot = make("heuristic", seed=7)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        action = bot.decide(view)
        assert action in view["legal_actions"]
        if len(view["legal_actions"]) > 1 and len(state.view(seat)["tricks"]) % 5 == 0:
            assert bot.decide(state.view(seat)) == action
        state.apply(action)


def test_beats_random_clearly() -> None:
    """20 fixed-seed 4-player games, seats H,R,H,R: the heuristic seats win a clear majority."""
    game = stichkit.load_game("stichmeister")
    seats = ["heuristic", "random", "heuristic", "random"]
    share = 0.0
    for g in range(20):
        state = game.new_state(seed=1000 + g)
        bots = [make(name, seed=g * 10 + i) for i, name in enumerate(seats)]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state, seat))
        winners = state.winners()
        share += sum(1 for s in winners if seats[s] == "heuristic") / len(winners)
    assert share / 20 >= 0.7
