"""`stich import jasskit` and `stich export jasskit`: files in, files out, every bad input refused
with the reason and nothing written."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jass.logs.game_log_entry import GameLogEntry

import stichkit
from stichkit.interop.jasskit import JasskitError, export_record, import_game

from .conftest import run_cli
from .peer import replay_in_jasskit


def finished_game(tmp_path: Path, name: str = "game.json", **options: Any) -> Path:
    opts = {"profile": "schieber", "weis": "off", "stoeck": False, "target": 500, **options}
    state = stichkit.load_game("jass", **opts).new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / name
    path.write_text(json.dumps(state.record()))
    return path


def test_export_then_import_round_trip(tmp_path: Path) -> None:
    game = finished_game(tmp_path)
    log = tmp_path / "log.txt"
    code, out = run_cli("export", "jasskit", str(game), "--out", str(log), "--date", "24.12.26 18:30:00",
                        "--player-ids", "17,4,17,9")  # fmt: skip
    assert code == 0, out
    lines = log.read_text().splitlines()
    assert f"exported {len(lines)} game-log lines" in out
    for line in lines:
        entry = GameLogEntry.from_json(json.loads(line))
        assert entry.player_ids == [17, 4, 17, 9] and entry.date.year == 2026
        replay_in_jasskit(json.loads(line)["game"])
    out_dir = tmp_path / "imported"
    code, out = run_cli("import", "jasskit", str(log), "--out", str(out_dir))
    assert code == 0, out
    files = sorted(out_dir.iterdir())
    assert len(files) == len(lines) and f"imported {len(lines)} jass-kit games to {out_dir}/" in out
    code, out = run_cli("replay", str(files[0]))
    assert code == 0 and "Deal 1" in out
    record = json.loads(files[0].read_text())
    assert record["jasskit"] == {"dealer": json.loads(lines[0])["game"]["dealer"], "date": "24.12.26 18:30:00",
                                 "player_ids": [17, 4, 17, 9]}  # fmt: skip


def test_import_to_standard_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(tmp_path)
    exported = export_record(json.loads(game.read_text()))
    one = tmp_path / "one.json"
    one.write_text(json.dumps(exported.deals[0].to_jasskit(), indent=2))  # pretty-printed: one game
    code, out = run_cli("import", "jasskit", str(one))
    assert code == 0, out
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1
    record = json.loads(printed[0])
    assert sum(stichkit.replay(record).view(None)["previous_deals"][0]["trick_points"]) == 157
    assert export_record(record).deals[0].to_jasskit() == exported.deals[0].to_jasskit()


def test_export_refuses_weis_and_stoeck_unless_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(tmp_path, weis="auto", stoeck=True, target=1000)
    code, out = run_cli("export", "jasskit", str(game))
    assert code == 2 and "played with Weis and Stöck" in out and "--drop-weis-stoeck" in out
    assert capsys.readouterr().out == ""  # nothing written
    code, out = run_cli("export", "jasskit", str(game), "--drop-weis-stoeck", "--out", str(tmp_path / "log.txt"))
    assert code == 0, out
    assert "note: played with Weis and Stöck; jass-kit knows neither, so they are left out" in out
    record = json.loads(game.read_text())
    scored = [d for d in stichkit.replay(record).view(None)["previous_deals"] if any(d["weis"]) or any(d["stoeck"])]
    assert scored, "this game should have some Weis or Stöck"
    for d in scored:
        assert f"note: deal {d['deal']}: left out " in out
    with pytest.raises(JasskitError, match="Weis"):
        export_record(record)


def test_export_games_keeps_the_unfinished_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = finished_game(tmp_path, target=200)
    record = json.loads(game.read_text())
    exported = export_record(record)
    assert not exported.deals[-1].complete
    code, out = run_cli("export", "jasskit", str(game))
    assert code == 0 and "is unfinished: a game log holds finished games only" in out
    assert len(capsys.readouterr().out.splitlines()) == len(exported.deals) - 1
    code, out = run_cli("export", "jasskit", str(game), "--games")
    assert code == 0
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(games) == len(exported.deals) and games[-1]["currentPlayer"] >= 0


BAD_GAMES: list[tuple[str, str, str]] = [
    ("not json", "{nope", "not JSON"),
    ("not a game", "[1, 2]", "a jass-kit game is a JSON object"),
    ("hearts", '{"dealer": 0, "tricks": [], "jassTyp": "HEARTS"}', "not Schieber"),
    ("no dealer", '{"tricks": []}', "'dealer' is missing"),
    ("no hands", '{"dealer": 0, "trump": 1, "forehand": 1, "tricks": [{"first": 3}]}', "cards are nowhere"),
    ("bad date", '{"game": {"dealer": 0, "tricks": []}, "date": "yesterday"}', "date"),
    ("bad ids", '{"game": {"dealer": 0, "tricks": []}, "player_ids": [1]}', "player_ids"),
    ("huge number", '{"dealer": ' + "7" * 5000 + "}", "line 1: a number too long"),
    ("nested", "[" * 100_000, "line 1: JSON nested too deeply"),
]


@pytest.mark.parametrize("what, text, reason", BAD_GAMES, ids=[b[0] for b in BAD_GAMES])
def test_import_refuses_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, text: str,
                                  reason: str) -> None:  # fmt: skip
    path = tmp_path / "bad.txt"
    path.write_text(text)
    out_dir = tmp_path / "out"
    code, out = run_cli("import", "jasskit", str(path), "--out", str(out_dir))
    assert code == 2 and reason in out, (what, out)
    assert not out_dir.exists() and capsys.readouterr().out == ""


def test_import_names_the_line_and_can_skip_it(tmp_path: Path) -> None:
    game = finished_game(tmp_path)
    lines = [json.dumps(d.to_jasskit()) for d in export_record(json.loads(game.read_text())).deals if d.complete]
    broken = json.loads(lines[1])
    broken["tricks"][0]["win"] = (broken["tricks"][0]["win"] + 1) % 4
    lines[1] = json.dumps(broken)
    log = tmp_path / "log.txt"
    log.write_text("\n".join(lines) + "\n")
    code, out = run_cli("import", "jasskit", str(log), "--out", str(tmp_path / "a"))
    assert code == 2 and "log.txt, line 2, trick 0" in out and "the rules give seat" in out
    assert not (tmp_path / "a").exists()
    code, out = run_cli("import", "jasskit", str(log), "--out", str(tmp_path / "b"), "--skip-invalid")
    assert code == 0 and "left out: " in out and "line 2" in out
    assert len(list((tmp_path / "b").iterdir())) == len(lines) - 1


def test_import_and_export_usage_errors(tmp_path: Path) -> None:
    assert run_cli("import", "jasskit", str(tmp_path / "missing.txt"))[0] == 2
    assert run_cli("import", "pbn", "x")[0] == 2
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    code, out = run_cli("import", "jasskit", str(empty))
    assert code == 2 and "holds no jass-kit game" in out
    game = finished_game(tmp_path)
    code, out = run_cli("export", "jasskit", str(game), "--date", "tomorrow")
    assert code == 2 and "DD.MM.YY" in out
    code, out = run_cli("export", "jasskit", str(game), "--player-ids", "1,2")
    assert code == 2 and "four players" in out
    code, out = run_cli("export", "jasskit", str(game), "stray=1")
    assert code == 2 and "unrecognized" in out
    other = stichkit.load_game("stichling").new_state(seed=1)
    (tmp_path / "other.json").write_text(json.dumps(other.record()))
    code, out = run_cli("export", "jasskit", str(tmp_path / "other.json"))
    assert code == 2 and "Jass (Schieber) only" in out
    (tmp_path / "junk.json").write_text('{"format": "stichkit-record"}')
    code, out = run_cli("export", "jasskit", str(tmp_path / "junk.json"))
    assert code == 2 and "not a valid stichkit record" in out


def test_import_checks_what_the_record_says(tmp_path: Path) -> None:
    """Winner, points, leader, player to move and cards: what the record says must be the rules'."""
    game = finished_game(tmp_path)
    kit = export_record(json.loads(game.read_text())).deals[0].to_jasskit()
    for change, words in [
        (lambda g: g["tricks"][3].__setitem__("points", g["tricks"][3]["points"] + 1), "points"),
        (lambda g: g["tricks"][4].__setitem__("first", (g["tricks"][4]["first"] + 1) % 4), "leads it|do not allow"),
        (lambda g: g.__setitem__("dealer", (g["dealer"] + 1) % 4), "leads it|do not allow"),
        (lambda g: g["tricks"][0]["cards"].reverse(), "do not allow|the rules give"),
        (lambda g: g["tricks"][8]["cards"].__setitem__(0, g["tricks"][0]["cards"][0]), "twice"),
        (lambda g: g.__setitem__("version", "V0.1"), "format version"),
    ]:
        bad = json.loads(json.dumps(kit))
        change(bad)
        with pytest.raises(JasskitError, match=words):
            import_game(bad)
