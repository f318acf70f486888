"""Shared helpers for the Jass rule tests: explicit deals, driving states, and an independent
reference for card points and trick winners (written from the rule sheet, not from the engine).

Seats 0..3, teams 0+2 against 1+3, play goes counter-clockwise: the next player is seat - 1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import stichkit

SUITS = "DHSC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
ALL_CARDS = [s + r for s in SUITS for r in RANKS]
DS_BUT_7 = ["D6", "D8", "D9", "D10", "DJ", "DQ", "DK", "DA"]  # every Käse card but the start card

# Rule sheet values ("Wert der Karten"): 6-9 zero, 10 ten, J 2, Q 3, K 4, A 11; trump 9 (Nell) 14,
# trump J (Bour) 20. RULINGS.md (schieber): Obenabe 8 worth 8; Undenufe 6 worth 11, 8 worth 8, A 0.
PLAIN_POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TRUMP_ORDER = ("6", "7", "8", "10", "Q", "K", "A", "9", "J")  # low to high
PLAIN_ORDER = RANKS  # low to high (Obenabe and plain suits)


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> str:
    return card[1:]


def next_seat(seat: int) -> int:
    """Counter-clockwise: the player to the right plays next."""
    return (seat - 1) % 4


def partner(seat: int) -> int:
    return (seat + 2) % 4


def team(seat: int) -> int:
    return seat % 2


def ref_points(card: str, mode: str) -> int:
    """Points of one card under a trump mode ('D'..'C', 'obe', 'une'), from the sheet and rulings."""
    r = rank(card)
    if mode == "obe":
        return 8 if r == "8" else PLAIN_POINTS[r]
    if mode == "une":
        return {"6": 11, "8": 8, "A": 0}.get(r, PLAIN_POINTS[r])
    if suit(card) == mode:
        return {"J": 20, "9": 14}.get(r, PLAIN_POINTS[r])
    return PLAIN_POINTS[r]


def ref_winner(cards: list[str], leader: int, mode: str) -> int:
    """The seat that takes a trick of `cards` (in playing order, first by `leader`)."""
    led = suit(cards[0])

    def strength(card: str) -> tuple[int, int]:
        if mode in "DHSC" and suit(card) == mode:
            return (2, TRUMP_ORDER.index(rank(card)))
        if suit(card) == led:
            h = PLAIN_ORDER.index(rank(card))
            return (1, 8 - h if mode == "une" else h)
        return (0, 0)

    best = max(range(4), key=lambda i: strength(cards[i]))
    return (leader - best) % 4


# -- building deals ----------------------------------------------------------------------------


def split(cards: str | Iterable[str]) -> list[str]:
    return cards.split() if isinstance(cards, str) else list(cards)


def _patterns(cards: Iterable[str]) -> set[tuple[Any, ...]]:
    """Every maximal run of >= 3 in a suit, every four of a kind, every K+Q pair of a suit."""
    cs = set(cards)
    out: set[tuple[Any, ...]] = set()
    for s in SUITS:
        run = 0
        for i, r in enumerate((*RANKS, None)):
            if r is not None and s + r in cs:
                run += 1
                continue
            if run >= 3:
                out.add(("run", s, i - run, run))
            run = 0
        if s + "K" in cs and s + "Q" in cs:
            out.add(("kq", s))
    for r in RANKS:
        if all(s + r in cs for s in SUITS):
            out.add(("four", r))
    return out


def complete_deal(fixed: Mapping[int, str | Iterable[str]], seed: int = 0) -> dict[str, list[list[str]]]:
    """A full deal: seat s holds fixed[s] (any number of cards); the remaining cards fill every hand
    to nine, chosen so that the filled-in cards form no Weis and no K+Q pair that the fixed cards
    do not already form. The first deal's forehand is whoever ends up with D7."""
    hands = {s: split(fixed.get(s, ())) for s in range(4)}
    used = [c for h in hands.values() for c in h]
    assert len(used) == len(set(used)), f"card given twice: {used}"
    assert all(c in ALL_CARDS for c in used), used
    assert all(len(h) <= 9 for h in hands.values())
    rest = [c for c in ALL_CARDS if c not in used]
    rng = random.Random(seed)
    for _ in range(5000):
        rng.shuffle(rest)
        out, i = [], 0
        for s in range(4):
            need = 9 - len(hands[s])
            out.append(hands[s] + rest[i : i + need])
            i += need
        if all(_patterns(out[s]) == _patterns(hands[s]) for s in range(4)):
            return {"hands": out}
    raise AssertionError(f"cannot fill {fixed} without extra Weis")


def deal_of(*hands: str | Iterable[str]) -> dict[str, list[list[str]]]:
    """A fully explicit deal: four hands of nine cards."""
    assert len(hands) == 4
    return {"hands": [split(h) for h in hands]}


# A deal used by several tests: seat 0 holds D7 and so is the first forehand.
BASIC = deal_of(
    "D7 DJ DQ DK DA S6 S7 S8 C6",
    "SA C7 C8 C9 C10 CJ CQ CK CA",
    "D6 D8 D9 D10 H6 H7 H8 H10 HQ",
    "HJ H9 HA HK S9 S10 SJ SQ SK",
)


def new_state(
    deal: Mapping[int, str | Iterable[str]] | dict[str, Any],
    *,
    profile: str = "seed",
    target: int | None = None,
    weis: str = "off",
    stoeck: bool = True,
    **more: Any,
) -> Any:
    """A state of the given deal. `deal` is {"hands": ...} or a {seat: cards} map for complete_deal.
    Weis are off unless asked for, so that tests of other rules are not disturbed by them."""
    if "hands" not in deal:
        deal = complete_deal(deal)  # type: ignore[arg-type]
    opts: dict[str, Any] = {"profile": profile, "weis": weis, "stoeck": stoeck, **more}
    if target is not None:
        opts["target"] = target
    return stichkit.load_game("jass", **opts).new_state(seed=0, deal=deal)  # later deals: seed 0


def play(state: Any, *actions: str | None) -> None:
    """Apply actions in order; a string with spaces is several actions; None = first legal action."""
    for group in actions:
        for a in [None] if group is None else group.split():
            state.apply(state.legal_actions()[0] if a is None else a)


def first_legal(state: Any) -> None:
    state.apply(state.legal_actions()[0])


def finish_deal(state: Any) -> None:
    """Play the current deal to its end (or the game's end) with the first legal action."""
    deal = state.view(None)["deal_number"]
    while not state.is_terminal() and state.view(None)["deal_number"] == deal:
        first_legal(state)


def lead_all(state: Any, leads: Iterable[str]) -> None:
    """The trick winner leads each card of `leads`; the other three play their first legal card."""
    for card in split(leads):
        state.apply(card)
        for _ in range(3):
            if state.is_terminal():
                return
            first_legal(state)


def spectator(state: Any) -> dict[str, Any]:
    return state.view(None)


def last_deal(state: Any) -> dict[str, Any]:
    return state.view(None)["previous_deals"][-1]


def all_views(state: Any) -> list[dict[str, Any]]:
    return [state.view(s) for s in (None, 0, 1, 2, 3)]


def legal(state: Any) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def play_deal_checked(state: Any, rng: random.Random, check_winner: bool = True) -> list[int]:
    """Play the current deal with random legal cards; check every trick against the reference
    (winner and points); return the deal's trick points per team."""
    v = spectator(state)
    deal = v["deal_number"]
    mode = v["trump"]
    expected = [0, 0]
    cards, leader = [], None
    while not state.is_terminal() and spectator(state)["deal_number"] == deal:
        if not cards:
            leader = state.current_player
        action = rng.choice(state.legal_actions())
        cards.append(str(action))
        state.apply(action)
        if len(cards) == 4:
            winner = ref_winner(cards, leader, mode)
            pts = sum(ref_points(c, mode) for c in cards)
            now = spectator(state)
            if now["deal_number"] == deal:
                t = now["tricks"][-1]
                assert (t["leader"], t["cards"], t["points"]) == (leader, cards, pts)
                if check_winner:
                    assert t["winner"] == winner
                assert state.current_player == t["winner"], "the trick winner leads next"
            else:
                pts += 5
            expected[winner % 2] += pts
            cards = []
    return expected
