"""Saved games of `stich play`: the game record plus who sat where, sealed with a checksum.

A save is a game record (docs/records.md) with one more key, `stich_play`: the seats (`human`
or a bot name), the seed the bots were seeded from, and a SHA-256 checksum over all of it. So
`--resume` brings back the same table (bots included), `stich replay` reads a save like any
record, and an edited save is refused: a changed option, hand or score breaks the checksum,
and deals that do not follow from the game's seed (`replay(..., from_seed=True)`) are refused
even with a matching checksum.
The checksum makes edits evident; it is not a signature (whoever recomputes it can forge one).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import stichkit
from stichkit.core.errors import RecordError, StichkitError, quote
from stichkit.core.files import read_file
from stichkit.core.game import State
from stichkit.core.record import parse_record

from .common import CliError, is_bot, write_json

SAVE_KEY = "stich_play"


@dataclass(frozen=True)
class Save:
    state: State
    seats: list[str]
    bots_seed: int | None


def checksum(record: dict[str, Any], seats: list[str], bots_seed: int | None) -> str:
    """SHA-256 over the record, the seats and the bots' seed, as canonical JSON."""
    body = {"record": record, "seats": seats, "bots_seed": bots_seed}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_document(state: State, seats: list[str], bots_seed: int | None) -> dict[str, Any]:
    record = state.record()
    return {
        **record,
        SAVE_KEY: {"seats": list(seats), "bots_seed": bots_seed, "checksum": checksum(record, seats, bots_seed)},
    }


def write_save(state: State, seats: list[str], bots_seed: int | None, path: str) -> None:
    write_json(save_document(state, seats, bots_seed), path)


def read_save(path: str) -> Save:
    """The game saved in `path`, with its seats; CliError says why a file is refused.

    The file is read as any file from other people is (bounded, strict JSON: core.files and
    core.record), its checksum must match, and its deals must be the ones its seed gives."""
    try:
        data = read_file(path, "the saved game", RecordError)
    except RecordError as e:
        raise CliError(str(e)) from None
    shown = quote(path)
    try:
        doc = parse_record(data)
    except RecordError as e:
        raise CliError(f"{shown} is not a saved game: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(SAVE_KEY), dict):
        raise CliError(
            f"{shown} is not a game saved by stich play (it has no {SAVE_KEY!r} entry with the seats and the "
            f"checksum), so it cannot be checked for edits; watch it with: stich replay {shown}"
        )
    meta = doc[SAVE_KEY]
    record = {k: v for k, v in doc.items() if k != SAVE_KEY}
    seats, bots_seed, stored = meta.get("seats"), meta.get("bots_seed"), meta.get("checksum")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise CliError(f"{shown}: the saved seats must be a list of player names, not {quote(seats)}")
    if bots_seed is not None and type(bots_seed) is not int:
        raise CliError(f"{shown}: the saved bots' seed must be a whole number, not {quote(bots_seed)}")
    if stored != checksum(record, seats, bots_seed):
        raise CliError(
            f"{shown} was changed after stich saved it: its checksum does not match its content "
            "(an edited option, hand, move or score); refusing to resume it"
        )
    try:
        state = stichkit.replay(record, from_seed=True)  # stich play deals every deal from the seed
    except StichkitError as e:
        raise CliError(f"{shown} cannot be resumed: {e}") from None
    if len(seats) != state.game.num_players or not all(s == "human" or is_bot(s) for s in seats):
        raise CliError(f"{shown}: the saved seats {quote(seats)} do not fit this {state.game.name} game")
    return Save(state, seats, bots_seed)


def stich_command() -> str:
    """How to run `stich` again from here: `stich` when that is on PATH, else the path this
    process was started as (after `make play`: .venv/bin/stich), else `python -m stichkit.cli`."""
    import shlex
    import shutil

    argv0 = sys.argv[0] if sys.argv else ""
    on_path = shutil.which("stich")
    if Path(argv0).name == "stich":
        if on_path and os.path.realpath(on_path) == os.path.realpath(argv0):
            return "stich"
        return shlex.quote(argv0)
    if on_path:
        return "stich"
    return f"{shlex.quote(sys.executable)} -m stichkit.cli"


def resume_command(game: str, path: str) -> str:
    import shlex

    return f"{stich_command()} play {game} --resume {shlex.quote(path)}"
