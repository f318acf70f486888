"""Replaying game records: a record is the only input that must be trusted least, so check everything."""

from __future__ import annotations

from typing import Any

from .errors import IllegalActionError, OptionError, RecordError
from .game import RECORD_FORMAT, RECORD_VERSION, State
from .registry import load_game


def replay(record: Any) -> State:
    """Rebuild the state a record describes. A malformed or inconsistent record raises RecordError."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a stichkit record: 'format' must be {RECORD_FORMAT!r}")
    version = record.get("version")
    if version != RECORD_VERSION:
        raise RecordError(f"record version {version!r} is not supported; this stichkit reads version {RECORD_VERSION}")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object")
    try:
        game = load_game(record.get("game"), **options)  # type: ignore[arg-type]
    except OptionError as e:
        raise RecordError(f"record's game or options are invalid: {e}") from None
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list")
    chances = []
    for i, m in enumerate(moves):
        if not isinstance(m, dict) or not ({"chance"} == set(m) or {"seat", "action"} == set(m)):
            raise RecordError(f"move {i}: must be {{'chance': ...}} or {{'seat': n, 'action': text}}, not {m!r}")
        if "chance" in m:
            chances.append(m["chance"])
    seed = record.get("seed")
    if seed is not None and type(seed) is not int:
        raise RecordError(f"'seed' must be a whole number or absent, not {seed!r}")
    try:
        state = game._state_from_chances(chances, seed)
    except ValueError as e:
        raise RecordError(f"record's chance outcomes are invalid: {e}") from None
    for i, m in enumerate(moves):
        if "chance" in m:
            continue
        seat, text = m["seat"], m["action"]
        if state.is_terminal():
            raise RecordError(f"move {i}: {text!r} after the game is over")
        if type(seat) is not int or seat != state.current_player:
            raise RecordError(f"move {i}: seat {seat!r} moves, but it is seat {state.current_player}'s turn")
        if not isinstance(text, str):
            raise RecordError(f"move {i}: action must be notation text, not {text!r}")
        try:
            state.apply(text)
        except IllegalActionError as e:
            raise RecordError(f"move {i}: {e}") from None
    got = state.record()["moves"]
    if got != moves:
        i = next((k for k, (a, b) in enumerate(zip(got, moves, strict=False)) if a != b), min(len(got), len(moves)))
        want = moves[i] if i < len(moves) else "nothing"
        have = got[i] if i < len(got) else "nothing"
        raise RecordError(f"move {i}: the record has {want!r} where the game gives {have!r}")
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict):
            raise RecordError(f"'result' must be an object with 'scores' and 'winners', not {result!r}")
        if not state.is_terminal():
            raise RecordError("record has a result but its moves do not finish the game")
        if result.get("scores") != state.scores() or result.get("winners") != state.winners():
            raise RecordError(
                f"record's result {result!r} differs from the replayed one "
                f"{{'scores': {state.scores()}, 'winners': {state.winners()}}}"
            )
    return state
