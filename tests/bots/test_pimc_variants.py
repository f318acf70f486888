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
from stichkit.bots.base import view_key
from stichkit.bots.coiffeur_heuristic import choose_mode
from stichkit.bots.pimc import coiffeur as pimc_coiffeur
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
    ["S1 obe2", "slalom1 guschti2", "une1 H2"]), push=st.sampled_from(["partner", "around"]),
    announce=st.sampled_from(["heuristic", "search"]))  # fmt: skip
def test_coiffeur_pimc_plays_legal_moves_to_the_end(seed: int, early: str, rows: str, push: str, announce: str) -> None:
    state = stichkit.load_game("coiffeur", rows=rows, push=push).new_state(seed=seed)
    pimc = make("pimc", **SMALL, early=early, announce=announce, seed=seed)
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


@pytest.mark.parametrize(("name", "options", "params"), [
    ("coiffeur", {"rows": "S1 slalom2"}, {}), ("coiffeur", {"rows": "S1 slalom2 obe3"}, {"announce": "search"}),
    ("differenzler", {"deals": 1}, {}), ("differenzler", {"deals": 1, "predictions": "open"}, {}),
])  # fmt: skip
def test_the_choice_is_the_same_on_any_world_the_seat_cannot_tell_apart(
    name: str, options: dict[str, object], params: dict[str, object]
) -> None:
    """With a seed, pimc chooses alike on the real state and on redeals of what its seat cannot
    see (the other hands, hidden predictions): it reads nothing else. The same seed again gives
    the same choice; these positions include predictions, announcements and every phase of play."""
    for state in positions(name, options, 6):
        seat = state.current_player
        assert seat is not None
        chosen = make("pimc", **SMALL, **params, seed=5).choose(state, seat)
        assert make("pimc", **SMALL, **params, seed=5).choose(state, seat) == chosen
        for k in range(2):
            other = state.sample_hidden(seat, random.Random(k))
            assert other.view(seat) == state.view(seat)
            assert make("pimc", **SMALL, **params, seed=5).choose(other, seat) == chosen


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


def test_a_coiffeur_announcement_is_searched_by_default_and_the_heuristics_on_request() -> None:
    state = stichkit.load_game("coiffeur").new_state(seed=7)
    searching = make("pimc", samples=2)
    searching.choose(state, 0)
    assert searching.last_stats["announce"] == "search" and searching.last_stats["worlds"] == 2
    asked = make("pimc", samples=2, announce="heuristic")
    assert asked.choose(state, 0) == make("heuristic").choose(state, 0)
    assert asked.last_stats["announce"] == "heuristic"


# -- Coiffeur's announcement by search ----------------------------------------------------------------


def announcement(rows: str, seed: int, push: str = "partner") -> State:
    """The first deal's announcement (the forehand to announce or push)."""
    state = stichkit.load_game("coiffeur", rows=rows, push=push).new_state(seed=seed)
    assert state.view(None)["phase"] == "trump"
    return state


@pytest.mark.parametrize("seed", range(3))
def test_an_announcement_is_worth_its_deal_against_the_rows_average(seed: int) -> None:
    """A mode's value is (written - ROW_VALUES[row]) x multiplier from the announcing team's side;
    the push's is that of the partner's announcement as the heuristic makes it, played the same."""
    state = announcement("S1 C2 obe3 une4 slalom5", seed)
    seat = state.current_player
    assert seat is not None
    world = state.sample_hidden(seat, random.Random(seed))
    for a in world.legal_actions():
        w = world.clone()
        w.apply(a)
        got = pimc_coiffeur.announced_value(w, seat & 1, 12)
        again = world.clone()
        again.apply(a)
        if a.text == "push":
            partner = again.current_player
            assert partner == (seat + 2) % 4
            again.apply(choose_mode(again.view(partner)))
        kind, mult = again._sheet[again._row]  # type: ignore[attr-defined]
        written = pimc_coiffeur.written_after_playout(again, 12)
        assert got == (written - pimc_coiffeur.ROW_VALUES[kind]) * mult


@pytest.mark.parametrize("seed", range(3))
def test_announce_search_takes_the_best_mean_over_its_worlds(seed: int) -> None:
    """`announce=search` chooses the legal announcement (or push) with the best mean value over the
    worlds it drew, every one of them valued by `announced_value`; its stats say so."""
    state = announcement("S1 C2 obe3 une4 slalom5 guschti6", seed)
    seat = state.current_player
    assert seat is not None
    bot = make("pimc", announce="search", samples=3, trump_horizon=12, seed=seed)
    chosen = bot.choose(state, seat)
    assert chosen in state.legal_actions()
    stats = bot.last_stats
    assert stats["announce"] == "search" and stats["worlds"] == 3
    legal = state.legal_actions()
    assert stats["solves"] == 3 * len(legal)
    rng = random.Random(seed * 1_000_003 + view_key(state.view(seat)))
    total = dict.fromkeys((a.text for a in legal), 0.0)
    for _ in range(3):
        world = state.sample_hidden(seat, rng)
        for a in legal:
            w = world.clone()
            w.apply(a)
            total[a.text] += pimc_coiffeur.announced_value(w, seat & 1, 12)
    assert stats["means"] == pytest.approx({t: v / 3 for t, v in total.items()})
    assert chosen.text == max(total, key=lambda t: (total[t], -[a.text for a in legal].index(t)))


def test_a_push_around_that_the_other_team_takes_up_counts_against_the_pusher() -> None:
    """With push="around" a push may end with the other team announcing: what its deal writes above
    the row's average counts against the pushing team."""
    for seed in range(60):
        state = announcement("S1 C2 obe3 une4", seed, push="around")
        forehand = state.current_player
        assert forehand is not None
        state.apply("push")
        again = state.clone()
        while again.view(None)["phase"] in ("trump", "pushed"):
            again.apply(choose_mode(again.view(again.current_player)))
        if again.view(None)["chooser"] % 2 != forehand % 2:
            break
    else:
        pytest.fail("no pushed deal went to the other team in 60 seeds")
    kind, mult = again._sheet[again._row]  # type: ignore[attr-defined]
    expected = -(pimc_coiffeur.written_after_playout(again, 12) - pimc_coiffeur.ROW_VALUES[kind]) * mult
    assert pimc_coiffeur.announced_value(state, forehand % 2, 12) == expected


def test_announce_refuses_what_it_does_not_know() -> None:
    with pytest.raises(ValueError, match=r"heuristic \(.*\) or search"):
        make("pimc", announce="solve")
