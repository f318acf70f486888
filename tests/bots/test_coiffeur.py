"""The Coiffeur bots announce what the hand suits and the sheet still has open, weighing the
multiplier; the heuristic plays the cards as the Jass heuristic does, in the trick's own mode."""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit.analysis.coiffeur_solver import card_values, solved_scores
from stichkit.bots import Bot, make

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITED = {"hands": [[s + r for r in RANKS] for s in "DHSC"]}  # seat 0 holds all nine D


def play_deal(state: stichkit.State, bot: Bot) -> None:
    deal = state.view(None)["deal_number"]
    while not state.is_terminal() and state.view(None)["deal_number"] == deal:
        state.apply(bot.choose(state, state.current_player))


def test_the_heuristic_puts_a_sure_match_where_it_counts_most() -> None:
    """Nine Käse, leading: a match in every mode (nobody else can follow). On the 8-rows sheet
    Käse would go in its own row (×3), Obenabe ×5, Undenufe ×6: the heuristic names Undenufe."""
    state = stichkit.load_game("coiffeur").new_state(seed=1, deal=SUITED)
    assert make("heuristic").choose(state, 0).text == "trump:une"


def test_the_heuristic_spends_a_low_row_on_a_hand_that_suits_nothing_and_pushes_first() -> None:
    """Seat 0 with a poor hand pushes; its partner, forced, names the mode that costs least."""
    game = stichkit.load_game("coiffeur", rows="H1 obe8")
    hands = [["D6", "D7", "D8", "H6", "H7", "S6", "S7", "C6", "C7"],
             ["DA", "DK", "DQ", "HA", "HK", "HQ", "SA", "SK", "SQ"],
             ["D9", "D10", "H8", "H9", "S8", "S9", "C8", "C9", "C10"],
             ["DJ", "HJ", "H10", "SJ", "S10", "CJ", "CQ", "CK", "CA"]]  # fmt: skip
    state = game.new_state(seed=1, deal={"hands": hands})
    assert make("heuristic").choose(state, 0).text == "push"
    state.apply("push")
    assert make("heuristic").choose(state, 2).text == "trump:H"  # ×1, not Obenabe ×8


def test_the_heuristic_weighs_the_multiplier() -> None:
    """A hand good for two modes goes where it counts more: the same Obenabe-and-Käse hand names
    Käse when Käse counts 8, and Obenabe when Obenabe does."""
    hand = ["DA", "DK", "DQ", "DJ", "D9", "HA", "SA", "CA", "C10"]
    rest = [c for c in (s + r for s in "DHSC" for r in RANKS) if c not in hand]
    deal = {"hands": [hand, rest[0:9], rest[9:18], rest[18:27]]}
    for rows, want in (("D8 obe1", "trump:D"), ("D1 obe8", "trump:obe")):
        state = stichkit.load_game("coiffeur", rows=rows).new_state(seed=1, deal=deal)
        assert make("heuristic").choose(state, 0).text == want, rows


def test_every_bot_plays_whole_games_of_every_kind_of_row() -> None:
    """Slalom and Guschti switch mode from trick to trick; every bot keeps to the rules all through."""
    game = stichkit.load_game("coiffeur", rows="slalom1 guschti2 joker3")
    for bot in (make("random", seed=1), make("heuristic"), make("ismcts", iterations=20, seed=1)):
        state = game.new_state(seed=5)
        while not state.is_terminal():
            play_deal(state, bot)
        assert all(r["points"] is not None for s in state.view(None)["sheets"] for r in s["rows"])


def test_the_heuristic_beats_random_on_the_same_deals() -> None:
    """Two duplicate games: the heuristic's team scores more than random's with either pair of seats."""
    game = stichkit.load_game("coiffeur", rows="S1 obe2 une3")
    for seed in (1, 2):
        totals = []
        for heuristic_team in (0, 1):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                p = state.current_player
                if p % 2 == heuristic_team:
                    state.apply(make("heuristic").choose(state, p))
                else:
                    state.apply(rng.choice(state.legal_actions()))
            totals.append(state.view(None)["scores"][heuristic_team] - state.view(None)["scores"][1 - heuristic_team])
        assert sum(totals) > 0, (seed, totals)


def test_ismcts_announces_as_the_heuristic_and_searches_the_cards() -> None:
    """What a row is worth lies in the deals to come, past the end of the deal where the search
    stops: ismcts takes the heuristic's announcement (and push), and searches the card play."""
    game = stichkit.load_game("coiffeur")
    for seed in range(6):
        state = game.new_state(seed=seed)
        assert make("ismcts", iterations=30, seed=1).choose(state, 0) == make("heuristic").choose(state, 0)


@pytest.mark.parametrize("rows", ["S1 obe2", "slalom1 guschti2"])
def test_ismcts_playouts_end_in_the_solver_and_it_values_the_deal_as_played_out_best(rows: str) -> None:
    """rollout=solve (Coiffeur's default): a playout stops at the deal's last cards and takes the
    scores the solver gives. Those are the scores the deal ends with when both teams play on
    perfectly, card by card (each mover the card best for its team by card_values)."""
    rng = random.Random(3)
    for seed in range(3):
        state = stichkit.load_game("coiffeur", rows=rows).new_state(seed=seed)
        while not (state.view(None)["phase"] == "play" and sum(state.view(None)["hand_sizes"]) <= 12):
            state.apply(rng.choice(state.legal_actions()))
        expected = solved_scores(state)
        assert expected is not None
        deal = state.view(None)["deal_number"]
        while not state.is_terminal() and state.view(None)["deal_number"] == deal:
            sign = 1 if state.current_player % 2 == state.view(None)["chooser"] % 2 else -1  # type: ignore[operator]
            values = card_values(state)
            state.apply(
                next(a for a in state.legal_actions() if sign * values[a.id] == max(sign * v for v in values.values()))
            )
        assert state.scores() == expected


def test_ismcts_solves_its_playouts_in_coiffeur_only() -> None:
    state = stichkit.load_game("coiffeur").new_state(seed=1)
    assert solved_scores(state) is None  # a mode is still to be announced: nothing to solve
    state.apply(make("heuristic").choose(state, 0))
    seat = state.current_player
    assert seat is not None
    assert make("ismcts", iterations=30, rollout="random", seed=1).choose(state, seat) in state.legal_actions()
    jass = stichkit.load_game("jass").new_state(seed=1)
    with pytest.raises(ValueError, match="rollout=solve plays Coiffeur only"):
        make("ismcts", iterations=10, rollout="solve", engine="python").choose(jass, jass.current_player)  # type: ignore[arg-type]
