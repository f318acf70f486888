"""`stich analyse` on Differenzler: the last tricks of each deal, every hand and prediction known,
each player playing on to its own prediction (stichkit.analysis.differenzler)."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

from rich.console import Console

import stichkit
from stichkit.analysis.differenzler import ENDGAME_TRICKS, review_game, value
from stichkit.cli.main import main

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def played_game(seed: int, deals: int = 2) -> stichkit.State:
    state = stichkit.load_game("differenzler", deals=deals).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_every_reviewed_card_is_of_the_last_tricks_and_valued_against_the_best() -> None:
    for seed in range(3):
        state = played_game(seed)
        review = review_game(state)
        assert review.cards
        for c in review.cards:
            assert c.trick > 9 - ENDGAME_TRICKS
            assert c.played in c.penalties and set(c.best) <= set(c.penalties)
            assert c.best_penalty == min(c.penalties.values()) and c.loss >= 0
        assert json.loads(json.dumps(review.to_json())) == review.to_json()
        assert state.view(None)["previous_deals"] == played_game(seed).view(None)["previous_deals"]  # untouched


def test_a_hand_of_all_trumps_leaves_no_card_to_regret() -> None:
    """Seat 0 holds every trump and takes every trick; nobody's card changes anybody's points."""
    deal = {"hands": [[s + r for r in RANKS] for s in "DHSC"]}
    state = stichkit.load_game("differenzler", deals=1, trump="in-turn").new_state(seed=1, deal=deal)
    for points in (157, 0, 0, 0):
        state.apply(f"predict:{points}")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    review = review_game(state)
    assert all(c.loss == 0 for c in review.cards)
    assert all(c.penalties[c.played] == 0 for c in review.cards)  # every prediction is hit exactly


def test_the_value_of_a_finished_deal_is_its_penalties() -> None:
    state = played_game(4, deals=1)
    assert list(value(state, 0)) == state.view(None)["previous_deals"][0]["penalties"]


def test_stich_analyse_reads_a_differenzler_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_game(5).record()))
    con = Console(file=io.StringIO(), width=120, color_system=None)
    assert main(["analyse", str(path), "--all"], console=con) == 0
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Against the prediction" in out and "Penalty lost" in out and "trick 7" in out
    con = Console(file=io.StringIO(), width=120, color_system=None)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["analyse", str(path), "--json"], console=con) == 0
    doc = json.loads(buf.getvalue())
    assert doc["schema"] == "stichkit-differenzler-review" and len(doc["totals"]) == 4
