"""The Differenzler action table: 36 cards and the 158 predictions, with the phases they belong to.

Ids are fixed (RL agents and records rely on them): cards 0-35 in deck order (as in Jass),
`predict:<points>` 36-193 for 0 to 157 points.
"""

from __future__ import annotations

from stichkit.core.action import Action, ids_by_identity

from .cards import DECK, MAX_PREDICTION

# The phases of a deal: each player predicts (forehand first, the dealer last), then the cards are played.
PREDICT, PLAY, OVER = range(3)
PHASE_NAMES = ("predict", "play", "over")

PREDICT_ACTION = 36  # predict:0 .. predict:157 = 36..193: phase PREDICT
ACTION_TEXTS = (*DECK.names, *(f"predict:{n}" for n in range(MAX_PREDICTION + 1)))
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
ACTION_ID_OF = ids_by_identity(ACTIONS)  # every Differenzler game's table is ACTIONS itself
PREDICTIONS = ACTIONS[PREDICT_ACTION:]
PREDICT_MASK = ((1 << len(PREDICTIONS)) - 1) << PREDICT_ACTION

# Card actions of one suit for each 9-bit pattern: legal_actions is four lookups.
BY_SUIT = tuple(tuple([ACTIONS[s * 9 + r] for r in range(9) if m >> r & 1] for m in range(512)) for s in range(4))
