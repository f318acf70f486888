"""What a hand is worth by the players' rule of thumb, for a prediction made without search.

"Ansage: Trumpfkarten x 2 plus jedes weitere Ass 11 Punkte" (10 Jass-Tipps Differenzler, of
the Donnschtig-Jass tips, see docs/differenzler.md): twice the card points of one's trumps, plus
11 for each Ace of another suit. All nine trumps count 62 x 2 = 124, the three other Aces 33:
157 in all, a whole deal. `sample_hidden` gives a sampled hand the prediction this rule makes,
and the heuristic bot starts from it.
"""

from __future__ import annotations

from stichkit.cards import bits

from .cards import ACE, MAX_PREDICTION, POINTS, SUIT_MASK


def rule_of_thumb(hand: int, trump: int) -> int:
    """Twice the trump points in `hand`, plus 11 per Ace of another suit, at most 157."""
    points = POINTS[trump]
    trump_points = sum(points[c] for c in bits(hand & SUIT_MASK[trump]))
    aces = sum(1 for s in range(4) if s != trump and hand >> (s * 9 + ACE) & 1)
    return min(MAX_PREDICTION, 2 * trump_points + 11 * aces)
