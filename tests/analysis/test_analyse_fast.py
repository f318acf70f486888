"""The fast path of `stich analyse` (`solve_value` on the position and after the played card)
gives the same values, best values and losses as `solve`, on every legal card of many decisions:
cards that complete a trick or not, the next mover on either team, the last trick, matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import stichkit
from stichkit.analysis import c_available, solve, solve_value
from stichkit.analysis.review import Decision, analyse, fast_decision, full_decision, played_value
from stichkit.games.jass import JassState
from tests.analysis.positions import random_position
from tests.analysis.test_analyse import played_record, run

pytestmark = pytest.mark.skipif(not c_available(), reason="the fast path is the C engine's solve_value")


def same(fast: Decision, full: Decision) -> None:
    """What the fast path says agrees with `solve`: every number, and the best cards it names."""
    assert (fast.value, fast.best_value, fast.loss) == (full.value, full.best_value, full.loss)
    assert set(fast.best) <= set(full.best)
    assert all(full.values[card] == v for card, v in fast.values.items())
    if fast.complete:
        assert fast == full
    else:  # the played card and one best card solved: some best cards may be missing
        assert fast.best and set(fast.values) <= {fast.played, *full.best}
        assert (fast.played in fast.best) == (fast.loss == 0)


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_card_of_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for cards_left in (rng.randint(5, 12), rng.randint(13, 20)):
        state, _ = random_position(rng, cards_left, lopsided_share=0.4)
        while not state.is_terminal() and state.play_position() is not None:
            assert isinstance(state, JassState)
            pos = state.play_position()
            assert pos is not None
            where = (0, pos.tricks_done + 1, pos.player, "")
            for card in state.legal_actions():
                here = (*where[:3], card.text)
                same(fast_decision(state, card, "c", here), full_decision(state, card, "c", here))
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
            if state.deals_played > 1:
                break
    assert checked >= 20  # two positions played out to the end of the deal, every legal card each time


def test_whole_games_fast_and_full_agree(tmp_path: Path) -> None:
    """Two whole recorded deals (the hand-checked one, and one of random play), analysed both ways."""
    path, _ = played_record(tmp_path)
    game = stichkit.load_game("jass", profile="schieber", weis="off", stoeck=False, first_forehand=0)
    other = game.new_state(seed=5)
    rng = random.Random(5)
    other.apply("trump:obe")  # Obenabe: the fastest whole deals to solve
    while other.deals_played == 1:
        other.apply(rng.choice(other.legal_actions()))
    for state in (stichkit.replay(json.loads(path.read_text())), other):
        fast, full = analyse(state, full=False), analyse(state, full=True)
        assert len(fast.decisions) == len(full.decisions) == 36
        for f, g in zip(fast.decisions, full.decisions, strict=True):
            same(f, g)
        assert fast.totals() == full.totals() and fast.deals == full.deals


def test_the_game_ending_card_is_solved_in_full() -> None:
    """A card that ends the game in the middle of a deal leaves no position to solve after it:
    the fast path asks `solve` for it."""
    game = stichkit.load_game("jass", profile="schieber", weis="off", stoeck=False, first_forehand=0, target=20)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    while not state.is_terminal():
        before = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply(action)
    assert state.deals_played == 1 and before.play_position() is not None  # it ended in the first deal
    assert isinstance(before, JassState)
    assert played_value(before, action, "c") is None
    decision = fast_decision(before, action, "c", (0, 1, before.current_player, action.text))
    assert decision.value == {a.text: v for a, v in solve(before).values.items()}[action.text]
    if action != solve_value(before).card:  # the played card is valued by `solve`, every card with it
        assert decision.complete


def test_the_table_marks_best_cards_solved_by_value_only(tmp_path: Path) -> None:
    """The first two tricks are solved by value: one best card, marked "…"; --full lists all."""
    path, _ = played_record(tmp_path)
    code, out = run(["analyse", str(path)])
    flat = " ".join(out.split())
    assert code == 0 and "│ 1 │ 0 │ HA │ 22 │" in flat and "│ 135 │ 113 │" in flat
    (row,) = [line for line in out.splitlines() if "│ HA " in line]
    assert "…" in row and sum(card in row for card in ("C6", "C7", "C9")) == 1
    assert "another card may be as good" in flat and "--full" in flat
    code, out = run(["analyse", str(path), "--full"])
    (row,) = [line for line in out.splitlines() if "│ HA " in line]
    assert code == 0 and "C6 C7 C9" in row and "…" not in out


def test_json_no_full_is_the_fast_path_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--json --no-full` solves the first two tricks by value only: the same numbers as the full
    document, and each decision says whether its `values` and `best` hold every legal card."""
    path, _ = played_record(tmp_path)
    docs = []
    for extra in ([], ["--no-full"]):
        code, _ = run(["analyse", str(path), "--json", *extra])
        assert code == 0
        docs.append(json.loads(capsys.readouterr().out))
    full, fast = docs
    assert fast["seats"] == full["seats"] and fast["deals"] == full["deals"]
    assert all(d["complete"] for d in full["decisions"])
    assert not fast["decisions"][0]["complete"]  # HA: the played card and one best card only
    for f, g in zip(fast["decisions"], full["decisions"], strict=True):
        assert (f["value"], f["best_value"], f["loss"]) == (g["value"], g["best_value"], g["loss"])
        assert all(g["values"][card] == v for card, v in f["values"].items())
        if f["complete"]:
            assert f == g
        else:
            assert f["trick"] <= 2 and set(f["best"]) <= set(g["best"])
