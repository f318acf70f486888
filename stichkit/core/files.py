"""Reading files that other people give us: card tables, rule-card files, records.

`read_file` opens a path without blocking (a FIFO), reads only a regular file (not a device such
as /dev/zero, not a directory), and at most `MAX_FILE_BYTES`, so a hostile path can neither hang
nor exhaust memory; every problem is the caller's error class with a message saying what is wrong.
`DataFile` is a data file's text, read once: a game keeps it, and the game's records carry it, so a
record replays without stichkit opening any file the record names.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from typing import Any

from .errors import StichkitError, quote

MAX_FILE_BYTES = 8 << 20  # a card table is ~30 kB, a long game's record ~1 MB


def read_file(path: Any, what: str, error: type[StichkitError], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path`, or `error` naming `what` and the problem."""
    if not isinstance(path, str | os.PathLike):
        raise error(f"{what} is given by its path (text), not {type(path).__name__}")
    name = os.fspath(path)
    shown = quote(name, 200)
    try:
        if not isinstance(name, str):
            raise TypeError
        name.encode("utf-8")  # a path that is not text (a lone surrogate) could not be written back either
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise error(f"cannot read {what} {shown}: {e.strerror or e}") from None
    except (ValueError, TypeError):  # a NUL byte, a lone surrogate, bytes
        raise error(f"{what} {shown} is not a usable path") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {shown} is not a regular file")
        if info.st_size > limit:
            raise error(f"{what} {shown} is larger than {limit:,} bytes")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise error(f"{what} {shown} is larger than {limit:,} bytes")
        return b"".join(chunks)
    except OSError as e:
        raise error(f"cannot read {what} {shown}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def decode_text(data: bytes, what: str, error: type[StichkitError]) -> str:
    """`data` as UTF-8 text, or `error` saying where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{what} is not UTF-8 text (byte {e.start}: {e.reason})") from None


def read_text(path: Any, what: str, error: type[StichkitError], limit: int = MAX_FILE_BYTES) -> str:
    return decode_text(read_file(path, what, error, limit), f"{what} {quote(os.fspath(path))}", error)


@dataclass(frozen=True)
class DataFile:
    """A data file's text as read from `name` (the path as the user wrote it), with its sha256."""

    name: str
    text: str
    sha256: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha256", hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest())

    @classmethod
    def read(cls, path: Any, what: str, error: type[StichkitError]) -> DataFile:
        text = read_text(path, what, error)
        return cls(os.fspath(path), text)

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "sha256": self.sha256, "text": self.text}
