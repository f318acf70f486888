"""`sample_hidden` for Jass: the other hands redealt at random, consistently with one seat's view.

What the seat knows is kept: hand sizes, the voids everybody inferred from the cards played, the
Weis shown after the first trick (and that nobody held a better one), and who holds the start
card when it chose trump. Later deals are reshuffled from the sampler's random source, so the
real seed never leaks either.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from stichkit.cards import bits
from stichkit.core.sampling import deal_constrained

from .cards import STOECK_PAIR
from .deals import START_CARD
from .weis import Weis, best_weis, scoring_teams

if TYPE_CHECKING:
    from .state import JassState

ATTEMPTS = 50  # rarely more than one: only a hidden better Weis is refused


def sample_hidden(state: JassState, seat: int, rng: random.Random) -> JassState:
    """A state that `seat` cannot tell from `state` (see the module)."""
    new = state.clone()
    new._undo = []  # the old snapshots would hold the real hands
    new._seed = rng.getrandbits(63)
    new._given = {k: v for k, v in state._given.items() if k < state._deal_no}
    others = [s for s in range(4) if s != seat]
    fixed = [0, 0, 0, 0]
    if state._deal_no == 0 and state._forehand != seat and state._first_forehand == "start-card":
        fixed[state._forehand] |= state._hands[state._forehand] & (1 << START_CARD)  # D7 chose trump
    stoeck = state._stoeck_seat
    if state._stoeck_done and stoeck >= 0 and stoeck != seat:  # Stöck shown before its cards were played
        fixed[stoeck] |= state._hands[stoeck] & STOECK_PAIR[state._trump]
    if state._weis_teams is not None:
        for s in others:
            if s & 1 in state._weis_teams:
                for w in state._weis[s]:
                    fixed[s] |= w.cards & state._hands[s]
    unknown = 0
    for s in others:
        unknown |= state._hands[s] & ~fixed[s]
    cards = list(bits(unknown))
    need = [(state._hands[s] & ~fixed[s]).bit_count() for s in others]
    allowed = [sum(1 << i for i, s in enumerate(others) if not state._voids[s] >> c & 1) for c in cards]
    played = [0, 0, 0, 0]
    for s in range(4):
        played[s] = state._start[s] & ~state._hands[s]
    for _ in range(ATTEMPTS):
        dealt = deal_constrained(cards, allowed, need, rng)
        hands = list(state._hands)
        for i, s in enumerate(others):
            hands[s] = dealt[i] | fixed[s]
        start = tuple(hands[s] | played[s] for s in range(4))
        weis = _sampled_weis(state, start)
        if weis is not None:
            break
    if weis is None:  # the shown Weis could not be matched: keep them, the rest as dealt
        found = tuple(best_weis(h, state._profile) for h in start)
        teams = state._weis_teams or ()
        weis = tuple(state._weis[s] if s & 1 in teams else found[s] for s in range(4))
    new._hands = hands
    new._start = (start[0], start[1], start[2], start[3])
    for i in range(len(new._log) - 1, -1, -1):
        if not isinstance(new._log[i], int):
            new._log[i] = ("chance", new._start)
            break
    if new._trump >= 0:
        new._weis = weis
        if not new._stoeck_done:
            new._stoeck_seat = new._stoeck_holder()
    new._fix()
    new._legal = -1
    return new


def _sampled_weis(state: JassState, start: tuple[int, ...]) -> tuple[tuple[Weis, ...], ...] | None:
    """The Weis of sampled hands, or None if they contradict what was shown after the first
    trick: the scoring team must hold exactly its shown Weis, and nobody a better one."""
    if not state._weis_on or state._trump < 0:
        return state._weis
    weis = tuple(best_weis(h, state._profile) for h in start)
    teams = state._weis_teams
    if teams is None:
        return weis
    if scoring_teams(weis, state._trump, state._forehand, state._profile) != teams:
        return None
    if any(weis[s] != state._weis[s] for s in range(4) if s & 1 in teams):
        return None
    return weis
