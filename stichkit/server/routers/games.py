"""What can be played here, and whether the server is alive."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter

from .. import catalog
from ..dependencies import HubDep

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
def games(hub: HubDep) -> dict[str, Any]:
    """The games with their player counts and options, the bots, and the table settings."""
    return catalog.catalog(hub.settings.max_bot_time, hub.settings.allow_remote_bots)


@router.get("/health")
def health(hub: HubDep) -> dict[str, Any]:
    """Liveness, for load balancers and monitoring."""
    tables = list(hub.tables.values())
    return {
        "ok": True,
        "instance": hub.instance,
        "database": hub.url.get_backend_name(),
        "notifications": hub.notifier.name,
        "tables": len(tables),
        "playing": sum(t.status == "playing" for t in tables),
        "connections": sum(len(t.clients) for t in tables),
        "uptime": round(time.time() - hub.started, 1),
    }
