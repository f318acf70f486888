"""`stich analyse` on jass-kit game logs: every game analysed, the format told from the content,
bad games named by their line and skipped (exit status 1), files that fit neither format refused.

The logs are made from stichkit records with the interop exporter (export_record, log_entry), the
way `stich export jasskit` writes them (docs/interop.md)."""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from stichkit.analysis.review import GAMES_SCHEMA, GAMES_SCHEMA_VERSION, SCHEMA
from stichkit.interop.jasskit import export_record, log_entry
from tests.analysis.test_analyse import crossed_deal, run

DATE = datetime(2026, 11, 22, 20, 0)


def game_lines(n: int) -> list[str]:
    """`n` jass-kit log lines: the hand-checked deal (Obenabe, quick to solve), played out from
    different random seeds after seat 0's HA."""
    lines = []
    for seed in range(n):
        state = crossed_deal()
        state.apply("HA")
        rng = random.Random(seed)
        while state.deals_played == 1:
            state.apply(rng.choice(state.legal_actions()))
        (deal, *_) = export_record(state.record()).deals
        lines.append(json.dumps(log_entry(deal.to_jasskit(), date=DATE, player_ids=[1, 2, 3, 4 + seed])))
    return lines


def write(tmp_path: Path, lines: list[str], name: str = "games.txt") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def analyse_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    code, out = run(["analyse", *argv, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out.strip() else {}, out + captured.err


def test_every_game_of_a_log_and_the_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, game_lines(3))
    code, doc, _ = analyse_json(capsys, str(path))  # --format auto
    assert code == 0
    assert set(doc) == {"format", "version", "source", "engine", "games", "skipped", "seats"}
    assert (doc["format"], doc["version"], doc["source"]) == (GAMES_SCHEMA, GAMES_SCHEMA_VERSION, "jasskit")
    assert doc["skipped"] == []
    assert [g["game"] for g in doc["games"]] == [1, 2, 3]
    assert [g["where"] for g in doc["games"]] == [f"{path}, line {n}" for n in (1, 2, 3)]
    for n, g in enumerate(doc["games"]):
        assert g["jasskit"] == {"dealer": 1, "date": "22.11.26 20:00:00", "player_ids": [1, 2, 3, 4 + n]}
        one = g["analysis"]  # the document of one stichkit record, unchanged
        assert one["format"] == SCHEMA and one["options"]["undertrump"] == "jass-kit"
        assert len(one["decisions"]) == 36 and one["deals"][0]["trump"] == "obe"
        first = one["decisions"][0]
        assert (first["played"], first["value"], first["best_value"], first["loss"]) == ("HA", 22, 135, 113)
        assert sorted(first["best"]) == ["C6", "C7", "C9"]
    for seat in range(4):  # the totals over all games
        mine = [d for g in doc["games"] for d in g["analysis"]["decisions"] if d["seat"] == seat]
        assert doc["seats"][seat] == {"seat": seat, "decisions": len(mine), "errors": sum(d["loss"] > 0 for d in mine),
                                      "lost": sum(d["loss"] for d in mine)}  # fmt: skip
    assert doc["seats"][0]["decisions"] == 27 and doc["seats"][0]["lost"] >= 3 * 113


def test_the_same_numbers_as_the_stichkit_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Obenabe has no trumps, so jass-kit's undertrump reading changes nothing: the imported game
    is analysed exactly as the stichkit record it was exported from."""
    state = crossed_deal()
    state.apply("HA")
    rng = random.Random(0)
    while state.deals_played == 1:
        state.apply(rng.choice(state.legal_actions()))
    record = tmp_path / "game.json"
    record.write_text(json.dumps(state.record()))
    _, single, _ = analyse_json(capsys, str(record))
    _, games, _ = analyse_json(capsys, str(write(tmp_path, game_lines(1))))
    assert games["games"][0]["analysis"]["decisions"] == single["decisions"]


def test_table_per_game_and_over_all(tmp_path: Path) -> None:
    code, out = run(["analyse", str(write(tmp_path, game_lines(2)))])
    out = " ".join(out.split())  # the console wraps long lines
    assert code == 0
    assert "2 jass-kit games (one deal each), 2 analysed" in out
    assert "Game 1 (" in out and "Game 2 (" in out and "line 2" in out
    assert "Game 1: deal 1, trump obe: cards that lost points" in out
    assert "Game 2: points lost per seat" in out and "All 2 games analysed: points lost per seat" in out
    assert "113" in out


def test_a_single_game_record_pretty_printed_with_a_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = json.loads(game_lines(1)[0])["game"]
    path = tmp_path / "one.json"
    path.write_text("\ufeff" + json.dumps(game, indent=2), encoding="utf-8")  # with a byte-order mark
    code, doc, _ = analyse_json(capsys, str(path))
    assert code == 0 and len(doc["games"]) == 1 and doc["games"][0]["where"] == str(path)
    assert doc["games"][0]["jasskit"] == {"dealer": 1}


def bad_lines(good: list[str]) -> list[str]:
    """Good games among bad ones: not JSON, a wrong dealer, a card the rules forbid, a line cut off."""
    illegal = json.loads(good[0])
    tricks = illegal["game"]["tricks"]
    # Seat 1 holds hearts and CA. In trick 1 (HA led) it must follow with a heart: swap its heart
    # with the CA it plays later, so the hands still add up and only the rule is broken.
    k = next(k for k in range(4) if (tricks[0]["first"] - k) % 4 == 1)
    j, m = next((j, m) for j, t in enumerate(tricks) for m, c in enumerate(t["cards"]) if c == "CA")
    tricks[0]["cards"][k], tricks[j]["cards"][m] = "CA", tricks[0]["cards"][k]
    wrong_dealer = json.loads(good[0])
    wrong_dealer["game"]["dealer"] = 7
    return [good[0], "{not json", json.dumps(wrong_dealer), json.dumps(illegal), good[1][: len(good[1]) // 2], good[1]]


def test_bad_games_are_named_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, bad_lines(game_lines(2)))
    code, doc, err = analyse_json(capsys, str(path))
    assert code == 1 and "Traceback" not in err
    assert [g["game"] for g in doc["games"]] == [1, 6]
    skipped = {s["game"]: s for s in doc["skipped"]}
    assert set(skipped) == {2, 3, 4, 5}
    assert all(s["where"] == f"{path}, line {s['game']}" for s in skipped.values())
    assert "not JSON" in skipped[2]["error"] and "not JSON" in skipped[5]["error"]  # the line cut off
    assert "'dealer' is 7" in skipped[3]["error"]
    assert "trick 0: seat 1 plays CA, which the rules do not allow" in skipped[4]["error"]
    assert all(s["error"].startswith(f"game {n}, {path}, line {n}") for n, s in skipped.items())
    assert "skipped: game 3" in err  # also said on standard error
    assert doc["seats"][0]["decisions"] == 18  # the two good games only

    code, out = run(["analyse", str(path)])
    out = " ".join(out.split())
    assert code == 1 and "4 of 6 games skipped" in out and f"game 4, {path}, line 4" in out
    assert "Traceback" not in out and "All 2 games analysed" in out


def test_a_file_of_bad_games_only(tmp_path: Path) -> None:
    path = write(tmp_path, ["{not json", '{"game": {"dealer": 1, "tricks": "none"}}'])
    code, out = run(["analyse", str(path)])
    out = " ".join(out.split())
    assert code == 2 and "no game could be analysed; 2 skipped" in out and "line 1" in out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("content", "fmt", "expected"),
    [
        ('{"foo": 1}', "auto", "neither a stichkit record"),
        ("hello\n", "auto", "neither a stichkit record"),
        ("", "auto", "neither a stichkit record"),
        ("[" * 100_000, "auto", "neither a stichkit record"),
        ('{"foo": 1}', "stichkit", "is not a record stichkit can replay"),
        ('{"foo": 1}', "jasskit", "'dealer' is missing"),
        ("\n\n", "jasskit", "holds no jass-kit game"),
        ("[" * 100_000, "jasskit", "nested too deeply"),
        ('{"dealer": ' + "7" * 5000 + "}", "auto", "neither a stichkit record"),
        ('{"dealer": ' + "7" * 5000 + "}", "jasskit", "line 1: a number too long"),
        ('{"format": "stichkit-record", "seed": ' + "7" * 5000 + "}", "stichkit", "not a record stichkit can replay"),
        ('{"dealer": ' + "7" * 5000 + "}\n{}\n", "jasskit", "2 skipped, the first: game 1"),
    ],
)
def test_files_that_fit_no_format(tmp_path: Path, content: str, fmt: str, expected: str) -> None:
    path = tmp_path / "odd.txt"
    path.write_text(content)
    code, out = run(["analyse", str(path), "--format", fmt])
    assert code == 2 and expected in " ".join(out.split()) and "Traceback" not in out


def test_the_format_named_wrongly(tmp_path: Path) -> None:
    log = write(tmp_path, game_lines(1))
    code, out = run(["analyse", str(log), "--format", "stichkit"])
    assert code == 2 and "not a record stichkit can replay" in " ".join(out.split())
    state = crossed_deal()
    record = tmp_path / "game.json"
    record.write_text(json.dumps(state.record()))
    code, out = run(["analyse", str(record), "--format", "jasskit"])
    assert code == 2 and "no game could be analysed" in " ".join(out.split())
