"""The Stichwahl action table, the same for every card table (RL ids never depend on the data
file), with the phases its actions belong to.

Ids: cards 0-35 (play, phase PLAY), `bonus:X` 36-71 (the first bonus card, phase PICK),
`use:X` 72-103 (a flip bonus) and `use:X:F` 104-231 (a trump bonus naming family F) before a
card in phase PLAY, `prize:X` 232-267 (phase PRIZE), `lead:S` from 268, one per seat (phase LEAD).
"""

from __future__ import annotations

from .cards import FAMILIES, FIRST_FIVE, NAMES

# The phases of a deal: everyone lays a first bonus card, then tricks, each followed by the
# winner's prize and, after an unchosen 5, the choice of the next leader.
PICK, PLAY, PRIZE, LEAD, OVER = range(5)
PHASE_NAMES = ("first_bonus", "play", "prize", "lead", "over")

BONUS_ACT = 36  # bonus:X  choose X as the first bonus card (36 actions)
FLIP_ACT = 72  # use:X    use X's flip bonus (32 family cards)
TRUMP_ACT = 104  # use:X:F  use X's trump bonus, naming family F (32 cards x 4 families)
PRIZE_ACT = 232  # prize:X  choose X as the prize (36)
LEAD_ACT = 268  # lead:S   seat S leads the next trick (one per seat)


def action_texts(players: int) -> list[str]:
    """The action table for `players` players: only the `lead:S` block depends on it."""
    texts = list(NAMES)
    texts += [f"bonus:{n}" for n in NAMES]
    texts += [f"use:{n}" for n in NAMES[:FIRST_FIVE]]
    texts += [f"use:{n}:{f}" for n in NAMES[:FIRST_FIVE] for f in FAMILIES]
    texts += [f"prize:{n}" for n in NAMES]
    texts += [f"lead:{s}" for s in range(players)]
    return texts
