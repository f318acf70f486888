"""`stich simulate`'s unit of work: one bot game from a picklable spec, for any executor.

Game i of a simulation uses game seed S + i, and the bot at seat s is seeded with
`game seed * 1009 + s` (if it takes a seed), so a simulation repeats exactly on every executor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import stichkit
from stichkit.bots import Bot

from .duplicate import parse_bot


@dataclass(frozen=True)
class SimulatedGame:
    """One game of a simulation: picklable, for worker processes and Ray tasks."""

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]  # bot spec per seat
    seed: int  # the game seed


def make_bot(spec: str, seed: int) -> Bot:
    """A bot from its spec (`name` or `name:key=value...`), seeded with `seed` if it takes a seed
    (and its spec sets none)."""
    return parse_bot(spec).make(seed)


def play_simulated(spec: SimulatedGame) -> tuple[list[int], list[int], int]:
    """Play the game to its end: final scores, winners and the number of decisions."""
    state = stichkit.load_game(spec.game, **spec.options).new_state(seed=spec.seed)
    players = [make_bot(name, spec.seed * 1009 + s) for s, name in enumerate(spec.seats)]
    moves = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(players[seat].choose(state, seat))
        moves += 1
    return state.scores(), state.winners(), moves
