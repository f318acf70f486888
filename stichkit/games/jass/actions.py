"""The Jass action table: 36 cards, six trump modes and the push, with the phases they belong to.

Ids are fixed (RL agents and records rely on them): cards 0-35 in deck order, `trump:<mode>`
36-41 in MODES order, `push` 42. With announced Weis (option weis="announce") the table goes on:
`weis` 43: announce the hand's Weis at its first card (a player who plays the card without it
stays silent). A game without announced Weis keeps its 43 actions.
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
ANNOUNCE = 43  # phase PLAY: before a player's first card of the deal, holding a Weis
ACTION_TEXTS = (*DECK.names, *(f"trump:{m}" for m in MODES), "push", "weis")
ACTIONS_ANNOUNCED = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
ACTIONS = ACTIONS_ANNOUNCED[:43]  # the table of every game without announced Weis
ACTION_ID_OF = ids_by_identity(ACTIONS_ANNOUNCED)  # a Jass game's table is one of the two

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))
