"""Connections before the application sees them: how many one client may hold, and how long a
request may take to arrive.

uvicorn waits for a request's head as long as a client likes, and takes every connection it is
offered: a thousand half-sent requests from one address used up the server's file descriptors,
and nobody else got in. So each connection counts against its client's address (a WebSocket
after its upgrade too), beyond `--max-connections-per-client` the next is closed at once, and a
request whose head and body have not arrived within `--request-timeout` is answered 408 (or,
once the application is reading it, dropped).

Behind a reverse proxy every connection comes from the proxy: addresses the server trusts for
`X-Forwarded-For` (uvicorn's `FORWARDED_ALLOW_IPS`) are not limited, and the proxy limits
connections per client (nginx: `limit_conn`).

The guard is uvicorn's own httptools protocol (which `uvicorn[standard]` brings) and WebSocket
protocol with these checks added; the server runs without them, and says so, where httptools is
missing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .clients import client_key

log = logging.getLogger("stichkit.server")

TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)
WARN_EVERY = 60.0  # seconds between two warnings about one address


class Counter:
    """Open connections per client (its address as clients.client_key counts it: an IPv6 client is
    its /64); a transport counts until it is lost."""

    def __init__(self, limit: int, trusted: frozenset[str] | None) -> None:
        self.limit = limit
        self.trusted = trusted  # None: every address (FORWARDED_ALLOW_IPS=*)
        self.open: dict[str, int] = {}
        self._held: dict[int, str] = {}
        self._warned: dict[str, float] = {}

    def admit(self, transport: asyncio.BaseTransport, address: str | None) -> bool:
        """Count the connection; False when its address holds `limit` already (close it)."""
        if address is None or self.trusted is None or address in self.trusted:
            return True
        address = client_key(address)
        if self.open.get(address, 0) >= self.limit:
            now = time.monotonic()
            if now - self._warned.get(address, -WARN_EVERY) >= WARN_EVERY:
                self._warned[address] = now
                log.warning("%s holds %d connections, the most one client may (--max-connections-per-client); "
                            "further ones are closed at once", address, self.limit)  # fmt: skip
            return False
        self.open[address] = self.open.get(address, 0) + 1
        self._held[id(transport)] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The connection ended (called once for the HTTP protocol, once for the WebSocket one:
        only the first counts)."""
        address = self._held.pop(id(transport), None)
        if address is not None:
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]
                self._warned.pop(address, None)  # an address that left is forgotten (many come and go)


def trusted_addresses(forwarded_allow_ips: str) -> frozenset[str] | None:
    """The proxies uvicorn trusts, not counted per client (None: `*`, every address)."""
    names = {x.strip() for x in forwarded_allow_ips.split(",") if x.strip()}
    return None if "*" in names else frozenset(names)


def protocols(limit: int, timeout: float, forwarded_allow_ips: str) -> dict[str, Any]:
    """uvicorn's `http` and `ws` protocol classes with the guard, as keyword arguments for
    `uvicorn.run` (none where httptools is missing: uvicorn's own then)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:
        log.warning("httptools is not installed: slow or too many connections of one client are not limited "
                    "(pip install 'uvicorn[standard]')")  # fmt: skip
        return {}
    counter = Counter(limit, trusted_addresses(forwarded_allow_ips))

    class GuardedHttp(HttpToolsProtocol):
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not counter.admit(transport, self.client[0] if self.client else None):
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self.deadline = self.loop.call_later(timeout, self._too_slow)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()  # each request of a kept-alive connection has the same time to arrive

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            counter.release(self.transport)
            super().connection_lost(exc)

        def _too_slow(self) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle.response_complete:  # the head has not arrived
                body = b'{"error": "the request did not arrive within %d seconds"}' % round(timeout)
                self.transport.write(TIMEOUT_RESPONSE % (len(body), body))
            self.transport.close()

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            counter.release(self.transport)
            super().connection_lost(exc)

    return {"http": GuardedHttp, "ws": GuardedWebSocket}
