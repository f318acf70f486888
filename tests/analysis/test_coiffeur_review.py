"""`stich analyse` on Coiffeur records: the last tricks of each deal solved double-dummy, the
announcing team for the most it can write, the others for the least, in every mode, Slalom and
Guschti included (stichkit.analysis.coiffeur)."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

from rich.console import Console

import stichkit
from stichkit.analysis.coiffeur import ENDGAME_TRICKS, review_game, value
from stichkit.cli.main import main


def played_game(seed: int, rows: str = "slalom1 D2") -> stichkit.State:
    state = stichkit.load_game("coiffeur", rows=rows).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_every_card_of_the_last_tricks_is_valued_for_its_team() -> None:
    state = played_game(3)
    review = review_game(state)
    assert review.cards and all(c.trick > 9 - ENDGAME_TRICKS for c in review.cards)
    for c in review.cards:
        assert c.played in c.values and c.best_value in c.values.values() and c.loss >= 0
        values = c.values.values()
        assert c.best_value == (max(values) if c.announcing else min(values))


def test_a_sure_match_is_valued_257_and_costs_the_announcer_nothing() -> None:
    """Seat 0 holds every Käse and announces Käse: any card wins every trick (nobody else can
    follow or trump), so no card of the announcing side costs anything, and the deal writes 257."""
    suited = {"hands": [[s + r for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")] for s in "DHSC"]}
    state = stichkit.load_game("coiffeur", rows="D1").new_state(seed=1, deal=suited)
    state.apply("trump:D")
    for _ in range(24):  # six tricks
        state.apply(state.legal_actions()[0])
    assert value(state, 0, 0) == 257
    while not state.is_terminal() and state.view(None)["deal_number"] == 0:
        state.apply(state.legal_actions()[-1])
    assert all(c.loss == 0 for c in review_game(state).cards if c.announcing)


def test_stich_analyse_reads_a_coiffeur_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_game(5).record()))
    con = Console(file=io.StringIO(), width=120, color_system=None)
    assert main(["analyse", str(path), "--all"], console=con) == 0
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Double dummy" in out and "Points lost" in out and "trick 7" in out
    con = Console(file=io.StringIO(), width=120, color_system=None)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["analyse", str(path), "--json"], console=con) == 0
    doc = json.loads(buf.getvalue())
    assert doc["schema"] == "stichkit-coiffeur-review" and len(doc["totals"]) == 4
