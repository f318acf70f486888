"""The Stich-Meister action table: 420 fixed ids, one block of 60 per kind of decision, with the
phases they belong to.

Ids: cards 0-59 (play, phase PLAY), `rule:1`-`rule:60` 60-119 (choose a rule card, phase
CHOOSE), `pass:`/`down:`/`show:`/`discard:` + card 120-359 (the setup picks, phase SETUP) and
`remove:` + card 360-419 (rule 34: the winner removes a card of the trick, phase REMOVE).
"""

from __future__ import annotations

from stichkit.core.action import Action, ids_by_identity

from .cards import DECK

# The phases of a round: rule cards are chosen, setup rules run, tricks are played (rule 34: each
# followed by a removal); the game is over after the last round.
CHOOSE, SETUP, PLAY, REMOVE, OVER = range(5)
PHASE_NAMES = ("choose", "setup", "play", "remove", "over")

RULE_ACTION = 60  # rule:1 .. rule:60
PICK_PREFIXES = ("pass", "down", "show", "discard")
PICK_ACTION = {p: 120 + 60 * i for i, p in enumerate(PICK_PREFIXES)}
REMOVE_ACTION = 360
ACTION_TEXTS = (
    *DECK.names,
    *(f"rule:{n}" for n in range(1, 61)),
    *(f"{p}:{c}" for p in PICK_PREFIXES for c in DECK.names),
    *(f"remove:{c}" for c in DECK.names),
)
ACTIONS = tuple(Action(i, t) for i, t in enumerate(ACTION_TEXTS))
ACTION_ID_OF = ids_by_identity(ACTIONS)  # every Stich-Meister game's table is ACTIONS itself

# Card actions for each 10-bit pattern of each sixth of the deck: legal_actions is six lookups.
CHUNKS = tuple(
    tuple(tuple(ACTIONS[10 * k + i] for i in range(10) if m >> i & 1) for m in range(1024)) for k in range(6)
)
