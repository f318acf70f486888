"""A round's rules as a composition: the revealed rule cards, read once into small pieces.

`compose(cards)` turns the active rule cards into a `RoundRules`: the trump rules (trump.py), the
setup phases that basic rules add, in number order (phases.py), the switches of the trick
(trick.py: following, leading, winning, taking, direction) and the scoring steps in number
order (scoring.py). No code anywhere asks "is rule 30 in play?": it asks the composed pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import SUIT_MASK, SUITS, VALUE_MASK
from .rulecards import RuleCard

# Basic-rule switches: effect kind -> RoundRules attribute.
SWITCHES = {
    "face_down_followers": "face_down_followers",
    "follow_last_card": "follow_last_card",
    "must_trump": "must_trump",
    "must_beat": "must_beat",
    "no_trump_lead_until_broken": "trump_lead_needs_break",
    "lead_cannot_win": "lead_cannot_win",
    "second_highest_wins": "second_highest_wins",
    "reverse_ranks": "reverse_ranks",
    "anti_trump": "anti_trump",
    "suits_equal": "suits_equal",
    "remove_from_trick": "remove_from_trick",
    "trick_to_left": "trick_to_left",
    "right_of_winner_leads": "right_of_winner_leads",
    "reverse_direction": "reverse_direction",
}
PHASE_KINDS = ("pass", "face_down_last", "show", "discard")


Seats = tuple[int, ...]  # a card mask per seat


@dataclass(frozen=True)
class SetupPhase:
    """A decision before the first lead that a basic rule adds: every player in turn picks
    `count` hand cards; the picks stay secret until all have picked, then take effect together."""

    rule: int
    kind: str  # pass | face_down_last | show | discard
    count: int
    to: int = 0  # pass: +1 = to the left (clockwise neighbour), -1 = to the right

    @property
    def action(self) -> str:
        """The action prefix of this phase's picks."""
        return {"pass": "pass", "face_down_last": "down", "show": "show", "discard": "discard"}[self.kind]

    def resolve(
        self, hands: Sequence[int], picks: Sequence[int], face_down: Seats, shown: Seats, discarded: Seats
    ) -> tuple[list[int], Seats, Seats, Seats]:
        """What the picks do once everyone has picked, all together: the new hands, face-down,
        shown and discarded cards per seat (passed cards go `to` seats on; a discarded card that
        was shown is shown no more)."""
        n = len(hands)
        if self.kind == "pass":
            out = [hands[s] & ~picks[s] for s in range(n)]
            for s in range(n):
                out[(s + self.to) % n] |= picks[s]
            return out, face_down, shown, discarded
        if self.kind == "face_down_last":
            return (
                [hands[s] & ~picks[s] for s in range(n)],
                tuple(face_down[s] | picks[s] for s in range(n)),
                shown,
                discarded,
            )
        if self.kind == "show":
            return list(hands), face_down, tuple(shown[s] | picks[s] for s in range(n)), discarded
        return (  # discard
            [hands[s] & ~picks[s] for s in range(n)], face_down, tuple(shown[s] & ~picks[s] for s in range(n)),
            tuple(discarded[s] | picks[s] for s in range(n)),
        )  # fmt: skip


@dataclass(frozen=True)
class RoundRules:
    numbers: tuple[int, ...]
    static_trumps: tuple[tuple[int, int], ...] = ()  # (rule number, card mask)
    dynamic_trump_rule: int = 0  # rule whose suit is fixed by the second trick's lead (0: none)
    phases: tuple[SetupPhase, ...] = ()
    scoring: tuple[tuple[int, dict[str, object]], ...] = ()
    face_down_followers: bool = False
    follow_last_card: bool = False
    must_trump: bool = False
    must_beat: bool = False
    trump_lead_needs_break: bool = False
    lead_cannot_win: bool = False
    second_highest_wins: bool = False
    reverse_ranks: bool = False
    anti_trump: bool = False
    suits_equal: bool = False
    remove_from_trick: bool = False
    trick_to_left: bool = False
    right_of_winner_leads: bool = False
    reverse_direction: bool = False
    by_number: dict[int, RuleCard] = field(default_factory=dict, compare=False, repr=False)

    @property
    def face_down_last(self) -> int:
        """Cards each player lays aside for the last trick (rule 24): 0 or the count."""
        return sum(p.count for p in self.phases if p.kind == "face_down_last")


def compose(cards: Sequence[RuleCard]) -> RoundRules:
    """The rules of a round with these rule cards in force (any order; applied in number order)."""
    ordered = sorted(cards, key=lambda c: c.number)
    static: list[tuple[int, int]] = []
    dynamic = 0
    phases: list[SetupPhase] = []
    scoring: list[tuple[int, dict[str, object]]] = []
    switches: dict[str, bool] = {}
    for card in ordered:
        e = card.effect
        kind = card.effect_kind
        if kind == "trump_value":
            static.append((card.number, VALUE_MASK[int(e["value"])]))
        elif kind == "trump_suit":
            static.append((card.number, SUIT_MASK[SUITS.index(str(e["suit"]))]))
        elif kind == "trump_second_trick_lead":
            dynamic = dynamic or card.number
        elif kind in PHASE_KINDS:
            to = (1 if e["to"] == "left" else -1) if kind == "pass" else 0
            phases.append(SetupPhase(card.number, kind, int(e["count"]), to))
        elif kind in SWITCHES:
            switches[SWITCHES[kind]] = True
        else:
            scoring.append((card.number, dict(e)))
    return RoundRules(
        numbers=tuple(c.number for c in ordered),
        static_trumps=tuple(static),
        dynamic_trump_rule=dynamic,
        phases=tuple(phases),
        scoring=tuple(scoring),
        by_number={c.number: c for c in ordered},
        **switches,
    )
