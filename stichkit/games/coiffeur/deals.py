"""The deals of a Coiffeur game: Jass's deals, imported from stichkit.games.jass.

A stored format: a record keeps only its seed and the decisions, so a seed must deal the same
hands for as long as records are replayed. Coiffeur deals exactly as Jass does (the hash of
"jass/<seed>/<number>", seat 0 the first nine cards), so the golden playthroughs of both pin it.
"""

from __future__ import annotations

from stichkit.games.jass.deals import Hands, deal_hands, deal_json, parse_deal

__all__ = ["Hands", "deal_hands", "deal_json", "parse_deal"]
