"""Why an action of Stichwahl is refused: for each kind of action, what the phase expects instead,
or which rule it breaks, as a refusal with a code and params (core.errors). Kept apart from the
order of play (state.py): a refusal is asked for only once an action is illegal."""

from __future__ import annotations

from stichkit.core.errors import Reason, game_over, not_held

from .actions import BONUS_ACT, FLIP_ACT, LEAD, LEAD_ACT, OVER, PHASE_NAMES, PICK, PLAY, PRIZE, PRIZE_ACT, TRUMP_ACT
from .cards import FAMILIES, FAMILY_NAMES, NAMES, TRUMP
from .position import StichwahlFields
from .rules import led_family, why_not


def why_illegal(st: StichwahlFields, a: int) -> Reason:
    """Why action `a` may not be taken now: a refusal with its code and params (core.errors)."""
    text = st.game.actions[a].text
    phase = st._phase
    if phase == OVER:
        return game_over(text)
    p = st._player
    who = f"seat {p}"
    need = {
        PICK: f"{who} must first choose a first bonus card (bonus:CARD from the hand)",
        PLAY: f"{who} is to play a card (or use a bonus card first)",
        PRIZE: f"{who} won the trick and must choose the prize (prize:CARD, a card another player played)",
        LEAD: f"{who} played an unchosen 5 and must choose who leads next (lead:SEAT)",
    }[phase]

    def not_now(why: str) -> Reason:
        return Reason(f"{text}: {why}", "not_legal_now", expected=PHASE_NAMES[phase], seat=p)

    if a < BONUS_ACT:
        if phase != PLAY:
            return not_now(need)
        if not st._hands[p] >> a & 1:
            return not_held(text, p, text)
        return why_not(a, st._hands[p], led_family([c for _, c in st._trick])).prefixed(f"{text}: ")
    if a < FLIP_ACT:
        if phase != PICK:
            return not_now(f"the first bonus cards are chosen only at the start of a deal; {need}")
        name = NAMES[a - BONUS_ACT]
        return not_held(text, p, name, to_move=False)
    if a < PRIZE_ACT:
        if phase != PLAY:
            return not_now(f"bonus cards are used only on your turn before playing a card; {need}")
        card = a - FLIP_ACT if a < TRUMP_ACT else (a - TRUMP_ACT) // 4
        name = NAMES[card]
        if card not in st._bonus[p]:
            return Reason(f"{text}: {name} is not one of {who}'s bonus cards", "not_your_bonus", card=name, seat=p)
        kind = st._table.kind[card]
        if a < TRUMP_ACT:
            return Reason(f"{text}: {st._table.describe(card)} does not flip the marker", "bonus_no_flip",
                          card=name)  # fmt: skip
        fam = (a - TRUMP_ACT) % 4
        if kind != TRUMP or not st._table.trump_to[card] >> fam & 1:
            return Reason(f"{text}: {st._table.describe(card)} does not change trump to {FAMILY_NAMES[fam]}",
                          "bonus_no_trump", card=name, suit=FAMILIES[fam])  # fmt: skip
        return Reason(f"{text}: {FAMILY_NAMES[fam]} is trump already", "already_trump", suit=FAMILIES[fam])
    if a < LEAD_ACT:
        if phase != PRIZE:
            return not_now(f"no trick waits for its prize; {need}")
        card = a - PRIZE_ACT
        if any(c == card for s, c in st._trick if s == p):
            return Reason(f"{text}: the winner may not choose their own card", "own_card_prize", card=NAMES[card])
        return Reason(f"{text}: {NAMES[card]} is not in the trick", "not_in_trick", card=NAMES[card])
    if phase != LEAD:
        return not_now(need)
    return Reason(f"{text}: there is no seat {a - LEAD_ACT}", "no_such_seat", seat=a - LEAD_ACT)
