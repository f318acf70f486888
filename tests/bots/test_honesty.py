"""Honesty, for every bot and every game: a bot's choice never depends on what its seat cannot see.

With a fixed bot seed, `choose` must give the same action on a state and on any
`state.sample_hidden(seat, rng)` of it for the moving seat: the two differ only in what that seat
cannot know (the other hands, the cards still to be dealt). A search bot that peeks, or a
`sample_hidden` whose draw depends on the real hidden cards, breaks this.

The `open` bot cheats by design (it sees all hands) and is left out.
"""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit import State
from stichkit.bots import bot_class, make
from stichkit.bots.heuristic import policy_for

GAMES = stichkit.game_names()

# The bots under test, each made fresh for every call with this seed. ISMCTS gets a tiny fixed
# budget (iterations, no clock) so that it is a pure function of its seed and what it is shown.
BOTS: dict[str, dict[str, object]] = {
    "random": {},
    "heuristic": {},
    "ismcts": {"iterations": 30, "determinizations": 8},
    "pimc": {"samples": 3},  # Jass, Differenzler and Coiffeur; samples alone: no clock
}
STATES = {"random": 24, "heuristic": 24, "ismcts": 8, "pimc": 6}
SAMPLES = 2  # other worlds per state

# Games whose sample_hidden draw depends on the real hidden cards, not only on what the seat sees
# and the random generator: a seeded search bot then chooses differently on the real state and on
# a redealt one. Not fixed here (the games are not this test's to change): game -> reason.
# Games whose sample_hidden still depends on the real hidden cards (each with the reason), so
# that a strict xfail pins the leak until it is fixed. None known.
DISHONEST: dict[str, str] = {}
SAMPLING_BOTS = {"ismcts", "pimc"}  # the bots that call sample_hidden


def mid_game_states(name: str, count: int, seed: int) -> list[State]:
    """Positions reached by random play, at varied depths of the whole game."""
    game = stichkit.load_game(name)
    rng = random.Random(seed)
    out: list[State] = []
    k = 0
    while len(out) < count and k < count * 4:
        state = game.new_state(seed=seed * 1000 + k)
        k += 1
        for _ in range(rng.randrange(0, 140)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def plays(bot: str, game: str) -> bool:
    games = bot_class(bot).GAMES  # type: ignore[union-attr]
    return games is None or game in games


# Every bot at every game it plays (pimc: Jass, Differenzler and Coiffeur only).
PAIRS = [(bot, game) for bot in sorted(BOTS) for game in GAMES if plays(bot, game)]


@pytest.mark.parametrize(("bot", "game"), PAIRS)
def test_choice_does_not_depend_on_hidden_cards(bot: str, game: str, request: pytest.FixtureRequest) -> None:
    if bot in SAMPLING_BOTS and game in DISHONEST:
        request.applymarker(pytest.mark.xfail(strict=True, reason=DISHONEST[game]))
    if bot == "heuristic" and policy_for(game) is None:
        pytest.skip(f"no heuristic bot for {game}")
    params = BOTS[bot]
    for i, state in enumerate(mid_game_states(game, STATES[bot], seed=len(game) + 7 * len(bot))):
        seat = state.current_player
        assert seat is not None
        want = make(bot, seed=i, **params).choose(state, seat)
        for k in range(SAMPLES):
            other = state.sample_hidden(seat, random.Random(1000 * i + k))
            assert other.view(seat) == state.view(seat), f"{game}: sample_hidden changed what seat {seat} sees"
            got = make(bot, seed=i, **params).choose(other, seat)
            assert got == want, (
                f"{bot} on {game}: {want} on the real state but {got} on sample_hidden(seat={seat}, "
                f"Random({1000 * i + k})) of it; record: {state.record()}"
            )


@pytest.mark.parametrize("game", GAMES)
def test_sample_hidden_is_a_function_of_the_view_and_the_rng(game: str, request: pytest.FixtureRequest) -> None:
    """The root cause a seeded search bot would inherit: redrawing from a redealt state with the
    same generator must give the same state as redrawing from the real one."""
    if game in DISHONEST:
        request.applymarker(pytest.mark.xfail(strict=True, reason=DISHONEST[game]))
    for i, state in enumerate(mid_game_states(game, 12, seed=3)):
        seat = state.current_player
        assert seat is not None
        other = state.sample_hidden(seat, random.Random(i))
        assert state.sample_hidden(seat, random.Random(99)) == other.sample_hidden(seat, random.Random(99))


def test_ismcts_refuses_a_view() -> None:
    state = stichkit.load_game("jass").new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="ismcts needs a State to sample from"):
        make("ismcts", iterations=10).choose(state.view(seat), seat)


def late_jass_state() -> State:
    """A Jass card decision with 20 cards left: pimc solves it (no ismcts before its horizon)."""
    state = stichkit.load_game("jass").new_state(seed=5)
    rng = random.Random(5)
    while sum(state.view(None)["hand_sizes"]) > 20 or len(state.legal_actions()) < 2:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("bot", ["ismcts", "pimc"])
def test_search_bots_reach_hidden_cards_only_through_sample_hidden(bot: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every state the search plays on (or solves) descends from a sample_hidden copy, never the real state."""
    state = mid_game_states("jass", 1, seed=5)[0] if bot == "ismcts" else late_jass_state()
    seat = state.current_player
    assert seat is not None
    cls = type(state)
    real_apply, real_clone = cls.apply, cls.clone
    samples: set[int] = set()
    touched: list[str] = []
    inside = [0]  # sample_hidden may clone the real state itself: that is its job

    def spy_apply(self: State, action: object) -> None:
        if self is state and not inside[0]:
            touched.append("apply")
        real_apply(self, action)  # type: ignore[arg-type]

    def spy_clone(self: State) -> State:
        if self is state and not inside[0]:
            touched.append("clone")
        return real_clone(self)

    real_sample = cls.sample_hidden

    def spy_sample(self: State, s: int, rng: random.Random) -> State:
        inside[0] += 1
        try:
            out = real_sample(self, s, rng)
        finally:
            inside[0] -= 1
        samples.add(id(out))
        return out

    monkeypatch.setattr(cls, "apply", spy_apply)
    monkeypatch.setattr(cls, "clone", spy_clone)
    monkeypatch.setattr(cls, "sample_hidden", spy_sample)
    action = make(bot, **({"iterations": 50} if bot == "ismcts" else {"samples": 4}), seed=1).choose(state, seat)
    assert action in state.legal_actions()
    assert samples, "the search drew no determinization"
    assert touched == [], f"the search used the real state directly: {touched}"


@pytest.mark.parametrize("bot", ["ismcts", "pimc"])
def test_the_c_paths_are_honest_with_announcements(bot: str) -> None:
    """Jass with announced Weis and Stöck, searched in C (ismcts, and pimc's search before its
    horizon): the same choice on the real state and on any sample_hidden of it, so the C worlds
    (drawn around what was announced, silent seats free) hold nothing the seat cannot see."""
    game = stichkit.load_game("jass", weis="announce", stoeck="announce", target=1000)
    rng = random.Random(17)
    searched = 0
    for i in range(10 if bot == "ismcts" else 6):
        state = game.new_state(seed=i)
        for _ in range(rng.randrange(2, 40 if bot == "ismcts" else 14)):  # pimc: before its horizon
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        if seat is None:
            continue
        params = {**BOTS[bot], **({"horizon": 12} if bot == "pimc" else {})}
        first = make(bot, seed=i, **params)
        want = first.choose(state, seat)
        early = getattr(first, "early", None)  # pimc's search before its horizon: an ismcts bot
        stats = early.last_stats if early is not None and "early" in first.last_stats else first.last_stats
        searched += stats.get("engine") == "c"
        for k in range(SAMPLES):
            other = state.sample_hidden(seat, random.Random(1000 * i + k))
            assert make(bot, seed=i, **params).choose(other, seat) == want, (bot, state.record())
    assert searched > 2
