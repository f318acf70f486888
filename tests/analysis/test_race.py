"""The race to the target (stichkit.analysis.race) against minimax through the engine itself.

The rules of the race are the engine's (docs/jass.md rules 24-27, from the sheet's line 34 "Das
Spiel endet, wenn ein Team 1000 Punkte ... erreicht hat", seeds/004): the reference below applies
each card to a copy of the state and reads the outcome from the engine (the game over and who won,
or the next deal begun), so the C search's own bookkeeping of Stöck, Weis, trick points, last
trick and match is checked against the game.
"""

from __future__ import annotations

import random

import pytest

from stichkit.analysis import SolveError, c_available
from stichkit.analysis.race import can_end_this_deal, needs, solve_race
from stichkit.games.jass import Jass, JassState
from tests.analysis.positions import race_position

pytestmark = pytest.mark.skipif(not c_available(), reason="the race search needs the C extension (not built here)")


class TooBig(Exception):
    """The engine's minimax would take too long on this position."""


def engine_race(state: JassState, budget: int = 10**9) -> dict[str, int]:
    """Each legal card's race outcome for the mover's team: alpha-beta over {-1, 0, 1}, every
    position reached by the engine's own apply; TooBig after `budget` positions."""
    me = state.current_player & 1  # type: ignore[operator]
    deal = state.deals_played
    count = [0]

    def value(s: JassState, alpha: int, beta: int) -> int:
        count[0] += 1
        if count[0] > budget:
            raise TooBig
        if s.is_terminal():
            return 1 if s.winners()[0] & 1 == me else -1
        if s.deals_played != deal:
            return 0
        mine = s.current_player & 1 == me  # type: ignore[operator]
        best = -2 if mine else 2
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            v = value(c, alpha, beta)  # type: ignore[arg-type]
            if mine:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply(a)
        out[a.text] = value(c, -2, 2)  # type: ignore[arg-type]
    return out


def check(state: JassState, budget: int = 10**9) -> dict[str, int]:
    expected = engine_race(state, budget)
    race = solve_race(state)
    got = {a.text: v for a, v in race.outcomes.items()}
    assert got == expected, (state.view(None), state.pending_claims(), needs(state))
    assert race.best == max(expected.values())
    return expected


def test_agrees_with_the_engine_late_in_the_deal() -> None:
    """Up to three tricks left: every outcome, Stöck and the last trick's match included."""
    rng = random.Random(7)
    seen: set[int] = set()
    done = stoeck = 0
    while done < 600:
        state = race_position(rng, rng.randint(1, 12))
        if state is None:
            continue
        seen |= set(check(state).values())
        stoeck += state.pending_claims()[0] >= 0
        done += 1
    assert seen == {-1, 0, 1}
    assert stoeck >= 10  # positions where Stöck is still to be claimed (16 with this seed)


def test_agrees_with_the_engine_early_in_the_deal() -> None:
    """In the first trick, with small targets (most lines end the game within a trick or two):
    the Weis claimed when the first trick is complete, the forehand's team first, then the trick.
    The engine's minimax explodes on some of these positions; those (about one in ten) are
    skipped by a budget of positions searched."""
    rng = random.Random(8)
    weis_positions = done = 0
    while done < 60:
        state = race_position(rng, rng.randint(33, 36))
        if state is None or max(needs(state)) > 25:
            continue
        try:
            check(state, budget=3000)
        except TooBig:
            continue
        weis_positions += sum(state.pending_claims()[1]) > 0
        done += 1
    assert weis_positions >= 10


def test_can_end_this_deal_is_public_and_right() -> None:
    game = Jass(profile="schieber", target=2500)
    state = game.new_state(seed=3)
    state.apply(state.legal_actions()[0])
    if state.play_position() is None:  # pushed: the partner names trump
        state.apply(state.legal_actions()[0])
    assert not can_end_this_deal(state)  # 2500 points away: nothing in one deal reaches it
    near = Jass(profile="schieber", target=150).new_state(seed=3)
    near.apply(near.legal_actions()[0])
    if near.play_position() is None:
        near.apply(near.legal_actions()[0])
    assert can_end_this_deal(near)


def test_refuses_what_is_not_a_card_decision() -> None:
    state = Jass().new_state(seed=1)
    with pytest.raises(SolveError, match="trump is not chosen"):
        solve_race(state)
