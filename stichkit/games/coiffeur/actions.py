"""The Coiffeur action table: 36 cards, ten play modes and the push, with the phases they belong to.

Ids are fixed (RL agents and records rely on them): cards 0-35 in deck order (as in Jass),
`trump:<mode>` 36-45 in PLAY_MODES order, `push` 46.
"""

from __future__ import annotations

from stichkit.core.action import Action, ids_by_identity

from .cards import DECK, PLAY_MODES

# The phases of a deal: the mode is chosen (or pushed to the partner), then the cards are played.
TRUMP, PUSHED, PLAY, OVER = range(4)
PHASE_NAMES = ("trump", "pushed", "play", "over")

TRUMP_ACTION = 36  # trump:D .. trump:guschti-une = 36..45: phases TRUMP and PUSHED
PUSH = 46  # phase TRUMP only
ACTION_TEXTS = (*DECK.names, *(f"trump:{m}" for m in PLAY_MODES), "push")
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
ACTION_ID_OF = ids_by_identity(ACTIONS)  # every Coiffeur game's table is ACTIONS itself

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))
