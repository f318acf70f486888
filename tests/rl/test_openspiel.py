"""OpenSpiel: the registration, pyspiel.random_sim_test, resampling, and OpenSpiel's Python
ISMCTS bot playing whole games against stichkit's random bot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import stichkit
import stichkit.bots
import stichkit.rl as rl

from .helpers import CONFIGS, IDS, openspiel_params

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")

# Short games where an option allows it, so that many whole games fit in the test time.
SHORT: dict[str, dict[str, Any]] = {"jass": {"target": 100}, "stichwahl": {"target": 8}}


def _load(name: str, options: dict[str, Any]) -> Any:
    rl.register_openspiel()
    return pyspiel.load_game(f"python_stichkit_{name}", {**openspiel_params(options), **SHORT.get(name, {})})


def test_every_game_is_registered_once_and_twice_is_harmless() -> None:
    names = rl.register_openspiel()
    assert names == rl.register_openspiel() == [f"python_stichkit_{g}" for g in stichkit.game_names()]
    registered = set(pyspiel.registered_names())
    assert set(names) <= registered


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_random_sim_test_passes(name: str, options: dict[str, Any]) -> None:
    pyspiel.random_sim_test(_load(name, options), num_sims=1, serialize=False, verbose=False)


def test_options_are_parameters_and_the_game_says_its_bounds() -> None:
    game = _load("jass", {"profile": "schieber"})
    params = game.get_parameters()
    assert params["profile"] == "schieber" and params["target"] == 100
    assert game.num_players() == 4 and game.num_distinct_actions() == 43
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    rl.register_openspiel()
    default = pyspiel.load_game("python_stichkit_jass", {"profile": "schieber"})
    assert default.max_game_length() == (2 * 2499 // 157 + 1) * 38  # the profile's own target, 2500
    wahl = pyspiel.load_game("python_stichkit_stichwahl", {"players": 3})
    assert wahl.num_players() == 3 and wahl.observation_tensor_shape() == [rl.encoding("stichwahl", players=3).size]
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_stichkit_jass", {"trumps": 4})


def test_tensors_and_strings_come_from_the_view() -> None:
    game = _load("stichling", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1 << 16
    assert state.observation_tensor(0) == [0.0] * game.observation_tensor_size()
    state.apply_action(77)
    inner = stichkit.load_game("stichling", players=3).new_state(seed=77)
    assert state.inner == inner
    seat = state.current_player()
    tensor = np.array(state.information_state_tensor(seat), dtype=np.float32)
    assert np.array_equal(tensor, rl.encoding("stichling", players=3).observation(inner, seat))
    assert '"hand":' in state.information_state_string(seat)
    assert state.legal_actions() == sorted(a.id for a in inner.legal_actions())


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = _load("jass", {})
    state = game.new_initial_state()
    state.apply_action(5)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.legal_actions() == state.legal_actions()
    assert any(sample.information_state_string(p) != state.information_state_string(p) for p in range(4) if p != player)


def _ismcts_match(
    name: str, options: dict[str, Any], games: int, simulations: int, until: str
) -> tuple[float, float, int]:
    """OpenSpiel's ISMCTS bot in half the seats, stichkit's random bot in the others; each deal seed
    is played twice with the seats swapped (duplicate), so the cards' luck cancels out. Seeded
    throughout (the resampler too), so the games repeat exactly."""
    from open_spiel.python.algorithms import ismcts

    from stichkit.rl.openspiel_game import RolloutEvaluator

    game = _load(name, options)
    n = game.num_players()
    ours = theirs = 0.0
    wins = 0
    for k in range(games):
        bot = ismcts.ISMCTSBot(
            game,
            RolloutEvaluator(1, seed=k, until=until),
            2.0,
            simulations,
            max_world_samples=8,  # sample_hidden 8 worlds per decision and search in them
            random_state=np.random.RandomState(k),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        sampler = pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)
        bot.set_resampler(lambda state, player, sampler=sampler: state.resample_from_infostate(player, sampler))
        opponent = stichkit.bots.make("random", seed=k)
        state = game.new_initial_state()
        state.apply_action(1000 + k // 2)
        mine = {p for p in range(n) if (p + k) % 2 == 0}
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(bot.step(state) if p in mine else opponent.choose(state.inner, p).id)
        r = state.returns()
        a = float(np.mean([r[p] for p in mine]))
        b = float(np.mean([r[p] for p in range(n) if p not in mine]))
        ours, theirs, wins = ours + a, theirs + b, wins + (a > b)
    return ours / games, theirs / games, wins


@pytest.mark.parametrize(
    ("name", "options", "games", "simulations", "until"),
    [
        ("jass", {}, 6, 30, "game"),
        ("stichwahl", {"players": 2}, 4, 20, "game"),
        ("stichling", {"players": 2}, 4, 20, "game"),
        ("stichmeister", {"players": 3}, 2, 50, "round"),
    ],
)
def test_openspiels_ismcts_beats_stichkits_random_bot(
    name: str, options: dict[str, Any], games: int, simulations: int, until: str
) -> None:
    ours, theirs, wins = _ismcts_match(name, options, games, simulations, until)
    assert wins >= games - 1 and ours > theirs + 0.5, (ours, theirs, wins)


def test_openspiels_own_rollout_evaluator_runs_on_the_games_too() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("stichling", {"players": 3})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_word_choice_of_a_yes_no_option_is_a_parameter_of_its_own() -> None:
    """OpenSpiel types a parameter by its default: Jass's stoeck=True/False stays a bool, and
    stoeck='announce' is stoeck_announce=True."""
    game = _load("jass", {"stoeck_announce": True, "weis": "announce"})
    assert game.stichkit_game.options["stoeck"] == "announce"
    assert game.num_distinct_actions() == 45
    assert _load("jass", {"stoeck": False}).stichkit_game.options["stoeck"] is False
    assert _load("jass", {}).stichkit_game.options["stoeck"] is True
