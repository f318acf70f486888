"""The C rules core (stichkit.native) against the Python engine, the reference.

Piece by piece (the engine's deal, CPython's random numbers, Weis, the heuristic's trump choice,
the constrained deal of sample_hidden), then whole games: random games of every option (both
profiles, Weis off, declared and announced, Stöck off, counted and announced, both undertrump
rules, every first forehand, targets that end games in the middle of a deal, every setting of
multipliers), stepped in C and in the engine
side by side, comparing at every step what each seat sees and may do (legal sets, tricks and
their winners, points, scores, the end of every deal and game). `STICHKIT_NATIVE_STEPS` sets the
number of steps of the long comparison (the default fits CI; docs/benchmarks.md gives the
figures of a run of millions).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichkit import native
from stichkit.bots.jass_heuristic import choose_trump
from stichkit.core.sampling import deal_constrained
from stichkit.games.jass import DECK
from stichkit.games.jass.cards import MODES
from stichkit.games.jass.multipliers import MAX_FACTOR
from stichkit.games.jass.profiles import SCHIEBER, SEED
from stichkit.games.jass.state import ACTION_TEXTS, PHASE_NAMES, JassState, deal_hands
from stichkit.games.jass.weis import best_weis, scoring_teams

np = pytest.importorskip("numpy", reason="the batched core is read through numpy arrays: pip install 'stichkit[rl]'")

pytestmark = pytest.mark.skipif(not native.available(), reason="the C extension is not built (no C compiler)")
J = native.load()
STEPS = int(os.environ.get("STICHKIT_NATIVE_STEPS", "30000"))


def test_the_extension_is_built() -> None:
    """`pip install -e .` compiles it (setup.py); this checkout's tests expect it."""
    assert native.available()


def test_the_deal_is_the_engines() -> None:
    rng = random.Random(1)
    seeds = [0, 1, -1, 2**63 - 1, -(2**63) + 1, *(rng.getrandbits(63) for _ in range(300))]
    for seed in seeds:
        for number in (0, 1, 7, 123):
            assert J.deal_hands(seed, number) == deal_hands(seed, number), (seed, number)


def test_random_numbers_are_cpythons() -> None:
    rng = random.Random(2)
    for seed in [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, *(rng.getrandbits(64) for _ in range(50))]:
        ks = [rng.choice((1, 5, 31, 32, 33, 62, 63, 64, -1, -2, -3, -7, -9, -10, -43)) for _ in range(700)]
        r = random.Random(seed)
        want = [r.getrandbits(k) if k > 0 else r._randbelow(-k) for k in ks]  # type: ignore[attr-defined]
        assert J.random_draws(seed, ks) == want


hands9 = st.lists(st.integers(0, 35), min_size=9, max_size=9, unique=True).map(lambda cs: sum(1 << c for c in cs))


def four_heavy(rng: random.Random) -> int:
    """A hand with a four of a kind (sometimes two) and runs: where best_weis must choose."""
    ranks = rng.sample(range(9), 2)
    cards = {s * 9 + ranks[0] for s in range(4)}
    if rng.random() < 0.4:
        cards |= {s * 9 + ranks[1] for s in range(4)}
    suit, start = rng.randrange(4), rng.randrange(7)
    for r in range(start, min(9, start + rng.randint(3, 5))):
        if len(cards) < 9:
            cards.add(suit * 9 + r)
    while len(cards) < 9:
        cards.add(rng.randrange(36))
    return sum(1 << c for c in cards)


@settings(max_examples=300, deadline=None)
@given(hand=hands9)
def test_weis_are_the_engines(hand: int) -> None:
    for number, profile in enumerate((SEED, SCHIEBER)):
        assert J.best_weis(hand, number) == tuple(
            (w.points, w.cards, w.length, w.top, w.suit) for w in best_weis(hand, profile)
        )


def test_weis_with_fours_and_who_scores_them() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        hands = list(deal_hands(rng.getrandbits(32), 0))
        if rng.random() < 0.5:  # a four (or two) in one hand, the other hands redealt around it
            heavy = four_heavy(rng)
            rest = [c for c in range(36) if not heavy >> c & 1]
            rng.shuffle(rest)
            hands = [heavy] + [sum(1 << c for c in rest[9 * i : 9 * i + 9]) for i in range(3)]
            rng.shuffle(hands)
        trump, forehand = rng.randrange(-1, 6), rng.randrange(4)
        for number, profile in enumerate((SEED, SCHIEBER)):
            for h in hands:
                want = tuple((w.points, w.cards, w.length, w.top, w.suit) for w in best_weis(h, profile))
                assert J.best_weis(h, number) == want
            teams = scoring_teams(tuple(best_weis(h, profile) for h in hands), trump, forehand, profile)
            assert J.scoring_teams(hands, trump, forehand, number) == sum(1 << t for t in teams)


def test_the_heuristics_trump_choice() -> None:
    rng = random.Random(4)
    for _ in range(4000):
        hand = deal_hands(rng.getrandbits(32), 0)[0]
        for modes, push in (((0, 1, 2, 3, 4, 5), True), ((0, 1, 2, 3, 4, 5), False), ((0, 1, 2, 3), True)):
            legal = [f"trump:{MODES[m]}" for m in modes] + (["push"] if push else [])
            mask = sum(1 << ACTION_TEXTS.index(t) for t in legal)
            want = choose_trump({"legal_actions": legal}, hand)
            assert ACTION_TEXTS[J.choose_trump(hand, mask)] == want


def test_the_constrained_deal_keeps_every_constraint() -> None:
    rng = random.Random(5)
    for k in range(2000):
        need = [rng.randint(0, 9) for _ in range(3)]
        cards = rng.sample(range(36), sum(need))
        allowed = [rng.choice((1, 2, 4, 3, 5, 6, 7, 7, 7)) for _ in cards]
        got = J.deal_constrained(cards, allowed, need, k)
        try:
            deal_constrained(cards, allowed, need, random.Random(k))
            feasible = True
        except ValueError:
            feasible = False
        assert (got is not None) == feasible
        if got is not None:
            assert [h.bit_count() for h in got] == need
            for c, a in zip(cards, allowed, strict=True):
                holders = [p for p in range(3) if got[p] >> c & 1]
                assert len(holders) == 1 and a >> holders[0] & 1


# -- whole games, side by side -------------------------------------------------------------------


def random_options(rng: random.Random) -> dict[str, Any]:
    return {
        "profile": rng.choice(("seed", "schieber")),
        "weis": rng.choice(("auto", "auto", "off", "announce", "announce")),
        "stoeck": rng.choice((True, True, False, "announce", "announce")),
        "undertrump": rng.choice(("swiss", "jass-kit")),
        "first_forehand": rng.choice(("start-card", 0, 1, 2, 3)),
        "target": rng.choice((40, 100, 157, 300, 700, 1000, 2500)),
        "multipliers": rng.choice(MULTIPLIERS) if rng.random() < 0.6 else custom_multipliers(rng),
    }


# Every setting of the option: none, the named sets, and custom factors (drawn, up to the largest).
MULTIPLIERS = ("none", "swisslos", "one-to-four", "D=1,H=2,S=3,C=4,obe=5,une=6")


def custom_multipliers(rng: random.Random) -> str:
    return ",".join(f"{m}={rng.randint(1, MAX_FACTOR)}" for m in MODES if rng.random() < 0.7) or "obe=20"


def engine_fields(state: JassState) -> dict[str, Any]:
    """What the core must agree on, read from the engine's public views."""
    v = state.view(None)
    pos = state.play_position()
    hands = pos.hands if pos is not None else tuple(DECK.parse_set(state.view(s)["hand"]) for s in range(4))
    shown = {}
    for w in v["weis"]:
        shown.setdefault(w["seat"], []).append((w["points"], DECK.parse_set(w["cards"])))
    return {
        "phase": v["phase"],
        "player": v["current_player"],
        "deal": v["deal_number"],
        "forehand": v["forehand"],
        "trump": v["trump"],
        "chooser": v["trump_chosen_by"],
        "pushed": v["pushed"],
        "hands": tuple(hands),
        "trick": [DECK.parse(t["card"]) for t in v["trick"]],
        "leader": v["trick_leader"],
        "tricks": [(t["leader"], tuple(DECK.parse(c) for c in t["cards"]), t["winner"]) for t in v["tricks"]],
        "voids": tuple(DECK.parse_set(c) for c in v["cannot_hold"]),
        "weis": {s: sorted(ws) for s, ws in shown.items()},
        "weis_by": v["weis_scored_by"],
        "stoeck": v["stoeck"],
        "deal_points": v["deal_points"],
        "scores": v["scores"],
        "winners": v["winners"],
        "legal": sum(1 << a.id for a in state.legal_actions()) if not state.is_terminal() else 0,
        "announced": None if v["announced"] is None else [(a["seat"], a["points"]) for a in v["announced"]],
    }


def core_fields(s: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    t = s["tally"]
    points = [(t[k] + t[2 + k] + t[4 + k] + (100 if s["match"] == k else 0) - t[6 + k]) * s["mult"] for k in (0, 1)]
    shown = {}
    if s["weis_teams"] >= 0:
        for seat in range(4):
            if s["weis_teams"] >> (seat & 1) & 1 and s["weis"][seat]:
                shown[seat] = sorted(s["weis"][seat])
    over = s["phase"] == 3
    return {
        "phase": PHASE_NAMES[s["phase"]],
        "player": None if over else s["player"],
        "deal": s["deal"],
        "forehand": s["forehand"],
        "trump": MODES[s["trump"]] if s["trump"] >= 0 else None,
        "chooser": s["chooser"] if s["chooser"] >= 0 else None,
        "pushed": bool(s["pushed"]),
        "hands": s["hands"],
        "trick": s["trick"],
        "leader": s["leader"] if s["trick"] else None,
        "tricks": [(lead, cards, win) for lead, cards, win in s["tricks"]],
        "voids": s["voids"],
        "weis": shown,
        "weis_by": None if s["weis_teams"] < 0 else [k for k in (0, 1) if s["weis_teams"] >> k & 1],
        "stoeck": s["stoeck_seat"] if s["stoeck_done"] and t[4 + (s["stoeck_seat"] & 1)] else None,
        "deal_points": points,
        "scores": list(s["scores"]),
        "winners": [s["winner"], s["winner"] + 2] if over else None,
        "legal": s["legal"],
        "announced": [(seat, sorted((p for p, _ in s["weis"][seat]), reverse=True))
                      for seat in range(4) if s["said"] >> seat & 1 and s["weis"][seat]]
        if options["weis"] == "announce" else None,
    }  # fmt: skip


def compare(core: dict[str, Any], state: JassState, where: str) -> None:
    want = engine_fields(state)
    got = core_fields(core, state.game.options)
    for key in want:
        assert got[key] == want[key], f"{where}: {key}: core {got[key]!r}, engine {want[key]!r}"


def side_by_side(steps: int, seed: int, games: int = 6, every_obs: int = 4) -> dict[str, int]:
    """Random games in the core (every seat an agent) and in the engine; returns what was covered."""
    from stichkit.rl import encoding
    from stichkit.rl.batch import JassBatch

    rng = random.Random(seed)
    picks = np.random.default_rng(seed)
    seen = {"steps": 0, "deals": 0, "games": 0, "modes": 0, "pushes": 0, "ended_mid_deal": 0, "multiplied": 0,
            "settings": 0, "announced": 0, "silent_weis": 0, "called": 0, "silent_stoeck": 0}  # fmt: skip
    modes: set[tuple[str, str]] = set()
    settings_seen: set[str] = set()
    while seen["steps"] < steps:
        options = random_options(rng)
        batch = JassBatch(games, seats=(0, 1, 2, 3), **options)
        settings_seen.add(options["multipliers"] if options["multipliers"] in MULTIPLIERS else "custom")
        enc = encoding(batch.game)
        seeds = [rng.getrandbits(63) for _ in range(games)]
        batch.reset(seeds)
        states = [batch.game.new_state(seed=s) for s in seeds]
        actions = np.zeros((games, 4), dtype=np.int64)
        played = [0] * games
        while not all(s.is_terminal() for s in states) and seen["steps"] < steps:
            for i, state in enumerate(states):
                core = batch.state(i)
                where = f"options {options}, game seed {seeds[i]}, after {played[i]} actions"
                compare(core, state, where)
                if seen["steps"] % every_obs == 0:
                    for j in range(4):
                        assert np.array_equal(batch.obs[i, j], enc.observation(state, j)), f"{where}: seat {j}"
                        mask = state.legal_action_mask() if state.current_player == j else [0] * batch.game.num_actions
                        assert batch.masks[i, j].tolist() == mask, f"{where}: mask of seat {j}"
                if state.is_terminal():
                    continue
                legal = np.flatnonzero(batch.masks[i, state.current_player])
                a = int(picks.choice(legal))
                actions[i, state.current_player] = a
                seen["announced"] += a == 43
                seen["called"] += a == 44
                if a < 36 and 43 in legal:  # a card played with a Weis unannounced, or Stöck uncalled
                    seen["silent_weis"] += 1
                if a < 36 and 44 in legal:
                    seen["silent_stoeck"] += 1
                before = state.view(None)["deal_number"]
                state.apply(state.game.actions[a])
                played[i] += 1
                seen["steps"] += 1
                seen["pushes"] += a == 42
                if 36 <= a < 42:
                    modes.add((options["profile"], MODES[a - 36]))
                if state.is_terminal():
                    seen["games"] += 1
                    seen["ended_mid_deal"] += len(state.view(None)["tricks"]) < 9
                    # ended in the middle of a deal that counts more than once: the Ausmachregel multiplied
                    seen["multiplied"] += len(state.view(None)["tricks"]) < 9 and (state.multiplier or 1) > 1
                seen["deals"] += state.view(None)["deal_number"] != before
            batch.step(actions)
    seen["modes"] = len(modes)
    seen["settings"] = len(settings_seen)
    return seen


def test_whole_games_agree_with_the_engine() -> None:
    seen = side_by_side(STEPS, seed=7)
    assert seen["steps"] >= STEPS
    assert seen["modes"] == 10  # every trump mode of both profiles
    assert seen["pushes"] > 0 and seen["ended_mid_deal"] > 0 and seen["deals"] > seen["games"] > 0
    assert seen["settings"] == len(MULTIPLIERS) + 1 and seen["multiplied"] > 0  # every multiplier setting
    # the sayings: Weis announced and kept silent, Stöck called and played in silence (then lost)
    assert min(seen["announced"], seen["silent_weis"]) > 20 and min(seen["called"], seen["silent_stoeck"]) > 5, seen


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
def test_any_random_game_agrees(seed: int) -> None:
    side_by_side(400, seed, games=2, every_obs=1)


def test_a_build_older_than_the_calls_is_left_unused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension built before the announced Weis and Stöck (ABI 2) would misread the options'
    weis and stoeck: it is treated as missing, and the warning says to rebuild."""
    import importlib
    import sys
    import types

    real = native._jass  # type: ignore[attr-defined]
    stale = types.SimpleNamespace(**{**{k: getattr(real, k) for k in dir(real) if not k.startswith("__")}, "ABI": 2})
    monkeypatch.setattr(native, "_jass", stale)
    monkeypatch.setitem(sys.modules, "stichkit.native._jass", stale)
    try:
        importlib.reload(native)
        assert not native.available() and native.load() is None
        assert "stale" in native.MISSING and "built for calls 2" in native.MISSING and "build_ext" in native.MISSING
        with pytest.warns(RuntimeWarning, match="stale"):
            native.missing()
    finally:
        monkeypatch.undo()
        importlib.reload(native)
    assert native.available() and native.ABI == 4  # 4: the solver's value(threads)
