"""The cards of Coiffeur: the Jass deck with Jass's trump orders and card points, imported from
stichkit.games.jass, never copied.

Coiffeur plays Jass's six modes (the four suits as trump, Obenabe, Undenufe) and two that switch
between Obenabe and Undenufe from trick to trick (Slalom, Guschti). A play mode says which of
Jass's six modes each of the nine tricks is played in.
"""

from __future__ import annotations

from stichkit.games.jass.cards import (
    DEAL_TOTAL,
    DECK,
    LAST_TRICK_BONUS,
    MATCH_BONUS,
    MODE_NAMES,
    OBE,
    POINTS,
    STRENGTH,
    SUIT_MASK,
    SUITS,
    UNE,
)

# The play modes a chooser may announce, in action order. 0-5 are Jass's modes.
PLAY_MODES = ("D", "H", "S", "C", "obe", "une", "slalom-obe", "slalom-une", "guschti-obe", "guschti-une")
SLALOM_OBE, SLALOM_UNE, GUSCHTI_OBE, GUSCHTI_UNE = 6, 7, 8, 9
PLAY_MODE_NAMES = (
    *MODE_NAMES, "Slalom (Obenabe first)", "Slalom (Undenufe first)", "Guschti (5 Obenabe, 4 Undenufe)",
    "Guschti (5 Undenufe, 4 Obenabe)",
)  # fmt: skip


def _trick_modes(play_mode: int) -> tuple[int, ...]:
    """The Jass mode of each of the nine tricks under `play_mode`."""
    if play_mode < 6:
        return (play_mode,) * 9
    first, second = (OBE, UNE) if play_mode in (SLALOM_OBE, GUSCHTI_OBE) else (UNE, OBE)
    if play_mode in (SLALOM_OBE, SLALOM_UNE):
        return tuple(first if k % 2 == 0 else second for k in range(9))
    return (first,) * 5 + (second,) * 4


TRICK_MODES = tuple(_trick_modes(m) for m in range(len(PLAY_MODES)))

__all__ = [
    "DEAL_TOTAL", "DECK", "GUSCHTI_OBE", "GUSCHTI_UNE", "LAST_TRICK_BONUS", "MATCH_BONUS", "MODE_NAMES", "OBE",
    "PLAY_MODES", "PLAY_MODE_NAMES", "POINTS", "SLALOM_OBE", "SLALOM_UNE", "STRENGTH", "SUITS", "SUIT_MASK",
    "TRICK_MODES", "UNE",
]  # fmt: skip
