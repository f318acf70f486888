"""`sample_hidden` for Jass: the other hands redealt at random, consistently with one seat's view.

What the seat knows is kept: hand sizes, the voids everybody inferred from the cards played, the
Weis shown after the first trick (and that nobody held a better one), the points of every Weis
announced (weis="announce"), Stöck shown before its cards were played, and who holds the start
card when it chose trump. Later deals are reshuffled from the sampler's random source, so the
real seed never leaks either.

An announced Weis not yet shown is known by its points only. Such a hand is dealt by first
placing a Weis of those points among the cards its player may hold, then the rest, and keeping
the deal only if the hand's best set has exactly the announced points.
"""

from __future__ import annotations

import random
from typing import TypeVar

from stichkit.cards import bits
from stichkit.core.sampling import deal_constrained

from .cards import STOECK_PAIR, STOECK_POINTS
from .deals import START_CARD
from .position import JassFields
from .profiles import Profile
from .scoring import tally_total
from .weis import Weis, best_weis, scoring_teams

S = TypeVar("S", bound=JassFields)

ATTEMPTS = 50  # rarely more than one: a hidden better Weis, or a placed Weis grown longer, is refused


def sample_hidden(state: S, seat: int, rng: random.Random) -> S:
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
    played = [state._start[s] & ~state._hands[s] for s in range(4)]
    # Announced Weis known only by their points: to be placed before the rest is dealt.
    shown = state._weis_teams or ()
    to_place = {s: points_of(state._weis[s]) for s in others if state._weis[s] and s & 1 not in shown}
    if not state._announce:  # "auto": nothing was said before the Weis are shown
        to_place = {}
    barred = _stoeck_bars(state, others, fixed, played)
    weis: tuple[tuple[tuple[Weis, ...], ...], tuple[tuple[Weis, ...], ...]] | None = None
    hands: list[int] | None = None
    for _ in range(ATTEMPTS * 4 if to_place else ATTEMPTS):
        placed = place_weis(state, others, to_place, fixed, played, rng) if to_place else fixed
        dealt = None if placed is None else _deal(state, others, placed, rng, barred)
        if dealt is None:  # a placed Weis left no room, or left the others no way to keep their voids
            continue
        hands = dealt
        start = tuple(hands[s] | played[s] for s in range(4))
        weis = _sampled_weis(state, start)
        if weis is not None and not _stoeck_would_show(state, start, weis[0]):
            break
        weis = None
    if hands is None:  # no Weis could be placed: the hands as the other constraints allow
        hands = _deal(state, others, fixed, rng, barred)
        assert hands is not None, "the real hands meet these constraints"
        start = tuple(hands[s] | played[s] for s in range(4))
    if weis is None:  # nothing matched: keep the shown and announced Weis, the rest as dealt last
        found_held = tuple(best_weis(h, state._profile) for h in start)
        for _ in range(ATTEMPTS):  # but never a Stöck that would have finished the game already
            if not _stoeck_would_show(state, start, found_held):
                break
            redealt = _deal(state, others, fixed, rng, barred)
            assert redealt is not None, "the real hands meet these constraints"
            hands, start = redealt, tuple(redealt[s] | played[s] for s in range(4))
            found_held = tuple(best_weis(h, state._profile) for h in start)
        teams = state._weis_teams or ()
        if state._announce:  # announced: what the drawn hands hold (the placed Weis, maybe grown)
            counted = tuple(found_held[s] if state._weis[s] else () for s in range(4))
        else:
            counted = tuple(state._weis[s] if s & 1 in teams else found_held[s] for s in range(4))
        weis = (counted, found_held)
    new._hands = hands
    new._start = (start[0], start[1], start[2], start[3])
    for i in range(len(new._log) - 1, -1, -1):
        if not isinstance(new._log[i], int):
            new._log[i] = ("chance", new._start)
            break
    if new._trump >= 0:
        new._weis, new._held = weis
        if not new._stoeck_done:
            new._stoeck_seat = new._stoeck_holder()
    new._fix()
    new._legal = -1
    return new


def _deal(
    state: JassFields, others: list[int], placed: list[int], rng: random.Random, barred: list[int] | None = None
) -> list[int] | None:
    """The hands: each seat of `others` gets its `placed` cards and its count of the rest, keeping
    every known void and never a card `barred` for it; None when that cannot be done."""
    unknown = 0
    for s in others:
        unknown |= state._hands[s]
    for s in others:
        unknown &= ~placed[s]
    cards = list(bits(unknown))
    need = [state._hands[s].bit_count() - placed[s].bit_count() for s in others]
    bar = barred or [0, 0, 0, 0]
    allowed = [sum(1 << i for i, s in enumerate(others) if not (state._voids[s] | bar[s]) >> c & 1) for c in cards]
    try:
        dealt = deal_constrained(cards, allowed, need, rng)
    except ValueError:
        return None
    hands = list(state._hands)
    for i, s in enumerate(others):
        hands[s] = dealt[i] | placed[s]
    return hands


def points_of(weis: tuple[Weis, ...]) -> list[int]:
    """A set of Weis as its announcement names it: each Weis' points, highest first."""
    return sorted((w.points for w in weis), reverse=True)


def shapes(points: int, profile: Profile) -> list[int]:
    """Every Weis worth `points`, as card masks: sequences of each length and suit, and fours."""
    out = []
    for n, p in enumerate(profile.sequence_points):
        if p == points:
            for s in range(4):
                for low in range(10 - n):
                    out.append(((1 << n) - 1) << (9 * s + low))
    for rank, p in enumerate(profile.four_points):
        if p == points:
            out.append(sum(1 << (s * 9 + rank) for s in range(4)))
    return out


def place_weis(
    state: JassFields,
    others: list[int],
    to_place: dict[int, list[int]],
    fixed: list[int],
    played: list[int],
    rng: random.Random,
) -> list[int] | None:
    """`fixed` with, for each seat in `to_place`, the unplayed cards of a random Weis set of the
    announced points, among the cards that seat may hold; None if a draw left no room."""
    placed = list(fixed)
    pool = 0  # the cards the sampling seat has not seen: in the other hands
    for o in others:
        pool |= state._hands[o]
    for s, points in to_place.items():
        may = pool & ~state._voids[s]  # cards s may hold: unseen, not a known void, not placed elsewhere
        for o in others:
            if o != s:
                may &= ~placed[o]
        room = may | played[s]
        chosen = 0
        for p in points:
            options = [m for m in shapes(p, state._profile) if m & room == m and not m & chosen]
            if not options:
                return None
            chosen |= rng.choice(options)
        new_cards = chosen & ~played[s]
        if (placed[s] | new_cards).bit_count() > state._hands[s].bit_count():
            return None
        placed[s] |= new_cards
    return placed


def _stoeck_bars(state: JassFields, others: list[int], fixed: list[int], played: list[int]) -> list[int]:
    """Per seat, the Stöck card it cannot hold: the second of the pair, where the seat holds or
    played the first and the Stöck alone would have finished the game for its team already (the
    Ausmachregel shows such a Stöck at once, and the real game showed none). Barred while dealing,
    so that a near-certain fact does not depend on rejecting draws."""
    bars = [0, 0, 0, 0]
    if not state._ausmachen or state._stoeck_done or state._trump < 0 or state._trump >= 4 or not state._stoeck_on:
        return bars
    pair = STOECK_PAIR[state._trump]
    stoeck = STOECK_POINTS * state._mults[state._trump]
    for s in others:
        known = (fixed[s] | played[s]) & pair
        if known and known != pair and state._scores[s & 1] + stoeck >= state._target:
            bars[s] = pair & ~known
    return bars


def _stoeck_would_show(state: JassFields, start: tuple[int, ...], weis: tuple[tuple[Weis, ...], ...]) -> bool:
    """Whether the drawn hands give a team a Stöck that the Ausmachregel would have shown already
    (it finishes the game now, or would have at the first trick with the Weis and that trick):
    the real game showed none, so such hands are not what the seat sees."""
    if not state._ausmachen or state._stoeck_done or state._trump < 0 or state._trump >= 4 or not state._stoeck_on:
        return False
    pair = STOECK_PAIR[state._trump]
    holder = next((s for s in range(4) if start[s] & pair == pair), -1)
    if holder < 0:
        return False
    team = holder & 1
    mult = state._mults[state._trump]
    stoeck = STOECK_POINTS * mult
    if state._scores[team] + stoeck >= state._target:
        return True
    if not state._tricks:
        return False
    deal_start = state._scores[team] - tally_total(state._tally, state._match, team, mult)
    _, _, winner, pts = state._tricks[0]
    more = STOECK_POINTS + (pts if winner & 1 == team else 0)
    if state._weis_on and team in scoring_teams(weis, state._trump, state._forehand, state._profile):
        more += sum(w.points for p in range(team, 4, 2) for w in weis[p])
    return deal_start + more * mult >= state._target


def _sampled_weis(
    state: JassFields, start: tuple[int, ...]
) -> tuple[tuple[tuple[Weis, ...], ...], tuple[tuple[Weis, ...], ...]] | None:
    """The counted and the held Weis of sampled hands, or None if they contradict what the seat
    knows: every announced Weis has its announced points, the scoring team holds exactly its
    shown Weis, and nobody holds a better one."""
    if not state._weis_on or state._trump < 0:
        return state._weis, state._held
    held = tuple(best_weis(h, state._profile) for h in start)
    weis = tuple(held[s] if state._weis[s] else () for s in range(4)) if state._announce else held
    if state._announce and any(points_of(weis[s]) != points_of(state._weis[s]) for s in range(4)):
        return None
    teams = state._weis_teams
    if teams is None:
        return weis, held
    if scoring_teams(weis, state._trump, state._forehand, state._profile) != teams:
        return None
    if any(weis[s] != state._weis[s] for s in range(4) if s & 1 in teams):
        return None
    return weis, held
