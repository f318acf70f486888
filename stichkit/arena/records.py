"""A tournament's records on disk: one JSON record per game, and reading them back to resume.

A long run (hours at full search budgets) must survive an interruption: every game is written
as it ends, and `read_finished` turns the records already there back into results, replaying and
checking each one, so only the missing games are played again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stichkit.core import RecordError
from stichkit.core.files import read_file
from stichkit.core.record import parse_record

from .duplicate import GameResult, Schedule, Task, result_from_record

DELETE_HINT = "delete the file to play that game again"


def record_name(game: str, deal: int, rotation: int) -> str:
    return f"{game}-deal{deal:04d}-rot{rotation}.json"


def write_record(directory: Path, game: str, result: GameResult) -> None:
    """Written whole or not at all (to a temporary name, then renamed): a run stopped while
    writing leaves no half record behind to trip up the resume."""
    if result.record is not None:
        path = directory / record_name(game, result.deal, result.rotation)
        part = path.with_name(path.name + ".part")
        part.write_text(json.dumps(result.record, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(part, path)


_NAME = re.compile(r"-deal(\d{4,})-rot(\d+)\.json")


def _read_json(path: Path) -> Any:
    """A record file read as other people's files are: a bounded regular file, strict JSON."""
    try:
        return parse_record(read_file(path, "the record", RecordError))
    except RecordError as e:
        raise RecordError(f"{path}: cannot read it as a JSON record ({e}); {DELETE_HINT}") from None


def _record_files(directory: Path, game: str) -> list[tuple[int, int, Path]]:
    """(deal, rotation, path) of every record file of `game` in `directory`, by deal and rotation."""
    found = []
    for path in directory.glob(f"{game}-deal*-rot*.json"):
        m = _NAME.fullmatch(path.name[len(game) :])
        if m:
            found.append((int(m.group(1)), int(m.group(2)), path))
    return sorted(found)


def read_finished(directory: Path, tasks: Sequence[Task]) -> dict[tuple[int, int], GameResult]:
    """The games of the schedule whose records are in `directory`, each replayed and checked
    against the game the schedule has under that file's name (`result_from_record`: the same
    game, options, card tables, bots, deal and rotation, and the deals its seed gives).

    RecordError names the file and what is wrong (not JSON, not this schedule's game). Only the
    directory's files are looked at, so a schedule of any length costs nothing here."""
    if not tasks:
        return {}
    game = tasks[0].game
    by_key = None if isinstance(tasks, Schedule) else {(t.deal, t.rotation): t for t in tasks}
    finished = {}
    for deal, rotation, path in _record_files(directory, game):
        task = by_key.get((deal, rotation)) if by_key is not None else tasks.task(deal, rotation)  # type: ignore[attr-defined]
        if task is None or path.name != record_name(game, deal, rotation):
            continue  # a game of a longer run, or a name this run does not write
        record = _read_json(path)
        try:
            finished[(task.deal, task.rotation)] = result_from_record(task, record)
        except RecordError as e:
            raise RecordError(f"{path}: {e}. Resume with the same seats, options and seed, or {DELETE_HINT}") from None
    return finished


def records_seed(directory: Path, game: str) -> int | None:
    """The tournament seed (game seed - deal) of the records of `game` in `directory`, if any."""
    seeds = set()
    for _deal, _rotation, path in _record_files(directory, game):
        record = _read_json(path)
        arena = record.get("arena") if isinstance(record, dict) else None
        seed, deal = (record.get("seed"), arena.get("deal")) if isinstance(arena, dict) else (None, None)
        if type(seed) is not int or type(deal) is not int:
            raise RecordError(f"{path}: not a tournament record (it needs 'seed' and 'arena': {{'deal': ...}})")
        seeds.add(seed - deal)
    if len(seeds) > 1:
        raise RecordError(f"{directory} holds records of tournaments with different seeds {sorted(seeds)}")
    return seeds.pop() if seeds else None
