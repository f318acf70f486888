"""Shared deals and helpers for the Stichwahl rule tests."""

from __future__ import annotations

from typing import Any

import stichkit
from stichkit.games.stichwahl.state import StichwahlState

# The Beispielrunde (seed 000, lines 19-55): Andreas (seat 0), Tim (1), Lina (2), Jan (3).
# Blauwal is trump with the marker on 1 (seed line 23: drawn a low Blauwal). Tim holds a flip
# bonus card (O8), Lina no Narwal, Jan a Narwal and a 5. The rest of the hands is free.
ANDREAS, TIM, LINA, JAN = range(4)
BEISPIEL = {
    "draws": ["B3"],
    "hands": [
        ["O1", "N2", "N3", "O3", "O4", "P3", "P4", "B2", "5b"],
        ["O8", "N6", "N4", "O6", "O7", "P6", "P7", "B3", "5c"],
        ["P1", "B9", "O2", "O9", "P2", "P8", "P9", "B4", "B6"],
        ["B1", "5a", "N7", "N1", "N8", "N9", "B7", "B8", "5d"],
    ],
}
BEISPIEL_BONUS = ["bonus:O1", "bonus:O8", "bonus:P1", "bonus:B1"]


def new(players: int = 4, deal: dict[str, Any] | None = None, **options: Any) -> StichwahlState:
    game = stichkit.load_game("stichwahl", players=players, **options)
    state = game.new_state(seed=1, deal=deal)
    assert isinstance(state, StichwahlState)
    return state


def play(state: StichwahlState, *actions: str) -> StichwahlState:
    for a in actions:
        state.apply(a)
    return state


def legal(state: StichwahlState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
