"""What the server's log may hold: never a seat token, and one line for a refused handshake.

A token in a log opens its seat to whoever reads the log, which undoes keeping only hashes in
the database. Clients send tokens in a WebSocket subprotocol or an `Authorization` header, which
no log records; the query form `?token=` is still accepted, so every log line passes through
`Scrub` on its way to a handler: uvicorn's access and WebSocket lines, the websockets library's
debug frames, the server's own lines and their tracebacks.
"""

from __future__ import annotations

import contextvars
import copy
import logging
import re
from typing import Any

HIDDEN = "[hidden]"
TOKEN_PROTOCOL = "stichkit.token."  # the subprotocol that carries a token: stichkit.token.TOKEN

_TOKENS = [
    re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE),  # a query string
    re.compile(r"(" + re.escape(TOKEN_PROTOCOL) + r")[^\s,\"']+"),  # a subprotocol header
    re.compile(r"(\"token\"\s*:\s*\")[^\"]*"),  # a JSON field
    re.compile(r"(Bearer\s+)[^\s\"',]+", re.IGNORECASE),  # an Authorization header
    # Any run of exactly 43 URL-safe characters: the length of a seat token (32 random bytes).
    re.compile(r"()(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"),
]

# Set while the table's socket refuses a handshake: uvicorn and the websockets library then
# each add a line of their own to the one that names the refusal (one at ERROR level, as if the
# application had failed); `Scrub` drops those two.
refusing: contextvars.ContextVar[bool] = contextvars.ContextVar("stichkit_refusing", default=False)
_REFUSAL_ECHOES = ("ASGI callable returned without completing handshake.", "connection rejected (%d %s)")


def scrub(text: str) -> str:
    """`text` with every seat token in it replaced by `[hidden]`."""
    for pattern in _TOKENS:
        text = pattern.sub(lambda m: m.group(1) + HIDDEN, text)
    return text


def _scrubbed(arg: Any) -> Any:
    return scrub(arg) if isinstance(arg, str) else arg


class Scrub(logging.Filter):
    """A handler's filter: hides tokens in every record, and drops the echoes of a refusal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in _REFUSAL_ECHOES and refusing.get():
            return False
        if isinstance(record.msg, str):
            record.msg = scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrubbed(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _scrubbed(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info))
        return True


def log_config(base: dict[str, Any]) -> dict[str, Any]:
    """uvicorn's logging configuration (`base`) with `Scrub` on each of its handlers."""
    config = copy.deepcopy(base)
    config.setdefault("filters", {})["scrub"] = {"()": f"{__name__}.Scrub"}
    for handler in config.get("handlers", {}).values():
        handler.setdefault("filters", []).append("scrub")
    return config


def scrub_root() -> None:
    """`Scrub` on the root logger's handlers (the server's own lines, and any library's)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, Scrub) for f in handler.filters):
            handler.addFilter(Scrub())
