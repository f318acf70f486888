"""What a seat may see of a Differenzler game: its own hand and prediction, the table, the
penalties, and nothing more.

A view is plain JSON. Other hands show only their sizes; the turned-up trump card is public (it
lies face up until the predictions are made, then the dealer takes it). A prediction is seen by
its own seat at once, by everybody else once the rules reveal it: at once in the open game
(predictions="open"), at the end of the deal in the hidden one. What a seat cannot hold shows
only as everybody has inferred it from the cards played.
"""

from __future__ import annotations

from typing import Any

from .actions import PHASE_NAMES
from .cards import DECK, SUITS
from .position import DealSummary, DifferenzlerFields


def predictions_known_to(state: DifferenzlerFields, seat: int | None) -> list[int | None]:
    """The current deal's predictions as `seat` knows them (None: not made, or hidden from it)."""
    return [p if p >= 0 and (state._open or s == seat) else None for s, p in enumerate(state._predictions)]


def summary_json(d: DealSummary) -> dict[str, Any]:
    lead, cards, win, pts = d.last_trick
    return {
        "deal": d.number,
        "forehand": d.forehand,
        "dealer": d.dealer,
        "trump": SUITS[d.trump],
        "trump_card": DECK.names[d.trump_card] if d.trump_card >= 0 else None,
        "predictions": list(d.predictions),
        "points": list(d.points),
        "tricks": list(d.tricks),
        "penalties": list(d.penalties),
        "last_trick": {"leader": lead, "cards": [DECK.names[c] for c in cards], "winner": win, "points": pts},
    }


def view(state: DifferenzlerFields, seat: int | None) -> dict[str, Any]:
    """`state` as `seat` sees it (None: a spectator, who sees no hand and no hidden prediction)."""
    s = state
    names = DECK.names
    trick_seats = [(s._leader - i) & 3 for i in range(len(s._trick))]
    v: dict[str, Any] = {
        "game": "differenzler",
        "seat": seat,
        "options": dict(s.game.options),
        "deals": s._deals,
        "phase": PHASE_NAMES[s._phase],
        "current_player": s.current_player,
        "deal_number": s._deal_no,
        "forehand": s._forehand,
        "dealer": s._dealer,
        "hand": [] if seat is None else DECK.notation(s._hands[seat]),
        "hand_sizes": [h.bit_count() for h in s._hands],
        "trump": SUITS[s._trump],
        "trump_card": names[s._trump_card] if s._trump_card >= 0 else None,
        "predicted": [p >= 0 for p in s._predictions],
        "predictions": predictions_known_to(s, seat),
        "trick": [{"seat": p, "card": names[c]} for p, c in zip(trick_seats, s._trick, strict=True)],
        "trick_leader": s._leader if s._trick else None,
        "tricks": [
            {"leader": lead, "cards": [names[c] for c in cards], "winner": win, "points": pts}
            for lead, cards, win, pts in s._tricks
        ],
        "cannot_hold": [DECK.notation(m) for m in s._voids],  # what everybody has inferred
        "points": list(s._taken),
        "penalties": list(s._penalties),
        "previous_deals": [summary_json(d) for d in s._summaries],
        "winners": s.winners() or None,
    }
    if seat is not None and seat == s.current_player:
        v["legal_actions"] = [a.text for a in s.legal_actions()]
    return v
