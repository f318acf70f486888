"""A Coiffeur deal solved for what the announcing team writes, with every hand known: where
pimc's worlds and ismcts's playouts (rollout=solve) end.

A Coiffeur deal is a two-sided game: the announcing team wants to write much, the other team
wants it to write little. What it writes is its points (257 for a match), a non-decreasing
function of the margin the Jass solver maximises, so in a deal played in one of Jass's modes (a
suit, Obenabe, Undenufe) the C solver's best play is the best play for the sheet too, and its
values give each card's written points exactly. Slalom and Guschti change the mode from trick to
trick, which the C solver does not play: their last `SLOW_HORIZON` cards are searched by the
solver's Python reference, which plays each trick in its own mode and for the announcing team's
points (`solve_points`), as are every mode's without the C extension.

A world is any Coiffeur state; a bot hands in one from `sample_hidden`, whose hidden cards are
its guesses, so reading its fields is fair.
"""

from __future__ import annotations

from typing import Any

from stichkit.core import State
from stichkit.games.coiffeur.actions import PLAY
from stichkit.games.coiffeur.cards import TRICK_MODES
from stichkit.games.jass.position import PlayPosition

from .solver import c_available, solve_points, value_points

SLOW_HORIZON = 12  # Slalom, Guschti (and every mode without the C solver): searched in Python from here
SOLVE_FROM = 20  # ismcts's playouts (rollout=solve): the deal's last cards solved from here (C: about a ms)
JASS_MODES = 6  # play modes 0-5 are Jass's: one mode for the whole deal, the C solver plays them


def announcer(world: State) -> int:
    """The team that announced the deal being played."""
    return int(world._chooser) & 1  # type: ignore[attr-defined]


def solvable(world: State) -> bool:
    """Whether the C solver plays this world's deal (one of Jass's modes, the extension built)."""
    return int(world._play_mode) < JASS_MODES and c_available()  # type: ignore[attr-defined]


def position(world: State) -> PlayPosition:
    """The world's card play as the Jass solver reads it, in the mode of the trick being played
    (the nine tricks' modes are `TRICK_MODES[world._play_mode]`)."""
    w: Any = world
    h = w._hands
    return PlayPosition(
        TRICK_MODES[w._play_mode][len(w._tricks)], False, (h[0], h[1], h[2], h[3]), tuple(w._trick), w._leader,
        w._led, w._win_seat, w._win_str, w._best_trump, len(w._tricks), (w._won[0], w._won[1]), w._player,
    )  # fmt: skip


def card_values(world: State) -> dict[int, int]:
    """Each legal card of the world's mover (by id): what the announcing team writes for the deal
    (before the multiplier) when that card is played and both sides play on perfectly."""
    w: Any = world
    team = announcer(world)
    taken = w._taken[team]
    found = solve_points(position(world), team, TRICK_MODES[w._play_mode])
    return {c: taken + v for c, v in found.items()}


def deal_value(world: State) -> int:
    """What the announcing team writes for the world's deal with perfect play from here."""
    w: Any = world
    team = announcer(world)
    return int(w._taken[team]) + value_points(position(world), team, TRICK_MODES[w._play_mode])


def solved_scores(world: State) -> list[int] | None:
    """Each seat's score (its team's sheet total) once the world's deal is played out perfectly from
    here, at a card decision with at most SOLVE_FROM cards left (SLOW_HORIZON in Python); None
    otherwise. ismcts's playouts with rollout=solve end here."""
    w: Any = world
    if w._phase != PLAY:
        return None  # a mode is still to be announced, or the game is over
    left = w._hands[0].bit_count() + w._hands[1].bit_count() + w._hands[2].bit_count() + w._hands[3].bit_count()
    if left > (SOLVE_FROM if solvable(world) else SLOW_HORIZON):
        return None
    totals = w.totals()
    totals[announcer(world)] += deal_value(world) * w._sheet[w._row][1]
    return [totals[0], totals[1], totals[0], totals[1]]


__all__ = [
    "JASS_MODES", "SLOW_HORIZON", "SOLVE_FROM", "announcer", "card_values", "deal_value", "position", "solvable",
    "solved_scores",
]  # fmt: skip
