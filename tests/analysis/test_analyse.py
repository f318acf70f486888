"""`stich analyse`: the decisions of a hand-checked deal, the per-seat totals, the JSON schema, errors."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import stichkit
from stichkit.analysis import solve
from stichkit.analysis.review import SCHEMA, SCHEMA_VERSION
from stichkit.cli.main import main
from stichkit.games.jass import Jass, JassState

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit(s: str) -> list[str]:
    return [s + r for r in RANKS]


def crossed_deal() -> JassState:
    """Obenabe. Seat 0 holds the clubs but the Ace and the heart Ace; seat 1 the hearts but the
    Ace and the club Ace; seat 2 all diamonds, seat 3 all spades (they never follow, never lead).

    By hand: a club lead loses trick 1 to seat 1's forced CA, but seat 1 must then lead a heart,
    seat 0's HA takes it and seat 0 takes every club trick after. Team 1 gets trick 1 only: the
    club led, CA (11), seat 3's best discard SA (11) and seat 2's worst (0): 22 with a 0-point
    club, so team 0 takes 157 - 22 = 135. Leading HA first wins trick 1 (HA 11, seat 2's DA 11,
    seat 1's H6 0, seat 3's S6 0: 22) but then the forced club lead gives seat 1 the CA and all
    its hearts: team 0 keeps 22, and loses 113."""
    game = Jass(profile="schieber", first_forehand=0, weis="off", stoeck=False, target=10**6)
    hands = [[*suit("C")[:8], "HA"], [*suit("H")[:8], "CA"], suit("D"), suit("S")]
    state = game.new_state(seed=1, deal={"hands": hands})
    state.apply("trump:obe")
    return state


def played_record(tmp_path: Path) -> tuple[Path, JassState]:
    state = crossed_deal()
    state.apply("HA")  # the error checked by hand
    rng = random.Random(4)
    while state.deals_played == 1:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    return path, state


def run(argv: list[str]) -> tuple[int, str]:
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    code = main(argv, console=con)
    out = con.file
    assert isinstance(out, io.StringIO)
    return code, out.getvalue()


def test_the_hand_checked_first_card() -> None:
    sol = solve(crossed_deal())

    assert {a.text for a in sol.best} == {"C6", "C7", "C9"}
    assert sol.value == 135
    assert sol.loss("HA") == 113
    assert sol.loss("C10") == 10  # the club led goes to team 1 with its points


def test_json_schema_and_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = played_record(tmp_path)
    code, _ = run(["analyse", str(path), "--json"])
    assert code == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert set(doc) == {"format", "version", "game", "options", "engine", "decisions", "deals", "seats"}
    assert (doc["format"], doc["version"], doc["game"]) == (SCHEMA, SCHEMA_VERSION, "jass")
    assert doc["engine"] in ("c", "python")
    decisions = doc["decisions"]
    assert len(decisions) == 36  # one deal, every card
    first = decisions[0]
    assert set(first) == {"deal", "trick", "seat", "played", "value", "best", "best_value", "loss", "values",
                          "complete"}  # fmt: skip
    assert all(d["complete"] is True for d in decisions)  # --json solves every card unless --no-full
    assert (first["deal"], first["trick"], first["seat"], first["played"]) == (0, 1, 0, "HA")
    assert (first["value"], first["best_value"], first["loss"], sorted(first["best"])) == (
        22,
        135,
        113,
        ["C6", "C7", "C9"],
    )
    for d in decisions:
        assert d["loss"] == d["best_value"] - d["value"] >= 0
        assert d["values"][d["played"]] == d["value"] and max(d["values"].values()) == d["best_value"]
        assert sorted(d["best"]) == sorted(k for k, v in d["values"].items() if v == d["best_value"])
    assert [x["trick"] for x in decisions] == [t for t in range(1, 10) for _ in range(4)]
    (deal,) = doc["deals"]
    assert deal["deal"] == 0 and deal["trump"] == "obe"
    for totals in (deal["seats"], doc["seats"]):
        for seat, t in enumerate(totals):
            mine = [d for d in decisions if d["seat"] == seat]
            assert t == {"seat": seat, "decisions": len(mine), "errors": sum(d["loss"] > 0 for d in mine),
                         "lost": sum(d["loss"] for d in mine)}  # fmt: skip
    assert doc["seats"][0]["lost"] >= 113


def test_table_output(tmp_path: Path) -> None:
    path, _ = played_record(tmp_path)
    code, out = run(["analyse", str(path), "--all"])
    assert code == 0
    assert "Deal 1, trump obe: every card" in out and "points lost per seat" in out
    assert "HA" in out and "113" in out


def test_errors_are_clear(tmp_path: Path) -> None:
    other = stichkit.load_game("stichwahl").new_state(seed=1)
    p = tmp_path / "sw.json"
    p.write_text(json.dumps(other.record()))
    code, out = run(["analyse", str(p)])
    assert code == 2 and "works on Jass, Differenzler and Coiffeur records" in out and "Traceback" not in out
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run(["analyse", str(bad)])
    assert code == 2 and "Traceback" not in out
    code, out = run(["analyse", str(tmp_path / "missing.json")])
    assert code == 2
