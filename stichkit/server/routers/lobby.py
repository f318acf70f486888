"""The lobby: open a table, list tables, look at one, take a seat, give it up."""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, Query

from .. import messages
from ..dependencies import ClientDep, HubDep, MaybeAccountDep, SeatDep, TableDep
from ..hub import HubError, NewTable
from ..identity import PersonDep
from ..schemas import JoinRequest, MoveRequest, TableRequest

router = APIRouter(prefix="/api/tables", tags=["lobby"])


@router.post("", status_code=201)
async def open_table(req: TableRequest, hub: HubDep, account: MaybeAccountDep, client: ClientDep) -> dict[str, Any]:
    """Open a table: game, options, one entry per seat (`human` or `bot:SPEC`), settings. A rated
    table is opened by an account holder, and seats people only. The opener (`client`: its
    account, else its address) is held to the limits on what one client may hold."""
    t = await hub.create_table(NewTable(**req.model_dump(), client=client), account)
    return messages.table_info(t, time.time())


@router.get("")
async def list_tables(
    hub: HubDep,
    status: Literal["waiting", "playing", "over"] | None = None,
    limit: int = Query(default=100, ge=1, le=500),
) -> dict[str, Any]:
    """The tables that are not private, newest first."""
    now = time.time()
    found = [t for t in hub.tables.values() if not t.private and (status is None or t.status == status)]
    found.sort(key=lambda t: t.created_at, reverse=True)
    return {"tables": [messages.table_info(t, now) for t in found[:limit]]}


@router.get("/{table_id}")
async def table_info(t: TableDep) -> dict[str, Any]:
    return messages.table_info(t, time.time())


@router.post("/{table_id}/join")
async def join(
    req: JoinRequest, t: TableDep, hub: HubDep, account: MaybeAccountDep, person: PersonDep
) -> dict[str, Any]:
    """Claim a free human seat (the lowest, or `seat`); the answer holds the seat's token. A
    logged-in player sits under the user name, and the seat follows the account. A person holds
    one seat of a table, and takes no second seat of a game in play (unless the table allows
    shared screens)."""
    if req.name is None and account is None:
        raise HubError(400, "name: a guest gives the name to sit under (or logs in first)")
    seat, token = await hub.join(t, req.name or "", req.seat, account, person)
    return {"table": t.id, "seat": seat, "token": token}


@router.post("/{table_id}/seat")
async def move_seat(t: TableDep, held: SeatDep, hub: HubDep, req: MoveRequest) -> dict[str, Any]:
    """Before play: move to another free seat, keeping the token."""
    seat = await hub.move_seat(t, held, req.seat)
    return {"table": t.id, "seat": seat}


@router.post("/{table_id}/leave")
async def leave(t: TableDep, held: SeatDep, hub: HubDep) -> dict[str, Any]:
    """Give the seat up: the token stops working; during play a bot plays the seat on."""
    seat = await hub.leave(t, held)
    return {"table": t.id, "seat": seat}
