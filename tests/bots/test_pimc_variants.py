"""`pimc` in Differenzler and Coiffeur: each world's solve checked against the analysis's own
minimax over the engine, legal play over random games, the seat's view only, and a seed that
fixes every choice. Budgets are `samples` (no clock), so every test is a pure function of its seed.
(Every bot's honesty on every game it plays, pimc's here included: tests/bots/test_honesty.py.)"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from stichkit.analysis import c_available
from stichkit.analysis import coiffeur as coiffeur_analysis
from stichkit.analysis import differenzler as differenzler_analysis
from stichkit.analysis.coiffeur_solver import card_values, deal_value, position, solvable
from stichkit.analysis.solver import solve_points
from stichkit.arena import parse_bot
from stichkit.bots import make
from stichkit.bots.pimc.differenzler import penalties
from stichkit.games.coiffeur.cards import TRICK_MODES

# A small budget: few worlds, solved from the last three tricks, earlier cards by heuristic
# playouts to them (or ismcts at 10 iterations a world).
SMALL = {"samples": 2, "horizon": 12, "trump_horizon": 12}


def play_randomly_to(state: State, cards_left: int, rng: random.Random) -> bool:
    """Random legal play until a card decision with at most `cards_left` cards left in the deal
    (False if the deal or game ended first)."""
    deal = state.deals_played
    while not state.is_terminal() and state.deals_played == deal:
        view = state.view(None)
        if view["phase"] == "play" and sum(view["hand_sizes"]) <= cards_left:
            return True
        state.apply(rng.choice(state.legal_actions()))
    return False


# -- the solves ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rows", ["S1 C2 obe3 une4", "slalom1 guschti2"])
@pytest.mark.parametrize("seed", range(6))
def test_coiffeur_card_values_are_the_analysis_minimax(rows: str, seed: int) -> None:
    """What the announcing team writes after each card, by the C solver (one mode) or the Python
    search (Slalom, Guschti), is the value of analysis.coiffeur's minimax over the engine itself."""
    rng = random.Random(seed)
    state = stichkit.load_game("coiffeur", rows=rows).new_state(seed=seed)
    assert play_randomly_to(state, 8, rng)
    view = state.view(None)
    team = view["chooser"] % 2
    found = card_values(state)
    expected = {}
    for a in state.legal_actions():
        state.apply(a)
        expected[a.id] = coiffeur_analysis.value(state, view["deal_number"], team)
        state.undo()
    assert found == expected
    ours = state.current_player is not None and state.current_player % 2 == team
    assert deal_value(state) == (max(expected.values()) if ours else min(expected.values()))


@pytest.mark.skipif(not c_available(), reason="compares the C solver with the Python search")
@pytest.mark.parametrize("seed", range(4))
def test_coiffeur_python_search_agrees_with_the_c_solver(seed: int) -> None:
    """In a one-mode deal the C solver and the Python reference give every card the same written
    points (12 cards left)."""
    rng = random.Random(100 + seed)
    state = stichkit.load_game("coiffeur").new_state(seed=seed)
    assert play_randomly_to(state, 12, rng)
    assert solvable(state)
    w = state
    team = w.view(None)["chooser"] % 2
    taken = w.view(None)["points"][team]
    modes = TRICK_MODES[w._play_mode]  # type: ignore[attr-defined]
    python = {c: taken + v for c, v in solve_points(position(w), team, modes, "python").items()}
    assert card_values(state) == python


@pytest.mark.parametrize("seed", range(6))
def test_differenzler_penalties_are_the_analysis_max_n(seed: int) -> None:
    """The seat's penalty after each card is analysis.differenzler's max^n over the engine."""
    rng = random.Random(seed)
    game = stichkit.load_game("differenzler", deals=1, exact_bonus=10 if seed % 2 else 0)
    state = game.new_state(seed=seed)
    assert play_randomly_to(state, 8, rng)
    seat = state.current_player
    assert seat is not None
    expected = {}
    for a in state.legal_actions():
        state.apply(a)
        expected[a.id] = differenzler_analysis.value(state, 0)[seat]
        state.undo()
    assert penalties(state, seat) == expected


# -- play ------------------------------------------------------------------------------------------


def play_game(state: State, bots: list[object]) -> None:
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state, seat)  # type: ignore[attr-defined]
        assert action in state.legal_actions()
        state.apply(action)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), early=st.sampled_from(["ismcts", "playout"]), rows=st.sampled_from(
    ["S1 obe2", "slalom1 guschti2", "une1 H2"]), push=st.sampled_from(["partner", "around"]))  # fmt: skip
def test_coiffeur_pimc_plays_legal_moves_to_the_end(seed: int, early: str, rows: str, push: str) -> None:
    state = stichkit.load_game("coiffeur", rows=rows, push=push).new_state(seed=seed)
    pimc = make("pimc", **SMALL, early=early, seed=seed)
    play_game(state, [pimc, make("random", seed=seed), pimc, make("heuristic")])
    assert state.winners()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), early=st.sampled_from(["ismcts", "playout"]),
       predictions=st.sampled_from(["hidden", "open"]))  # fmt: skip
def test_differenzler_pimc_plays_legal_moves_to_the_end(seed: int, early: str, predictions: str) -> None:
    state = stichkit.load_game("differenzler", deals=1, predictions=predictions).new_state(seed=seed)
    pimc = make("pimc", **SMALL, early=early, seed=seed)
    play_game(state, [pimc, make("random", seed=seed), make("heuristic"), pimc])
    assert state.winners()


# -- the seat's view only, and the seed --------------------------------------------------------------


def positions(name: str, options: dict[str, object], count: int) -> list[State]:
    """Card and announcement decisions (and predictions) reached by random play."""
    game = stichkit.load_game(name, **options)
    rng = random.Random(len(name))
    out = []
    for k in range(count):
        state = game.new_state(seed=k)
        for _ in range(rng.randrange(0, 36)):
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "options"), [
    ("coiffeur", {"rows": "S1 slalom2"}), ("differenzler", {"deals": 1}),
    ("differenzler", {"deals": 1, "predictions": "open"}),
])  # fmt: skip
def test_the_choice_is_the_same_on_any_world_the_seat_cannot_tell_apart(name: str, options: dict[str, object]) -> None:
    """With a seed, pimc chooses alike on the real state and on redeals of what its seat cannot
    see (the other hands, hidden predictions): it reads nothing else. The same seed again gives
    the same choice; these positions include predictions, announcements and every phase of play."""
    for state in positions(name, options, 6):
        seat = state.current_player
        assert seat is not None
        chosen = make("pimc", **SMALL, seed=5).choose(state, seat)
        assert make("pimc", **SMALL, seed=5).choose(state, seat) == chosen
        for k in range(2):
            other = state.sample_hidden(seat, random.Random(k))
            assert other.view(seat) == state.view(seat)
            assert make("pimc", **SMALL, seed=5).choose(other, seat) == chosen


def test_the_tournament_takes_pimc_for_the_new_games_and_refuses_it_elsewhere() -> None:
    parse_bot("pimc:samples=2", game="differenzler")
    parse_bot("pimc:samples=2", game="coiffeur")
    with pytest.raises(stichkit.OptionError, match="plays only jass, differenzler, coiffeur"):
        parse_bot("pimc", game="stichwahl")


def test_a_prediction_is_searched_and_stats_say_how() -> None:
    state = stichkit.load_game("differenzler", deals=1).new_state(seed=4)
    bot = make("pimc", samples=6, seed=1)
    action = bot.choose(state, 0)
    assert action.text.startswith("predict:")
    assert bot.last_stats["worlds"] == 6


def test_a_coiffeur_announcement_is_the_heuristics() -> None:
    state = stichkit.load_game("coiffeur").new_state(seed=7)
    assert make("pimc", samples=2).choose(state, 0) == make("heuristic").choose(state, 0)
