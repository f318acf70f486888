"""Replaying game records: a record is the input to trust least, so everything is checked.

A record comes from other people. `replay` takes it as a dict or as JSON text (str or bytes) and
refuses, with a RecordError that says what is wrong: text that is not UTF-8 or not JSON, nesting
deeper than any record has, numbers too large for any field, values of the wrong type, a game,
options, moves or result that do not replay. It never opens a file a record names: a record of a
game with a custom card table carries the table's text (`files`), checked by its sha256.

`replay(record, from_seed=True)` also checks that every chance outcome (every deal) is the one the
record's seed gives: a record whose deals were edited is refused, though it would replay.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import IllegalActionError, OptionError, RecordError, quote
from .files import DataFile
from .game import RECORD_FORMAT, RECORD_VERSION, SEED_LIMIT, SEED_RANGE, Game, State, check_seed
from .options import as_written_before
from .registry import game_class

MAX_DEPTH = 32  # a record nests about 6 deep (record, moves, move, chance, hands, hand)
NUMBER_LIMIT = SEED_LIMIT  # no whole number in a record is larger (seeds are the largest)
RESULT_KEYS = {"scores", "winners"}
FILE_KEYS = {"name", "sha256", "text"}


def parse_record(data: str | bytes | bytearray) -> Any:
    """JSON text (or UTF-8 bytes) to a value, or RecordError: not UTF-8, not JSON, nested too deep,
    numbers of thousands of digits, NaN or Infinity."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"a record is UTF-8 JSON text; this is not UTF-8 (byte {e.start}: {e.reason})") from None

    def no_constant(name: str) -> Any:
        raise RecordError(f"a record holds no {name}")

    try:
        value = json.loads(data, parse_constant=no_constant)
    except RecursionError:
        raise RecordError(f"a record is JSON nested at most {MAX_DEPTH} deep; this one is nested far deeper") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"a record is JSON text; this is not JSON ({e.msg}, line {e.lineno})") from None
    except ValueError as e:  # e.g. Python's limit on the digits of a number
        raise RecordError(f"a record is JSON text that Python reads; this one is not ({quote(str(e), 120)})") from None
    check_shape(value)
    return value


def check_shape(value: Any) -> None:
    """RecordError unless `value` is plain JSON (dicts with text keys, lists, text, numbers, true,
    false, null) nested at most MAX_DEPTH deep, with every whole number within +-NUMBER_LIMIT."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            if depth >= MAX_DEPTH:
                raise RecordError(f"a record is JSON nested at most {MAX_DEPTH} deep; this one is nested deeper")
            for k, x in v.items():
                if not isinstance(k, str):
                    raise RecordError(f"a record's object keys are text, not {quote(k)}")
                stack.append((x, depth + 1))
        elif isinstance(v, list):
            if depth >= MAX_DEPTH:
                raise RecordError(f"a record is JSON nested at most {MAX_DEPTH} deep; this one is nested deeper")
            stack.extend((x, depth + 1) for x in v)
        elif type(v) is int:
            if not -NUMBER_LIMIT < v < NUMBER_LIMIT:
                raise RecordError(f"a record's whole numbers are from -(2**64 - 1) to 2**64 - 1, not {quote(v)}")
        elif not (v is None or isinstance(v, str | bool | float)):
            raise RecordError(f"a record holds JSON values only, not {type(v).__name__}")


def _same(a: Any, b: Any) -> bool:
    """JSON equality that tells true from 1 and 1.0 from 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _load(record: dict[str, Any]) -> Game:
    """The record's game with its options, a custom card table from the record itself."""
    name = record.get("game")
    if not isinstance(name, str):
        raise RecordError(f"'game' must be a game's name, not {quote(name)}")
    try:
        cls = game_class(name)
    except OptionError as e:
        raise RecordError(f"record's game is invalid: {e}") from None
    if cls.name != name:
        raise RecordError(f"'game' must be written {cls.name!r}, not {quote(name)}")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object")
    files = record.get("files", {})
    if not isinstance(files, dict):
        raise RecordError("'files' must be an object")
    data_options = {o.name: o for o in cls.OPTIONS if o.data_file}
    given = as_written_before(cls.OPTIONS, options)
    for key, carried in files.items():
        if key not in data_options or options.get(key) is None:
            raise RecordError(f"'files' carries {quote(key)}, but no option of the record names such a file")
        if (
            not isinstance(carried, dict)
            or set(carried) != FILE_KEYS
            or not all(isinstance(carried[k], str) for k in FILE_KEYS)
        ):
            raise RecordError(f"'files'.{key} must be an object with 'name', 'sha256' and 'text' (text)")
        if carried["name"] != options[key]:
            raise RecordError(
                f"'files'.{key} is named {quote(carried['name'])}, but the option is {quote(options[key])}"
            )
        data = DataFile(carried["name"], carried["text"])
        if data.sha256 != carried["sha256"]:
            raise RecordError(f"'files'.{key}: the text's sha256 is {data.sha256}, not {quote(carried['sha256'])}")
        given[key] = data
    for key, opt in data_options.items():
        if options.get(key) is not None and key not in files:
            raise RecordError(
                f"the record's option {key}={quote(options[key])} names {opt.data_file}, but the record does not carry "
                "its text ('files'); stichkit never opens a file that a record names"
            )
    try:
        game = cls(**given)
    except OptionError as e:
        raise RecordError(f"record's options are invalid: {e}") from None
    for key, value in options.items():
        if not _same(value, game.options[key]):
            raise RecordError(f"option {key}={quote(value)} must be written {game.options[key]!r}")
    return game


def replay(record: Any, *, from_seed: bool = False) -> State:
    """Rebuild the state a record describes: a dict, or its JSON text (str or UTF-8 bytes).

    A malformed or inconsistent record raises RecordError. `from_seed=True`: the record's chance
    outcomes must also be the ones its seed gives (none given explicitly), so edited deals are refused."""
    if isinstance(record, str | bytes | bytearray):
        record = parse_record(record)
    else:
        check_shape(record)
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a stichkit record: 'format' must be {RECORD_FORMAT!r}")
    version = record.get("version")
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            f"record version {quote(version)} is not supported; this stichkit reads version {RECORD_VERSION}"
        )
    game = _load(record)
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list")
    chances = []
    for i, m in enumerate(moves):
        if not isinstance(m, dict) or not ({"chance"} == set(m) or {"seat", "action"} == set(m)):
            raise RecordError(f"move {i}: must be {{'chance': ...}} or {{'seat': n, 'action': text}}, not {quote(m)}")
        if "chance" in m:
            chances.append(m["chance"])
    seed = record.get("seed")
    try:
        check_seed(seed)
    except OptionError:
        raise RecordError(f"'seed' must be {SEED_RANGE} or absent, not {quote(seed)}") from None
    try:
        if from_seed:
            if seed is None:
                raise RecordError("the record has no seed, so its deals cannot be checked against one")
            state = game.new_state(seed=seed)
        else:
            state = game._state_from_chances(chances, seed)
    except RecordError:
        raise
    except ValueError as e:
        raise RecordError(f"record's chance outcomes are invalid: {e}") from None
    log = state._log
    for i, m in enumerate(moves):
        if "chance" in m:
            entry = log[i] if i < len(log) else 0
            if from_seed and (isinstance(entry, int) or state._chance_json(entry[1]) != m["chance"]):
                raise RecordError(
                    f"move {i}: this chance outcome (a deal or draw) is not the one the record's seed {seed} gives: "
                    "the record was edited, or made from a deal given explicitly"
                )
            continue
        seat, text = m["seat"], m["action"]
        if state.is_terminal():
            raise RecordError(f"move {i}: {quote(text)} after the game is over")
        if type(seat) is not int or seat != state.current_player:
            raise RecordError(f"move {i}: seat {quote(seat)} moves, but it is seat {state.current_player}'s turn")
        if not isinstance(text, str):
            raise RecordError(f"move {i}: action must be notation text, not {quote(text)}")
        try:
            state.apply(text)
        except IllegalActionError as e:
            raise RecordError(f"move {i}: {e}") from None
    got = state.record()["moves"]
    if got != moves:
        i = next((k for k, (a, b) in enumerate(zip(got, moves, strict=False)) if a != b), min(len(got), len(moves)))
        want = moves[i] if i < len(moves) else "nothing"
        have = got[i] if i < len(got) else "nothing"
        raise RecordError(f"move {i}: the record has {quote(want)} where the game gives {quote(have)}")
    if record.get("result") is not None:  # absent or null: a game not finished when it was written
        _check_result(record["result"], state)
    return state


def _check_result(result: Any, state: State) -> None:
    if not isinstance(result, dict) or set(result) != RESULT_KEYS:
        raise RecordError(f"'result' must be an object with exactly 'scores' and 'winners', not {quote(result)}")
    for key in ("scores", "winners"):
        value = result[key]
        if not isinstance(value, list) or not all(type(x) is int for x in value):
            raise RecordError(f"'result'.{key} must be a list of whole numbers, not {quote(value)}")
    if not state.is_terminal():
        raise RecordError("record has a result but its moves do not finish the game")
    if result["scores"] != state.scores() or result["winners"] != state.winners():
        raise RecordError(
            f"record's result {quote(result)} differs from the replayed one "
            f"{{'scores': {state.scores()}, 'winners': {state.winners()}}}"
        )
