"""A refused request, as the routes answer it."""

from __future__ import annotations


class HubError(Exception):
    """A refused request: `status` is the HTTP status, the message the reason; `code` names the
    limit that was reached, for a program to act on (None for other refusals)."""

    def __init__(self, status: int, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
