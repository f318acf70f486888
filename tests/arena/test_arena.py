"""The arena: duplicate rotations, statistics, ratings, and `stich tournament`."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import stichkit
from stichkit.arena import mean_ci, parse_bot, rotations, run_tournament, schedule, summarize, t975
from stichkit.cli.main import main


def test_rotations_skip_repeated_lineups() -> None:
    assert rotations(4, ["a", "b", "c", "d"]) == [0, 1, 2, 3]
    assert rotations(4, ["a", "b", "a", "b"]) == [0, 1]
    assert rotations(4, ["a", "a", "a", "a"]) == [0]
    assert rotations(3, ["a", "b", "b"]) == [0, 1, 2]


def test_every_bot_plays_every_seat_of_every_deal() -> None:
    game = stichkit.load_game("stichwahl")
    specs = [parse_bot(b) for b in ("random", "heuristic", "random:seed=3", "ismcts:iterations=10")]
    tasks = schedule(game, specs, 3, seed=40)
    assert len(tasks) == 12
    for deal in range(3):
        mine = [t for t in tasks if t.deal == deal]
        assert {t.seed for t in mine} == {40 + deal}
        for seat in range(4):
            assert sorted(t.specs[seat].label for t in mine) == sorted(s.label for s in specs)


def test_jass_bots_play_every_deal_for_both_teams() -> None:
    game = stichkit.load_game("jass")
    specs = [parse_bot(b) for b in ("heuristic", "random", "heuristic", "random")]
    tasks = schedule(game, specs, 2, seed=1)
    assert [t.rotation for t in tasks] == [0, 1, 0, 1]
    teams = {(t.deal, tuple(t.specs[s].label for s in (0, 2))) for t in tasks}
    assert teams == {(d, (b, b)) for d in range(2) for b in ("heuristic", "random")}


def test_rotations_of_a_deal_get_the_same_cards() -> None:
    game = stichkit.load_game("jass", target=100)
    specs = [parse_bot(b) for b in ("heuristic", "random", "heuristic", "random")]
    results = run_tournament(game, specs, 1, seed=9, records=True)
    first = [r.record["moves"][0] for r in results if r.record is not None]
    assert len(first) == 2 and first[0] == first[1] and "chance" in first[0]
    for r in results:
        assert r.record is not None
        assert stichkit.replay(r.record).scores() == r.scores


def test_stats() -> None:
    assert t975(1) == pytest.approx(12.706)
    assert t975(10) == pytest.approx(2.228)
    assert 2.0 < t975(50) < 2.021 and t975(10_000) == pytest.approx(1.96, abs=1e-3)
    mean, half = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(4.303 / math.sqrt(3))
    assert mean_ci([5.0]) == (5.0, None)


def test_summary_structure_shares_and_ratings() -> None:
    game = stichkit.load_game("stichwahl", target=15)
    specs = [parse_bot(b) for b in ("heuristic", "random", "random", "random")]
    results = run_tournament(game, specs, 3, seed=2)
    res = summarize(game, specs, 3, 2, results)
    assert res["games"] == 12 and res["rotations"] == [0, 1, 2, 3] and res["cheating"] == []
    rows = {r["bot"]: r for r in res["bots"]}
    assert set(rows) == {"heuristic", "random"}
    assert rows["heuristic"]["even_share"] == 0.25 and rows["random"]["seats"] == 3
    assert rows["heuristic"]["win_share"] + rows["random"]["win_share"] == pytest.approx(1.0)
    for row in rows.values():
        lo, hi = row["score_interval"]
        assert lo <= row["mean_score"] <= hi and row["score_ci95"] >= 0
        assert set(row["rating"]) == {"mu", "sigma", "ordinal"}
    assert rows["heuristic"]["rating"]["mu"] > rows["random"]["rating"]["mu"]
    json.dumps(res)


def test_parallel_equals_serial() -> None:
    game = stichkit.load_game("stichwahl", target=10)
    specs = [parse_bot(b) for b in ("heuristic", "random", "heuristic", "random")]
    one = run_tournament(game, specs, 2, seed=5, workers=1)
    two = run_tournament(game, specs, 2, seed=5, workers=2)
    assert [(r.scores, r.winners, r.moves) for r in one] == [(r.scores, r.winners, r.moves) for r in two]


def run(argv: list[str]) -> tuple[int, str]:
    con = Console(file=io.StringIO(), width=140, color_system=None, force_terminal=False)
    code = main(argv, console=con)
    return code, con.file.getvalue()  # type: ignore[attr-defined]


def test_cli_json_plot_and_records(tmp_path: Path) -> None:
    png, recs = tmp_path / "scores.png", tmp_path / "records"
    code, out = run(["tournament", "stichwahl", "--seats", "heuristic,random,open:iterations=20,random", "--deals", "2",
                     "--seed", "3", "--json", "--plot", str(png), "--records", str(recs), "target=10"])  # fmt: skip
    assert code == 0, out
    res = json.loads(out)
    assert res["game"] == "stichwahl" and res["options"]["target"] == 10 and res["deals"] == 2
    assert res["cheating"] == ["open:iterations=20"]
    assert [r["bot"] for r in res["bots"]] == ["heuristic", "random", "open:iterations=20"]
    assert all("rating" in r and "score_ci95" in r and "win_rate" in r for r in res["bots"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    index = json.loads((recs / "index.json").read_text())
    assert len(index["games"]) == res["games"] == 8
    for entry in index["games"]:
        record = json.loads((recs / entry["file"]).read_text())
        assert stichkit.replay(record).scores() == entry["scores"] == record["result"]["scores"]
        assert record["players"] == entry["players"]


def test_cli_table_marks_the_cheat() -> None:
    code, out = run(["tournament", "stichwahl", "--seats", "heuristic,random,open:iterations=10,random", "--deals",
                     "1", "--seed", "1", "target=5"])  # fmt: skip
    assert code == 0
    assert "CHEATS" in out and "evaluation upper bound only" in out and "Win share" in out


@pytest.mark.parametrize(
    ("seats", "message"),
    [("heuristic,random", "names 2 bots, but this game has 4 seats"),
     ("heuristic,random,robot,random", "unknown bot 'robot'"),
     ("ismcts:depth=3,random,random,random", "has no parameter 'depth'")],
)  # fmt: skip
def test_cli_bad_seats(seats: str, message: str) -> None:
    code, out = run(["tournament", "stichwahl", "--seats", seats, "--deals", "1"])
    assert code == 2 and message in out.replace("\n", "")


# -- resuming a tournament from its records --------------------------------------------------------

SEATS = "heuristic,random,heuristic,random"


def _tournament(recs: Path, deals: int, *extra: str) -> dict[str, Any]:
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", str(deals), "--json",
                     "--records", str(recs), "target=10", *extra])  # fmt: skip
    assert code == 0, out
    return json.loads(out)  # type: ignore[no-any-return]


def _without_timing(res: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "seconds_per_decision"} for row in res["bots"]]


def test_resume_plays_only_the_missing_games_and_sums_up_all(tmp_path: Path) -> None:
    """An interrupted run (games missing) and a longer run (more deals) go on from the records; the
    result is the one of a run played in one go (the bots are seeded per deal, rotation and seat)."""
    whole = _tournament(tmp_path / "whole", 3, "--seed", "5")
    recs = tmp_path / "parts"
    _tournament(recs, 2, "--seed", "5")
    (recs / "stichwahl-deal0001-rot1.json").unlink()  # as if the run had stopped there
    before = (recs / "stichwahl-deal0000-rot0.json").stat().st_mtime_ns
    res = _tournament(recs, 3, "--resume")  # the seed is read from the records
    assert res["seed"] == 5 and res["resumed_games"] == 3 and res["games"] == 6
    assert (recs / "stichwahl-deal0000-rot0.json").stat().st_mtime_ns == before  # read back, not played
    assert _without_timing(res) == _without_timing(whole)
    index = json.loads((recs / "index.json").read_text())
    assert [g["file"] for g in index["games"]] == [g["file"] for g in json.loads(
        (tmp_path / "whole" / "index.json").read_text())["games"]]  # fmt: skip


def test_resume_keeps_the_thinking_time_in_the_records(tmp_path: Path) -> None:
    _tournament(tmp_path, 1, "--seed", "2")
    record = json.loads((tmp_path / "stichwahl-deal0000-rot0.json").read_text())
    assert len(record["arena"]["seconds"]) == 4 and sum(record["arena"]["decisions"]) == len(
        [m for m in record["moves"] if "seat" in m])  # fmt: skip
    res = _tournament(tmp_path, 1, "--resume")
    assert res["resumed_games"] == 2 and all(r["seconds_per_decision"] is not None for r in res["bots"])
    for name in ("stichwahl-deal0000-rot0.json", "stichwahl-deal0000-rot1.json"):  # an older, untimed record
        rec = json.loads((tmp_path / name).read_text())
        del rec["arena"]["seconds"]
        (tmp_path / name).write_text(json.dumps(rec))
    res = _tournament(tmp_path, 1, "--resume")
    assert all(r["seconds_per_decision"] is None and r["decisions"] > 0 for r in res["bots"])


@pytest.mark.parametrize(
    ("change", "message"),
    [(lambda r: r.update(players=list(reversed(r["players"]))), "has players"),
     (lambda r: r.update(seed=99), "has seed 5"),
     (lambda r: r["arena"].update(rotation=1), "has rotation 0"),
     (lambda r: r["result"].update(scores=[0, 0, 0, 0]), "differs from the replayed one"),
     (lambda r: r.pop("arena"), "no 'arena' section")],
)  # fmt: skip
def test_resume_refuses_a_record_of_another_game(tmp_path: Path, change: Any, message: str) -> None:
    _tournament(tmp_path, 1, "--seed", "5")
    path = tmp_path / "stichwahl-deal0000-rot0.json"
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--seed", "5", "--records",
                     str(tmp_path), "--resume", "target=10"])  # fmt: skip
    text = "".join(out.split())  # the console wraps long lines
    assert code == 2
    for part in (message, "stichwahl-deal0000-rot0.json", "delete the file"):
        assert "".join(part.split()) in text


def test_resume_bad_input(tmp_path: Path) -> None:
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--resume"])
    assert code == 2 and "--records DIR" in out
    (tmp_path / "stichwahl-deal0000-rot0.json").write_text("{not json")
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--seed", "1", "--records",
                     str(tmp_path), "--resume"])  # fmt: skip
    assert code == 2 and "cannot read it as a JSON record" in out.replace("\n", "")


def test_resume_without_seed_needs_one_seed_in_the_records(tmp_path: Path) -> None:
    _tournament(tmp_path, 1, "--seed", "5")
    path = tmp_path / "stichwahl-deal0000-rot0.json"
    record = json.loads(path.read_text())
    record["arena"]["deal"] = 9  # as if written by a run with seed 5 - 9
    path.write_text(json.dumps(record))
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--records", str(tmp_path),
                     "--resume", "target=10"])  # fmt: skip
    assert code == 2 and "different seeds [-4, 5]" in out and "pass --seed" in out


def test_resume_refuses_a_swapped_record(tmp_path: Path) -> None:
    """Two games' records under each other's names: every record is checked against the game the
    schedule has at its name, so the swap is refused, naming the file."""
    _tournament(tmp_path, 2, "--seed", "5")
    a, b = tmp_path / "stichwahl-deal0000-rot0.json", tmp_path / "stichwahl-deal0001-rot0.json"
    text_a, text_b = a.read_text(), b.read_text()
    a.write_text(text_b)
    b.write_text(text_a)
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "2", "--seed", "5", "--records",
                     str(tmp_path), "--resume", "target=10"])  # fmt: skip
    assert code == 2 and "stichwahl-deal0000-rot0.json" in "".join(out.split())


def test_resume_refuses_deals_that_do_not_follow_from_the_seed(tmp_path: Path) -> None:
    """A forged record: its trump draw replaced by another card of the same family and marker. It
    replays to the same end (the game is the same), but it is not the draw its seed gives."""
    _tournament(tmp_path, 1, "--seed", "5")
    path = tmp_path / "stichwahl-deal0000-rot0.json"
    record = json.loads(path.read_text())
    draw = record["moves"][0]["chance"]["draws"][-1]
    other = (
        draw[0] + ("7" if draw[1:] == "6" else "6")
        if draw[1:] in "6789"
        else draw[0] + ("2" if draw[1:] == "1" else "1")
    )
    record["moves"][0]["chance"]["draws"][-1] = other
    assert stichkit.replay(record).scores() == record["result"]["scores"]
    path.write_text(json.dumps(record))
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--seed", "5", "--records",
                     str(tmp_path), "--resume", "target=10"])  # fmt: skip
    text = "".join(out.split())
    assert code == 2 and "stichwahl-deal0000-rot0.json" in text and "seed5gives" in text


def test_resume_refuses_deeply_nested_json(tmp_path: Path) -> None:
    _tournament(tmp_path, 1, "--seed", "5")
    (tmp_path / "stichwahl-deal0000-rot0.json").write_text("[" * 100_000 + "]" * 100_000)
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--seed", "5", "--records",
                     str(tmp_path), "--resume", "target=10"])  # fmt: skip
    assert code == 2 and "stichwahl-deal0000-rot0.json" in "".join(out.split()) and "Traceback" not in out
    code, out = run(["tournament", "stichwahl", "--seats", SEATS, "--deals", "1", "--records",
                     str(tmp_path), "--resume", "target=10"])  # fmt: skip
    assert code == 2 and "stichwahl-deal0000-rot0.json" in "".join(out.split())
