"""What a seat may see of a Jass game: its own hand, the table, the scores, and nothing more.

A view is plain JSON. Other hands show only their sizes; Weis only once shown after the first
trick; what a seat cannot hold only as everybody has inferred it from the cards played.
"""

from __future__ import annotations

from typing import Any

from .actions import PHASE_NAMES
from .cards import DECK, MODES
from .passe import progress
from .position import JassFields
from .scoring import STOECK, tally_total
from .weis import weis_json


def view(state: JassFields, seat: int | None) -> dict[str, Any]:
    """`state` as `seat` sees it (None: a spectator, who sees no hand)."""
    s = state
    names = DECK.names
    trick_seats = [(s._leader - i) & 3 for i in range(len(s._trick))]
    shown: list[dict[str, object]] = []
    if s._weis_teams is not None:
        for p in range(4):
            if p & 1 in s._weis_teams:
                shown.extend(weis_json(p, w) for w in s._weis[p])
    tricks = [
        {"leader": lead, "cards": [names[c] for c in cards], "winner": win, "points": pts}
        for lead, cards, win, pts in s._tricks
    ]
    tally, match, mult = s._tally, s._match, s.multiplier or 1
    v: dict[str, Any] = {
        "game": "jass",
        "seat": seat,
        "options": dict(s.game.options),
        "profile": s._profile.name,
        "target": None if s._deals else s._target,  # none in a game of fixed deals
        "phase": PHASE_NAMES[s._phase],
        "current_player": s.current_player,
        "deal_number": s._deal_no,
        "forehand": s._forehand,
        "hand": [] if seat is None else DECK.notation(s._hands[seat]),
        "hand_sizes": [h.bit_count() for h in s._hands],
        "trump": None if s._trump < 0 else MODES[s._trump],
        "trump_chosen_by": None if s._chooser < 0 else s._chooser,
        "pushed": s._pushed,
        "trick": [{"seat": p, "card": names[c]} for p, c in zip(trick_seats, s._trick, strict=True)],
        "trick_leader": s._leader if s._trick else None,
        "tricks": tricks,
        "last_trick": last_trick(s),
        "cannot_hold": [DECK.notation(v) for v in s._voids],  # what everybody has inferred
        "weis": shown,
        "weis_scored_by": None if s._weis_teams is None else list(s._weis_teams),
        "announced": announced(s),
        # The seat's own Weis, which it may announce (weis="announce"): its own cards only.
        "own_weis": None if seat is None or not s._announce else [weis_json(seat, w) for w in s._held[seat]],
        # scored: a Stöck played in silence (stoeck="announce") is done, and lost
        "stoeck": s._stoeck_seat if s._stoeck_done and s._tally[STOECK + (s._stoeck_seat & 1)] else None,
        "multiplier": s.multiplier,
        "multipliers": dict(zip(MODES, s._mults, strict=True)),
        "deal_points": [tally_total(tally, match, 0, mult), tally_total(tally, match, 1, mult)],
        "scores": [s._scores[0], s._scores[1]],
        "previous_deals": [d.to_json() for d in s._summaries],
        "winners": s.winners() or None,
    }
    fixed = progress(s._deals, s._deal_no, s.is_terminal())
    if fixed is not None:
        v.update(fixed)
    if seat is not None and seat == s.current_player:
        v["legal_actions"] = [a.text for a in s.legal_actions()]
    return v


def announced(state: JassFields) -> list[dict[str, Any]] | None:
    """weis="announce": who has announced a Weis in this deal, and its points as announced (each
    Weis of the set, highest first); the cards are shown only after the first trick, and only the
    scoring team's. None in games whose Weis are not announced."""
    if not state._announce:
        return None
    return [
        {"seat": p, "points": sorted((w.points for w in state._weis[p]), reverse=True)}
        for p in range(4)
        if state._weis[p]
    ]


def last_trick(state: JassFields) -> dict[str, Any] | None:
    """The trick taken last, even when it closed the previous deal."""
    if state._tricks:
        deal, (lead, cards, win, pts) = state._deal_no, state._tricks[-1]
    elif state._summaries and state._summaries[-1].last_trick is not None:
        deal, (lead, cards, win, pts) = state._summaries[-1].number, state._summaries[-1].last_trick
    else:
        return None
    return {"deal": deal, "leader": lead, "cards": [DECK.names[c] for c in cards], "winner": win, "points": pts}
