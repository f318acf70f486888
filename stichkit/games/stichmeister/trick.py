"""The trick: leading, following, the winner, who takes it, who leads next and the direction.

Each piece reads the composed `RoundRules` switches and the `Trumps`; together they are the
rulebook's "3. Stichspiel" with every basic rule in force applied:

- following: the class of a card is "trump" for any trump, else its own suit. Follow the class of
  the reference card (the first card; rule 27: the last face-up card). A trump never follows a
  plain suit; any trump follows a trump. Cannot follow: any card (rule 28: a trump if you hold
  one). Rule 40: following, beat the highest face-up card of that class if you can.
- leading: any card (rule 39: no trump lead until a trump was played this round, unless you hold
  only trumps).
- the winner: highest trump, else highest card of the led suit; equal cards: the later one wins.
  Rules 31 (values reversed), 32 (anti-trumps), 33 (suits equal) change the strength of a card;
  rules 29 (the first card cannot win) and 30 (the second highest wins) change which card wins.
- rule 35: the trick goes to the winner's left neighbour; rule 36: the winner's right neighbour
  leads next; rule 37: the direction reverses after every trick. Left/right are seats +1/-1.
"""

from __future__ import annotations

from collections.abc import Sequence

from stichkit.cards import bits
from stichkit.core.errors import Reason

from .cards import ALL_CARDS, DECK, SUIT_MASK, SUIT_NAMES, suit_of, value_of
from .rules import RoundRules
from .trump import Trumps, value_height

SWITCH_RULE = {  # switch -> effect kind, to name the rule card in messages
    "must_trump": "must_trump",
    "must_beat": "must_beat",
    "trump_lead_needs_break": "no_trump_lead_until_broken",
}


def rule_of(rules: RoundRules, effect_kind: str) -> int:
    """The number of the (first) rule card in force with this effect kind."""
    return next(n for n, c in sorted(rules.by_number.items()) if c.effect_kind == effect_kind)


def card_class(card: int, trumps: Trumps) -> int:
    """The cards that follow `card`: all trumps for a trump, else its suit without the trumps."""
    if trumps.mask >> card & 1:
        return trumps.mask
    return SUIT_MASK[suit_of(card)] & ~trumps.mask


def class_name(card: int, trumps: Trumps) -> str:
    return "trump" if trumps.mask >> card & 1 else SUIT_NAMES[suit_of(card)]


def height_in_class(card: int, rules: RoundRules, trumps: Trumps) -> int:
    """Height among the cards of its own class (for rule 40's "beat")."""
    if trumps.mask >> card & 1:
        return trumps.rank[card]
    return value_height(card, rules.reverse_ranks)


def reference(visible: Sequence[int], rules: RoundRules) -> int:
    """The card to follow: the first (rule 27: the last face-up card)."""
    return visible[-1] if rules.follow_last_card else visible[0]


def _beaters(cls: int, visible: Sequence[int], rules: RoundRules, trumps: Trumps) -> int:
    """Cards of class `cls` higher than its highest face-up card in the trick (rule 40)."""
    shown = [c for c in visible if cls >> c & 1]
    if not shown:
        return 0
    best = max(height_in_class(c, rules, trumps) for c in shown)
    return sum(1 << c for c in bits(cls) if height_in_class(c, rules, trumps) > best)


def legal_plays(hand: int, visible: Sequence[int], rules: RoundRules, trumps: Trumps, broken: bool) -> int:
    """The cards of `hand` that may be played to a trick whose face-up cards are `visible`."""
    if not visible:
        if rules.trump_lead_needs_break and not broken and hand & ~trumps.mask:
            return hand & ~trumps.mask
        return hand
    cls = card_class(reference(visible, rules), trumps)
    same = hand & cls
    if same:
        if rules.must_beat:
            up = same & _beaters(cls, visible, rules, trumps)
            if up:
                return up
        return same
    if rules.must_trump and hand & trumps.mask:
        return hand & trumps.mask
    return hand


LEGAL = Reason("", "")  # why_not's answer for a card that may be played (falsy, as "")


def why_not(card: int, hand: int, visible: Sequence[int], rules: RoundRules, trumps: Trumps, broken: bool) -> Reason:
    """Why `card` (held) may not be played now, with its code and params; "" (LEGAL) if it may."""
    name = DECK.names[card]
    is_trump = bool(trumps.mask >> card & 1)
    if not visible:
        if rules.trump_lead_needs_break and not broken and is_trump and hand & ~trumps.mask:
            n = rule_of(rules, "no_trump_lead_until_broken")
            return Reason(
                f"{name} is a trump, and trump may not be led before a trump was played this round (rule {n})",
                "trump_not_broken", card=name, rule=n,
            )  # fmt: skip
        return LEGAL
    ref = reference(visible, rules)
    cls = card_class(ref, trumps)
    ref_name = class_name(ref, trumps)
    ref_code = "trump" if trumps.mask >> ref & 1 else DECK.suits[suit_of(ref)]
    which = "the last face-up card" if rules.follow_last_card else "the led card"
    same = hand & cls
    if same:
        follow = DECK.notation(same)
        if not cls >> card & 1:
            if is_trump:
                return Reason(f"{name} is a trump and cannot follow {ref_name}; you must follow {ref_name} ({which})",
                              "trump_cannot_follow", card=name, suit=ref_code, cards=follow)  # fmt: skip
            return Reason(f"you must follow {ref_name} ({which}), and {name} is {class_name(card, trumps)}",
                          "must_follow", card=name, suit=ref_code, cards=follow)  # fmt: skip
        if rules.must_beat:
            up = same & _beaters(cls, visible, rules, trumps)
            if up and not up >> card & 1:
                n = rule_of(rules, "must_beat")
                beat = " ".join(DECK.notation(up))
                return Reason(
                    f"{name} does not beat the highest face-up {ref_name}; you must beat it (rule {n}): {beat}",
                    "must_beat", card=name, rule=n, cards=DECK.notation(up),
                )  # fmt: skip
        return LEGAL
    if rules.must_trump and hand & trumps.mask and not is_trump:
        n = rule_of(rules, "must_trump")
        return Reason(f"you cannot follow {ref_name}, so you must play a trump (rule {n})", "must_trump",
                      card=name, suit=ref_code, rule=n)  # fmt: skip
    return LEGAL


def inferred_voids(card: int, visible: Sequence[int], rules: RoundRules, trumps: Trumps, broken: bool) -> int:
    """What everybody learns about the rest of a hand from the card it played: cards it cannot hold."""
    if not visible:
        if rules.trump_lead_needs_break and not broken and trumps.mask >> card & 1:
            return ~trumps.mask & ((1 << 60) - 1)  # led trump unbroken: only trumps were left
        return 0
    cls = card_class(reference(visible, rules), trumps)
    if not cls >> card & 1:
        void = cls
        if rules.must_trump and not trumps.mask >> card & 1:
            void |= trumps.mask
        return void
    if rules.must_beat:
        up = _beaters(cls, visible, rules, trumps)
        if up and not up >> card & 1:
            return up
    return 0


def strength(card: int, led: int, rules: RoundRules, trumps: Trumps) -> int:
    """How strong `card` is in a trick led by `led` (higher wins; equal: the later card wins)."""
    if trumps.mask >> card & 1:
        return trumps.rank[card] + (0 if rules.anti_trump else 300)  # 32: below all suits
    led_trump = bool(trumps.mask >> led & 1)
    v = value_height(card, rules.reverse_ranks)
    if rules.suits_equal or (rules.anti_trump and led_trump):
        return 200 + v  # 33 / 32 with trump led: every plain suit is equal
    if not led_trump and suit_of(card) == suit_of(led):
        return 200 + v
    return 100  # a plain card of another suit: none of them can win, all equal


def winner_position(cards: Sequence[int], rules: RoundRules, trumps: Trumps) -> int:
    """The position (0 = lead) of the card that wins the trick."""
    led = cards[0]
    start = 1 if rules.lead_cannot_win else 0
    order = sorted(range(start, len(cards)), key=lambda i: (strength(cards[i], led, rules, trumps), i), reverse=True)
    if rules.second_highest_wins and len(order) > 1:
        return order[1]
    return order[0]


def taker(winner: int, rules: RoundRules, n: int) -> int:
    """Who gets the trick: the winner (rule 35: the winner's left neighbour)."""
    return (winner + 1) % n if rules.trick_to_left else winner


def next_leader(winner: int, rules: RoundRules, n: int) -> int:
    """Who leads next: the winner (rule 36: the winner's right neighbour)."""
    return (winner - 1) % n if rules.right_of_winner_leads else winner


def direction_after(direction: int, rules: RoundRules) -> int:
    """+1 clockwise, -1 counter-clockwise; rule 37 reverses it after every trick."""
    return -direction if rules.reverse_direction else direction


# Value heights of every card: [reverse_ranks][card] (see trump.value_height).
_VALUE_HEIGHT = (tuple(value_of(c) for c in range(60)), tuple(16 - value_of(c) for c in range(60)))


class TrickTables:
    """One round's trick rules read once into lookup tables (a round's rules with one trump order):
    the state's hot path asks these instead of the functions above, with the same answers.

    `cls[card]` is `card_class`, `height[card]` is `height_in_class`; `beaters`, `winner` are
    `_beaters` and `winner_position` by table lookups. Shared between states: never mutated but
    for the memo of `beaters`."""

    __slots__ = (
        "rules", "trumps", "tm", "cls", "height", "follow_last", "must_beat", "must_trump",
        "need_break", "face_down", "lead_cannot_win", "second", "anti", "equal", "_beat",
    )  # fmt: skip

    def __init__(self, rules: RoundRules, trumps: Trumps) -> None:
        tm = trumps.mask
        plain = tuple(SUIT_MASK[s] & ~tm for s in range(4))
        vh = _VALUE_HEIGHT[rules.reverse_ranks]
        rank = trumps.rank
        self.rules = rules
        self.trumps = trumps
        self.tm = tm
        self.cls = tuple(tm if tm >> c & 1 else plain[c // 15] for c in range(60))
        self.height = tuple(rank[c] if tm >> c & 1 else vh[c] for c in range(60))
        self.follow_last = rules.follow_last_card
        self.must_beat = rules.must_beat
        self.must_trump = rules.must_trump
        self.need_break = rules.trump_lead_needs_break
        self.face_down = rules.face_down_followers
        self.lead_cannot_win = rules.lead_cannot_win
        self.second = rules.second_highest_wins
        self.anti = rules.anti_trump
        self.equal = rules.suits_equal
        self._beat: dict[tuple[int, int], int] = {}

    def legal(self, hand: int, visible: Sequence[int], broken: bool) -> int:
        """`legal_plays` by tables: the cards of `hand` that may go to a trick whose face-up cards
        are `visible`; `broken`: a trump was played this round, as everybody knows it."""
        tm = self.tm
        if not visible:
            if self.need_break and hand & ~tm and not broken:
                return hand & ~tm
            return hand
        cls = self.cls[visible[-1] if self.follow_last else visible[0]]
        same = hand & cls
        if same:
            if self.must_beat:
                up = same & self.beaters(cls, visible)
                if up:
                    return up
            return same
        if self.must_trump and hand & tm:
            return hand & tm
        return hand

    def revealed(self, card: int, visible: Sequence[int], broken: bool) -> int:
        """`inferred_voids` by tables: the cards a player shows it no longer holds by playing `card`
        to a trick whose face-up cards are `visible` (`broken` as in `legal`)."""
        tm = self.tm
        if not visible:
            if self.need_break and tm >> card & 1 and not broken:
                return ~tm & ALL_CARDS  # led trump unbroken: only trumps were left
            return 0
        cls = self.cls[visible[-1] if self.follow_last else visible[0]]
        if not cls >> card & 1:
            return cls | tm if self.must_trump and not tm >> card & 1 else cls
        if self.must_beat:
            up = self.beaters(cls, visible)
            if up and not up >> card & 1:
                return up
        return 0

    def beaters(self, cls: int, visible: Sequence[int]) -> int:
        """`_beaters(cls, visible, rules, trumps)`: cards of class `cls` above its best face-up card."""
        height = self.height
        best = -1
        for c in visible:
            if cls >> c & 1 and height[c] > best:
                best = height[c]
        if best < 0:
            return 0
        m = self._beat.get((cls, best))
        if m is None:
            m = 0
            for c in bits(cls):
                if height[c] > best:
                    m |= 1 << c
            self._beat[(cls, best)] = m
        return m

    def winner(self, cards: Sequence[int]) -> int:
        """`winner_position(cards, rules, trumps)`: strengths as in `strength`; among equal
        strengths the later card is higher; rule 30 takes the second of that order."""
        tm = self.tm
        height = self.height
        led = cards[0]
        led_trump = tm >> led & 1
        led_suit = led // 15
        plain_equal = self.equal or (self.anti and led_trump)
        trump_base = 0 if self.anti else 300
        s1 = s2 = -1
        i1 = i2 = -1
        for i in range(1 if self.lead_cannot_win else 0, len(cards)):
            c = cards[i]
            if tm >> c & 1:
                s = height[c] + trump_base
            elif plain_equal or (not led_trump and c // 15 == led_suit):
                s = 200 + height[c]
            else:
                s = 100
            if s >= s1:  # the later of equal strengths ranks higher
                s2, i2 = s1, i1
                s1, i1 = s, i
            elif s >= s2:
                s2, i2 = s, i
        if self.second and i2 >= 0:
            return i2
        return i1
