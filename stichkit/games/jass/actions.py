"""The Jass action table: 36 cards, six trump modes and the push, with the phases they belong to.

Ids are fixed (RL agents and records rely on them): cards 0-35 in deck order, `trump:<mode>`
36-41 in MODES order, `push` 42.
"""

from __future__ import annotations

from stichkit.core.action import Action, ids_by_identity

from .cards import DECK, MODES

# The phases of a deal: trump is chosen (or pushed to the partner), then the cards are played.
TRUMP, PUSHED, PLAY, OVER = range(4)
PHASE_NAMES = ("trump", "pushed", "play", "over")

CARD_ACTIONS = range(36)  # play a card: phase PLAY
TRUMP_ACTION = 36  # trump:D .. trump:C, trump:obe, trump:une = 36..41: phases TRUMP and PUSHED
PUSH = 42  # phase TRUMP only
ACTION_TEXTS = (*DECK.names, *(f"trump:{m}" for m in MODES), "push")
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
ACTION_ID_OF = ids_by_identity(ACTIONS)  # every Jass game's table is ACTIONS itself

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))
