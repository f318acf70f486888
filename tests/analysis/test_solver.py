"""The solver against brute force, and its invariants (bounds, zero sum, symmetry, the principal line)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit.analysis import Solution, SolveError, c_available, solve
from stichkit.analysis.solver import remaining_points
from stichkit.cards import bits
from stichkit.games.jass import Jass
from stichkit.games.jass.cards import LAST_TRICK_BONUS, MATCH_BONUS, POINTS, STRENGTH
from stichkit.games.jass.rules import legal_cards, next_reference
from stichkit.games.jass.state import JassState
from tests.analysis.positions import random_position, rebuild

ENGINES = ("python", "c") if c_available() else ("python",)


def brute_force(state: JassState) -> dict[int, int]:
    """Plain minimax without pruning on the mover's team's points (not the margin): the mover's
    team maximises them, the other team minimises them. The rule functions are the engine's; the
    trick and deal scoring is written here again, independently of the solver."""
    pos = state.play_position()
    assert pos is not None
    mode, pts_table = pos.trump, POINTS[pos.trump]
    me = pos.player & 1

    def after(c: int, hands: list[int], trick: tuple[int, ...], led: int, ws: int, wst: int, ref: int,
              player: int, left: int, won: tuple[int, int]) -> int:  # fmt: skip
        hands = list(hands)
        hands[player] ^= 1 << c
        if not trick:
            led, ws, wst, ref = c // 9, player, STRENGTH[mode][c // 9][c], c if c // 9 == mode else -1
        else:
            if STRENGTH[mode][led][c] > wst:
                ws, wst = player, STRENGTH[mode][led][c]
            if c // 9 == mode:
                ref = next_reference(ref, c, pos.lowest_plain)
        trick = (*trick, c)
        if len(trick) < 4:
            return node(hands, trick, led, ws, wst, ref, (player + 3) & 3, left, won)
        gained = sum(pts_table[x] for x in trick) + (LAST_TRICK_BONUS if left == 1 else 0)
        won = (won[0] + (ws & 1 == 0), won[1] + (ws & 1 == 1))
        mine = gained if ws & 1 == me else 0
        if left == 1:
            return mine + (MATCH_BONUS if won[me] == 9 else 0)
        return mine + node(hands, (), -1, -1, -1, -1, ws, left - 1, won)

    def node(hands: list[int], trick: tuple[int, ...], led: int, ws: int, wst: int, ref: int, player: int,
             left: int, won: tuple[int, int]) -> int:  # fmt: skip
        vals = [
            after(c, hands, trick, led, ws, wst, ref, player, left, won)
            for c in bits(legal_cards(hands[player], len(trick), led, mode, ref))
        ]
        return max(vals) if player & 1 == me else min(vals)

    legal = legal_cards(pos.hands[pos.player], len(pos.trick), pos.led, mode, pos.best_trump)
    return {
        c: after(
            c,
            list(pos.hands),
            pos.trick,
            pos.led,
            pos.win_seat,
            pos.win_str,
            pos.best_trump,
            pos.player,
            9 - pos.tricks_done,
            pos.tricks_won,
        )
        for c in bits(legal)
    }


def engine_brute_force(state: JassState) -> dict[str, int]:
    """The same minimax through the engine itself (clone and apply), scored from the engine's own
    deal summary: checks the solver's idea of trick points, last trick and match against the game."""
    me = state.current_player & 1  # type: ignore[operator]
    deal = state.deals_played

    def points(s: JassState) -> int:
        if s.deals_played > deal:  # the deal is over: its summary has the tricks and the match
            d = s.view(None)["previous_deals"][-1]
            return d["trick_points"][me] + (MATCH_BONUS if d["match"] == me else 0)
        return -1

    start = state.view(None)["deal_points"]  # no trick is scored yet in the positions used here
    del start

    def value(s: JassState, a: object) -> int:
        c = s.clone()
        c.apply(a)  # type: ignore[arg-type]
        p = points(c)
        if p >= 0:
            return p
        vals = [value(c, b) for b in c.legal_actions()]
        return max(vals) if c.current_player & 1 == me else min(vals)  # type: ignore[operator]

    return {a.text: value(state, a) for a in state.legal_actions()}


def trick_points_so_far(state: JassState, team: int) -> int:
    return sum(t["points"] for t in state.view(None)["tricks"] if t["winner"] & 1 == team)


def test_agrees_with_brute_force_on_thousands_of_positions() -> None:
    """Both engines (the C one when built), every card's value, on 2,000 positions with up to
    three tricks left. Four tricks: test_brute.py, against the C brute force (this one is too slow
    there for more than a few dozen positions; test_brute.py checks the two brute forces agree)."""
    rng = random.Random(13)
    checked = matches = 0
    for _ in range(2000):
        state, _ = random_position(rng, rng.randint(1, 12))
        expected = brute_force(state)
        for engine in ENGINES:
            sol = solve(state, engine=engine)
            assert {a.id: v for a, v in sol.values.items()} == expected, (engine, state.view(None), sol)
        checked += len(expected)
        matches += any(v > sol.remaining for v in expected.values())
    assert checked > 3000 and matches > 20  # many cards, and positions where a match is decided


def test_agrees_with_the_engine_scoring() -> None:
    """Brute force through the engine's own play and deal summary, on the last tricks of deals."""
    rng = random.Random(7)
    for _ in range(300):
        state, _ = random_position(rng, rng.randint(1, 8))
        sol = solve(state, engine="python")
        before = trick_points_so_far(state, state.current_player & 1)  # type: ignore[operator]
        expected = engine_brute_force(state)
        got = {a.text: v for a, v in sol.values.items()}
        assert got == {t: v - before for t, v in expected.items()}


def test_whole_deal_last_trick_and_match_by_hand() -> None:
    """Seats 0 and 2 hold all the trumps and Aces: team 0 takes every trick, 157 + 100."""
    game = Jass(profile="schieber", target=10**6, first_forehand=0, weis="off", stoeck=False)
    hands = [
        ["HJ", "H9", "HA", "HK", "HQ", "DA", "SA", "CA", "DK"],
        ["D6", "D7", "D8", "S6", "S7", "S8", "C6", "C7", "C8"],
        ["H10", "H8", "H7", "H6", "DQ", "SK", "SQ", "CK", "CQ"],
        ["D9", "D10", "DJ", "S9", "S10", "SJ", "C9", "C10", "CJ"],
    ]
    state = game.new_state(seed=1, deal={"hands": hands})
    state.apply("trump:H")
    for _ in range(20):  # five tricks of the strongest cards: team 0 takes them all
        state.apply(max(state.legal_actions(), key=lambda a: STRENGTH[1][a.id // 9][a.id]))
    for _ in range(8):  # two more along the solver's principal line
        sol = solve(state, engine="python")
        state.apply(sol.best[0])
    sol = solve(state, engine="python")
    assert sol.value == sol.remaining + MATCH_BONUS and sol.other(sol.best[0]) == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), cards_left=st.integers(1, 14))
def test_properties(seed: int, cards_left: int) -> None:
    state, made = random_position(random.Random(seed), cards_left)
    before = (state.play_position(), state.view(None), state.history())
    sol = solve(state, engine="python")
    assert (state.play_position(), state.view(None), state.history()) == before  # unchanged
    check_solution(state, sol)
    check_principal_line(state, sol)
    check_suit_symmetry(state, made, sol)


def check_solution(state: JassState, sol: Solution) -> None:
    pos = state.play_position()
    assert pos is not None
    assert sol.player == state.current_player and sol.team == sol.player & 1
    assert {a.id for a in sol.values} == {a.id for a in state.legal_actions()}
    assert sol.remaining == remaining_points(pos)
    assert sol.value == max(sol.values.values())
    assert sol.best and all(sol.values[a] == sol.value for a in sol.best)
    assert set(sol.best) == {a for a, v in sol.values.items() if v == sol.value}
    for a, v in sol.values.items():
        other = sol.other(a)
        match = v == sol.remaining + MATCH_BONUS or other == sol.remaining + MATCH_BONUS
        assert 0 <= v <= sol.remaining or v == sol.remaining + MATCH_BONUS
        assert v + other == sol.remaining + (MATCH_BONUS if match else 0)
        assert sol.margins[a] == v - other
        assert sol.loss(a) == sol.value - v >= 0


def check_principal_line(state: JassState, sol: Solution) -> None:
    """After each card, the next mover's solution (from its own side) gives the same split."""
    team = sol.team
    for a, v in sol.values.items():
        child = state.clone()
        tricks_before = len(child.view(None)["tricks"])
        child.apply(a)
        view = child.view(None)
        if child.deals_played > state.deals_played:
            continue  # the deal's last card: brute force covers it
        taken = sum(t["points"] for t in view["tricks"][tricks_before:] if t["winner"] & 1 == team)
        nxt = solve(child, engine="python")
        mine = nxt.value if nxt.team == team else nxt.other(nxt.best[0])
        assert v == taken + mine


def check_suit_symmetry(state: JassState, made: dict, sol: Solution) -> None:
    """Two suits that play the same part (non-trump suits under a suit trump; any two under
    Obenabe and Undenufe) swapped in every hand and move: the same values, card for card."""
    mode = made["mode"]
    free = [s for s in "DHSC" if mode >= 4 or "DHSC"[mode] != s]
    a, b = free[0], free[-1]
    card_map = {a + r: b + r for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")}
    card_map |= {v: k for k, v in card_map.items()}
    swapped = rebuild(made, card_map)
    sol2 = solve(swapped, engine="python")
    assert {card_map.get(x.text, x.text): v for x, v in sol.values.items()} == {
        x.text: v for x, v in sol2.values.items()
    }


def test_bad_states_are_refused_clearly() -> None:
    game = Jass(profile="schieber")
    state = game.new_state(seed=5)
    with pytest.raises(SolveError, match="trump is not chosen"):
        solve(state)
    other = stichkit.load_game("stichwahl").new_state(seed=1)
    with pytest.raises(SolveError, match="Jass state"):
        solve(other)  # type: ignore[arg-type]
    state.apply("trump:obe")
    with pytest.raises(SolveError, match="unknown solver engine"):
        solve(state, engine="fortran")
    assert isinstance(SolveError("x"), ValueError)
