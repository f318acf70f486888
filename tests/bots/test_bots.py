"""Bots: the make/choose API, honesty (a bot sees only its own view), legality and strength."""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit import Action, OptionError, State
from stichkit.bots import Bot, bot_names, make


def mid_game_states(profile: str, count: int, seed: int) -> list[State]:
    """Positions reached by random play: in trump choice, at trick starts and inside tricks."""
    game = stichkit.load_game("jass", profile=profile)
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = game.new_state(seed=seed * 100 + k)
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def play_game(game: stichkit.Game, seed: int, seats: list[Bot]) -> State:
    state = game.new_state(seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = seats[seat].choose(state, seat)
        assert action in state.legal_actions(), f"{seats[seat]!r} chose illegal {action} at {state.view(seat)}"
        state.apply(action)
    return state


# -- make ----------------------------------------------------------------------------------------


def test_bot_names() -> None:
    assert {"random", "heuristic"} <= set(bot_names())
    assert list(bot_names()) == sorted(bot_names())


def test_make_gives_bots_with_params() -> None:
    bot = make("random", seed=7)
    assert bot.name == "random"
    assert bot.params == {"seed": 7}
    assert repr(bot) == "make('random', seed=7)"
    assert make("heuristic").params == {"seed": None, "fixes": "all"}


def test_unknown_bot_names_the_bots() -> None:
    with pytest.raises(OptionError, match=r"unknown bot 'alphajass'.*heuristic.*random"):
        make("alphajass")


@pytest.mark.parametrize(("name", "params"), [("random", "seed"), ("heuristic", "fixes, seed")])
def test_unknown_param_names_the_params(name: str, params: str) -> None:
    with pytest.raises(OptionError, match=f"bot '{name}' has no parameter 'depth'; its parameters are: {params}"):
        make(name, depth=3)


@pytest.mark.parametrize("bad", ["seven", 1.5, True, [7]])
def test_bad_seed(bad: object) -> None:
    with pytest.raises(OptionError, match=r"seed=.*allowed: a whole number or None"):
        make("random", seed=bad)


def test_option_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        make("nobody")


# -- choose --------------------------------------------------------------------------------------


def test_choose_returns_the_games_action() -> None:
    state = stichkit.load_game("jass").new_state(seed=3)
    seat = state.current_player
    assert seat is not None
    for name in ("random", "heuristic"):
        action = make(name, seed=1).choose(state, seat)
        assert isinstance(action, Action)
        assert action in state.legal_actions()


def test_not_your_turn() -> None:
    state = stichkit.load_game("jass").new_state(seed=3)
    seat = state.current_player
    assert seat is not None
    other = (seat + 1) % 4
    for name in ("random", "heuristic"):
        with pytest.raises(ValueError, match=f"seat {other} is not to move: it is seat {seat}'s turn"):
            make(name).choose(state, other)
        with pytest.raises(ValueError, match=f"seat {other} is not to move"):
            make(name).choose(state.view(other), other)


def test_view_of_another_seat_is_refused() -> None:
    state = stichkit.load_game("jass").new_state(seed=3)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match=f"this view is seat {seat}'s, not seat {(seat + 1) % 4}'s"):
        make("heuristic").choose(state.view(seat), (seat + 1) % 4)


def test_game_over_is_refused() -> None:
    game = stichkit.load_game("jass", target=50)
    state = play_game(game, 1, [make("random", seed=s) for s in range(4)])
    with pytest.raises(ValueError, match="the game is over"):
        make("heuristic").choose(state, 0)


def test_heuristic_for_a_game_without_one() -> None:
    view = {"game": "skat", "seat": 0, "current_player": 0, "options": {}, "legal_actions": ["SA"]}
    with pytest.raises(OptionError, match="skat"):
        make("heuristic").choose(view, 0)


def test_random_is_reproducible_with_a_seed() -> None:
    game = stichkit.load_game("jass")
    a = play_game(game, 11, [make("random", seed=7)] * 4)
    b = play_game(game, 11, [make("random", seed=7)] * 4)
    c = play_game(game, 11, [make("random", seed=8)] * 4)
    assert a.record() == b.record()
    assert a.record() != c.record()


@pytest.mark.parametrize("name", ["random", "heuristic"])
@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_choose_on_state_equals_choose_on_view(name: str, profile: str) -> None:
    for k, state in enumerate(mid_game_states(profile, 15, seed=1)):
        seat = state.current_player
        assert seat is not None
        on_state = make(name, seed=k).choose(state, seat)
        on_view = make(name, seed=k).choose(state.view(seat), seat)
        assert on_state == on_view


# -- honesty -------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["seed", "schieber"])
@pytest.mark.parametrize("seed", [None, 5])
def test_heuristic_sees_nothing_hidden(profile: str, seed: int | None) -> None:
    """The other hands redealt at random must not change the heuristic's choice."""
    bot = make("heuristic", seed=seed)
    for state in mid_game_states(profile, 25, seed=2):
        seat = state.current_player
        assert seat is not None
        want = bot.choose(state, seat)
        for k in range(3):
            other = state.sample_hidden(seat, random.Random(k))
            assert other.view(seat) == state.view(seat)
            assert bot.choose(other, seat) == want


def test_heuristic_with_a_seed_is_a_function_of_the_view() -> None:
    state = mid_game_states("schieber", 1, seed=3)[0]
    seat = state.current_player
    assert seat is not None
    bot = make("heuristic", seed=9)
    assert len({bot.choose(state, seat) for _ in range(5)}) == 1


# -- the Jass heuristic --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_heuristic_always_plays_legally(profile: str) -> None:
    game = stichkit.load_game("jass", profile=profile, target=1000)
    for k in range(4):
        seats: list[Bot] = [make("heuristic", seed=k), make("heuristic"), make("random", seed=k), make("heuristic")]
        state = play_game(game, 500 + k, seats)
        assert state.is_terminal()


def test_heuristic_pushes_weak_hands_and_partner_must_choose() -> None:
    game = stichkit.load_game("jass", profile="schieber")
    weak = {"hands": [
        ["D6", "D8", "D10", "H6", "H7", "H9", "S6", "S7", "C6"],
        ["D7", "D9", "H8", "H10", "S8", "SQ", "C7", "C9", "CQ"],
        ["DJ", "DQ", "DK", "HJ", "HQ", "HK", "SJ", "SK", "C8"],
        ["DA", "HA", "SA", "S9", "S10", "C10", "CJ", "CK", "CA"],
    ]}  # fmt: skip
    state = game.new_state(deal=weak)
    assert state.current_player == 1  # holds D7
    bot = make("heuristic")
    assert str(bot.choose(state, 1)) == "push"
    state.apply("push")
    choice = bot.choose(state, 3)
    assert str(choice).startswith("trump:")


def test_heuristic_takes_a_strong_trump() -> None:
    game = stichkit.load_game("jass", profile="seed")
    strong = {"hands": [
        ["D7", "HJ", "H9", "HA", "HK", "H6", "SA", "CA", "C6"],
        ["D6", "D8", "H7", "H8", "S6", "S8", "C7", "C8", "CQ"],
        ["DJ", "D9", "DK", "DA", "H10", "S10", "SQ", "C9", "C10"],
        ["D10", "DQ", "HQ", "S7", "S9", "SJ", "SK", "CJ", "CK"],
    ]}  # fmt: skip
    state = game.new_state(deal=strong)
    assert state.current_player == 0
    assert str(make("heuristic").choose(state, 0)) == "trump:H"


def test_heuristic_beats_random() -> None:
    """Heuristic team (seats 0 and 2) against random (1 and 3): at least 80% of full games."""
    won = 0
    games = 0
    for profile in ("seed", "schieber"):
        game = stichkit.load_game("jass", profile=profile, target=1000)
        for k in range(15):
            heur = make("heuristic")
            seats: list[Bot] = [heur, make("random", seed=k), heur, make("random", seed=k + 100)]
            state = play_game(game, 9000 + k, seats)
            games += 1
            won += state.winners() == [0, 2]
    assert won >= 0.8 * games
