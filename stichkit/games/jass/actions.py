"""The Jass action table: 36 cards, six trump modes and the push, with the phases they belong to.

Ids are fixed (RL agents and records rely on them): cards 0-35 in deck order, `trump:<mode>`
36-41 in MODES order, `push` 42. With announced Weis (option weis="announce") the table goes on:
`weis` 43: announce the hand's Weis at its first card (a player who plays the card without it
stays silent); with announced Stöck (stoeck="announce") `stoeck` 44, said before the second card
of trump King and Queen. A game without announcements keeps its 43 actions.
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
CALL_STOECK = 44  # phase PLAY: "Stöck!" before the second of trump King and Queen (stoeck="announce")
ACTION_TEXTS = (*DECK.names, *(f"trump:{m}" for m in MODES), "push", "weis", "stoeck")
ACTIONS_STOECK = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))  # with announced Stöck
ACTIONS_ANNOUNCED = ACTIONS_STOECK[:44]  # with announced Weis
ACTIONS = ACTIONS_ANNOUNCED[:43]  # the table of every game without announcements
ACTION_ID_OF = ids_by_identity(ACTIONS_STOECK)  # a Jass game's table is one of the three

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))
