"""Property tests: random Jass games through the game-agnostic invariant suite (tests/invariants.py).

The long variants run with `pytest -m slow` or STICHKIT_SLOW=1.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from tests.invariants import SEEDS, SUPPRESS, Adapter, Rates, check_random_game, data_chooser, random_chooser

# -- the Jass adapter: facts from the rule sheet, written independently of the engine -------------

SUITS = "DHSC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [s + r for s in SUITS for r in RANKS]
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
TRUMP_HEIGHT = {r: h for h, r in enumerate(("6", "7", "8", "10", "Q", "K", "A", "9", "J"))}
DEAL_TOTAL = 157
MATCH_BONUS = 100


def card_points(card: str, trump: str) -> int:
    suit, rank = card[0], card[1:]
    if suit == trump:
        return {"J": 20, "9": 14}.get(rank, PLAIN_POINTS.get(rank, 0))
    if trump == "obe" and rank == "8":
        return 8
    if trump == "une":
        return {"6": 11, "8": 8, "A": 0}.get(rank, PLAIN_POINTS.get(rank, 0))
    return PLAIN_POINTS.get(rank, 0)


def deal_plays(view: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """The current deal's tricks (finished, then the one on the table) as (seat, card) in play order."""
    out = [[((t["leader"] - i) % 4, c) for i, c in enumerate(t["cards"])] for t in view["tricks"]]
    if view["trick"]:
        out.append([(e["seat"], e["card"]) for e in view["trick"]])
    return out


def known_voids(view: dict[str, Any]) -> list[set[str]]:
    """Cards each seat cannot hold, from how it followed (public knowledge).

    Not following a non-trump led suit with a non-trump: none of that suit. Not following led trump:
    no trump but the Bour. Undertrumping (a lower trump than one in the trick, non-trump led): nothing
    but trumps. Obenabe/Undenufe: not following means none of the led suit.

    Which trump "one in the trick" is: the highest (option undertrump="swiss"), or with
    undertrump="jass-kit" the trump after the lead that is lowest in the plain order 6 < ... < A."""
    trump = view["trump"]
    plain_lowest = view["options"].get("undertrump") == "jass-kit"
    voids: list[set[str]] = [set(), set(), set(), set()]
    for trick in deal_plays(view):
        led = trick[0][1][0]
        best_trump = -1  # trump height of the reference trump
        reference = ""
        if led == trump:
            best_trump = TRUMP_HEIGHT[trick[0][1][1:]]
        for seat, card in trick[1:]:
            suit = card[0]
            if suit == trump:
                h = TRUMP_HEIGHT[card[1:]]
                if led != trump and 0 <= h <= best_trump:
                    voids[seat].update(c for c in DECK if c[0] != trump)
                if not plain_lowest:
                    best_trump = max(best_trump, h)
                elif not reference or RANKS.index(card[1:]) < RANKS.index(reference[1:]):
                    reference, best_trump = card, h
            if suit == led:
                continue
            if led == trump:
                voids[seat].update(c for c in DECK if c[0] == trump and c[1:] != "J")
            elif suit != trump:
                voids[seat].update(c for c in DECK if c[0] == led)
    return voids


def deal_factor(game: Any, trump: str) -> int:
    """What a deal under `trump` counts, read from the option's text as a player writes it."""
    named = {"none": "", "swisslos": "S=2,C=2,obe=3,une=3", "one-to-four": "D=2,S=2,obe=3,une=4"}
    text = named.get(game.options["multipliers"], game.options["multipliers"])
    table = dict(pair.split("=") for pair in text.split(",") if pair)
    return int(table.get(trump, 1))


def jass_out_of_hand(view: dict[str, Any]) -> list[str]:
    return [c for trick in deal_plays(view) for _, c in trick]


def jass_shown(view: dict[str, Any]) -> set[str]:
    return {c for w in view["weis"] for c in w["cards"]}


def jass_check_scores(state: State, fail: Any) -> None:
    game = state.game
    v = state.view(None)
    sc = list(state.scores())
    s0, s1 = sc[0], sc[1]
    if sc != [s0, s1, s0, s1]:
        fail(f"partners' scores differ: {sc}")
    if v["scores"] != [s0, s1]:
        fail(f"view scores {v['scores']} != scores() {sc}")
    deals = game.options.get("deals", 0)
    target = game.options["target"]
    if v["target"] != (None if deals else target):
        fail(f"view target {v['target']} != option {target} (deals={deals})")
    if deals:
        played = v["deal_number"] + (1 if state.is_terminal() else 0)
        if (v["deals"], v["deals_played"], v["deals_to_play"]) != (deals, played, deals - played):
            fail(f"deals {deals}: view says {v['deals']}, {v['deals_played']} played, {v['deals_to_play']} to play")
        if state.is_terminal() != (played == deals and v["previous_deals"][-1]["complete"] if played else False):
            fail(f"deals {deals}: game over {state.is_terminal()} after {played} deals")
        if state.is_terminal():
            want = [0, 2] if s0 > s1 else [1, 3] if s1 > s0 else [0, 1, 2, 3]
            if list(state.winners()) != want:
                fail(f"deals {deals}: winners {state.winners()} with totals {[s0, s1]}, expected {want}")
        target = 1 << 62  # the target is not played to
    elif "deals_played" in v:
        fail("a game played to the target shows deals_played")
    prev = v["previous_deals"]
    totals = [0, 0]
    for i, d in enumerate(prev):
        if d["deal"] != i:
            fail(f"previous_deals[{i}] is deal {d['deal']}")
        tp, match = d["trick_points"], d["match"]
        last = i == len(prev) - 1
        if d["complete"]:
            if sum(tp) != DEAL_TOTAL:
                fail(f"deal {i}: trick points {tp} do not sum to {DEAL_TOTAL}")
        elif not (last and state.is_terminal()) or sum(tp) > DEAL_TOTAL or min(tp) < 0:
            fail(f"deal {i}: incomplete deal {d} that is not the game's last, or bad trick points")
        if match is not None and (tp[match] != DEAL_TOTAL or tp[1 - match] != 0):
            fail(f"deal {i}: match {match} with trick points {tp}")
        if not game.options["stoeck"] and d["stoeck"] != [0, 0]:
            fail(f"deal {i}: Stöck scored with stoeck=False: {d['stoeck']}")
        if d["stoeck"] not in ([0, 0], [20, 0], [0, 20]):
            fail(f"deal {i}: Stöck {d['stoeck']}")
        if game.options["weis"] == "off" and d["weis"] != [0, 0]:
            fail(f"deal {i}: Weis scored with weis=off: {d['weis']}")
        voids_bonus = game.options["profile"] == "seed" and match is not None
        factor = deal_factor(game, d["trump"])
        if d["multiplier"] != factor:
            fail(f"deal {i}: multiplier {d['multiplier']} under {d['trump']}, expected {factor}")
        for t in (0, 1):
            want_void = d["weis"][t] + d["stoeck"][t] if voids_bonus and t != match else 0
            if d["voided"][t] != want_void:
                fail(f"deal {i}: team {t} voided {d['voided'][t]}, expected {want_void}")
            want = tp[t] + d["weis"][t] + d["stoeck"][t] + (MATCH_BONUS if match == t else 0) - d["voided"][t]
            want *= factor
            if d["total"][t] != want:
                fail(f"deal {i}: team {t} total {d['total'][t]} != {want} from its parts {d}")
            totals[t] += d["total"][t]
    current_listed = bool(prev) and prev[-1]["deal"] == v["deal_number"]
    if state.is_terminal():
        if not current_listed:
            fail("the final deal is missing from previous_deals")
        elif prev[-1]["total"] != v["deal_points"]:
            fail(f"final deal total {prev[-1]['total']} != deal_points {v['deal_points']}")
    else:
        if current_listed:
            fail("the deal in progress is listed in previous_deals")
        totals = [totals[0] + v["deal_points"][0], totals[1] + v["deal_points"][1]]
        # The running deal: trick points won + shown Weis of scoring teams + Stöck.
        want = [0, 0]
        for k, t in enumerate(v["tricks"]):
            pts = sum(card_points(c, v["trump"]) for c in t["cards"]) + (5 if k == 8 else 0)
            if t["points"] != pts:
                fail(f"trick {k} {t['cards']} under {v['trump']} worth {t['points']}, expected {pts}")
            want[t["winner"] % 2] += t["points"]
        for w in v["weis"]:
            want[w["seat"] % 2] += w["points"]
        if v["stoeck"] is not None:
            want[v["stoeck"] % 2] += 20
        factor = 1 if v["trump"] is None else deal_factor(game, v["trump"])
        if v["multiplier"] != (None if v["trump"] is None else factor):
            fail(f"view multiplier {v['multiplier']} under {v['trump']}, expected {factor}")
        want = [want[0] * factor, want[1] * factor]
        if v["deal_points"] != want:
            fail(f"deal_points {v['deal_points']} != tricks + shown Weis + Stöck {want}")
    if totals != [s0, s1]:
        fail(f"scores {[s0, s1]} != sum over deals {totals}")
    if state.is_terminal() and not deals:
        w = list(state.winners())
        if w not in ([0, 2], [1, 3]):
            fail(f"winners() {w} is not a team")
        else:
            t = w[0]
            if not (sc[t] >= target > sc[1 - t]):
                fail(f"winners {w} with scores {[s0, s1]} and target {target}")
    elif max(s0, s1) >= target:
        fail(f"a team reached the target {target} ({[s0, s1]}) but the game goes on")


def jass_check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    view = state.view(seat)
    voids = known_voids(view)
    hands = [sample.view(p)["hand"] for p in range(4)]
    for p in range(4):
        if p == seat:
            continue
        bad = voids[p] & set(hands[p])
        if bad:
            fail(f"seat {p} is known to hold none of {sorted(bad)} but was given them")
    # The first deal's forehand is the holder of D7 (the start card): public until D7 is played.
    played = set(jass_out_of_hand(view))
    d7_rule = view["options"]["first_forehand"] == "start-card"
    if d7_rule and view["deal_number"] == 0 and "D7" not in played and "D7" not in hands[view["forehand"]]:
        holder = next(p for p in range(4) if "D7" in hands[p])
        fail(f"D7 (the start card) belongs to the first deal's forehand {view['forehand']}, sample gave it to {holder}")
    for w in view["weis"]:
        p = w["seat"]
        held = set(state.view(p)["hand"])
        missing = {c for c in w["cards"] if c in held} - set(hands[p])
        if missing:
            fail(f"seat {p} showed a Weis with {sorted(missing)} but the sample moved them")
    p = view["stoeck"]
    if p is not None and p != seat and view["trump"] in SUITS:
        pair = {view["trump"] + "K", view["trump"] + "Q"}
        moved = (pair & set(state.view(p)["hand"])) - set(hands[p])
        if moved:
            fail(f"seat {p} showed Stöck before playing {sorted(moved)}, but the sample moved them")


def jass_scan_view(view: dict[str, Any]) -> dict[str, Any]:
    """Leave out `cannot_hold` (public deductions) and a `last_trick` of an earlier deal (its cards
    were played in public, then dealt again): `jass_check_view` checks both against the plays."""
    out = {k: v for k, v in view.items() if k != "cannot_hold"}
    last = view.get("last_trick")
    if isinstance(last, dict) and last.get("deal") != view["deal_number"]:
        del out["last_trick"]
    return out


def previous_deal_last_trick(state: State) -> list[str]:
    """The last four cards played before the current deal was dealt (from the record)."""
    moves = state.record()["moves"]
    last_chance = max(i for i, m in enumerate(moves) if "chance" in m)
    return [m["action"] for m in moves[:last_chance] if "action" in m][-4:]


def jass_check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    """`cannot_hold` (if the view has it) is sound (nobody holds a card listed for them) and is
    exactly what follows from the public plays (see `known_voids`); `last_trick` (if any) is the
    last trick played, in this deal or the one before."""
    last = view.get("last_trick")
    if last is not None:
        if last.get("deal") == view["deal_number"]:
            if not view["tricks"] or view["tricks"][-1]["cards"] != last["cards"]:
                fail(f"last_trick {last} is not the deal's last finished trick")
        elif last.get("deal") != view["deal_number"] - 1 or last["cards"] != previous_deal_last_trick(state):
            fail(f"last_trick {last} is not the previous deal's last trick {previous_deal_last_trick(state)}")
    elif "last_trick" in view and view["tricks"]:
        fail("last_trick is None although the deal has finished tricks")
    if "cannot_hold" not in view:
        return
    listed = [set(c) for c in view["cannot_hold"]]
    for p in range(4):
        wrong = listed[p] & set(state.view(p)["hand"])
        if wrong:
            fail(f"cannot_hold says seat {p} cannot hold {sorted(wrong)}, but it does")
    want = known_voids(view)
    if listed != want:
        diff = {p: (sorted(listed[p] - want[p]), sorted(want[p] - listed[p])) for p in range(4) if listed[p] != want[p]}
        fail(f"cannot_hold differs from the voids the plays show (extra, missing): {diff}")


JASS = Adapter(
    name="jass",
    deck=lambda game: DECK,
    out_of_hand=jass_out_of_hand,
    shown_hand_cards=jass_shown,
    scan_view=jass_scan_view,
    check_view=jass_check_view,
    check_scores=jass_check_scores,
    check_sample=jass_check_sample,
)

# -- pinned counterexamples ---------------------------------------------------------------------


def test_sample_keeps_no_hidden_weis() -> None:
    """A sample must not carry the real, never shown Weis of the team that did not score."""
    game = stichkit.load_game("jass", profile="seed", stoeck=False)  # weis="auto"
    state = game.new_state(seed=0)
    for a in ["trump:D", "D6", "DJ", "D9", "D8"]:  # first trick: seat 3's Weis S7-S10 is shown
        state.apply(a)
    sample = state.sample_hidden(2, random.Random(0))
    assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample


def test_sample_keeps_the_start_card_with_the_forehand() -> None:
    """The first deal's trump chooser holds D7: public, so every sample must keep it there."""
    game = stichkit.load_game("jass", weis="off", stoeck=False)
    state = game.new_state(seed=0)
    forehand = state.current_player
    assert forehand is not None
    for seat in range(4):
        for r in range(10):
            sample = state.sample_hidden(seat, random.Random(r))
            assert "D7" in sample.view(forehand)["hand"]
            assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample


# -- the properties --------------------------------------------------------------------------------

SLOW = pytest.mark.slow  # a long run, only when asked (tests/conftest.py)
PROFILES = st.sampled_from(["seed", "schieber"])
SHORT_TARGETS = st.sampled_from([50, 157, 300, 300, 300, 500])


def _run_short(data: Any, options: dict[str, Any], seed: int, rng_seed: int) -> None:
    game = stichkit.load_game("jass", **options)
    check_random_game(game, JASS, seed, data_chooser(data), random.Random(rng_seed))


@settings(max_examples=20, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), profile=PROFILES, target=SHORT_TARGETS, seed=SEEDS, rng_seed=SEEDS)
def test_plain_games(data: Any, profile: str, target: int, seed: int, rng_seed: int) -> None:
    """Both profiles, no Weis, no Stöck, short games; choices shrink to the first legal action."""
    _run_short(data, {"profile": profile, "target": target, "weis": "off", "stoeck": False}, seed, rng_seed)


@settings(max_examples=20, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    profile=PROFILES,
    target=SHORT_TARGETS,
    weis=st.sampled_from(["auto", "off"]),
    stoeck=st.booleans(),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_games_with_weis_and_stoeck(
    data: Any, profile: str, target: int, weis: str, stoeck: bool, seed: int, rng_seed: int
) -> None:
    """Every option combination, short games."""
    _run_short(data, {"profile": profile, "target": target, "weis": weis, "stoeck": stoeck}, seed, rng_seed)


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    target=SHORT_TARGETS,
    first=st.sampled_from(["start-card", 0, 1, 2, 3]),
    weis=st.sampled_from(["auto", "off"]),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_jass_kit_undertrump_and_first_forehand(
    data: Any, target: int, first: Any, weis: str, seed: int, rng_seed: int
) -> None:
    """Options undertrump="jass-kit" and first_forehand: the voids, samples and views still hold."""
    options = {"profile": "schieber", "target": target, "weis": weis, "undertrump": "jass-kit", "first_forehand": first}
    _run_short(data, options, seed, rng_seed)


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    profile=PROFILES,
    target=st.sampled_from([300, 800, 1500]),
    multipliers=st.sampled_from(["swisslos", "one-to-four", "D=3,H=1,S=2,C=4,obe=5,une=6"]),
    weis=st.sampled_from(["auto", "off"]),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_games_with_multipliers(
    data: Any, profile: str, target: int, multipliers: str, weis: str, seed: int, rng_seed: int
) -> None:
    """Option multipliers: every deal's total is its parts times the factor of its trump mode."""
    options = {"profile": profile, "target": target, "multipliers": multipliers, "weis": weis}
    _run_short(data, options, seed, rng_seed)


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    profile=PROFILES,
    target=SHORT_TARGETS,
    stoeck=st.sampled_from([True, False, "announce"]),
    multipliers=st.sampled_from(["none", "swisslos"]),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_games_with_announced_weis(
    data: Any, profile: str, target: int, stoeck: Any, multipliers: str, seed: int, rng_seed: int
) -> None:
    """weis="announce" (and stoeck="announce"): announcements as decisions; samples keep the announced points, and views
    show the points of an announcement and never its cards before the first trick is complete."""
    options = {"profile": profile, "target": target, "weis": "announce", "stoeck": stoeck, "multipliers": multipliers}
    _run_short(data, options, seed, rng_seed)


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    profile=PROFILES,
    deals=st.integers(1, 3),
    weis=st.sampled_from(["auto", "off", "announce"]),
    multipliers=st.sampled_from(["none", "swisslos"]),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_games_of_fixed_deals(
    data: Any, profile: str, deals: int, weis: str, multipliers: str, seed: int, rng_seed: int
) -> None:
    """Option deals: every deal is played out, the game ends after the last, the higher total wins (a
    tie is a draw); cards conserved, undo, replay and samples as in every game."""
    options = {"profile": profile, "deals": deals, "weis": weis, "multipliers": multipliers, "target": 50}
    _run_short(data, options, seed, rng_seed)


LIGHT = Rates(step=0.25, illegal=0.02, replay=0.01, clone=0.01, sample=0.01, max_samples=2)


@settings(max_examples=3, deadline=None, suppress_health_check=SUPPRESS)
@given(profile=PROFILES, weis=st.sampled_from(["auto", "off"]), seed=SEEDS, rng_seed=SEEDS)
def test_default_target_games(profile: str, weis: str, seed: int, rng_seed: int) -> None:
    """Whole games to the default target (1000 / 2500): many deals, the undo chain over all of them."""
    game = stichkit.load_game("jass", profile=profile, weis=weis)
    rng = random.Random(rng_seed)
    check_random_game(game, JASS, seed, random_chooser(rng), rng, LIGHT)


@pytest.mark.slow
@SLOW
@settings(max_examples=400, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    profile=PROFILES,
    target=SHORT_TARGETS,
    weis=st.sampled_from(["auto", "off"]),
    stoeck=st.booleans(),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_many_games_slow(
    data: Any, profile: str, target: int, weis: str, stoeck: bool, seed: int, rng_seed: int
) -> None:
    options = {"profile": profile, "target": target, "weis": weis, "stoeck": stoeck}
    game = stichkit.load_game("jass", **options)
    check_random_game(game, JASS, seed, data_chooser(data), random.Random(rng_seed), Rates(sample=0.1, max_samples=6))


@pytest.mark.slow
@SLOW
@settings(max_examples=40, deadline=None, suppress_health_check=SUPPRESS)
@given(profile=PROFILES, weis=st.sampled_from(["auto", "off"]), stoeck=st.booleans(), seed=SEEDS, rng_seed=SEEDS)
def test_default_target_games_slow(profile: str, weis: str, stoeck: bool, seed: int, rng_seed: int) -> None:
    game = stichkit.load_game("jass", profile=profile, weis=weis, stoeck=stoeck)
    rng = random.Random(rng_seed)
    check_random_game(
        game, JASS, seed, random_chooser(rng), rng, Rates(step=0.5, illegal=0.05, replay=0.02, sample=0.02)
    )
