"""Which pages may open a table's WebSocket: the server's own, and those its operator names.

A browser sends every WebSocket handshake with the `Origin` of the page that opens it, and
attaches no cookie check of its own: without this, any site a player visits could open the
player's table in the background. Clients that are not browsers send no `Origin`, and are let in.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def normal_origin(origin: str) -> str:
    """`scheme://host[:port]`, lower-cased, as browsers send it (no path, no trailing slash)."""
    parts = urlsplit(origin.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ValueError(f"an origin is scheme://host[:port] with http or https, not {origin!r}")
    return f"{parts.scheme}://{parts.netloc}"


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a handshake from a page at `origin` is let in: no Origin (not a browser), the
    server's own host (the `Host` the page was loaded from), or one of `allowed` (normalised)."""
    if origin is None:
        return True
    try:
        seen = normal_origin(origin)
    except ValueError:  # "null" (a sandboxed frame, a file), or garbage
        return False
    return seen in allowed or (host is not None and urlsplit(seen).netloc == host.strip().lower())
