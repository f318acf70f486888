"""Friends (add, see who is online and where they play, remove), the names an account mutes in
chat, and reports of chat lines."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path

from ..db.social import MUTES_MAX, AlreadyReported, Friend, TooManyMutes
from ..dependencies import AccountDep, HubDep, MaybeAccountDep, TableDep, bearer_secret
from ..errors import HubError
from ..hub import Hub
from ..schemas import MUTED_NAME_MAX, FriendRequest, MuteRequest, ReportRequest, clean_line
from ..tokens import hash_token
from ..usernames import name_key

router = APIRouter(tags=["friends and reports"])

ONLINE = 600.0  # seconds: a session seen this recently (sessions note it every 5 minutes) is online


def _friend(hub: Hub, f: Friend, now: float) -> dict[str, Any]:
    tables = []
    here = False
    for x in f.tables:
        t = hub.tables.get(x.table_id)
        connected = t is not None and 0 <= x.seat < t.n and t.connected(x.seat)
        here = here or connected
        # a private table's id is its invite: friends learn that the friend plays there, not the link
        tables.append({"table": None if x.private else x.table_id, "game": x.game, "status": x.status,
                       "seat": None if x.private else x.seat, "private": x.private,
                       "connected": connected})  # fmt: skip
    online = here or (f.last_seen is not None and now - f.last_seen < ONLINE)
    return {"name": f.name, "online": online, "tables": tables}


@router.get("/api/friends")
async def friends(account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """The account's friends (each added the other): online or not, and the tables they sit at;
    the names it asked (not added back yet), and those asking it."""
    found = await hub.db(hub.social_store.friends, account.id)
    now = time.time()
    return {"friends": [_friend(hub, f, now) for f in found.friends], "asked": found.asked, "asking": found.asking}


@router.post("/api/friends", status_code=201)
async def add_friend(req: FriendRequest, account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """Add a friend by user name (a request until they add this account back)."""
    other = await hub.db(hub.accounts_store.find, name_key(req.name))
    if other is None or other.banned:
        raise HubError(404, f"no player {req.name!r} here")
    if other.id == account.id:
        raise HubError(400, "name: you cannot add yourself as a friend")
    await hub.db(hub.social_store.add_friend, account.id, other.id, time.time())
    return await friends(account, hub)


@router.delete("/api/friends/{name}")
async def remove_friend(account: AccountDep, hub: HubDep, name: str = Path(max_length=200)) -> dict[str, Any]:
    """No longer a friend (or no longer asking)."""
    other = await hub.db(hub.accounts_store.find, name_key(name))
    if other is None or not await hub.db(hub.social_store.remove_friend, account.id, other.id):
        raise HubError(404, f"{name[:40]!r} is not among your friends or the players you asked")
    return await friends(account, hub)


@router.get("/api/mutes")
async def mutes(account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """The names whose chat lines the account folds away, on every device it logs in on."""
    return {"muted": await hub.db(hub.social_store.mutes, account.id)}


@router.post("/api/mutes", status_code=201)
async def mute(req: MuteRequest, account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """Mute a name (as chat lines show it: a guest's or an account's); muting again is no change."""
    if req.name == account.name:
        raise HubError(400, "name: you cannot mute yourself")
    try:
        await hub.db(hub.social_store.mute, account.id, req.name, time.time())
    except TooManyMutes:
        raise HubError(409, f"at most {MUTES_MAX} names may be muted: show one again first") from None
    return await mutes(account, hub)


@router.delete("/api/mutes/{name}")
async def unmute(account: AccountDep, hub: HubDep, name: str = Path(max_length=200)) -> dict[str, Any]:
    """Show a name's chat lines again."""
    try:
        shown = clean_line(name, MUTED_NAME_MAX)
    except ValueError as e:
        raise HubError(400, f"name: {e}") from None
    if not await hub.db(hub.social_store.unmute, account.id, shown):
        raise HubError(404, f"{shown[:40]!r} is not muted")
    return await mutes(account, hub)


@router.post("/api/tables/{table_id}/chat/{chat_id}/report", status_code=201)
async def report(
    req: ReportRequest,
    t: TableDep,
    hub: HubDep,
    account: MaybeAccountDep,
    chat_id: int = Path(ge=1, le=2**62),
    authorization: Annotated[str | None, Header(max_length=200)] = None,
) -> dict[str, Any]:
    """Report a chat line of this table to the operator: a player at the table (the seat's token)
    or a logged-in player may; each reports a line once."""
    if authorization is not None:
        seat = t.seat_of(hash_token(t.id, bearer_secret(authorization, "seat's token")))
        if seat is None:
            raise HubError(401, "this token holds no seat at this table")
        reporter, key = t.seats[seat].name or f"seat {seat + 1}", f"seat:{t.id}:{seat}"
        if account is not None:
            reporter, key = account.name, f"account:{account.id}"
    elif account is not None:
        reporter, key = account.name, f"account:{account.id}"
    else:
        raise HubError(401, "a report needs a seat at this table (its token) or a login")
    try:
        number = await hub.db(hub.social_store.report, t.id, chat_id, reporter, key, req.reason, time.time())
    except LookupError:
        raise HubError(404, f"this table has no chat line {chat_id} (any more)") from None
    except AlreadyReported:
        raise HubError(409, f"you reported chat line {chat_id} already") from None
    return {"report": number, "table": t.id, "chat_id": chat_id}
