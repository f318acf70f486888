"""The `stich` command, driven through `main(argv)` with a scripted player and a captured console."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import stichkit
from stichkit.cli.main import main


@pytest.fixture(autouse=True)
def _fast_default_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests drive the CLI, not the bots: whole games against the default ismcts opponents
    (up to 1 s per decision) would take minutes, so the default seats get heuristic bots here."""
    monkeypatch.setattr("stichkit.cli.common.DEFAULT_BOT", "heuristic")


def test_the_default_opponent_is_ismcts(monkeypatch: pytest.MonkeyPatch) -> None:
    import stichkit.cli.common as common

    monkeypatch.undo()  # the real default, not the fast one of the fixture
    assert common.DEFAULT_BOT == "ismcts"
    assert common.parse_seats(None, 4, allow_human=True) == ["human", "ismcts", "ismcts", "ismcts"]


def console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False)


def text_of(con: Console) -> str:
    out = con.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def legal_in(prompt: str) -> list[str]:
    m = re.search(r"\[(.*?)\]", prompt)
    assert m, prompt
    return m.group(1).split()


class Player:
    """A scripted human: answers trump prompts from `trump_answers` (then the first choice), tries a
    few bad inputs, then plays the first legal card. `stop_after` human cards raises `stop`."""

    def __init__(
        self,
        con: Console,
        *,
        trump_answers: tuple[str, ...] = (),
        bad: tuple[str, ...] = (),
        stop_after: int | None = None,
        stop: type[BaseException] = EOFError,
    ) -> None:
        self.con = con
        self.trump_answers = list(trump_answers)
        self.bad = list(bad)
        self.tried_illegal = False
        self.cards = 0
        self.stop_after = stop_after
        self.stop = stop
        self.prompts: list[str] = []

    def hand(self) -> list[str]:
        lines = [ln for ln in text_of(self.con).splitlines() if ln.startswith("Your hand")]
        return re.findall(r"\d+:(\w+)", lines[-1])

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Trump"):
            return self.trump_answers.pop(0) if self.trump_answers else legal_in(prompt)[0]
        if prompt.startswith("Your card"):
            if self.bad:
                return self.bad.pop(0)
            legal = legal_in(prompt)
            illegal = [c for c in self.hand() if c not in legal]
            if illegal and not self.tried_illegal:
                self.tried_illegal = True
                return illegal[0].lower()
            if self.stop_after is not None and self.cards >= self.stop_after:
                raise self.stop()
            self.cards += 1
            return legal[0]
        return ""  # "Press Enter for the next deal"


def run(argv: list[str], player: Callable[[str], str] | None = None, con: Console | None = None) -> tuple[int, str]:
    con = con or console()
    code = main(argv, console=con, input_fn=player)
    return code, text_of(con)


def test_full_game_with_scripted_human(tmp_path: Path) -> None:
    con = console()
    player = Player(con, bad=("zz", "42", "help"))
    save = tmp_path / "game.json"
    code, out = run(["play", "jass", "--seed", "7", "--delay", "0", "--save", str(save)], player, con)
    assert code == 0
    assert "Game over" in out
    # Bad input is refused with a reason, and the prompt comes again.
    assert "'zz' is not a jass action" in out
    assert "42 is not a choice" in out
    assert "Playing a card" in out  # help
    assert re.search(r"✗ \w+: (you must follow|trump .* was led|undertrumping)", out)
    assert "Deal 1:" in out and "Deal total" in out and "Game score" in out
    record = json.loads(save.read_text())
    assert record["result"]["winners"] in ([0, 2], [1, 3])
    state = stichkit.replay(record)
    assert state.is_terminal()
    # Only legal cards were ever offered and played from the human's seat.
    assert all(m["seat"] != 0 or m["action"] for m in record["moves"] if "seat" in m)


def test_trump_prompt_push_alias_and_index() -> None:
    con = console()
    # Two humans opposite: seat 0 pushes, seat 2 must then choose (no push offered).
    player = Player(con, trump_answers=("push", "trump:H", "obe", "h", "push", "1"))
    code, out = run(["play", "jass", "--seed", "7", "--delay", "0", "--seats", "human,heuristic,human,heuristic"],
                    player, con)  # fmt: skip
    assert code == 0
    trump_prompts = [p for p in player.prompts if p.startswith("Trump")]
    assert "push" in trump_prompts[0] and "push" not in trump_prompts[1]
    assert "schiebt (pushes); Partner (2) chooses trump" in out
    assert "chooses trump Zug (H)" in out
    assert "Obenabe is not played in the seed profile" in out  # obe refused, with the reason


def test_save_and_resume_continue_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    con = console()
    code, out = run(
        ["play", "jass", "--seed", "11", "--delay", "0", "--save", str(save)], Player(con, stop_after=12), con
    )
    assert code == 0
    assert "saved in" in out and "--resume" in out
    saved = json.loads(save.read_text())
    assert "result" not in saved
    moves_before = saved["moves"]

    con = console()
    code, out = run(["play", "jass", "--resume", str(save), "--delay", "0", "--save", str(save)], Player(con), con)
    assert code == 0
    assert "Resumed" in out and "Game over" in out
    final = json.loads(save.read_text())
    assert final["moves"][: len(moves_before)] == moves_before
    assert len(final["moves"]) > len(moves_before)
    assert stichkit.replay(final).is_terminal()


def test_quit_offers_to_save_and_ctrl_c_autosaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    answers = iter(["quit", "y"])
    code, out = run(
        ["play", "jass", "--seed", "1", "--delay", "0"], lambda p: "push" if p.startswith("T") else next(answers)
    )
    assert code == 0
    assert (tmp_path / "stich-jass-autosave.json").exists()
    assert "Save the game to stich-jass-autosave.json" in out

    con = console()
    target = tmp_path / "int.json"
    code, _ = run(["play", "jass", "--seed", "1", "--delay", "0", "--save", str(target)],
                  Player(con, stop_after=3, stop=KeyboardInterrupt), con)  # fmt: skip
    assert code == 130
    assert stichkit.replay(json.loads(target.read_text())).current_player is not None


def test_save_command_writes_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    answers = iter([f"save {path}", "quit", "n"])
    code, out = run(
        ["play", "jass", "--seed", "1", "--delay", "0"], lambda p: "push" if p.startswith("T") else next(answers)
    )
    assert code == 0
    assert f"Saved to {path}" in out.replace("\n", "")
    assert stichkit.replay(json.loads(path.read_text())).game.name == "jass"


@pytest.mark.parametrize("content", ["{not json", '{"format": "something-else"}', "[1, 2]"])
def test_corrupt_save_file_is_a_clean_error(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, out = run(["play", "jass", "--resume", str(bad)])
    assert code == 2
    assert str(bad) in out.replace("\n", "") and "Traceback" not in out
    code, out = run(["replay", str(bad)])
    assert code == 2
    code, out = run(["play", "jass", "--resume", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in out


def test_unknown_option_or_seat_exits_2_naming_it() -> None:
    code, out = run(["play", "jass", "colour=red"])
    assert code == 2 and "colour" in out
    code, out = run(["play", "jass", "--seed", "1", "target=lots"])
    assert code == 2 and "target" in out
    code, out = run(["play", "jass", "--seats", "human,robot,random,random"])
    assert code == 2 and "robot" in out
    code, out = run(["simulate", "jass", "--games", "2", "--seats", "human,random,random,random"])
    assert code == 2 and "human" in out
    code, out = run(["play", "nosuchgame"])
    assert code == 2 and "nosuchgame" in out
    assert main(["play", "jass", "--no-such-flag"]) == 2


def simulate_json(*extra: str) -> dict[str, object]:
    argv = ["simulate", "jass", "--games", "6", "--seats", "heuristic,random,heuristic,random", "--seed", "5"]
    code, out = run([*argv, *extra, "--json"])
    assert code == 0
    result: dict[str, object] = json.loads(out)
    return result


def test_simulate_json_structure_and_determinism() -> None:
    a = simulate_json()
    assert a["games"] == 6 and a["seed"] == 5 and a["game"] == "jass"
    assert a["seats"] == ["heuristic", "random", "heuristic", "random"]
    per_seat = a["per_seat"]
    assert isinstance(per_seat, list) and len(per_seat) == 4
    assert set(per_seat[0]) == {"seat", "bot", "cheats", "wins", "win_rate", "mean_score"}
    per_team = a["per_team"]
    assert isinstance(per_team, list) and [t["seats"] for t in per_team] == [[0, 2], [1, 3]]
    assert sum(t["wins"] for t in per_team) == 6
    assert simulate_json() == a
    assert simulate_json("--workers", "2") == a
    assert simulate_json("target=500") != a


def test_simulate_table() -> None:
    code, out = run(["simulate", "jass", "--games", "2", "--seats", "random,random,random,random", "--seed", "1"])
    assert code == 0
    assert "Win rate" in out and "Mean score" in out and "Teams" in out


def test_replay_of_a_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    seats = "heuristic,random,heuristic,random"
    code, _ = run(["play", "jass", "--seats", seats, "--seed", "3", "--delay", "0", "--save", str(path), "target=400"])
    assert code == 0
    record = json.loads(path.read_text())
    code, out = run(["replay", str(path)])
    assert code == 0
    assert "Game over" in out and "Deal total" in out
    plays = sum(1 for m in record["moves"] if "seat" in m)
    assert len(re.findall(r"^Seat \d (plays|chooses trump|schiebt)", out, re.M)) == plays
    code, out = run(["replay", str(path), "--seat", "1"])
    assert code == 0 and "Hand of You (1)" in out and "Partner (3)" in out
    waits: list[str] = []

    def wait(prompt: str) -> str:
        waits.append(prompt)
        return "q" if len(waits) > 4 else ""

    code, out = run(["replay", str(path), "--step"], wait)
    assert code == 0 and len(waits) == 5


def test_games_version_and_missing_rich(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["games"]) == 0
    assert capsys.readouterr().out.split() == list(stichkit.game_names())
    assert main(["--version"]) == 0
    assert stichkit.__version__ in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, "rich", None)
    assert main(["simulate", "jass", "--games", "1", "--seats", "random,random,random,random"]) == 2
    assert "install stichkit[cli]" in capsys.readouterr().err
