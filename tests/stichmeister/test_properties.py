"""Property tests: random Stich-Meister games (random rule-card sets from the seed, 3-5 players)
through the game-agnostic invariant suite (tests/invariants.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import Game, State
from tests.invariants import SUPPRESS, Adapter, Rates, check_random_game, random_chooser

SUITS = "FMKT"


def deck(game: Game) -> list[str]:
    removed = {1, 10, 13} if game.num_players == 3 else set()
    return [s + str(v) for s in SUITS for v in range(1, 16) if v not in removed]


def out_of_hand(view: dict[str, Any]) -> list[str]:
    out = [c["card"] for t in view["tricks"] for c in t["cards"]]
    if view["to_remove"]:
        out += [c["card"] for c in view["to_remove"]["cards"]]
    out += [c["card"] for c in view["trick"] if c["card"] is not None]
    out += [c for d in view["discarded"] for c in d]
    return out


def unseen(view: dict[str, Any]) -> int:
    return sum(view["face_down_counts"]) + sum(1 for c in view["trick"] if c["card"] is None)


def shown(view: dict[str, Any]) -> set[str]:
    return {c for s in view["shown"] for c in s}  # a shown card played face down stays listed


# Fields naming cards that are not holdings: the trump set and order (a fact of the rules in
# force), public deductions (`cannot_hold`) and what a giver knows of its passes (`passed`).
SCAN_SKIP = ("passed", "cannot_hold", "trump", "trump_order", "trump_line", "illegal_reasons")


def scan(view: dict[str, Any]) -> dict[str, Any]:
    """The view without SCAN_SKIP; `passed` and `cannot_hold` are checked in `check_view`. The
    finished round's summary (and its last trick) names the cards of that round, which are dealt
    again: it is checked in `check_view` against the round's tricks."""
    out = {k: v for k, v in view.items() if k not in SCAN_SKIP and k != "last_round"}
    if view["last_trick"] is not None and view["last_trick"]["round"] != view["round"]:
        del out["last_trick"]
    return out


def check_finished_round(view: dict[str, Any], fail: Any) -> None:
    """`last_trick` is the round's last trick taken; the finished round (shown until the next
    round's first action) adds up: trick values, each scoring card's points, the round's points."""
    last, done = view["last_trick"], view["last_round"]
    if view["tricks"]:
        if last != {**view["tricks"][-1], "round": view["round"]}:
            fail(f"last_trick {last} is not the round's last trick")
    elif done is not None and done["round"] != view["round"]:
        if last != {**done["tricks"][-1], "round": done["round"]} or view["trick"]:
            fail("at a round's start, last_trick is the finished round's last trick")
    elif last is not None:
        fail(f"last_trick {last} shown after the round's first action")
    if done is None:
        return
    n = len(view["scores"])
    if done["points"] != view["previous_rounds"][done["round"]]["points"]:
        fail("the finished round's points differ from previous_rounds")
    gave = [sum(r["points"][s] for r in done["scoring"]) for s in range(n)]
    if [t + g for t, g in zip(done["tricks_taken"], gave, strict=True)] != done["points"]:
        fail(f"tricks {done['tricks_taken']} + scoring cards {done['scoring']} != points {done['points']}")
    values = [sum(t["value"] for t in done["tricks"] if t["taker"] == s) for s in range(n)]
    if values != done["trick_points"]:
        fail("the finished round's trick points are not the sum of its trick values")
    played = [c["card"] for t in done["tricks"] for c in t["cards"]]
    if len(set(played)) != len(played):
        fail("a card appears twice in the finished round's tricks")


def check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    check_finished_round(view, fail)
    hands = [set(state.view(p)["hand"]) for p in range(state.game.num_players)]
    for p, cards in enumerate(view["cannot_hold"]):
        wrong = set(cards) & hands[p]
        if wrong:
            fail(f"cannot_hold says seat {p} cannot hold {sorted(wrong)}, but it does")
    if seat is None:
        if view["passed"] or view["my_face_down"] or view["rule_hand"] or view["my_choice"]:
            fail("the spectator sees private information")
        return
    mine = set(view["hand"]) | set(out_of_hand(view)) | set(view["my_face_down"]) | set(view["discarded"][seat])
    passed_on = {c for p in view["passed"] for c in p["given"]}  # a later pass may hand them on
    mine |= {c["card"] for c in view["trick"] if c["seat"] == seat}
    for p in view["passed"]:
        if not set(p["received"]) <= mine | passed_on:
            fail(f"received cards {p['received']} are not with this seat")
    if view["phase"] == "choose" and view["active_rules"] is not None:
        fail("rule cards shown before the reveal")


def check_scores(state: State, fail: Any) -> None:
    v = state.view(None)
    totals = [0] * state.game.num_players
    for r in v["previous_rounds"]:
        for s, p in enumerate(r["points"]):
            totals[s] += p
    if totals != v["scores"] or v["scores"] != state.scores():
        fail(f"scores {state.scores()} are not the sum of the rounds {totals}")
    if state.is_terminal() and len(v["previous_rounds"]) != state.game.num_players:
        fail("a game has as many rounds as players")


def check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    view = state.view(seat)
    for p in range(state.game.num_players):
        if p == seat:
            continue
        held = set(sample.view(p)["hand"])
        bad = set(view["cannot_hold"][p]) & held
        if bad:
            fail(f"seat {p} is known to hold none of {sorted(bad)} but was given them")
        held |= {t["card"] for t in sample.view(p)["trick"] if t["seat"] == p}  # shown, played face down
        missing = set(view["shown"][p]) - held
        if missing:
            fail(f"seat {p} showed {sorted(missing)} but the sample moved them")
    for pas in view["passed"]:
        with_receiver = set(sample.view(pas["to"])["hand"]) | set(sample.view(pas["to"])["my_face_down"])
        gone = set(out_of_hand(view)) | set(view["hand"])
        lost = set(pas["given"]) - with_receiver - gone
        trick_hidden = any(c["card"] is None for c in view["trick"])
        if lost and not trick_hidden:
            fail(f"cards {sorted(lost)} passed to seat {pas['to']} are not with it in the sample")
    if sample.view(seat)["rule_hand"] != view["rule_hand"]:
        fail("the sample changed the seat's rule cards")


STICHMEISTER = Adapter(
    name="stichmeister",
    deck=deck,
    out_of_hand=out_of_hand,
    unseen_count=unseen,
    shown_hand_cards=shown,
    scan_view=scan,
    check_view=check_view,
    check_scores=check_scores,
    check_sample=check_sample,
)

LIGHT = Rates(step=0.15, illegal=0.02, replay=0.01, clone=0.01, sample=0.02, max_samples=2)


@settings(max_examples=9, deadline=None, suppress_health_check=SUPPRESS)
@given(
    players=st.sampled_from([3, 4, 5]),
    prune=st.booleans(),
    seed=st.integers(0, 2**63 - 1),
    rng_seed=st.integers(0, 2**63 - 1),
)
def test_random_games(players: int, prune: bool, seed: int, rng_seed: int) -> None:
    """Whole games: every round's rule cards come from the seed's shuffle, so each example plays
    a random set of rule cards; the game completes, cards are conserved, every invariant holds."""
    game = stichkit.load_game("stichmeister", players=players, first_player=seed % players, prune_trump_rules=prune)
    rng = random.Random(rng_seed)
    check_random_game(game, STICHMEISTER, seed, random_chooser(rng), rng, LIGHT)


def test_every_rule_card_is_played_in_random_games() -> None:
    """Over a few quick games (no invariant checks) every one of the 60 cards comes into force."""
    seen: set[int] = set()
    for seed in range(40):
        players = 3 + seed % 3
        game = stichkit.load_game("stichmeister", players=players)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        for r in state.view(None)["previous_rounds"]:
            seen.update(r["rules"])
    assert seen == set(range(1, 61))
