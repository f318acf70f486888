"""The page: index.html at / (and at /tables/{id}, so invite links open it; at /players/{name} and
/leaderboard/{game}, the profile and leaderboard screens; at /tournaments and /tournaments/{id}, the
tournaments), its files under /static/."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..dependencies import HubDep
from ..hub import HubError

router = APIRouter(tags=["page"])


def _index(hub: HubDep) -> FileResponse:
    page = hub.settings.static_dir / "index.html"
    if not page.is_file():
        raise HubError(404, f"the page is not installed ({page} is missing); the API is under /api/")
    return FileResponse(page, media_type="text/html")


@router.get("/", include_in_schema=False)
def index(hub: HubDep) -> FileResponse:
    return _index(hub)


@router.get("/players/{name}", include_in_schema=False)
def player(name: str, hub: HubDep) -> FileResponse:
    return _index(hub)


@router.get("/leaderboard", include_in_schema=False)
@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard(hub: HubDep, game: str = "") -> FileResponse:
    return _index(hub)


@router.get("/tournaments", include_in_schema=False)
@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def tournament(hub: HubDep, tournament_id: str = "") -> FileResponse:
    return _index(hub)


@router.get("/tables/{table_id}", include_in_schema=False)
def invite(table_id: str, hub: HubDep) -> FileResponse:
    return _index(hub)
