"""The `ismcts` bot (and the cheating `open` bot built on it): legality, budgets, seeds, strength."""

from __future__ import annotations

import random
import time

import pytest

import stichkit
from stichkit import OptionError, State
from stichkit.bots import ISMCTSBot, is_cheating, make

from .test_bots import play_game


def search_bot(name: str, **params: object) -> ISMCTSBot:
    bot = make(name, **params)
    assert isinstance(bot, ISMCTSBot)
    return bot


def positions(name: str, count: int, seed: int) -> list[State]:
    game = stichkit.load_game(name)
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = game.new_state(seed=seed + k)
        for _ in range(rng.randrange(0, 60)):
            state.apply(rng.choice(state.legal_actions()))
        while not state.is_terminal() and len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("game", stichkit.game_names())
def test_plays_legal_actions_in_every_game(game: str) -> None:
    for k, state in enumerate(positions(game, 3, seed=11)):
        seat = state.current_player
        assert seat is not None
        action = make("ismcts", iterations=40, determinizations=8, seed=k).choose(state, seat)
        assert action in state.legal_actions()


def test_defaults_and_budgets() -> None:
    bot = make("ismcts")
    assert bot.params["time"] == 1.0 and bot.params["iterations"] == 20_000
    assert make("ismcts", iterations=50).params["time"] is None  # iterations alone: no clock
    assert make("ismcts", time=0.5).params["iterations"] >= 1_000_000  # time alone: the clock decides
    again = eval(repr(bot), {"make": make})  # repr is the make call
    assert again.params == bot.params


@pytest.mark.parametrize(("param", "bad"), [("iterations", 0), ("time", -1), ("c", "wide"), ("rollout", "smart")])
def test_bad_parameters(param: str, bad: object) -> None:
    with pytest.raises(OptionError, match=f"bot 'ismcts': parameter {param}="):
        make("ismcts", **{param: bad})


def test_reproducible_with_seed_and_iterations() -> None:
    state = positions("jass", 1, seed=4)[0]
    seat = state.current_player
    assert seat is not None
    a = search_bot("ismcts", iterations=300, seed=5)
    b = search_bot("ismcts", iterations=300, seed=5)
    assert a.choose(state, seat) == b.choose(state, seat)
    assert a.last_stats["visits"] == b.last_stats["visits"]
    assert 0 < a.last_stats["iterations"] <= 300


def test_time_budget_is_kept_roughly() -> None:
    state = positions("jass", 1, seed=8)[0]
    seat = state.current_player
    assert seat is not None
    bot = search_bot("ismcts", time=0.2, seed=1)
    t0 = time.perf_counter()
    bot.choose(state, seat)
    took = time.perf_counter() - t0
    assert took < 0.2 + 0.25
    assert bot.last_stats["iterations"] > 20


def test_a_single_legal_action_is_played_at_once() -> None:
    game = stichkit.load_game("jass")
    state = game.new_state(seed=2)
    rng = random.Random(0)
    while len(state.legal_actions()) != 1:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    bot = search_bot("ismcts", time=5.0)
    t0 = time.perf_counter()
    assert bot.choose(state, seat) == state.legal_actions()[0]
    assert time.perf_counter() - t0 < 0.5 and bot.last_stats["iterations"] == 0


def test_needs_a_state() -> None:
    state = stichkit.load_game("stichwahl").new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="ismcts needs a State to sample from"):
        make("ismcts").choose(state.view(seat), seat)
    with pytest.raises(ValueError, match="is not to move"):
        make("ismcts").choose(state, (seat + 1) % 4)


def test_beats_random_at_jass() -> None:
    """ismcts (200 iterations) as one team against random: it wins clearly, from both sides."""
    game = stichkit.load_game("jass", target=150)
    won = 0
    for k in range(2):
        for side in (0, 1):
            bots = [make("ismcts", iterations=200, seed=k) if s % 2 == side else make("random", seed=k + s)
                    for s in range(4)]  # fmt: skip
            state = game.new_state(seed=300 + k)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                state.apply(bots[seat].choose(state, seat))
            won += state.winners()[0] % 2 == side
    assert won >= 3


def test_open_cheats_and_says_so() -> None:
    bot = search_bot("open", iterations=100, seed=1)
    assert is_cheating("open") and not is_cheating("ismcts") and not is_cheating("heuristic")
    assert "cheats: sees all hands; evaluation upper bound only" in repr(bot)
    assert "cheats" in (type(bot).__doc__ or "").lower()
    for state in positions("jass", 2, seed=3):
        seat = state.current_player
        assert seat is not None
        assert bot.choose(state, seat) in state.legal_actions()
        assert bot.last_stats["determinizations"] == 1
    with pytest.raises(ValueError, match="open needs a State"):
        bot.choose(state.view(seat), seat)  # type: ignore[arg-type]


WHOLE_GAMES = [
    ("jass", {"target": 300}),
    ("jass", {"profile": "schieber", "target": 300}),
    *[("stichwahl", {"players": n, "target": 8}) for n in (2, 3, 4)],
    *[("stichling", {"players": n}) for n in (2, 3, 4, 5)],
    *[("stichmeister", {"players": n}) for n in (3, 4, 5)],
]


@pytest.mark.parametrize(("game", "options"), WHOLE_GAMES, ids=lambda x: str(x))
def test_ismcts_plays_whole_games_at_every_player_count(game: str, options: dict[str, object]) -> None:
    """Every phase a game has (setup picks, prizes, leader choices, removals, deal ends) meets the
    search, at every player count, from the first move to the end of the game."""
    g = stichkit.load_game(game, **options)
    state = play_game(g, 5, [make("ismcts", iterations=6, determinizations=3, seed=s) for s in range(g.num_players)])
    moves = sum(1 for m in state.record()["moves"] if "seat" in m)
    assert moves > 0 and state.winners()
    assert stichkit.replay(state.record()).scores() == state.scores()
