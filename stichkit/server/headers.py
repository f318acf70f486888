"""The headers every HTTP answer carries, so a browser keeps the page to itself.

- `Content-Security-Policy`: the page runs only its own files (plain ES modules, no inline
  script), talks only to its own server, and may not be framed; the API's JSON may run nothing.
- `X-Frame-Options: DENY` says the same to browsers that predate `frame-ancestors`: no other
  site can lay the table under its own buttons (clickjacking).
- `X-Content-Type-Options: nosniff`: a file is only ever what its type says.
- `Referrer-Policy: no-referrer`: a private table's link is its secret, and leaves the page with
  no click.

FastAPI's API reference (`/docs`, `/redoc`) loads its viewer from a CDN and starts it with an
inline script: its policy allows that CDN and exactly those scripts (by their hashes).
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CDN = "https://cdn.jsdelivr.net"
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
REFERENCE_POLICY = (
    f"default-src 'none'; script-src {CDN}{{scripts}}; style-src {CDN}; img-src 'self' data: "
    "https://fastapi.tiangolo.com; connect-src 'self'; frame-ancestors 'none'"
)
REFERENCE = ("/docs", "/redoc")
COMMON = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")
_INLINE = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def page_policy(host: str | None) -> str:
    """The page's policy; its socket's address is named too (for browsers in which 'self' does
    not cover ws: and wss:), when the `Host` it was asked under is a plain host[:port]."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return PAGE_POLICY.format(sockets=sockets)


def _hashes(body: bytes) -> str:
    digests = (base64.b64encode(hashlib.sha256(s).digest()).decode() for s in _INLINE.findall(body))
    return "".join(f" 'sha256-{d}'" for d in digests)


class SecurityHeaders:
    """Adds the headers above to every HTTP answer (the page, its files, the API, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path in REFERENCE:
            await self._reference(scope, receive, send)
            return
        if path.startswith("/api/") or path == "/openapi.json" or path.startswith("/docs/"):
            policy = API_POLICY
        else:
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
            policy = page_policy(host)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *COMMON, (b"content-security-policy", policy.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _reference(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The API reference's page, held back until its inline scripts are known and hashed."""
        start: Message | None = None
        body = b""

        async def held(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
                return
            body += message.get("body", b"")
            if message.get("more_body", False):
                return
            assert start is not None
            policy = REFERENCE_POLICY.format(scripts=_hashes(body))
            headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            headers += [*COMMON, (b"content-security-policy", policy.encode()),
                        (b"content-length", str(len(body)).encode())]  # fmt: skip
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, held)
