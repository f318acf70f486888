"""Account holders for the tests: each a browser of its own (its cookies, the headers a browser
sends with the page's own requests), registered under a fresh user name."""

from __future__ import annotations

import secrets

import httpx

from .harness import Server

PASSWORD = "correct horse battery"


class Person:
    """A registered player with a logged-in browser at `server`."""

    def __init__(self, server: Server, prefix: str = "p") -> None:
        self.name = f"{prefix}{secrets.token_hex(3)}"
        self.http = httpx.Client(base_url=server.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})
        r = self.http.post("/api/account/register", json={"name": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text

    def at(self, server: Server) -> httpx.Client:
        """The same login at another server process (the session is in the shared database)."""
        return httpx.Client(base_url=server.http, timeout=30, cookies=self.http.cookies,
                            headers={"Sec-Fetch-Site": "same-origin"})  # fmt: skip

    def close(self) -> None:
        self.http.close()
