"""Tournaments: open one, register, run it (start, pause, go on, end, replace a player), and
look at it. A page follows a tournament by its revision (`rev`): it asks `/rev` every few seconds
and reads the tournament again when the number changed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from ..dependencies import ClientDep, HubDep, MaybeAccountDep
from ..identity import PersonDep
from ..schemas import BotEntryRequest, EntrantRequest, RegisterRequest, ReplaceRequest, TournamentRequest
from ..tournaments import NewTournament

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.post("", status_code=201)
async def open_tournament(req: TournamentRequest, hub: HubDep, account: MaybeAccountDep, person: PersonDep,
                          client: ClientDep) -> dict[str, Any]:  # fmt: skip
    """Open a tournament, which takes registrations until it starts (at `start_at`, or when its
    organiser, the person opening it, starts it). The opener is held to the limits on what one
    client may run."""
    t = await hub.tournaments.open(NewTournament(**req.model_dump()), person, client, account)
    return hub.tournaments.shown(t, person)


@router.get("")
async def list_tournaments(hub: HubDep, limit: int = Query(default=100, ge=1, le=500)) -> dict[str, Any]:
    """The newest tournaments."""
    return {"tournaments": await hub.tournaments.listing(limit)}


@router.get("/{tournament_id}")
async def tournament(tournament_id: str, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    """The tournament: entrants, rounds with their tables and games, the standings; `you`: the
    asker's entry and table now (with the seat's token); the organiser also sees the invitation."""
    return await hub.tournaments.document(tournament_id, person)


@router.get("/{tournament_id}/rev")
async def revision(tournament_id: str, hub: HubDep) -> dict[str, Any]:
    """The tournament's revision: it grows with every change (a page polls it)."""
    t = await hub.tournaments.load(tournament_id)
    return {"id": t.id, "rev": t.rev, "status": t.status, "round": t.round}


@router.post("/{tournament_id}/register")
async def register(tournament_id: str, req: RegisterRequest, hub: HubDep, account: MaybeAccountDep,
                   person: PersonDep) -> dict[str, Any]:  # fmt: skip
    e = await hub.tournaments.register(tournament_id, req.name, req.team, req.invitation, account, person)
    return {"tournament": tournament_id, "entrant": e.number, "name": e.name, "team": e.team}


@router.post("/{tournament_id}/unregister")
async def unregister(tournament_id: str, req: EntrantRequest, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    """Withdraw before the start: oneself, or (the organiser) entrant `entrant`."""
    await hub.tournaments.unregister(tournament_id, person, req.entrant)
    return {"tournament": tournament_id, "status": "unregistered"}


@router.post("/{tournament_id}/bots")
async def enter_bot(tournament_id: str, req: BotEntryRequest, hub: HubDep, person: PersonDep,
                    client: ClientDep) -> dict[str, Any]:  # fmt: skip
    """The organiser enters a bot, within the limit of bots one client may enter."""
    e = await hub.tournaments.enter_bot(tournament_id, person, client, req.bot, req.name, req.team)
    return {"tournament": tournament_id, "entrant": e.number, "name": e.name, "bot": e.bot, "team": e.team}


@router.post("/{tournament_id}/start")
async def start(tournament_id: str, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    return hub.tournaments.shown(await hub.tournaments.start(tournament_id, person), person)


@router.post("/{tournament_id}/pause")
async def pause(tournament_id: str, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    return hub.tournaments.shown(await hub.tournaments.pause(tournament_id, person), person)


@router.post("/{tournament_id}/resume")
async def resume(tournament_id: str, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    return hub.tournaments.shown(await hub.tournaments.resume(tournament_id, person), person)


@router.post("/{tournament_id}/end")
async def end(tournament_id: str, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    return hub.tournaments.shown(await hub.tournaments.end(tournament_id, person), person)


@router.post("/{tournament_id}/replace")
async def replace(tournament_id: str, req: ReplaceRequest, hub: HubDep, person: PersonDep) -> dict[str, Any]:
    """A bot plays for a player who is gone, from now on; their results are marked."""
    return hub.tournaments.shown(await hub.tournaments.replace(tournament_id, person, req.entrant, req.bot), person)
