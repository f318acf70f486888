"""Rate limits on logins and registrations, with the `limits` library: counted in Redis when the
server has one (every process shares the count), else in this process's memory.

A login counts twice: against its client address (every attempt), and against the user name's
key (each wrong password). The name's count is the same whether the name exists or not, so the
limit tells nothing about who has an account. Once a name's wrong passwords reach the limit, no
password is tried for it until the window has passed, the right one neither.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.concurrency import run_in_threadpool


@dataclass(frozen=True)
class Refused:
    """A limit reached: what it is, and in how many seconds the next attempt may come."""

    what: str
    retry_after: int


class Limits:
    def __init__(self, redis: str | None, namespace: str, *, login_per_name: str, login_per_address: str,
                 register_per_address: str) -> None:  # fmt: skip
        self.shared = redis is not None
        self.storage = storage_from_string(redis or "memory://")
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.ns = f"stichkit:{namespace}"
        self.login_name = parse(login_per_name)
        self.login_address = parse(login_per_address)
        self.register_address = parse(register_per_address)

    def _check(self, item: RateLimitItem, what: str, key: str, count: bool) -> Refused | None:
        ok = self.limiter.hit(item, self.ns, key) if count else self.limiter.test(item, self.ns, key)
        if ok:
            return None
        reset = self.limiter.get_window_stats(item, self.ns, key).reset_time
        return Refused(what, max(1, round(reset - time.time())))

    async def login(self, address: str, name_key: str) -> Refused | None:
        """Before a login is tried: its address counts; a name at its limit is refused."""

        def check() -> Refused | None:
            return self._check(self.login_address, f"{self.login_address} logins from one address", f"la:{address}",
                               True) or self._check(self.login_name, f"{self.login_name} wrong passwords for one "
                                                    "user name", f"ln:{name_key}", False)  # fmt: skip

        return await run_in_threadpool(check)

    async def wrong_password(self, name_key: str) -> None:
        await run_in_threadpool(self.limiter.hit, self.login_name, self.ns, f"ln:{name_key}")

    async def register(self, address: str) -> Refused | None:
        what = f"{self.register_address} registrations from one address"
        return await run_in_threadpool(self._check, self.register_address, what, f"ra:{address}", True)
