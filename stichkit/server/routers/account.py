"""Accounts: register, log in and out (here or everywhere), a new password, delete the account,
and the seats the account holds. Every answer that changes something needs the page's own
request (dependencies.cross_site)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ..clients import client_key
from ..credentials import COOKIE
from ..db.accounts import Account
from ..dependencies import AccountDep, CurrentSessionDep, HubDep, MaybeAccountDep, cross_site
from ..errors import HubError
from ..schemas import Credentials, PasswordChange, PasswordConfirm

router = APIRouter(prefix="/api/account", tags=["account"])


def _address(request: Request) -> str:
    """The client's address as the limits count it (clients.py: an IPv6 client is its /64)."""
    return client_key(request.client.host if request.client else None)


def _same_site(request: Request) -> None:
    why = cross_site(request)
    if why is not None:
        raise HubError(403, why)


def _set_cookie(request: Request, response: Response, value: str, max_age: float) -> None:
    response.set_cookie(COOKIE, value, max_age=int(max_age), path="/", httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")  # fmt: skip


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https")


def account_json(account: Account) -> dict[str, Any]:
    return {"name": account.name, "created_at": account.created_at}


@router.post("/register", status_code=201)
async def register(req: Credentials, request: Request, response: Response, hub: HubDep) -> dict[str, Any]:
    """A new account with a user name and a password; the answer logs it in (a session cookie)."""
    _same_site(request)
    account, cookie = await hub.accounts.register(req.name, req.password, _address(request))
    _set_cookie(request, response, cookie, hub.settings.session_lifetime)
    return {"account": account_json(account)}


@router.post("/login")
async def login(req: Credentials, request: Request, response: Response, hub: HubDep) -> dict[str, Any]:
    """Log in: a session cookie for this browser. Failures say only 'wrong user name or password'."""
    _same_site(request)
    account, cookie = await hub.accounts.login(req.name, req.password, _address(request))
    _set_cookie(request, response, cookie, hub.settings.session_lifetime)
    return {"account": account_json(account)}


@router.post("/logout")
async def logout(request: Request, response: Response, found: CurrentSessionDep, hub: HubDep) -> dict[str, Any]:
    """End this browser's session."""
    await hub.accounts.logout(found[1])
    _clear_cookie(request, response)
    return {"ok": True}


@router.post("/logout-everywhere")
async def logout_everywhere(request: Request, response: Response, account: AccountDep,
                            hub: HubDep) -> dict[str, Any]:  # fmt: skip
    """End every session of the account, on every device."""
    ended = await hub.accounts.logout_everywhere(account)
    _clear_cookie(request, response)
    return {"ok": True, "sessions_ended": ended}


@router.get("")
async def me(account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """Who is logged in, and the seats the account holds at every table."""
    seats = await hub.accounts.seats(account)
    return {"account": account_json(account), "seats": [vars(s) for s in seats]}


@router.get("/session")
async def session(account: MaybeAccountDep, hub: HubDep) -> dict[str, Any]:
    """Who this browser is, for a page that must not take a guest for an error: the account and
    its seats as `GET /api/account` gives them, or `{"account": null, "seats": []}` for a guest
    (a missing, ended or forged cookie alike)."""
    if account is None:
        return {"account": None, "seats": []}
    return await me(account, hub)


@router.post("/password")
async def change_password(req: PasswordChange, found: CurrentSessionDep, hub: HubDep) -> dict[str, Any]:
    """A new password (the old one asked again); every other session of the account ends."""
    await hub.accounts.change_password(found[0], found[1], req.password, req.new_password)
    return {"ok": True}


@router.delete("")
async def delete(req: PasswordConfirm, request: Request, response: Response, account: AccountDep,
                 hub: HubDep) -> dict[str, Any]:  # fmt: skip
    """Delete the account (the password asked again): its sessions end, finished games keep its
    seats under a neutral name."""
    await hub.accounts.delete(account, req.password)
    _clear_cookie(request, response)
    return {"ok": True}
