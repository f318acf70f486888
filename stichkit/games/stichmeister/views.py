"""What one seat may know: `view(state, seat)`.

Public: the rule cards in force after the reveal (with their text), the trump order, the tricks
of this round (rule 26: face-down cards once revealed), cards shown (rule 25) or discarded (38),
who has chosen / picked, scores. Private: the own hand and rule-card hand, the own choice and
picks before they are revealed, the cards passed to and by this seat, the own face-down card.
Hidden: every other hand, rule-card hand, secret choice, pick and face-down card.
Cards of earlier rounds never appear (the same card is dealt again), only their scores.
"""

from __future__ import annotations

from typing import Any

from .cards import DECK, names
from .state import CHOOSE, PHASE_NAMES, SETUP, StichMeisterState


def trump_line(groups: list[list[str]]) -> str:
    """The trump order in one line, highest first: equal cards joined by '='."""
    return " > ".join("=".join(g) for g in groups) if groups else "no trump"


def view(st: StichMeisterState, seat: int | None) -> dict[str, Any]:
    n = st._n
    rules = st.rules()
    cards = st._cards
    trumps = st.trumps()
    groups = [names(g & st.game.deck) for g in trumps.groups if g & st.game.deck]
    v: dict[str, Any] = {
        "game": "stichmeister",
        "seat": seat,
        "options": dict(st.game.options),
        "phase": PHASE_NAMES[st._phase],
        "current_player": st.current_player,
        "round": st._round,
        "rounds": st.game.rounds,
        "dealer": st._dealer,
        "hand": [] if seat is None else names(st._hands[seat]),
        "hand_sizes": [h.bit_count() for h in st._hands],
        "rule_hand": [] if seat is None else [cards[k - 1].to_json() for k in st._rule_hands[seat]],
        "rule_hand_sizes": [len(h) for h in st._rule_hands],
        "rule_pile_size": len(st._rule_pile),
        "rule_cards_used": sorted(st._used),
        "choosers": list(st._choosers),
        "chosen": [s for s in st._choosers if st._chosen[s]] if st._phase == CHOOSE else list(st._choosers),
        "my_choice": (st._chosen[seat] or None) if seat is not None else None,
        "active_rules": [cards[k - 1].to_json() for k in st._active] if st._active else None,
        "extra_rule": st._extra or None,
        "trump": names(trumps.mask & st.game.deck),
        "trump_order": groups,
        "trump_line": trump_line(groups),
        "second_trick_suit": None if st._dyn_suit < 0 else DECK.suits[st._dyn_suit],
        "setup": _setup(st, seat),
        "passed": _passed(st, seat),
        "shown": [names(st._shown[s]) for s in range(n)],
        "discarded": [names(m) for m in st._discarded],
        "face_down_counts": [m.bit_count() for m in st._face_down],
        "my_face_down": [] if seat is None else names(st._face_down[seat]),
        "trick": [
            {"seat": s, "card": DECK.names[c] if up or s == seat else None, "face_down": not up}
            for s, c, up in st._trick
        ],
        "trick_leader": st._leader,
        "direction": st._direction,
        "tricks": [
            {
                "leader": lead,
                "cards": [{"seat": s, "card": DECK.names[c]} for s, c in plays],
                "winner": win,
                "taker": took,
                "removed": DECK.names[rem] if rem >= 0 else None,
            }
            for lead, plays, win, took, rem in st._tricks
        ],
        "to_remove": (
            {
                "leader": st._pending[0],
                "cards": [{"seat": s, "card": DECK.names[c]} for s, c in st._pending[1]],
                "winner": st._pending[2],
            }
            if st._pending
            else None
        ),
        "tricks_taken": [sum(1 for t in st._tricks if t[3] == s) for s in range(n)],
        "trumps_broken": st.trumps_broken() if rules is not None and rules.trump_lead_needs_break else None,
        "cannot_hold": [names(m & st.game.deck) for m in st._voids],
        "previous_rounds": [
            {
                "round": i,
                "rules": list(active),
                "points": list(points),
                "tricks_taken": [takers.count(s) for s in range(n)],
            }
            for i, (active, points, takers) in enumerate(st._history)
        ],
        "scores": list(st._scores),
        "winners": st.winners() or None,
    }
    if seat is not None and seat == st.current_player:
        v["legal_actions"] = [a.text for a in st.legal_actions()]
        if st._phase == 2:  # play: why each other hand card may not be played
            legal = set(v["legal_actions"])
            v["illegal_reasons"] = {c: st.why_not(c).partition(": ")[2] for c in v["hand"] if c not in legal}
    return v


def _setup(st: StichMeisterState, seat: int | None) -> dict[str, Any] | None:
    rules = st.rules()
    if st._phase != SETUP or rules is None:
        return None
    ph = rules.phases[st._phase_idx]
    return {
        "rule": ph.rule,
        "kind": ph.kind,
        "action": ph.action,
        "count": ph.count,
        "to": {1: "left", -1: "right"}.get(ph.to),
        "done": [s for s in range(st._n) if st._picks[s].bit_count() >= ph.count],
        "my_picks": [] if seat is None else names(st._picks[seat]),
    }


def _passed(st: StichMeisterState, seat: int | None) -> list[dict[str, Any]]:
    """The passes this seat took part in: cards given and received (known to giver and receiver)."""
    rules = st.rules()
    if seat is None or rules is None:
        return []
    out = []
    n = st._n
    for ph, picks in zip(rules.phases, st._resolved, strict=False):
        if ph.kind != "pass":
            continue
        to, frm = (seat + ph.to) % n, (seat - ph.to) % n
        out.append({"rule": ph.rule, "to": to, "given": names(picks[seat]), "from": frm, "received": names(picks[frm])})
    return out
