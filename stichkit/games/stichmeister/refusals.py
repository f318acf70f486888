"""Why an action is refused now, phase by phase: the message, its code and its params.

Only the refusal path comes here (the hot path asks the legal mask); a card of the trick play is
explained by trick.why_not, the rule that forbids it.
"""

from __future__ import annotations

from stichkit.core.errors import Reason, game_over, not_held

from .actions import (
    ACTION_TEXTS,
    CHOOSE,
    OVER,
    PHASE_NAMES,
    PICK_ACTION,
    PLAY,
    REMOVE,
    REMOVE_ACTION,
    RULE_ACTION,
    SETUP,
)
from .cards import DECK
from .position import StichMeisterFields
from .trick import why_not


def why_illegal(st: StichMeisterFields, a: int) -> Reason:
    """Why action `a` is refused now, with its code and params: the phase's own words."""
    text = ACTION_TEXTS[a]
    phase = st._phase
    if phase == OVER:
        return game_over(text)
    p = st._player
    who = f"seat {p}"
    wants = {
        CHOOSE: "choose a rule card (rule:N)",
        SETUP: "pick a card for the setup phase",
        PLAY: "play a card",
        REMOVE: "remove a card of the trick (remove:CARD)",
    }[phase]

    def not_now(why: str) -> Reason:
        return Reason(f"{text}: {why}", "not_legal_now", expected=PHASE_NAMES[phase], seat=p)

    if phase == CHOOSE:
        if RULE_ACTION <= a < 120:
            hand = ", ".join(f"rule:{k}" for k in st._rule_hands[p])
            return Reason(f"{text}: {who} does not hold rule card {a - RULE_ACTION + 1}; it holds {hand}",
                          "rule_not_held", rule=a - RULE_ACTION + 1, held=list(st._rule_hands[p]))  # fmt: skip
        return not_now(f"{who} must first {wants}")
    rules = st.rules()
    assert rules is not None
    if phase == SETUP:
        ph = rules.phases[st._phase_idx]
        prefix = ph.action
        if not (PICK_ACTION[prefix] <= a < PICK_ACTION[prefix] + 60):
            return not_now(f"{who} must pick {ph.count} card(s) with {prefix}:CARD (rule {ph.rule}, {ph.kind})")
        c = a - PICK_ACTION[prefix]
        if st._picks[p] >> c & 1:
            return Reason(f"{text}: {DECK.names[c]} is already picked", "already_picked", card=DECK.names[c])
        return not_held(text, p, DECK.names[c], to_move=False)
    if phase == REMOVE:
        if a < REMOVE_ACTION:
            return not_now(f"{who} won the trick and must first {wants} (rule 34)")
        name = DECK.names[a - REMOVE_ACTION]
        return Reason(f"{text}: {name} is not in the trick just won", "not_in_trick", card=name)
    if a >= 60:
        return not_now(f"it is the trick play; {who} must {wants}")
    if not st._hands[p] >> a & 1:
        return not_held(text, p, text)
    reason = why_not(a, st._hands[p], st.visible_trick(), rules, st.trumps(), st.trumps_broken())
    return reason.prefixed(f"{text}: ")
