"""What one seat may know: `view(state, seat)`.

Public: the rule cards in force after the reveal (with their text), the trump order, the tricks
of this round (rule 26: face-down cards once revealed), cards shown (rule 25) or discarded (38),
who has chosen / picked, scores. Private: the own hand and rule-card hand, the own choice and
picks before they are revealed, the cards passed to and by this seat, the own face-down card.
Hidden: every other hand, rule-card hand, secret choice, pick and face-down card.
Cards of earlier rounds appear only in the finished round's summary (`last_round`, with its last
trick as `last_trick`), shown from the round's end until the next round's first action: the same
cards are dealt again, so later their rules and scores remain (`previous_rounds`).
"""

from __future__ import annotations

from typing import Any

from .actions import CHOOSE, OVER, PHASE_NAMES, PLAY, SETUP
from .cards import DECK, names
from .position import StichMeisterFields
from .rules import RoundRules
from .scoring import plan, score_by_rule, taken_tricks, trick_value, trick_values
from .trump import Trumps


def trump_line(groups: list[list[str]]) -> str:
    """The trump order in one line, highest first: equal cards joined by '='."""
    return " > ".join("=".join(g) for g in groups) if groups else "no trump"


def view(st: StichMeisterFields, seat: int | None) -> dict[str, Any]:
    n = st._n
    rules = st.rules()
    cards = st._cards
    trumps = st.trumps()
    groups = [names(g & st.game.deck) for g in trumps.groups if g & st.game.deck]
    tricks = _tricks_json(st._tricks, rules, trumps, n, _round_length(st))
    finished = bool(st._history) and (st._phase == OVER or type(st._log[-1]) is not int)  # no action since
    last_trick = None
    if tricks:
        last_trick = {**tricks[-1], "round": st._round}
    elif finished:
        _active, _points, _takers, done, done_rules, done_trumps = st._history[-1]
        last = _tricks_json(done, done_rules, done_trumps, n, len(done))[-1:]
        last_trick = {**last[0], "round": len(st._history) - 1} if last else None
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
        "tricks": tricks,
        "trick_winning": _winning(st, tricks),
        "last_trick": last_trick,
        "last_round": _last_round(st) if finished else None,
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
            for i, (active, points, takers, *_) in enumerate(st._history)
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


def _setup(st: StichMeisterFields, seat: int | None) -> dict[str, Any] | None:
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


def _passed(st: StichMeisterFields, seat: int | None) -> list[dict[str, Any]]:
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


def _round_length(st: StichMeisterFields) -> int:
    """How many tricks this round has: those taken, and one per n cards still to play (hands, the
    face-down cards of rule 24, the trick on the table or waiting for rule 34's removal)."""
    n = st._n
    left = sum(h.bit_count() for h in st._hands) + sum(m.bit_count() for m in st._face_down) + len(st._trick)
    return len(st._tricks) + (1 if st._pending else 0) + left // n


def _tricks_json(
    tricks: tuple[tuple[Any, ...], ...], rules: RoundRules | None, trumps: Trumps, n: int, total: int
) -> list[dict[str, Any]]:
    """The finished tricks with what each is worth (final once taken: scoring.trick_value)."""
    if not tricks:
        return []
    assert rules is not None
    worth = trick_values(plan(rules, trumps).trick, taken_tricks(tricks), trumps, n, total)
    return [
        {
            "leader": lead,
            "cards": [{"seat": s, "card": DECK.names[c]} for s, c in plays],
            "winner": win,
            "taker": took,
            "removed": DECK.names[rem] if rem >= 0 else None,
            "value": value,
        }
        for (lead, plays, win, took, rem), value in zip(tricks, worth, strict=True)
    ]


def _last_round(st: StichMeisterFields) -> dict[str, Any]:
    """The round just finished: its rules, tricks with their values, and each seat's tricks and
    points with what every scoring card gave (score_by_rule)."""
    n = st._n
    active, points, takers, tricks, rules, trumps = st._history[-1]
    _points, _values, by_rule = score_by_rule(taken_tricks(tricks), rules, trumps, n)
    listed = _tricks_json(tricks, rules, trumps, n, len(tricks))
    trick_points = [0] * n
    for t in listed:
        trick_points[t["taker"]] += t["value"]
    return {
        "round": len(st._history) - 1,
        "rules": list(active),
        "tricks": listed,
        "tricks_taken": [takers.count(s) for s in range(n)],
        "trick_points": trick_points,
        "scoring": [{"rule": number, "points": gave} for number, gave in by_rule],
        "points": list(points),
    }


def _winning(st: StichMeisterFields, tricks: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The trick in progress as it stands: the seat whose card wins it if no card followed, who would
    take it (rule 35) and what it would be worth (scoring.trick_value; before rule 34's removal).
    None while no card can win yet (empty, or only the lead under rule 29) or while a card lies face
    down (rule 26): then nobody can tell, so no view says."""
    trick, tab, rules = st._trick, st._tab, st._rules
    if st._phase != PLAY or not trick or tab is None or rules is None or not all(up for _s, _c, up in trick):
        return None
    cards = [c for _s, c, _up in trick]
    pos = tab.winner(cards)
    if pos < 0:
        return None
    seat = trick[pos][0]
    took = (seat + 1) % st._n if rules.trick_to_left else seat  # trick.taker
    before = sum(1 for t in tricks if t["taker"] == took)
    mask = sum(1 << c for c in cards)
    steps = plan(rules, st._trumps).trick
    value = trick_value(steps, st._trumps, mask, cards[pos], cards[0], len(tricks), _round_length(st), before)
    return {"seat": seat, "card": DECK.names[cards[pos]], "taker": took, "value": value}
