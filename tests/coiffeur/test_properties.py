"""Property tests: random Coiffeur games through the game-agnostic invariant suite
(tests/invariants.py), the sheets' scoring identities, and the leak test: no view and no sample
depends on a hand the seat cannot see.

The long variants run with `pytest -m slow` or STICHKIT_SLOW=1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from tests.invariants import SEEDS, SUPPRESS, Adapter, Rates, check_random_game, data_chooser, random_chooser
from tests.jass.test_properties import DECK, card_points, deal_plays, known_voids

# -- the Coiffeur adapter: facts from the rules page, written independently of the engine -------

DEAL_TOTAL = 157
MATCH_BONUS = 100
JOKER_MODES = {"D", "H", "S", "C", "obe", "une"}


def trick_mode(mode: str, k: int) -> str:
    """The mode of trick k (0-8): Slalom alternates from its first, Guschti plays 5 then 4."""
    if mode.startswith("slalom-"):
        first = mode[7:]
        return first if k % 2 == 0 else ("une" if first == "obe" else "obe")
    if mode.startswith("guschti-"):
        first = mode[8:]
        return first if k < 5 else ("une" if first == "obe" else "obe")
    return mode


def voids(view: dict[str, Any]) -> list[set[str]]:
    """The voids the plays show: as in Jass, with the mode's trump (none outside the suits)."""
    mode = view["mode"] or "obe"
    return known_voids({**view, "trump": mode if mode in ("D", "H", "S", "C") else "obe"})


def out_of_hand(view: dict[str, Any]) -> list[str]:
    return [c for trick in deal_plays(view) for _, c in trick]


def scan_view(view: dict[str, Any]) -> dict[str, Any]:
    """Leave out `cannot_hold` (public deductions, checked in `check_view`) and the last tricks of
    earlier deals (shown then, dealt again since)."""
    out = {k: v for k, v in view.items() if k != "cannot_hold"}
    out["previous_deals"] = [{k: v for k, v in d.items() if k != "last_trick"} for d in view["previous_deals"]]
    return out


def check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    if [set(c) for c in view["cannot_hold"]] != voids(view):
        fail(f"cannot_hold {view['cannot_hold']} differs from the voids the plays show")
    for team, sheet in enumerate(view["sheets"]):
        if len(sheet["rows"]) != view["deals"] // 2:
            fail(f"team {team}'s sheet has {len(sheet['rows'])} rows for {view['deals']} deals")


def accepts(kind: str, mode: str) -> bool:
    if kind == "joker":
        return mode in JOKER_MODES
    return mode == kind or mode.startswith(kind + "-")


def check_scores(state: State, fail: Any) -> None:
    v = state.view(None)
    rows_seen: set[tuple[int, int]] = set()
    around = v["options"]["push"] == "around"
    rows = v["deals"] // 2
    for i, d in enumerate(v["previous_deals"]):
        if d["deal"] != i or d["forehand"] != -i % 4:
            fail(f"deal {i}: forehand {d['forehand']}: the forehand moves one seat to the right each deal")
        if around:  # Swisslos: on round the table, counter-clockwise, past a team whose sheet is full
            filled = [sum(t == team for t, _ in rows_seen) for team in range(2)]
            asked = [(d["forehand"] - k) % 4 for k in range(4) if filled[(d["forehand"] - k) % 2] < rows]
            if d["pushes"] > len(asked) or d["chooser"] != asked[d["pushes"] % len(asked)]:
                fail(f"deal {i}: chooser {d['chooser']} after {d['pushes']} pushes; asked in turn: {asked}")
        else:
            if d["team"] != i % 2:
                fail(f"deal {i}: team {d['team']}: the teams announce in turn")
            if d["chooser"] != (d["forehand"] + 2 * d["pushed"]) % 4 or d["pushes"] != d["pushed"]:
                fail(f"deal {i}: chooser {d['chooser']} with pushed={d['pushed']} from forehand {d['forehand']}")
        mixed = "-" in d["mode"]  # Slalom and Guschti count each trick as its own mode: no fixed total
        if (sum(d["points"]) != DEAL_TOTAL and not mixed) or sum(d["tricks"]) != 9:
            fail(f"deal {i}: points {d['points']}, tricks {d['tricks']}: no Weis, no Stöck in the deal")
        team = d["team"]
        want = d["points"][team] + (MATCH_BONUS if d["tricks"][team] == 9 else 0)
        row = v["sheets"][team]["rows"][d["row"]]
        if d["written"] != want or row["points"] != want or d["score"] != want * row["multiplier"]:
            fail(f"deal {i}: wrote {d['written']} (score {d['score']}) for {want} in row {row}")
        if not accepts(row["kind"], d["mode"]) or row["mode"] != d["mode"] or (team, d["row"]) in rows_seen:
            fail(f"deal {i}: {d['mode']} written in row {d['row']} {row} of team {team}")
        rows_seen.add((team, d["row"]))
    for team, sheet in enumerate(v["sheets"]):
        total = sum(r["score"] for r in sheet["rows"] if r["score"] is not None)
        if sheet["total"] != total or v["scores"][team] != total:
            fail(f"team {team}: total {sheet['total']} is not the sum of its rows {total}")
        if sum(r["points"] is not None for r in sheet["rows"]) != sum(t == team for t, _ in rows_seen):
            fail(f"team {team}: a row is filled that no deal wrote")
    if state.scores() != [v["scores"][s % 2] for s in range(4)]:
        fail(f"scores() {state.scores()} are not the team totals {v['scores']}")
    if v["mode"] is not None:
        for k, t in enumerate(v["tricks"]):
            m = trick_mode(v["mode"], k)
            pts = sum(card_points(c, m) for c in t["cards"]) + (5 if k == 8 else 0)
            if t["points"] != pts:
                fail(f"trick {k} {t['cards']} under {m} worth {t['points']}, expected {pts}")
    if state.is_terminal():
        if len(v["previous_deals"]) != v["deals"] or any(r["points"] is None for s in v["sheets"] for r in s["rows"]):
            fail("the game ended before both sheets were full")
        t = v["scores"]
        if state.winners() != [s for s in range(4) if t[s % 2] == max(t)]:
            fail(f"winners {state.winners()} are not the higher total {t}")


def check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    known = voids(state.view(seat))
    for p in range(4):
        hand = set(sample.view(p)["hand"])
        if p != seat and known[p] & hand:
            fail(f"seat {p} is known to hold none of {sorted(known[p] & hand)} but was given them")


COIFFEUR = Adapter(
    name="coiffeur",
    deck=lambda game: DECK,
    out_of_hand=out_of_hand,
    scan_view=scan_view,
    check_view=check_view,
    check_scores=check_scores,
    check_sample=check_sample,
)

# -- the properties --------------------------------------------------------------------------------

SLOW = pytest.mark.slow  # a long run, only when asked (tests/conftest.py)
# Short custom sheets keep a game to a few deals; every kind of row appears.
ROWS = st.sampled_from(["S1 obe2", "slalom3 joker2", "guschti4 une1", "joker1 joker2", "H2 C3 D1"])
LIGHT = Rates(step=0.3, illegal=0.03, replay=0.02, clone=0.02, sample=0.03, max_samples=3)


@settings(max_examples=16, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), rows=ROWS, push=st.sampled_from(["partner", "around"]), seed=SEEDS, rng_seed=SEEDS)
def test_short_games(data: Any, rows: str, push: str, seed: int, rng_seed: int) -> None:
    """Short sheets of every kind of row, either push; choices shrink to the first legal action."""
    game = stichkit.load_game("coiffeur", rows=rows, push=push)
    check_random_game(game, COIFFEUR, seed, data_chooser(data), random.Random(rng_seed), LIGHT)


@settings(max_examples=3, deadline=None, suppress_health_check=SUPPRESS)
@given(sheet=st.sampled_from(["8-rows", "10-rows"]), push=st.sampled_from(["partner", "around"]), seed=SEEDS,
       rng_seed=SEEDS)  # fmt: skip
def test_whole_games(sheet: str, push: str, seed: int, rng_seed: int) -> None:
    """Whole games on the common sheets, the undo chain over all of them."""
    game = stichkit.load_game("coiffeur", sheet=sheet, push=push)
    rng = random.Random(rng_seed)
    check_random_game(game, COIFFEUR, seed, random_chooser(rng), rng,
                      Rates(step=0.1, illegal=0.01, replay=0.01, clone=0.01, sample=0.01, max_samples=2))  # fmt: skip


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(seed=SEEDS, rng_seed=SEEDS, seat=st.integers(0, 3), stop=st.integers(0, 36))
def test_the_hidden_hands_change_no_view(seed: int, rng_seed: int, seat: int, stop: int) -> None:
    """The leak test: two deals that give `seat` the same hand but deal the other 27 cards
    differently look the same to `seat` in every view before a card of the difference is played
    (mode choices and pushes alike), and their samples for `seat` are the same."""
    game = stichkit.load_game("coiffeur", rows="slalom1 D2")
    a = game.new_state(seed=seed)
    hands = [a.view(p)["hand"] for p in range(4)]
    rng = random.Random(rng_seed)
    others = [c for p in range(4) if p != seat for c in hands[p]]
    rng.shuffle(others)
    swapped = [hands[p] if p == seat else [others.pop() for _ in range(9)] for p in range(4)]
    a = game.new_state(seed=seed, deal={"hands": hands})
    b = game.new_state(seed=seed, deal={"hands": swapped})
    for step in range(stop + 1):
        if a.current_player != seat or a.view(None)["phase"] != "play":
            break  # the others play cards of their own: the deals differ from here on
        act = rng.choice(a.legal_actions())
        a.apply(act)
        b.apply(act)
        assert a.view(seat) == b.view(seat), f"step {step}: view({seat}) shows another seat's hand"
    assert a.view(seat) == b.view(seat) and a.view(None) == b.view(None)
    sa, sb = a.sample_hidden(seat, random.Random(7)), b.sample_hidden(seat, random.Random(7))
    assert sa == sb, "a sample depends on the real hidden hands"


@pytest.mark.slow
@SLOW
@settings(max_examples=200, deadline=None, suppress_health_check=SUPPRESS)
@given(data=st.data(), rows=ROWS, seed=SEEDS, rng_seed=SEEDS)
def test_many_games_slow(data: Any, rows: str, seed: int, rng_seed: int) -> None:
    game = stichkit.load_game("coiffeur", rows=rows, push=data.draw(st.sampled_from(["partner", "around"])))
    check_random_game(game, COIFFEUR, seed, data_chooser(data), random.Random(rng_seed),
                      Rates(sample=0.1, max_samples=6))  # fmt: skip
