"""`stich analyse --workers`: deals are solved on their own, in any order and in any process, and
the analysis is the same, byte for byte, as in one process (the Ray executor: tests/cluster)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import stichkit
from stichkit.analysis.review import analyse, analyse_part, assemble, parts
from stichkit.games.jass import JassState
from tests.analysis.test_analyse import crossed_deal, run
from tests.analysis.test_analyse_jasskit import game_lines, write


def three_deals() -> JassState:
    """The hand-checked deal, then two dealt ones, all three played at random in Obenabe (the
    quickest to solve)."""
    state = crossed_deal()
    state.apply("HA")
    rng = random.Random(4)
    while state.deals_played < 4:
        legal = state.legal_actions()
        obe = [a for a in legal if a.text == "trump:obe"]
        state.apply(obe[0] if obe else rng.choice(legal))
    return state


def three_deals_record(where: Path) -> Path:
    path = where / "three-deals.json"
    path.write_text(json.dumps(three_deals().record()))
    return path


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return three_deals_record(tmp_path_factory.mktemp("workers"))


def test_a_game_cut_into_its_deals() -> None:
    state = three_deals()
    before = state.record()
    cut = parts(state, full=False)
    assert [(p.game, p.deal, p.cards) for p in cut] == [(0, 0, 36), (0, 1, 36), (0, 2, 36)]
    assert sum(len(p.actions) for p in cut) == len(state.history())
    assert all(p.actions[0][1].text == "trump:obe" for p in cut[1:])  # a deal starts with its trump
    # solved in any order (here the last deal first), the parts make the game's analysis
    solved = [analyse_part(p) for p in reversed(cut)]
    whole = assemble(state, solved)
    assert whole == analyse(state, full=False)
    # a cluster whose workers differ: one without the C extension solved a deal in Python
    mixed = [replace(r, engine="python") if r.deal == 1 else replace(r, engine="c") for r in solved]
    assert assemble(state, mixed).engine == "c+python"
    assert whole.deals == {0: "obe", 1: "obe", 2: "obe"} and len(whole.decisions) == 108
    assert state.record() == before  # the state is left as it was


def test_worker_processes_give_the_same_bytes(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for extra in ([], ["--workers", "2"], ["--executor", "process", "--workers", "3"]):
        code, _ = run(["analyse", str(record), "--json", "--no-full", *extra])
        assert code == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2]
    assert len(json.loads(outs[0])["decisions"]) == 108


def test_the_games_of_a_log_are_shared_out_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, game_lines(3))
    outs = []
    for extra in ([], ["--workers", "2"]):
        code, _ = run(["analyse", str(path), "--json", *extra])
        assert code == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    assert [g["game"] for g in json.loads(outs[0])["games"]] == [1, 2, 3]


def test_the_tables_with_workers(record: Path) -> None:
    serial, workers = run(["analyse", str(record)]), run(["analyse", str(record), "--workers", "2"])
    assert serial == workers and serial[0] == 0 and "Deal 3, trump obe" in serial[1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--executor", "serial", "--workers", "2"], "--executor serial works in this process"),
        (["--workers", "0"], "--workers must be 1 to"),
        (["--executor", "process", "--ray-address", "x:1"], "are for --executor ray"),
    ],
)
def test_bad_executor_options(record: Path, extra: list[str], message: str) -> None:
    code, out = run(["analyse", str(record), *extra])
    assert code == 2 and message in out and "Traceback" not in out


def test_a_record_with_no_card_played() -> None:
    state = stichkit.replay(json.dumps(crossed_deal().record()))  # trump chosen, no card played
    (part,) = parts(state)
    assert (part.deal, part.cards, [a.text for _, a in part.actions]) == (0, 0, ["trump:obe"])
    nothing = analyse(state)
    assert nothing.decisions == () and nothing.deals == {}
