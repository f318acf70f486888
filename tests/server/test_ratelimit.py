"""The rate limits of logins and registrations (ratelimit.py), counted in memory and in Redis:
two processes on one Redis count together, two databases on one Redis apart."""

from __future__ import annotations

import asyncio
import secrets

import pytest

pytest.importorskip("limits", reason="the rate limits need the web extra: pip install 'stichkit[web]'")

from stichkit.server.ratelimit import Limits

from .harness import redis_url

RATES = {"login_per_name": "3/minute", "login_per_address": "5/minute", "register_per_address": "2/hour"}


def limits(redis: str | None, namespace: str) -> Limits:
    return Limits(redis, namespace, **RATES)


async def wrong_passwords(lim: Limits, address: str, key: str, n: int) -> None:
    for _ in range(n):
        assert await lim.login(address, key) is None
        await lim.wrong_password(key)


def test_in_memory_each_limit_refuses_past_its_rate() -> None:
    async def go() -> None:
        lim = limits(None, "mem")
        await wrong_passwords(lim, "10.0.0.1", "anna", 3)
        refused = await lim.login("10.0.0.2", "anna")  # another address: the name's count holds
        assert refused is not None and "wrong passwords" in refused.what and refused.retry_after > 0
        assert await lim.login("10.0.0.2", "ben") is None  # another name is not held up
        for _ in range(3):
            await lim.login("10.0.0.3", f"n{secrets.token_hex(3)}")
        held = [await lim.login("10.0.0.3", "someone") for _ in range(3)]
        assert held[0] is None and held[1] is None and held[2] is not None and "logins" in held[2].what
        assert await lim.register("10.0.0.4") is None
        assert await lim.register("10.0.0.4") is None
        third = await lim.register("10.0.0.4")
        assert third is not None and "registrations" in third.what
        assert await lim.register("10.0.0.5") is None

    asyncio.run(go())


def test_two_processes_on_one_redis_count_together() -> None:
    url = redis_url()
    ns = secrets.token_hex(6)

    async def go() -> None:
        a, b = limits(url, ns), limits(url, ns)  # two server processes of one database
        other = limits(url, secrets.token_hex(6))  # a server of another database on the same Redis
        await wrong_passwords(a, "10.0.0.1", "anna", 2)
        await wrong_passwords(b, "10.0.0.1", "anna", 1)
        assert await a.login("10.0.0.1", "anna") is not None
        assert await b.login("10.0.0.1", "anna") is not None
        assert await other.login("10.0.0.1", "anna") is None

    asyncio.run(go())
