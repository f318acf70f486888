"""The multiplayer table server (`stich serve`): FastAPI on uvicorn, games kept in SQLAlchemy.

`create_app(Settings(...))` gives the ASGI application; docs/server.md describes the protocol,
deployment and operations. Needs the `web` extra (`pip install 'stichkit[web]'`), imported only
when the application is made, so `stich` works without it.
"""

from __future__ import annotations

from typing import Any

from .settings import Settings


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module 'stichkit.server' has no attribute {name!r}")


__all__ = ["Settings", "create_app"]
