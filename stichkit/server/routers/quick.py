"""Quick play: join a queue, ask for news (and keep the place), fill with bots, leave; the queues."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..dependencies import ClientDep, HubDep, MaybeAccountDep, TicketDep
from ..identity import PersonDep
from ..schemas import FillRequest, QuickRequest

router = APIRouter(prefix="/api/quick", tags=["quick play"])


@router.get("")
async def queues(hub: HubDep) -> dict[str, Any]:
    """How many players wait in each queue (game, player count, rated) that has anyone waiting."""
    return {"queues": await hub.quick.counts()}


@router.post("", status_code=201)
async def join_queue(req: QuickRequest, hub: HubDep, account: MaybeAccountDep, person: PersonDep) -> dict[str, Any]:
    """Wait for a table: the answer holds the ticket (`Authorization: Bearer TICKET` from then on).
    A logged-in player waits under the user name; rated queues are for them alone. A person
    waits in one queue at a time, and never gets two seats at one table."""
    return await hub.quick.join(req.name, req.game, req.players, req.rated, req.wait, account, person)


@router.get("/me")
async def news(ticket: TicketDep, hub: HubDep) -> dict[str, Any]:
    """Still waiting (how many, how long, whether bots are offered), or matched: the table, seat and
    token. Asking keeps the place: a ticket nobody asks about leaves the queue."""
    return await hub.quick.status(ticket)


@router.post("/bots")
async def fill(req: FillRequest, ticket: TicketDep, hub: HubDep, client: ClientDep) -> dict[str, Any]:
    """After the chosen wait: a table now, the empty seats played by bots; the table counts
    among the asker's (`client`) as one it opened, held to the same limits."""
    return await hub.quick.fill_with_bots(ticket, req.bot, client)


@router.post("/leave")
async def leave(ticket: TicketDep, hub: HubDep) -> dict[str, Any]:
    """Leave the queue (a match made a moment before is answered instead: the seat is yours)."""
    return await hub.quick.leave(ticket)
