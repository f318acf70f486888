"""What the commands share: option and seat parsing, bots, record files, and the usage error."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import stichkit
from stichkit.core.game import Game, State

HUMAN = "human"
# The bot that fills every seat but the first in `stich play`: ismcts (at most 1 s per decision),
# which beats heuristic on every game (README, Bots).
DEFAULT_BOT = "ismcts"


class CliError(Exception):
    """A usage problem: printed as one clear line, exit code 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`key=value` words to keyword options; the game validates the values."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"game options are written key=value (e.g. target=1500), not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def load_game(name: str, options: dict[str, Any]) -> Game:
    try:
        return stichkit.load_game(name, **options)
    except stichkit.OptionError as e:
        raise CliError(str(e)) from None


def bot_names() -> tuple[str, ...]:
    from stichkit import bots

    return tuple(bots.bot_names())


def parse_seats(text: str | None, num_players: int, *, allow_human: bool) -> list[str]:
    """`human,heuristic,...` to one name per seat, checked against the known bots."""
    if text is None:
        return [HUMAN, *([DEFAULT_BOT] * (num_players - 1))]
    seats = [s.strip().lower() for s in text.split(",")]
    if len(seats) != num_players:
        raise CliError(f"--seats names {len(seats)} players, but this game has {num_players} seats")
    known = bot_names()
    for s in seats:
        if s == HUMAN:
            if not allow_human:
                raise CliError("a human cannot sit in a simulation; seats here are bots: " + ", ".join(known))
        elif s not in known:
            allowed = ", ".join((HUMAN, *known) if allow_human else known)
            raise CliError(f"unknown player {s!r} in --seats; use one of: {allowed}")
    return seats


def make_bot(name: str, seed: int | None) -> Any:
    """A bot by name; bots that take a seed get one, so seeded runs repeat exactly."""
    from stichkit import bots

    if seed is not None:
        try:
            return bots.make(name, seed=seed)
        except (TypeError, stichkit.OptionError):  # a bot without a seed parameter
            pass
    return bots.make(name)


def read_record(path: str) -> State:
    """The state a saved record file describes; any problem is a CliError naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{path} is not a stichkit record: invalid JSON ({e.msg}, line {e.lineno})") from None
    try:
        return stichkit.replay(record)
    except stichkit.StichkitError as e:
        raise CliError(f"{path} does not replay: {e}") from None


def write_record(state: State, path: str) -> None:
    """Write the record atomically, so an interrupted save never leaves half a file."""
    write_json(state.record(), path)


def bot_seed(seed: int | None, seat: int) -> int | None:
    """A bot's own seed, derived from the game's, so every seat plays its own random stream."""
    return None if seed is None else seed * 1009 + seat


def read_json(path: str) -> Any:
    """The JSON document in `path`; a missing, unreadable or malformed file is a CliError naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise CliError(f"{path} is not a stichkit file: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{path} is not a stichkit file: invalid JSON ({e.msg}, line {e.lineno})") from None
    except (RecursionError, ValueError) as e:  # nested too deep, or an integer too long to read
        raise CliError(f"{path} is not a stichkit file: {str(e)[:80]}") from None


def write_json(data: Any, path: str) -> None:
    """Write `data` as JSON atomically, so an interrupted save never leaves half a file."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".stich-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
