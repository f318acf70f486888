"""FastAPI dependencies: the hub, the table named in the path, the bearer token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from .hub import Hub, HubError
from .table import LiveTable


def get_hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


async def get_table(table_id: str, hub: HubDep) -> LiveTable:
    t = await hub.table(table_id)
    if t is None:
        raise HubError(404, f"no table {table_id!r} here (it may have been swept)")
    return t


TableDep = Annotated[LiveTable, Depends(get_table)]


def bearer_token(authorization: Annotated[str | None, Header(max_length=200)] = None) -> str:
    """The seat token from `Authorization: Bearer TOKEN`."""
    if authorization is None:
        raise HubError(401, "this needs the seat's token: send the header 'Authorization: Bearer TOKEN'")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HubError(401, "the Authorization header must read 'Bearer TOKEN'")
    return token.strip()


TokenDep = Annotated[str, Depends(bearer_token)]
