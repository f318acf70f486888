"""Hostile files and arguments: records, card tables and command lines from other people
get a clear error (RecordError, OptionError, exit 2) and change nothing: never a traceback, never
a file opened because a record names it, never unbounded work before the first check."""

from __future__ import annotations

import builtins
import io
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import stichkit
from stichkit import NotationError, OptionError, RecordError
from stichkit.cli.main import main
from stichkit.games import stichmeister, stichwahl
from stichkit.games.stichmeister.rulecards import RuleCardError

SHIPPED_RULES = Path(stichmeister.__file__).parent / "rule_cards.toml"
SHIPPED_CARDS = Path(stichwahl.__file__).parent / "cards.toml"


def run(argv: list[str], answers: list[str] | None = None) -> tuple[int, str]:
    con = Console(file=io.StringIO(), width=200, color_system=None, force_terminal=False)
    feed = iter(answers or [])
    code = main(argv, console=con, input_fn=lambda prompt: next(feed, "quit"))
    return code, con.file.getvalue()  # type: ignore[attr-defined]


def finished_record(name: str = "stichling", seed: int = 1, **options: Any) -> dict[str, Any]:
    state = stichkit.load_game(name, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


def deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


# -- 1. unreadable records -----------------------------------------------------------------------

BASE = '{"format": "stichkit-record", "version": 1, "game": "jass", "options": {}, "moves": [], "seed": '
UNREADABLE = {
    "not UTF-8": (BASE + "1}").encode("utf-8").replace(b'"jass"', b'"j\xffss"'),
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "a 5,000-digit integer": BASE + "7" * 5000 + "}",
    "a 4,000-digit integer": BASE + "7" * 4000 + "}",
}


@pytest.mark.parametrize("what", sorted(UNREADABLE))
def test_unreadable_record_text_is_a_record_error(what: str, tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        stichkit.replay(UNREADABLE[what])
    path = tmp_path / "save.json"
    data = UNREADABLE[what]
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    for argv in (["replay", str(path)], ["play", "jass", "--resume", str(path), "--delay", "0"]):
        code, out = run(argv)
        assert code == 2 and "Traceback" not in out and str(path) in out.replace("\n", ""), out


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(options={"players": deep(100_000)}),
        lambda r: r["moves"].append({"chance": deep(100_000)}),
        lambda r: r.update(seed=10**5000),
        lambda r: r.update(seed=-(10**30)),
        lambda r: r["moves"].append({"seat": 10**5000, "action": "x"}),
    ],
)
def test_unreadable_record_values_are_a_record_error(change: Any) -> None:
    record = finished_record()
    del record["result"]
    change(record)
    with pytest.raises(RecordError):
        stichkit.replay(record)


# -- 2. a record never makes stichkit open a file ---------------------------------------------------


@pytest.fixture
def no_file_opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []

    def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(path))
        raise AssertionError(f"opened {path!r}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    return opened


@pytest.mark.parametrize(("game", "option"), [("stichmeister", "rule_cards"), ("stichwahl", "cards")])
@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd", "/no/such/file.toml", "fifo"])
def test_a_record_naming_a_file_is_refused_without_opening_it(
    game: str, option: str, path: str, tmp_path: Path, no_file_opened: list[str]
) -> None:
    record = stichkit.load_game(game).new_state(seed=1).record()
    record["options"][option] = str(tmp_path / "fifo") if path == "fifo" else path
    with pytest.raises(RecordError, match="does not carry") as e:
        stichkit.replay(record)
    assert no_file_opened == [] and "exist" not in str(e.value)


@pytest.mark.parametrize(
    ("game", "option", "shipped"),
    [("stichmeister", "rule_cards", SHIPPED_RULES), ("stichwahl", "cards", SHIPPED_CARDS)],
)
def test_a_record_carries_its_custom_table_checked_by_its_hash(
    game: str, option: str, shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(shipped.read_text(encoding="utf-8").replace("reconstructed", "reconstructed", 1), encoding="utf-8")
    record = finished_record(game, **{option: str(mine)})
    carried = record["files"][option]
    assert carried["text"] == mine.read_text(encoding="utf-8") and len(carried["sha256"]) == 64
    mine.unlink()  # the record is all it takes
    state = stichkit.replay(json.loads(json.dumps(record)))
    assert state.game.options[option] == str(mine) and state.record() == record
    tampered = json.loads(json.dumps(record))
    tampered["files"][option]["text"] += "\n# edited\n"
    with pytest.raises(RecordError, match="sha256"):
        stichkit.replay(tampered)
    stray = json.loads(json.dumps(record))
    stray["files"]["other"] = carried
    with pytest.raises(RecordError, match="other"):
        stichkit.replay(stray)


# -- 3. bad card-table and rule-card values ---------------------------------------------------------


@pytest.mark.parametrize(("game", "option"), [("stichmeister", "rule_cards"), ("stichwahl", "cards")])
@pytest.mark.parametrize("value", ["a\x00b", "/bin/sh", "\udc80", "/dev/zero", "/", 42, "x" * 10_000])
def test_bad_table_values_are_option_errors(game: str, option: str, value: Any) -> None:
    with pytest.raises(OptionError) as e:
        stichkit.load_game(game, **{option: value})
    assert len(str(e.value)) < 400


def test_fifo_table_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(OptionError, match="not a regular file"):
        stichkit.load_game("stichmeister", rule_cards=str(fifo))
    assert time.monotonic() - t0 < 5


def test_effect_kind_that_is_an_array(tmp_path: Path) -> None:
    text = SHIPPED_RULES.read_text(encoding="utf-8").replace(
        'effect = { kind = "must_beat" }', "effect = { kind = [1] }"
    )
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(RuleCardError, match=r"rule card 40: effect\.kind"):
        stichkit.load_game("stichmeister", rule_cards=str(bad))


# -- 4. no rule-card file can leave a game without a legal action ----------------------------------


def test_rule_cards_that_would_discard_every_card_are_refused(tmp_path: Path) -> None:
    """Every basic card "discard 3": with 5 players four of them take all 12 cards of a hand."""
    import tomllib

    def toml(value: Any) -> str:
        if isinstance(value, dict):
            return "{ " + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + " }"
        return json.dumps(value)

    data = tomllib.loads(SHIPPED_RULES.read_text(encoding="utf-8"))
    lines = []
    for card in data["card"]:
        if card["kind"] == "basic":
            card["effect"] = {"kind": "discard", "count": 3}
        lines.append("[[card]]\n" + "\n".join(f"{k} = {toml(v)}" for k, v in card.items()) + "\n")
    path = tmp_path / "discard.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(RuleCardError, match="no card"):
        stichkit.load_game("stichmeister", players=5, rule_cards=str(path))
    game = stichkit.load_game("stichmeister", players=4, rule_cards=str(path))  # 15 cards: 3 left
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))


# -- 6. replay is strict about types ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(version=True), "version"),
        (lambda r: r.update(version=1.0), "version"),
        (lambda r: r["result"].update(scores=[float(x) for x in r["result"]["scores"]]), "scores"),
        (lambda r: r["result"].update(winners=[float(x) for x in r["result"]["winners"]]), "winners"),
        (lambda r: r["result"].update(note="hi"), "note"),
        (lambda r: r.update(seed=float(r["seed"])), "seed"),
        (lambda r: r.update(game="STICHLING"), "game"),
        (lambda r: r["options"].update(players=str(r["options"]["players"])), "players"),
        (lambda r: r["moves"][3].update(seat=True), "seat"),
        (lambda r: r.update(files={"cards": {"name": "x", "sha256": "0", "text": ""}}), "files"),
    ],
)
def test_replay_is_strict_about_types(change: Any, message: str) -> None:
    record = finished_record()
    stichkit.replay(record)
    change(record)
    with pytest.raises(RecordError, match=message):
        stichkit.replay(record)


# -- 7. action ids ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", stichkit.game_names())
@pytest.mark.parametrize("value", [None, 42, 3.5, b"D7", ["D7"], object()])
def test_action_id_of_a_non_action_is_a_notation_error(name: str, value: Any) -> None:
    with pytest.raises(NotationError):
        stichkit.load_game(name).action_id(value)


# -- 8. arguments checked before any work starts ---------------------------------------------------


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "1e300"])
def test_bad_delay(delay: str) -> None:
    code, out = run(["play", "jass", "--seed", "1", "--delay", delay])
    assert code == 2 and "--delay" in out and "Trump" not in out


def test_bad_plot_path_is_refused_before_the_tournament(tmp_path: Path) -> None:
    recs = tmp_path / "recs"
    for plot in ("x.xyz", str(tmp_path / "no" / "dir" / "x.png"), "x\x00.png"):
        code, out = run(["tournament", "stichwahl", "--seats", "random,random,random,random", "--deals", "2",
                         "--records", str(recs), "--plot", plot, "target=5"])  # fmt: skip
        assert code == 2 and "--plot" in out, out
        assert not recs.exists() or not any(recs.glob("*.json"))


def test_unusable_records_directory(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for recs in (str(afile), str(afile / "sub"), "a\x00b", "\udc80"):
        code, out = run(["tournament", "stichwahl", "--seats", "random,random,random,random", "--deals", "1",
                         "--records", recs, "target=5"])  # fmt: skip
        assert code == 2 and "--records" in out and "Traceback" not in out, out


@pytest.mark.parametrize("flag", ["--save", "--resume"])
@pytest.mark.parametrize("path", ["a\x00b.json", "\udc80.json"])
def test_save_and_resume_paths_are_checked(flag: str, path: str) -> None:
    code, out = run(["play", "jass", "--seed", "1", "--delay", "0", flag, path])
    assert code == 2 and flag in out and "Trump" not in out, out


@pytest.mark.parametrize("seed", [str(10**30), str(-(10**30))])
def test_out_of_range_seeds(seed: str) -> None:
    for argv in (["play", "jass", "--delay", "0"], ["simulate", "jass", "--games", "1", "--seats",
                                                     "random,random,random,random"]):  # fmt: skip
        code, out = run([*argv, "--seed", seed])
        assert code == 2 and "--seed" in out, out
    with pytest.raises(ValueError, match="seed"):
        stichkit.load_game("jass").new_state(seed=int(seed))


# -- 9. bounded resources ---------------------------------------------------------------------------


def test_workers_never_exceed_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers: int | None = None, **kw: Any) -> None:
            started.append(max_workers or 0)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    monkeypatch.setattr("stichkit.arena.executors.ProcessPoolExecutor", Counting)
    code, _ = run(["simulate", "stichwahl", "--games", "2", "--seats", "random,random,random,random", "--workers",
                   "8", "--seed", "1", "--json", "target=5"])  # fmt: skip
    assert code == 0 and max(started, default=0) <= 2
    code, _ = run(["tournament", "stichwahl", "--seats", "random,random,random,random", "--deals", "1",
                   "--workers", "16", "--seed", "1", "--json", "target=5"])  # fmt: skip
    assert code == 0 and max(started, default=0) <= 2
    code, out = run(["simulate", "stichwahl", "--games", "2", "--seats", "random,random,random,random",
                     "--workers", str(10**6)])  # fmt: skip
    assert code == 2 and "--workers" in out


class Stop(Exception):
    pass


def test_a_billion_games_do_not_build_the_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work starts at once and memory stays flat: the schedule and the results are streamed."""
    import stichkit.arena.duplicate as duplicate
    import stichkit.arena.simulation as simulation

    calls = {"n": 0}

    def stop_after_three(real: Any) -> Any:
        def play(task: Any) -> Any:
            calls["n"] += 1
            if calls["n"] > 3:
                raise Stop
            return real(task)

        return play

    monkeypatch.setattr(simulation, "play_simulated", stop_after_three(simulation.play_simulated))
    t0 = time.monotonic()
    with pytest.raises(Stop):
        run(["simulate", "stichwahl", "--games", str(10**9), "--seats", "random,random,random,random",
             "--seed", "1", "target=5"])  # fmt: skip
    calls["n"] = 0
    monkeypatch.setattr(duplicate, "play_task", stop_after_three(duplicate.play_task))
    with pytest.raises(Stop):
        run(["tournament", "stichwahl", "--seats", "random,random,random,random", "--deals", str(10**9),
             "--seed", "1", "target=5"])  # fmt: skip
    assert time.monotonic() - t0 < 20


@pytest.mark.parametrize(("name", "ok"), [("jass", 10**9), ("stichwahl", 10**9)])
def test_target_has_an_upper_bound(name: str, ok: int) -> None:
    assert stichkit.load_game(name, target=ok).options["target"] == ok
    for value in (ok + 1, 10**5000):
        with pytest.raises(OptionError, match="target") as e:
            stichkit.load_game(name, target=value)
        assert len(str(e.value)) < 400


HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "call",
    [
        lambda: stichkit.load_game("jass", target=HUGE),
        lambda: stichkit.load_game("jass", profile=HUGE),
        lambda: stichkit.load_game("jass", **{HUGE: 1}),
        lambda: stichkit.load_game(HUGE),
        lambda: stichkit.load_game("jass").parse_action(HUGE),
        lambda: stichkit.load_game("jass").new_state(seed=1).apply(HUGE),
        lambda: stichkit.load_game("jass").new_state(deal={"hands": [[HUGE] * 9] * 4}),
        lambda: stichkit.load_game("stichmeister").new_state(deal={"hands": [[HUGE] * 15] * 4}),
        lambda: stichkit.replay({"format": HUGE}),
        lambda: stichkit.replay({"format": "stichkit-record", "version": HUGE}),
        lambda: stichkit.replay({**finished_record(), "result": HUGE}),
        lambda: stichkit.replay({**finished_record(), "moves": [HUGE]}),
    ],
)
def test_error_messages_quote_little_of_a_huge_input(call: Any) -> None:
    with pytest.raises(stichkit.StichkitError) as e:
        call()
    assert len(str(e.value)) < 500


def test_cli_error_messages_quote_little_of_a_huge_input() -> None:
    for argv in (["play", "jass", "target=" + HUGE], ["play", "jass", HUGE + "=1"], ["play", HUGE],
                 ["simulate", "jass", "--games", "1", "--seats", HUGE]):  # fmt: skip
        code, out = run(argv)
        assert code == 2 and len(out) < 1000, out[:200]


# -- 10. tamper-evident records: the chance outcomes follow from the seed ---------------------------


def test_from_seed_refuses_edited_deals() -> None:
    game = stichkit.load_game("jass")
    state = game.new_state(seed=4)
    assert stichkit.replay(state.record(), from_seed=True) == state
    hands = [list(h) for h in state.record()["moves"][0]["chance"]["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    record = game.new_state(seed=4, deal={"hands": hands}).record()  # a valid deal, but not the seed's
    assert stichkit.replay(record).view(0)["hand"] != state.view(0)["hand"]
    with pytest.raises(RecordError, match="seed 4 gives"):
        stichkit.replay(record, from_seed=True)
    del record["seed"]
    with pytest.raises(RecordError, match="no seed"):
        stichkit.replay(record, from_seed=True)


@pytest.mark.parametrize("name", stichkit.game_names())
def test_from_seed_accepts_every_game_played_from_its_seed(name: str) -> None:
    record = finished_record(name, seed=8)
    assert stichkit.replay(record, from_seed=True).record() == record


def test_read_record_can_require_the_seed(tmp_path: Path) -> None:
    from stichkit.cli.common import CliError, read_record

    record = stichkit.load_game("stichmeister").new_state(seed=2).record()
    record["moves"][0]["chance"]["rule_deck"].reverse()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert read_record(str(path)).game.name == "stichmeister"
    with pytest.raises(CliError, match="seed"):
        read_record(str(path), from_seed=True)
