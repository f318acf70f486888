"""What the commands share: option and seat parsing, bots, record files, and the usage error."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import stichkit
from stichkit.core.errors import RecordError, quote
from stichkit.core.files import read_file
from stichkit.core.game import Game, State

HUMAN = "human"
# The bot that fills every seat but the first in `stich play`: ismcts (at most 1 s per decision),
# which beats heuristic on every game (docs/benchmarks.md).
DEFAULT_BOT = "ismcts"


class CliError(Exception):
    """A usage problem: printed as one clear line, exit code 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`key=value` words to keyword options; the game validates the values."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliError(f"game options are written key=value (e.g. target=1500), not {quote(pair)}")
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


def is_bot(name: str) -> bool:
    """Whether a bot of that name can play here. Loads that bot alone: listing every bot would load
    the other packages' bots too (the policy bot brings numpy and gymnasium)."""
    from stichkit import bots

    try:
        return bots.bot_class(name) is not None
    except stichkit.OptionError as e:  # declared by a package whose extra is missing: say so
        raise CliError(str(e)) from None


def parse_seats(text: str | None, num_players: int, *, allow_human: bool, game: str | None = None) -> list[str]:
    """`human,heuristic,...` to one bot spec per seat (`name` or `name:key=value...`, e.g.
    `ismcts:time=0.5`, `remote:http://HOST:PORT/PLAYER`), each checked by making the bot once."""
    from stichkit.arena import parse_bot

    if text is None:
        return [HUMAN, *([DEFAULT_BOT] * (num_players - 1))]
    seats = [s.strip() for s in text.split(",")]
    if len(seats) != num_players:
        raise CliError(f"--seats names {len(seats)} players, but this game has {num_players} seats")
    out = []
    for s in seats:
        if s.lower() == HUMAN:
            if not allow_human:
                raise CliError("a human cannot sit in a simulation; seats here are bots: " + ", ".join(bot_names()))
            out.append(HUMAN)
            continue
        if not is_bot(s.partition(":")[0].strip().lower()):
            known = bot_names()
            allowed = ", ".join((HUMAN, *known) if allow_human else known)
            raise CliError(f"unknown player {quote(s)} in --seats; use one of: {allowed}")
        try:
            out.append(parse_bot(s, game).label)
        except stichkit.OptionError as e:
            raise CliError(str(e)) from None
    return out


def make_bot(spec: str, seed: int | None) -> Any:
    """A bot from its spec (`name` or `name:key=value...`); bots that take a seed get one (unless
    the spec sets it), so seeded runs repeat exactly."""
    from stichkit.arena import parse_bot

    return parse_bot(spec).make(seed)


def read_record(path: str, *, from_seed: bool = False) -> State:
    """The state a saved record file describes; any problem is a CliError naming the file.

    The file is read as other people's files are (files.read_file: a regular file of bounded
    size, never blocking) and replayed strictly (stichkit.replay). `from_seed=True`: its deals must
    also be the ones its seed gives (a save whose deals were edited is refused)."""
    try:
        data = read_file(path, "the record file", RecordError)
    except RecordError as e:
        raise CliError(str(e)) from None
    try:
        return stichkit.replay(data, from_seed=from_seed)
    except stichkit.StichkitError as e:
        raise CliError(f"{quote(path, 200)} is not a record stichkit can replay: {e}") from None


def check_seed(seed: int | None) -> None:
    """A --seed leaves room for the seeds of every game of a run (seed + i stays a valid seed)."""
    if seed is not None and not -(2**63) < seed < 2**63:
        raise CliError(f"--seed must be a whole number between -2**63 and 2**63, not {quote(seed)}")


def check_workers(workers: int) -> None:
    from stichkit.arena.executors import MAX_WORKERS

    if not 1 <= workers <= MAX_WORKERS:
        raise CliError(f"--workers must be 1 to {MAX_WORKERS} (never more processes than games are started)")


def check_path(path: str, flag: str, *, for_writing: bool = False) -> None:
    """A path from the command line is usable text; one to write to lies in an existing directory."""
    try:
        if "\x00" in path:
            raise ValueError
        path.encode("utf-8")
    except ValueError:  # a NUL byte, a lone surrogate
        raise CliError(f"{flag} {quote(path, 200)} is not a usable file name") from None
    if for_writing:
        parent = Path(path).parent
        if not parent.is_dir():
            raise CliError(f"{flag} {quote(path, 200)}: the directory {quote(str(parent), 200)} does not exist")


def bot_seed(seed: int | None, seat: int) -> int | None:
    """A bot's own seed, derived from the game's, so every seat plays its own random stream."""
    return None if seed is None else seed * 1009 + seat


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
