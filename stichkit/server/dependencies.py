"""FastAPI dependencies: the hub, the table named in the path, the bearer token, who is logged
in (`current_account` for routes that need an account, `optional_account` elsewhere), and the
client (its account, else its address) that the limits on what one client may claim count."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from .clients import client_key
from .credentials import COOKIE
from .db.accounts import Account
from .hub import Hub, HubError
from .origins import origin_allowed
from .table import LiveTable
from .tokens import clean_token, hash_token


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


def bearer_secret(authorization: str | None, what: str) -> str:
    """A secret from `Authorization: Bearer SECRET`; whitespace around it is ignored, as on the
    WebSocket (tokens.clean_token)."""
    if authorization is None:
        raise HubError(401, f"this needs the {what}: send the header 'Authorization: Bearer TOKEN'")
    scheme, _, token = authorization.strip().replace("\t", " ").partition(" ")
    if scheme.lower() != "bearer" or not clean_token(token):
        raise HubError(401, "the Authorization header must read 'Bearer TOKEN'")
    return clean_token(token)


def bearer_token(authorization: Annotated[str | None, Header(max_length=200)] = None) -> str:
    """The seat token from `Authorization: Bearer TOKEN`."""
    return bearer_secret(authorization, "seat's token")


def queue_ticket(authorization: Annotated[str | None, Header(max_length=200)] = None) -> str:
    """A quick-play ticket from `Authorization: Bearer TICKET`."""
    return bearer_secret(authorization, "ticket POST /api/quick gave")


TokenDep = Annotated[str, Depends(bearer_token)]
TicketDep = Annotated[str, Depends(queue_ticket)]


# -- accounts ----------------------------------------------------------------------------------


def cross_site(request: HTTPConnection) -> str | None:
    """Why a request that relies on the session cookie may not be the page's own (None: it is).

    Browsers say where a request comes from: `Sec-Fetch-Site` (every current browser) must be
    `same-origin` (or `none`: typed by the user), else `Origin` must be this server's. A request
    with neither header comes from no browser, so no other site can have made it with the
    user's cookie. The cookie is also `SameSite=Strict`: a defence on both sides."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return None if site in ("same-origin", "none") else f"a {site} request may not use the login"
    origin = request.headers.get("origin")
    if origin_allowed(origin, request.headers.get("host"), get_hub(request).settings.allowed_origins):
        return None  # one rule for the origin, with the WebSocket's (origins.py)
    return f"a request from {str(origin)[:100]} may not use the login of {request.headers.get('host', '?')}"


async def optional_session(request: HTTPConnection, hub: HubDep) -> tuple[Account, str] | None:
    """The logged-in account and its session's hash, if the session cookie opens a session and
    the request is the page's own (a cross-site request is taken as a guest's)."""
    cookie = request.cookies.get(COOKIE)
    if cookie is None or cross_site(request) is not None:
        return None
    return await hub.accounts.session(cookie)


SessionDep = Annotated[tuple[Account, str] | None, Depends(optional_session)]


async def optional_account(found: SessionDep) -> Account | None:
    """Who is logged in, or None for a guest."""
    return None if found is None else found[0]


async def current_session(request: HTTPConnection, found: SessionDep) -> tuple[Account, str]:
    """The logged-in account and session; 401 (403 for another site's request) otherwise."""
    if found is None:
        why = cross_site(request)
        if why is not None and request.cookies.get(COOKIE) is not None:
            raise HubError(403, why)
        raise HubError(401, "log in first: this needs an account's session cookie (POST /api/account/login)")
    return found


async def current_account(found: Annotated[tuple[Account, str], Depends(current_session)]) -> Account:
    """The logged-in account (for routes only account holders may use); 401 otherwise."""
    return found[0]


AccountDep = Annotated[Account, Depends(current_account)]
MaybeAccountDep = Annotated[Account | None, Depends(optional_account)]
CurrentSessionDep = Annotated[tuple[Account, str], Depends(current_session)]


async def seat_held(t: TableDep, hub: HubDep, request: HTTPConnection, session: SessionDep,
                    authorization: Annotated[str | None, Header(max_length=200)] = None) -> str:  # fmt: skip
    """The seat a request speaks for, as its token's hash: the seat's token (`Authorization:
    Bearer TOKEN`), else the seat the logged-in account holds at this table (its other device)."""
    if authorization is not None or session is None:
        if authorization is None and request.cookies.get(COOKIE) is not None and cross_site(request) is not None:
            raise HubError(403, cross_site(request) or "")
        return hash_token(t.id, bearer_token(authorization))
    for attempt in range(2):
        for s in t.seats:
            if s.account == session[0].id and s.token_hash is not None:
                return s.token_hash
        if attempt == 0 and hub.notifier.shared:
            await hub.sync(t.id)  # seated through another process a moment ago
    raise HubError(401, "your account holds no seat at this table, and no seat's token was sent")


SeatDep = Annotated[str, Depends(seat_held)]


async def get_client(conn: HTTPConnection, account: MaybeAccountDep) -> str:
    """Who asks, for the limits on what one client may claim (clients.py): the logged-in account
    wherever it connects from, else the address."""
    return client_key(conn.client.host if conn.client else None, None if account is None else str(account.id))


ClientDep = Annotated[str, Depends(get_client)]
