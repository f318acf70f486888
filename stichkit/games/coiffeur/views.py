"""What a seat may see of a Coiffeur game: its own hand, the table, and both sheets.

A view is plain JSON. Other hands show only their sizes. The sheets are public, as the Schreiber
writes them on the slate for all to see: for each team, each row's kind and multiplier, the
mode it was played in, the points written and the score. What a seat cannot hold shows only as
everybody has inferred it from the cards played.
"""

from __future__ import annotations

from typing import Any

from stichkit.cards import bits

from .actions import PHASE_NAMES
from .cards import DECK, PLAY_MODES, TRICK_MODES
from .position import CoiffeurFields, DealSummary
from .rules import open_modes

JASS_MODES = ("D", "H", "S", "C", "obe", "une")


def summary_json(d: DealSummary) -> dict[str, Any]:
    lead, cards, win, pts = d.last_trick
    return {
        "deal": d.number,
        "forehand": d.forehand,
        "chooser": d.chooser,
        "pushed": d.pushed,
        "pushes": d.pushes,
        "mode": PLAY_MODES[d.play_mode],
        "team": d.chooser & 1,
        "row": d.row,
        "points": list(d.points),
        "tricks": list(d.tricks),
        "written": d.written,
        "score": d.score,
        "last_trick": {"leader": lead, "cards": [DECK.names[c] for c in cards], "winner": win, "points": pts},
    }


def sheets_json(state: CoiffeurFields) -> list[dict[str, Any]]:
    """Both teams' sheets: every row, what was played in it and what it scored; the open modes."""
    played: dict[tuple[int, int], int] = {(d.chooser & 1, d.row): d.play_mode for d in state._summaries}
    totals = state.totals()
    out = []
    for team in range(2):
        rows = []
        for r, (kind, mult) in enumerate(state._sheet):
            e = state._entries[team][r]
            mode = played.get((team, r))
            rows.append({
                "kind": kind,
                "multiplier": mult,
                "mode": None if mode is None else PLAY_MODES[mode],
                "points": None if e < 0 else e,
                "score": None if e < 0 else e * mult,
            })  # fmt: skip
        modes = open_modes(state._sheet, state._filled[team])
        out.append({"team": team, "rows": rows, "total": totals[team], "open": [PLAY_MODES[m] for m in bits(modes)]})
    return out


def view(state: CoiffeurFields, seat: int | None) -> dict[str, Any]:
    """`state` as `seat` sees it (None: a spectator, who sees no hand)."""
    s = state
    names = DECK.names
    trick_seats = [(s._leader - i) & 3 for i in range(len(s._trick))]
    chosen = s._play_mode >= 0
    v: dict[str, Any] = {
        "game": "coiffeur",
        "seat": seat,
        "options": dict(s.game.options),
        "deals": 2 * len(s._sheet),
        "phase": PHASE_NAMES[s._phase],
        "current_player": s.current_player,
        "deal_number": s._deal_no,
        "forehand": s._forehand,
        "pushed": s._pushed,
        "pushed_by": s.pushed_by(),  # the seats that pushed this deal, in order
        "chooser": s._chooser if chosen else None,
        "mode": PLAY_MODES[s._play_mode] if chosen else None,
        "row": s._row if chosen else None,
        "trick_mode": JASS_MODES[TRICK_MODES[s._play_mode][len(s._tricks)]] if chosen and len(s._tricks) < 9 else None,
        "hand": [] if seat is None else DECK.notation(s._hands[seat]),
        "hand_sizes": [h.bit_count() for h in s._hands],
        "trick": [{"seat": p, "card": names[c]} for p, c in zip(trick_seats, s._trick, strict=True)],
        "trick_leader": s._leader if s._trick else None,
        "tricks": [
            {"leader": lead, "cards": [names[c] for c in cards], "winner": win, "points": pts}
            for lead, cards, win, pts in s._tricks
        ],
        "cannot_hold": [DECK.notation(m) for m in s._voids],  # what everybody has inferred
        "points": list(s._taken),
        "sheets": sheets_json(s),
        "scores": s.totals(),
        "previous_deals": [summary_json(d) for d in s._summaries],
        "winners": s.winners() or None,
    }
    if seat is not None and seat == s.current_player:
        v["legal_actions"] = [a.text for a in s.legal_actions()]
    return v
