"""What a seat may see of a Stichwahl game: its own hand and its first bonus card before they are
turned up, the table, every bonus card, the point piles, and nothing more.

Cards drawn from the draw pile face down show only as a count (`from_draw_pile`); the families a
player has shown it does not hold are public (`void_families`).
"""

from __future__ import annotations

from typing import Any

from .actions import PHASE_NAMES, PICK, PLAY, PRIZE
from .cards import DECK, FAMILIES, NAMES
from .position import StichwahlFields, Trick
from .rules import deal_points, led_family


def view(st: StichwahlFields, seat: int | None) -> dict[str, Any]:
    """`st` as `seat` sees it (None: a spectator, who sees no hand)."""
    n = st._n
    revealed = st._phase != PICK
    v: dict[str, Any] = {
        "game": "stichwahl",
        "seat": seat,
        "options": dict(st.game.options),
        "target": st._target,
        "phase": PHASE_NAMES[st._phase],
        "current_player": st.current_player,
        "deal_number": st._deal_no,
        "starter": st._starter,
        "draws": [NAMES[c] for c in st._deal.draws],
        "trump": FAMILIES[st._trump],
        "marker": 9 if st._high else 1,
        "hand": [] if seat is None else DECK.notation(st._hands[seat]),
        "hand_sizes": [h.bit_count() for h in st._hands],
        "first_bonus_chosen": [c >= 0 for c in st._picks] if not revealed else [True] * n,
        "my_first_bonus": NAMES[st._picks[seat]] if seat is not None and st._picks[seat] >= 0 else None,
        "first_bonus": [NAMES[c] for c in st._first] if revealed else None,
        "bonus_cards": [[NAMES[c] for c in b] for b in st._bonus],
        "used_bonus": [
            {"seat": s, "card": NAMES[c], "effect": "flip" if f < 0 else f"trump:{FAMILIES[f]}", "trick": t}
            for s, c, f, t in st._used
        ],
        "trick": [{"seat": s, "card": NAMES[c]} for s, c in st._trick],
        "trick_leader": st._leader if st._phase in (PLAY, PRIZE) else None,
        "led_family": _fam(led_family([c for _, c in st._trick])),
        "trick_winner": st._player if st._phase == PRIZE else None,
        "tricks": [trick_json(t) for t in st._tricks],
        "last_trick": last_trick_json(st),
        "point_piles": list(st._points),
        "from_draw_pile": list(st._hidden),
        "draw_pile": len(st._deal.pile) - st._pile_pos,
        "void_families": [[FAMILIES[f] for f in range(4) if m >> f & 1] for m in st._voids],
        "deal_points": [deal_points(st._points[s], len(st._bonus[s])) for s in range(n)],
        "scores": list(st._scores),
        "previous_deals": [
            {"deal": i, "point_piles": list(pile), "unused_bonus": list(left), "points": list(total)}
            for i, (pile, left, total) in enumerate(st._deals)
        ],
        "winners": st.winners() or None,
    }
    if seat is not None and seat == st.current_player:
        v["legal_actions"] = [a.text for a in st.legal_actions()]
    return v


def last_trick_json(st: StichwahlFields) -> dict[str, Any] | None:
    """The trick taken last (its prize chosen), even when it closed the previous deal (as Jass)."""
    if st._tricks:
        return {**trick_json(st._tricks[-1]), "deal": st._deal_no}
    if st._prev_last is not None:
        return {**trick_json(st._prev_last), "deal": st._deal_no - 1}
    return None


def trick_json(t: Trick) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "plays": [{"seat": s, "card": NAMES[c]} for s, c in t.plays],
        "cards": [NAMES[c] for _, c in t.plays],  # play order; also what bots.base.view_key reads
        "trump": FAMILIES[t.trump],
        "marker": 9 if t.high else 1,
        "winner": t.winner,
        "prize": NAMES[t.prize],
        "taken": t.taken,
        "from_draw_pile": t.from_pile,
        "bonus_to": None if t.bonus_to < 0 else t.bonus_to,
        "pearl_to": None if t.pearl_to < 0 else t.pearl_to,
        "leader_chosen_by": None if t.chooser < 0 else t.chooser,
        "next_leader": None if t.next_leader < 0 else t.next_leader,
    }


def _fam(f: int) -> str | None:
    return None if f < 0 else FAMILIES[f]
