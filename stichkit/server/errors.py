"""A refused request, as the routes answer it."""

from __future__ import annotations


class HubError(Exception):
    """A refused request: `status` is the HTTP status, the message the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
