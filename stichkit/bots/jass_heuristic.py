"""The Jass (Schieber) heuristic: a club player's rules of thumb, from one seat's view only.

Everything is rebuilt from `view(seat)` at each decision: the own hand, the tricks and the trick
in progress, the Weis shown. From them it counts which cards are gone, which suits each player
has shown void (the engine's rules make a failure to follow public knowledge), and which card is
the highest remaining in its suit ("Bock"). See docs/bots.md for the strategy in words.

Signal convention ("Verwerfen"): a player's first discard of the deal that is neither a trump nor
worth 10 points or more names a suit that player does NOT want led. The bot discards that way,
and when leading it avoids the suit its partner discarded from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from stichkit.cards import bit_list
from stichkit.games.jass.cards import (
    ACE,
    DECK,
    JACK,
    KING,
    LAST_TRICK_BONUS,
    MODES,
    POINTS,
    STRENGTH,
    SUIT_MASK,
    TEN,
    TRUMP_ORDER,
)

from .announce import announces, cards_only

CARD = DECK.index
NAMES = DECK.names
ALL = (1 << 36) - 1
MODE_OF = {m: i for i, m in enumerate(MODES)}


def _above(mode: int) -> tuple[int, ...]:
    """ABOVE[mode][card]: the cards of the same suit that beat `card` when its suit is led."""
    out = []
    for c in range(36):
        s = c // 9
        row = STRENGTH[mode][s]
        out.append(sum(1 << x for x in range(s * 9, s * 9 + 9) if row[x] > row[c]))
    return tuple(out)


ABOVE = tuple(_above(m) for m in range(6))

# Trump choice: what a card is worth to the chooser when its suit is trump, by its height among
# trumps (8 = the Bour, 7 = the Nell, 6 = the Ace, ...). Heights come from the engine's table.
TRUMP_HEIGHT_VALUE = (4, 4, 4, 4, 6, 7, 12, 20, 30)
TOP, SECOND = TRUMP_ORDER.index(8), TRUMP_ORDER.index(7)  # the Bour (J) and the Nell (9)
PUSH_BELOW = 58  # push when the best choice scores less (and pushing is allowed)
NOTRUMP_WINNER = 15  # a sure trick in Obenabe / Undenufe

# What keeping a card is worth for later tricks (trumps by height: 6 7 8 10 Q K A 9 J).
TRUMP_KEEP = (8, 8, 8, 9, 10, 11, 13, 17, 24)
BOCK_KEEP = 9.0
# Fix "keep": a trump no unseen trump beats (the Bock trump: the Nell once the Bour is gone) will
# surely take a trick later, its own points with it: worth its points plus that trick. With one
# higher trump unseen and a lower trump to guard it, it is worth nearly as much.
MASTER_TRICK = 10.0
GUARDED_TRICK = 9.0

# The 2026-11 fixes to the original heuristic, after an outside rule-based player found its
# weaknesses on duplicate deals; each one can be switched off for duplicate comparisons
# (bench/heuristic_fixes.py): "keep" (trump keep values follow the fallen trumps), "bour" (a long
# suit headed by the Bour is named rather than Obenabe/Undenufe).
FIXES = ("keep", "bour")
ALL_FIXES = frozenset(FIXES)
BOUR_SUIT_LENGTH = 4  # with a suit of this many cards or more, the Bour among them, a suit is named


def mask_of(names: Sequence[str]) -> int:
    m = 0
    for n in names:
        m |= 1 << CARD[n]
    return m


def p_holds_any(n_possible: int, n_hits: int, hand_size: int) -> float:
    """Chance that a hand of `hand_size` drawn from `n_possible` cards holds one of `n_hits`."""
    if n_hits <= 0 or hand_size <= 0:
        return 0.0
    if n_possible - n_hits < hand_size:
        return 1.0
    none = 1.0
    for i in range(hand_size):
        none *= (n_possible - n_hits - i) / (n_possible - i)
    return 1.0 - none


# -- trump choice --------------------------------------------------------------------------------


def trump_suit_score(hand: int, t: int) -> float:
    tm = (hand >> (9 * t)) & 511
    n = tm.bit_count()
    score = 0.0
    for r in range(9):
        if tm >> r & 1:
            score += TRUMP_HEIGHT_VALUE[TRUMP_ORDER[r]]
    if tm >> SECOND & 1 and not tm >> TOP & 1 and n < 3:
        score -= 8  # an unguarded Nell falls to the Bour
    if n >= 4:
        score += (n - 3) * 9
    for s in range(4):
        if s == t:
            continue
        m = (hand >> (9 * s)) & 511
        length = m.bit_count()
        if m >> ACE & 1:
            score += 12
            if m >> KING & 1:
                score += 6
            if m >> TEN & 1:
                score += 4
        elif m >> KING & 1 and length >= 2:
            score += 2
        if length == 0 and n >= 3:
            score += 6
    return score


def notrump_score(hand: int, mode: int) -> float:
    """Obenabe (mode 4, A high) or Undenufe (mode 5, 6 high): sure tricks, then length."""
    order = range(8, -1, -1) if mode == 4 else range(9)
    score = 0.0
    for s in range(4):
        m = (hand >> (9 * s)) & 511
        length = m.bit_count()
        mine = 0
        for i, r in enumerate(order):
            if not m >> r & 1:
                continue
            missing = i - mine  # higher cards of this suit held by others
            if missing == 0:
                score += NOTRUMP_WINNER + POINTS[mode][s * 9 + r] * 0.5
            elif missing == 1 and length >= 3:
                score += NOTRUMP_WINNER * 0.5
            mine += 1
        if length >= 4 and m >> order[0] & 1:
            score += (length - 3) * 4  # a long suit headed by the top card runs
    return score


def fixes_of(text: str) -> frozenset[str]:
    """The set of fixes a checked `fixes=` text names ("all", "none" or "keep+bour")."""
    if text == "all":
        return ALL_FIXES
    if text == "none":
        return frozenset()
    return frozenset(text.split("+"))


def check_fixes(value: Any) -> tuple[Any, str | None]:
    """`fixes=` of the heuristic bot: "all", "none" or fixes joined by "+" (e.g. "keep+bour")."""
    allowed = f"all, none, or fixes joined by + from: {', '.join(FIXES)}"
    if not isinstance(value, str):
        return value, allowed
    text = value.strip().lower()
    if text in ("all", "none"):
        return text, None
    parts = {p.strip() for p in text.split("+")}
    if not parts <= ALL_FIXES:
        return value, allowed
    return ("all" if parts == ALL_FIXES else "+".join(f for f in FIXES if f in parts)), None


def bour_suit(hand: int) -> bool:
    """Whether the hand holds a suit of BOUR_SUIT_LENGTH cards or more with its Jack (the Bour)."""
    for s in range(4):
        m = (hand >> (9 * s)) & 511
        if m >> JACK & 1 and m.bit_count() >= BOUR_SUIT_LENGTH:
            return True
    return False


def choose_trump(view: dict[str, Any], hand: int, fixes: frozenset[str] = ALL_FIXES) -> str:
    legal = view["legal_actions"]
    best, best_score = "", -1.0
    # Fix "bour": with a long suit headed by the Bour, name a suit: not Obenabe or Undenufe (the
    # outside match of 2026-11: Obenabe was the weakest call on such hands), and do not push.
    bour_hand = "bour" in fixes and bour_suit(hand)
    for text in legal:
        if not text.startswith("trump:"):
            continue
        mode = MODE_OF[text[6:]]
        if mode >= 4 and bour_hand:
            continue
        score = trump_suit_score(hand, mode) if mode < 4 else notrump_score(hand, mode)
        if score > best_score:
            best, best_score = text, score
    if "push" in legal and best_score < PUSH_BELOW and not bour_hand:
        return "push"
    return best


# -- card play -----------------------------------------------------------------------------------


class Table:
    """What one seat knows about the deal in progress."""

    def __init__(self, view: dict[str, Any], rng: random.Random | None, fixes: frozenset[str] = ALL_FIXES) -> None:
        self.rng = rng
        self.fixes = fixes
        me = self.me = view["seat"]
        self.partner = (me + 2) & 3
        self.opps = ((me + 1) & 3, (me + 3) & 3)
        mode = self.mode = MODE_OF[view["trump"]]
        self.tmask = SUIT_MASK[mode] if mode < 4 else 0
        self.pts = POINTS[mode]
        self.hand = mask_of(view["hand"])
        self.sizes: list[int] = view["hand_sizes"]
        chooser = view["trump_chosen_by"]
        self.declarers = chooser is not None and chooser & 1 == me & 1
        self.cannot = [0, 0, 0, 0]  # cards each seat surely does not hold
        self.signal = [-1, -1, -1, -1]  # first "Verwerfen" suit per seat
        played = 0
        for t in view["tricks"]:
            lead = t["leader"]
            cards = [CARD[c] for c in t["cards"]]
            self._observe(lead, cards)
            for c in cards:
                played |= 1 << c
        trick = [CARD[p["card"]] for p in view["trick"]]
        self.trick = trick
        if trick:
            self._observe(view["trick_leader"], trick)
            for c in trick:
                played |= 1 << c
        self.n_done = len(view["tricks"])
        self.unseen = ALL & ~played & ~self.hand
        known = [0, 0, 0, 0]
        for w in view["weis"]:
            s = w["seat"]
            if s != me:
                known[s] |= mask_of(w["cards"]) & self.unseen
        for s in range(4):
            for o in range(4):
                if o != s:
                    self.cannot[s] |= known[o]
        self.known = known
        self.possible = [self.unseen & ~self.cannot[s] for s in range(4)]
        self.possible[me] = self.hand
        self.n_possible = [m.bit_count() for m in self.possible]

    def _observe(self, leader: int, cards: list[int]) -> None:
        """Learn from one trick what the engine's rules reveal: voids, and only-trumps after an undertrump."""
        mode = self.mode
        led = cards[0] // 9
        strength = STRENGTH[mode][led]
        best = strength[cards[0]]
        trumped = False
        for i in range(1, len(cards)):
            c = cards[i]
            p = (leader - i) & 3
            s = c // 9
            if s != led:
                if led == mode:
                    self.cannot[p] |= self.tmask & ~(1 << (mode * 9 + JACK))  # the Bour may hide
                elif s != mode:
                    self.cannot[p] |= SUIT_MASK[led]
                    if self.signal[p] < 0 and self.pts[c] < 10:
                        self.signal[p] = s
                elif trumped and strength[c] < best:
                    self.cannot[p] |= ALL & ~self.tmask
            if s == mode:
                trumped = True
            if strength[c] > best:
                best = strength[c]

    # -- knowledge helpers ------------------------------------------------------------------

    def is_bock(self, c: int) -> bool:
        """Nobody else can hold a higher card of its suit."""
        return not ABOVE[self.mode][c] & self.unseen

    def p_has(self, seat: int, cards: int) -> float:
        """Chance that `seat` holds at least one of `cards`."""
        if seat == self.me:
            return 1.0 if self.hand & cards else 0.0
        if self.known[seat] & cards:
            return 1.0
        hits = (self.possible[seat] & cards).bit_count()
        return p_holds_any(self.n_possible[seat], hits, self.sizes[seat])

    def p_beats(self, seat: int, card: int, led: int, value: float) -> float:
        """Chance that `seat` (to play later in this trick) beats `card`, the trick's best."""
        mode = self.mode
        poss = self.possible[seat]
        if mode < 4 and card // 9 == mode:
            return self.p_has(seat, ABOVE[mode][card] & poss)
        p = self.p_has(seat, ABOVE[mode][card] & poss)
        trumps = poss & self.tmask
        if trumps:
            p_trump = self.p_has(seat, trumps)
            follow = poss & SUIT_MASK[led]
            p_void = 1.0 - self.p_has(seat, follow)
            # Void: trumps in when it pays. Able to follow: trumps in (abschneiden) only for a fat trick.
            willing = p_void * (0.9 if value >= 8 else 0.5) + (1.0 - p_void) * (0.4 if value >= 15 else 0.08)
            p = 1.0 - (1.0 - p) * (1.0 - p_trump * willing)
        return p

    def keep(self, c: int) -> float:
        """What holding `c` is worth in later tricks."""
        mode = self.mode
        if mode < 4 and c // 9 == mode:
            keep = TRUMP_KEEP[TRUMP_ORDER[c % 9]]
            if "keep" in self.fixes:
                higher = (ABOVE[mode][c] & self.unseen).bit_count()
                if higher == 0:
                    return max(keep, self.pts[c] + MASTER_TRICK)
                if higher == 1 and self.hand & self.tmask & ~ABOVE[mode][c] & ~(1 << c):
                    return max(keep, self.pts[c] + GUARDED_TRICK)
            return keep
        if self.n_done == 8:
            return 0.0
        if self.is_bock(c):
            return BOCK_KEEP
        above = (ABOVE[mode][c] & self.unseen).bit_count()
        guards = (self.hand & SUIT_MASK[c // 9]).bit_count() - 1
        height = STRENGTH[mode][c // 9][c] - 10  # 0..8
        if above == 1 and guards >= 1:
            return 3.5 + height * 0.05
        return height * 0.05

    def suit_wish(self, s: int) -> float:
        """How much this seat wants suit `s` led (for the Verwerfen signal: discard from the lowest)."""
        m = self.hand & SUIT_MASK[s]
        w = 0.0
        for c in bit_list(m):
            if self.is_bock(c):
                w += 3.0
            elif (ABOVE[self.mode][c] & self.unseen).bit_count() == 1:
                w += 1.0
        return w

    def tie(self) -> float:
        return self.rng.random() * 1e-3 if self.rng is not None else 0.0

    # -- decisions ----------------------------------------------------------------------------

    def choose_card(self, legal: int) -> int:
        if len(legal_cards := bit_list(legal)) == 1:
            return legal_cards[0]
        if not self.trick:
            return self.lead(legal_cards)
        return self.follow(legal_cards)

    def lead(self, legal: list[int]) -> int:
        mode, tmask, hand = self.mode, self.tmask, self.hand
        opp_trumps = any(self.possible[o] & tmask for o in self.opps)
        my_trumps = [c for c in legal if tmask >> c & 1]
        if mode < 4 and my_trumps and opp_trumps:
            bock = [c for c in my_trumps if self.is_bock(c)]
            # Trumpf ziehen: pull the opponents' trumps with the highest one, if ours.
            if bock and (self.declarers or len(my_trumps) >= 2):
                return bock[0]
            # Anziehen: the declarers lead a low trump early, hoping the partner holds the Bour.
            if self.declarers and len(my_trumps) >= 3 and self.n_done < 4:
                low = min(my_trumps, key=lambda c: TRUMP_ORDER[c % 9])
                if low % 9 != SECOND or not self.unseen >> (mode * 9 + TOP) & 1:
                    return low
        # Bock cards of side suits that nobody can trump.
        best, best_v = -1, -1.0
        for c in legal:
            if tmask >> c & 1 or not self.is_bock(c):
                continue
            s = c // 9
            if mode < 4:
                unsafe = any(not (self.possible[o] & SUIT_MASK[s]) and self.possible[o] & tmask for o in self.opps)
                if unsafe:
                    continue
            v = self.pts[c] + 1 + self.tie()
            if v > best_v:
                best, best_v = c, v
        if best >= 0:
            return best
        # Lead into the partner's void, so the partner can trump in.
        pt = self.partner
        if mode < 4 and self.possible[pt] & tmask:
            for c in sorted(legal, key=lambda c: (self.pts[c], STRENGTH[mode][c // 9][c])):
                s = c // 9
                if s != mode and not self.possible[pt] & SUIT_MASK[s] and self.pts[c] < 10:
                    return c
        # Otherwise a low card from a suit the partner did not discard from, not a ten into an
        # unknown ace, rather from a long suit.
        best, best_cost = -1, 1e9
        for c in legal:
            s = c // 9
            cost = self.pts[c] + self.keep(c)
            if tmask >> c & 1:
                cost += 6 if opp_trumps else 0
            above = (ABOVE[mode][c] & self.unseen).bit_count()
            if self.pts[c] >= 10 and above:
                cost += 8
            if s == self.signal[self.partner]:
                cost += 4
            cost -= 0.5 * (hand & SUIT_MASK[s]).bit_count()
            # The partner may hold the top card: a low lead in a suit where we hold a second card.
            if above == 1 and not self.is_bock(c):
                cost += 1
            cost += self.tie()
            if cost < best_cost:
                best, best_cost = c, cost
        return best

    def follow(self, legal: list[int]) -> int:
        mode, trick = self.mode, self.trick
        led = trick[0] // 9
        strength = STRENGTH[mode][led]
        pos = len(trick)
        order = [(self.me - k) & 3 for k in range(1, 4 - pos)]  # players after me
        lead_seat = (self.me + pos) & 3
        win_i = max(range(pos), key=lambda i: strength[trick[i]])
        win_card = trick[win_i]
        win_seat = (lead_seat - win_i) & 3
        win_str = strength[win_card]
        last = self.n_done == 8
        base = sum(self.pts[c] for c in trick) + (LAST_TRICK_BONUS if last else 0) + 3.0 * len(order)
        opps_after = [q for q in order if q != self.partner]
        partner_after = self.partner in order

        def p_holds(card: int, value: float) -> float:
            p = 1.0
            for q in opps_after:
                p *= 1.0 - self.p_beats(q, card, led, value)
            return p

        if win_seat == self.partner:
            p_low = p_holds(win_card, base)
        elif partner_after:
            # The partner, still to play, may beat it (an opponent may yet play higher before).
            p_low = 0.8 * self.p_beats(self.partner, win_card, led, base) * (0.7 if opps_after else 1.0)
        else:
            p_low = 0.0
        best, best_v = legal[0], -1e9
        for c in legal:
            value = base + self.pts[c]
            if strength[c] > win_str:
                p = p_holds(c, value)
                if partner_after and p < 1.0:
                    p = max(p, p_low)
            else:
                p = p_low
            v = (2.0 * p - 1.0) * value - self.keep(c)
            if self.pts[c] < 10 and not (self.tmask >> c & 1) and c // 9 != led:
                # Verwerfen: low discards come from the suit we least want led.
                v -= 0.3 * self.suit_wish(c // 9)
            v += self.tie()
            if v > best_v:
                best, best_v = c, v
        return best


def decide(view: dict[str, Any], rng: random.Random | None, fixes: frozenset[str] = ALL_FIXES) -> str:
    """The heuristic's action for a Jass view (seat to move, `legal_actions` present); `fixes`
    switches the 2026-11 fixes (all on by default; see FIXES)."""
    phase = view["phase"]
    if phase in ("trump", "pushed"):
        return choose_trump(view, mask_of(view["hand"]), fixes)
    said = announces(view)  # weis="announce": as every bot decides it
    if said:
        return said
    if said is not None:
        view = cards_only(view)
    legal = mask_of(view["legal_actions"])
    return NAMES[Table(view, rng, fixes).choose_card(legal)]
