"""Accounts: register, log in and out, change the password, delete the account, and the seats an
account holds. Guests play on without one.

Answers are HTTP's (HubError). A login that fails says the same whatever was wrong (no such
name, or a wrong password), takes as long either way, and counts against the rate limits
(ratelimit.py) the same way.
"""

from __future__ import annotations

import asyncio
import time

from starlette.concurrency import run_in_threadpool

from . import credentials
from .db.accounts import Account, NameTaken, SeatHeld
from .errors import HubError
from .hub_protocol import RoomHub
from .ratelimit import Limits, Refused
from .usernames import BadName, check_name, name_key

WRONG_LOGIN = "wrong user name or password"
SEEN_EVERY = 300.0  # seconds: how often a session's last sign of life is written


class TooMany(HubError):
    """A rate limit reached: 429, with the seconds to wait in Retry-After."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(429, f"too many attempts (at most {refused.what}); try again in {refused.retry_after} s")
        self.retry_after = refused.retry_after


class Accounts:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.hashing = asyncio.Semaphore(2)  # argon2 takes 64 MiB a hash: two at a time at most

    def start(self, secret: str, limits: Limits) -> None:
        self.secret = secret
        self.limits = limits

    async def _hash(self, password: str) -> str:
        async with self.hashing:
            return await run_in_threadpool(credentials.hash_password, password)

    async def _verify(self, password_hash: str | None, password: str) -> bool:
        async with self.hashing:
            return await run_in_threadpool(credentials.verify_password, password_hash, password)

    async def _open_session(self, account: Account) -> str:
        cookie, id_hash = credentials.new_session(self.secret)
        now = time.time()
        hub = self.hub
        await hub.db(hub.accounts_store.open_session, account.id, id_hash, now, now + hub.settings.session_lifetime)
        return cookie

    async def register(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account, logged in: (the account, its session cookie)."""
        try:
            shown = check_name(name)
            credentials.check_password(password)
        except (BadName, credentials.BadPassword) as e:
            raise HubError(400, str(e)) from None
        refused = await self.limits.register(address)
        if refused is not None:
            raise TooMany(refused)
        password_hash = await self._hash(password)
        hub = self.hub
        try:
            account = await hub.db(hub.accounts_store.create, shown, name_key(shown), password_hash, time.time())
        except NameTaken:
            raise HubError(409, "this user name, or one that looks like it, is not available; choose another") from None
        return account, await self._open_session(account)

    async def login(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """Log in: (the account, a new session cookie). Every failure but a ban says WRONG_LOGIN."""
        key = name_key(name[: 4 * 20])  # a longer name is no user's: it is keyed, and fails, the same
        refused = await self.limits.login(address, key)
        if refused is not None:
            raise TooMany(refused)
        hub = self.hub
        found = await hub.db(hub.accounts_store.login, key)
        ok = await self._verify(None if found is None else found.password_hash, password[: credentials.PASSWORD_MAX])
        if found is None or not ok or len(password) > credentials.PASSWORD_MAX:
            await self.limits.wrong_password(key)
            raise HubError(401, WRONG_LOGIN)
        if found.account.banned:
            reason = f": {found.account.ban_reason}" if found.account.ban_reason else ""
            raise HubError(403, f"this account is banned{reason}")
        if credentials.needs_rehash(found.password_hash):
            new = await self._hash(password)
            await hub.db(hub.accounts_store.rehash, found.account.id, found.password_hash, new)
        return found.account, await self._open_session(found.account)

    async def session(self, cookie: str | None) -> tuple[Account, str] | None:
        """The account logged in with this cookie, and its session's hash (None: no session, or
        an expired, ended, forged or altered one, or a banned account's)."""
        id_hash = credentials.read_cookie(self.secret, cookie)
        if id_hash is None:
            return None
        hub = self.hub
        account = await hub.db(hub.accounts_store.session, id_hash, time.time(), SEEN_EVERY)
        return None if account is None else (account, id_hash)

    async def logout(self, id_hash: str) -> None:
        hub = self.hub
        await hub.db(hub.accounts_store.end_session, id_hash)

    async def logout_everywhere(self, account: Account) -> int:
        hub = self.hub
        return await hub.db(hub.accounts_store.end_sessions, account.id)

    async def _confirm(self, account: Account, password: str) -> None:
        """The account's password, asked again before a change that matters."""
        hub = self.hub
        password_hash = await hub.db(hub.accounts_store.password_hash, account.id)
        if password_hash is None or not await self._verify(password_hash, password[: credentials.PASSWORD_MAX]):
            raise HubError(403, "the password is wrong; nothing was changed")

    async def change_password(self, account: Account, id_hash: str, password: str, new_password: str) -> None:
        """A new password: every other session of the account ends."""
        try:
            credentials.check_password(new_password)
        except credentials.BadPassword as e:
            raise HubError(400, f"new_password: {e}") from None
        await self._confirm(account, password)
        new = await self._hash(new_password)
        hub = self.hub
        await hub.db(hub.accounts_store.set_password, account.id, new, time.time(), id_hash)

    async def delete(self, account: Account, password: str) -> None:
        """The account is gone; finished games keep its seats, and tables its chat lines, under a
        neutral name."""
        await self._confirm(account, password)
        hub = self.hub
        held = await self.seats(account)
        said = await hub.db(hub.accounts_store.delete, account.id) or []
        for table_id in {s.table_id for s in held}:  # its seats, still held by their tokens, lose the name
            await hub.peers.sync(table_id)
            t = hub.tables.get(table_id)
            if t is not None:
                await hub.peers.notify(t)
        for table_id in said:  # pages at the table show its lines renamed at once, here and elsewhere
            t = hub.tables.get(table_id)
            if t is not None:
                await hub.presence.chat_again(t)
            await hub.peers.notify_chat_renamed(table_id)

    async def seats(self, account: Account) -> list[SeatHeld]:
        hub = self.hub
        return await hub.db(hub.accounts_store.seats, account.id)
