"""The solver with a mode per trick (`solve_points`, `value_points`), as Coiffeur's Slalom and
Guschti play: against a plain minimax over the Coiffeur engine itself on small endgames, for
both teams; in one mode, against the margin's search; and its refusals."""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit.analysis import c_available
from stichkit.analysis.coiffeur_solver import position
from stichkit.analysis.solver import SolveError, solve_points, value_points
from stichkit.cards import bits
from stichkit.core import State
from stichkit.games.coiffeur.cards import LAST_TRICK_BONUS, MATCH_BONUS, POINTS, STRENGTH, TRICK_MODES
from stichkit.games.jass.position import PlayPosition
from stichkit.games.jass.rules import legal_cards, next_reference

ENGINES = ("python", "c") if c_available() else ("python",)


def endgame(rows: str, seed: int, cards_left: int) -> State:
    """A Coiffeur card decision with at most `cards_left` cards left, by random play."""
    rng = random.Random(seed)
    state = stichkit.load_game("coiffeur", rows=rows).new_state(seed=seed)
    while True:
        view = state.view(None)
        if view["phase"] == "play" and sum(view["hand_sizes"]) <= cards_left:
            return state
        state.apply(rng.choice(state.legal_actions()))


def minimax(state: State, deal: int, team: int) -> int:
    """`team`'s points for the deal (tricks, last trick, a match's bonus) when it plays for as many
    and the other team for as few: plain minimax, no pruning, no table, over the engine's own
    apply/undo and its own scoring of the finished deal."""
    view = state.view(None)
    if state.is_terminal() or view["deal_number"] != deal:
        done = view["previous_deals"][deal]
        return int(done["points"][team]) + (MATCH_BONUS if done["tricks"][team] == 9 else 0)
    mover = state.current_player
    assert mover is not None
    found = []
    for action in state.legal_actions():
        state.apply(action)
        found.append(minimax(state, deal, team))
        state.undo()
    return max(found) if mover & 1 == team else min(found)


def exhaustive(pos: PlayPosition, modes: tuple[int, ...], team: int) -> dict[int, int]:
    """Each legal card's points for `team` over the rest of the deal: every line of play tried (no
    pruning), the trick and deal scoring written here again; a trick's start reached again by
    another order of the same cards is looked up, not searched twice (an exact memo, not a bound).
    For Guschti's change of mode after the fifth trick, too deep for the engine's minimax."""
    memo: dict[tuple[tuple[int, ...], int, tuple[int, int]], int] = {}

    def after(c: int, hands: tuple[int, ...], trick: tuple[int, ...], led: int, ws: int, wst: int, ref: int,
              player: int, done: int, won: tuple[int, int]) -> int:  # fmt: skip
        mode = modes[done]
        h = list(hands)
        h[player] ^= 1 << c
        if not trick:
            led, ws, wst, ref = c // 9, player, STRENGTH[mode][c // 9][c], c if c // 9 == mode else -1
        else:
            if STRENGTH[mode][led][c] > wst:
                ws, wst = player, STRENGTH[mode][led][c]
            if c // 9 == mode:
                ref = next_reference(ref, c, False)
        trick = (*trick, c)
        if len(trick) < 4:
            return node(tuple(h), trick, led, ws, wst, ref, (player + 3) & 3, done, won)
        gained = sum(POINTS[mode][x] for x in trick) + (LAST_TRICK_BONUS if done == 8 else 0)
        won = (won[0] + (ws & 1 == 0), won[1] + (ws & 1 == 1))
        mine = gained if ws & 1 == team else 0
        if done == 8:
            return mine + (MATCH_BONUS if won[team] == 9 else 0)
        key = (tuple(h), ws, won)
        if key not in memo:
            memo[key] = node(tuple(h), (), -1, -1, -1, -1, ws, done + 1, won)
        return mine + memo[key]

    def node(hands: tuple[int, ...], trick: tuple[int, ...], led: int, ws: int, wst: int, ref: int, player: int,
             done: int, won: tuple[int, int]) -> int:  # fmt: skip
        vals = [
            after(c, hands, trick, led, ws, wst, ref, player, done, won)
            for c in bits(legal_cards(hands[player], len(trick), led, modes[done], ref))
        ]
        return max(vals) if player & 1 == team else min(vals)

    legal = legal_cards(pos.hands[pos.player], len(pos.trick), pos.led, modes[pos.tricks_done], pos.best_trump)
    return {
        c: after(c, pos.hands, pos.trick, pos.led, pos.win_seat, pos.win_str, pos.best_trump, pos.player,
                 pos.tricks_done, pos.tricks_won)
        for c in bits(legal)
    }  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_guschtis_change_of_mode_is_the_exhaustive_search(seed: int) -> None:
    """Across Guschti's change of mode (its fifth trick in one mode, the sixth on in the other),
    every legal card's points for either team are those of the exhaustive search."""
    rows = "guschti1"
    state = endgame(rows, seed, 20 - seed % 4)  # in the fifth trick, 0-3 of its cards played
    w: object = state
    modes = TRICK_MODES[w._play_mode]  # type: ignore[attr-defined]
    pos = position(state)
    assert pos.tricks_done == 4 and modes[4] != modes[5]
    for team in (0, 1):
        assert solve_points(pos, team, modes) == exhaustive(pos, modes, team)


@pytest.mark.parametrize("rows", ["slalom1", "guschti1"])
@pytest.mark.parametrize("seed", range(8))
def test_a_mode_per_trick_is_the_minimax_of_the_engine(rows: str, seed: int) -> None:
    """Every legal card's points for either team, and the position's value, are the engine's
    minimax, whichever trick's mode (Obenabe or Undenufe) the last tricks fall in (Slalom changes
    it every trick; Guschti's last tricks are all in its second mode)."""
    state = endgame(rows, seed, 8 + 4 * (seed % 2))  # two or three tricks left
    w: object = state
    view = state.view(None)
    modes = TRICK_MODES[w._play_mode]  # type: ignore[attr-defined]
    if rows == "slalom1":
        assert len(set(modes[len(view["tricks"]) :])) == 2  # the mode changes in what is left
    for team in (0, 1):
        taken = view["points"][team]
        found = solve_points(position(state), team, modes)
        expected = {}
        for a in state.legal_actions():
            state.apply(a)
            expected[a.id] = minimax(state, view["deal_number"], team) - taken
            state.undo()
        assert found == expected
        best = max if state.current_player is not None and state.current_player & 1 == team else min
        assert value_points(position(state), team, modes) == best(expected.values())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(4))
def test_one_mode_gives_the_same_points_by_either_search(engine: str, seed: int) -> None:
    """In one mode the points come from the margin's search; given that mode for each of the nine
    tricks, or no modes, each engine gives the same points as the engine's minimax."""
    state = endgame("S1 C2 obe3 une4", seed, 8)
    view = state.view(None)
    pos = position(state)
    for team in (0, 1):
        found = solve_points(pos, team, (pos.trump,) * 9, engine)
        assert found == solve_points(pos, team, None, engine)
        for a in state.legal_actions():
            state.apply(a)
            assert found[a.id] == minimax(state, view["deal_number"], team) - view["points"][team]
            state.undo()


def test_bad_modes_are_refused_clearly() -> None:
    pos = position(endgame("slalom1", 1, 8))
    with pytest.raises(SolveError, match="nine tricks' modes, each 0-5"):
        solve_points(pos, 0, (4, 5))
    with pytest.raises(SolveError, match="nine tricks' modes, each 0-5"):
        solve_points(pos, 0, (6,) * 9)
    other = 5 if pos.trump == 4 else 4
    with pytest.raises(SolveError, match="is not the mode"):
        solve_points(pos, 0, (other,) * 9)
    with pytest.raises(SolveError, match="team is 0"):
        solve_points(pos, 2, TRICK_MODES[6])
    with pytest.raises(SolveError, match="unknown solver engine"):
        solve_points(pos, 0, None, "fortran")
    if len(set(TRICK_MODES[6][pos.tricks_done :])) > 1:
        with pytest.raises(SolveError, match="C solver plays one mode"):
            solve_points(pos, 0, TRICK_MODES[6], "c")
    assert isinstance(pos, PlayPosition)
