"""Weis (announcements): finding a hand's best set, and deciding which team scores.

A sequence (Blatt) is a run of at least three cards of one suit in the natural order
6 7 8 9 10 J Q K A. A run is announced whole: it is never split into shorter ones, except where a
four of a kind takes one of its cards (a card serves one Weis only). The best set is the choice of
fours that gives the most points, then the best single Weis.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from .cards import DECK, UNE
from .profiles import Profile


class Weis(NamedTuple):
    points: int
    cards: int  # bitmask
    length: int
    top: int  # rank of the highest card (natural order); for fours, the rank
    suit: int  # suit of a sequence; -1 for four of a kind

    @property
    def kind(self) -> str:
        return "four" if self.suit < 0 else "sequence"

    def describe(self) -> str:
        names = DECK.notation(self.cards)
        if self.suit < 0:
            return f"four {names[0][1:]}s ({self.points})"
        return f"{self.length} in sequence {names[0]}-{names[-1]} ({self.points})"


def _runs(mask9: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of at least 3 in a 9-bit suit mask, as (lowest rank, length)."""
    out = []
    r = 0
    while r < 9:
        if mask9 >> r & 1:
            start = r
            while r < 9 and mask9 >> r & 1:
                r += 1
            if r - start >= 3:
                out.append((start, r - start))
        else:
            r += 1
    return tuple(out)


RUNS = tuple(_runs(m) for m in range(512))
RANKS_OF = tuple(tuple(r for r in range(9) if m >> r & 1) for m in range(512))


def best_weis(hand: int, profile: Profile) -> tuple[Weis, ...]:
    """The Weis a player announces with this hand (empty when none)."""
    common = hand & (hand >> 9) & (hand >> 18) & (hand >> 27) & 511  # ranks held in all four suits
    fours = [r for r in RANKS_OF[common] if profile.four_points[r]] if common else []
    if not fours:
        return tuple(_sequences(hand, profile))
    best: tuple[Weis, ...] = ()
    best_key: tuple[int, tuple[int, int, int]] = (0, (0, 0, 0))
    for k in range(len(fours) + 1):
        for taken in combinations(fours, k):
            found = [_four(r, profile) for r in taken]
            rest = hand
            for r in taken:
                for s in range(4):
                    rest &= ~(1 << (s * 9 + r))
            found.extend(_sequences(rest, profile))
            if not found:
                continue
            key = (sum(w.points for w in found), max((w.points, w.length, w.top) for w in found))
            if key > best_key:
                best, best_key = tuple(found), key
    return best


def _four(rank: int, profile: Profile) -> Weis:
    return Weis(profile.four_points[rank], sum(1 << (s * 9 + rank) for s in range(4)), 4, rank, -1)


def _sequences(hand: int, profile: Profile) -> list[Weis]:
    out = []
    for s in range(4):
        for start, length in RUNS[(hand >> (9 * s)) & 511]:
            cards = ((1 << length) - 1) << (9 * s + start)
            out.append(Weis(profile.sequence_points[length], cards, length, start + length - 1, s))
    return out


def rank_key(w: Weis, trump: int) -> tuple[int, int, int, int]:
    """How one Weis ranks against another: points, more cards, higher top card, trump.

    Under Undenufe the lower sequence is the higher one (the order of the cards is turned round)."""
    height = w.top
    if trump == UNE:
        height = 8 - (w.top - w.length + 1) if w.suit >= 0 else 8 - w.top
    is_trump = int(0 <= trump < 4 and (w.suit == trump or w.suit < 0))
    return (w.points, w.length, height, is_trump)


def scoring_teams(weis: tuple[tuple[Weis, ...], ...], trump: int, forehand: int, profile: Profile) -> tuple[int, ...]:
    """The team(s) whose Weis count: only the team with the single best Weis scores.

    Seats play in order forehand, forehand-1, ...; "nearer" means earlier in that order."""
    best: list[tuple[int, ...] | None] = [None, None]
    for seat in range(4):
        for w in weis[seat]:
            key: tuple[int, ...] = rank_key(w, trump)
            if profile.weis_tie == "nearer":
                key = (*key, -((forehand - seat) % 4))
            team = seat & 1
            cur = best[team]
            if cur is None or key > cur:
                best[team] = key
    b0, b1 = best
    if b0 is None and b1 is None:
        return ()
    if b1 is None or (b0 is not None and b0 > b1):
        return (0,)
    if b0 is None or b1 > b0:
        return (1,)
    return (0, 1)


def weis_json(seat: int, w: Weis) -> dict[str, object]:
    return {"seat": seat, "kind": w.kind, "cards": DECK.notation(w.cards), "points": w.points, "text": w.describe()}
