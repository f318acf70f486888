"""How server processes on one database tell each other that a table changed.

The database holds the truth; a notice only says "table T changed, read it" (or carries soft
state: who is connected where). PostgreSQL's LISTEN/NOTIFY does it by default; with a Redis URL,
Redis pub/sub does. One process on SQLite needs neither. A lost notice costs only time: every
process also re-reads the tables' revisions regularly (Settings.resync_interval).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

log = logging.getLogger("stichkit.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]
CHANNEL = "stichkit"
RETRY = 1.0


class Notifier:
    """One process alone: nobody to tell."""

    shared = False
    name = "none (one process)"

    async def start(self, handler: Handler) -> None:
        self.handler = handler

    async def publish(self, msg: dict[str, Any]) -> None:
        return None

    async def stop(self) -> None:
        return None


class _Listening(Notifier):
    """A notifier with a background task that listens, and reconnects when the link drops."""

    shared = True

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        self._ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen_forever())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("notifications (%s) lost their connection: %s; reconnecting", self.name, e)
            await asyncio.sleep(RETRY)

    async def _listen(self) -> None:
        raise NotImplementedError

    async def _deliver(self, payload: str | bytes) -> None:
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if isinstance(msg, dict):
            try:
                await self.handler(msg)
            except Exception:
                log.exception("handling a notice from another process failed: %r", msg)

    async def stop(self) -> None:
        task = getattr(self, "_task", None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


class PostgresNotifier(_Listening):
    """LISTEN/NOTIFY on the tables' own database (a channel is local to its database)."""

    name = "PostgreSQL LISTEN/NOTIFY"

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._pub: Any = None
        self._pub_lock = asyncio.Lock()

    async def _listen(self) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._ready.set()
            await self.handler({"k": "reconnected"})
            async for n in conn.notifies():
                await self._deliver(n.payload)

    async def publish(self, msg: dict[str, Any]) -> None:
        import psycopg

        payload = json.dumps(msg, separators=(",", ":"))
        async with self._pub_lock:
            for attempt in (1, 2):
                try:
                    if self._pub is None or self._pub.closed:
                        self._pub = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                    await self._pub.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except Exception as e:
                    self._pub = None
                    if attempt == 2:
                        log.warning("could not notify the other processes: %s", e)

    async def stop(self) -> None:
        await super().stop()
        if self._pub is not None:
            with contextlib.suppress(Exception):
                await self._pub.close()


class RedisNotifier(_Listening):
    """Redis pub/sub, on a channel named after the database's cluster id."""

    name = "Redis pub/sub"

    def __init__(self, url: str, cluster: str) -> None:
        import redis.asyncio as redis

        self.channel = f"{CHANNEL}:{cluster}"
        self.redis = redis.from_url(url)

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            self._ready.set()
            await self.handler({"k": "reconnected"})
            async for m in pubsub.listen():
                if m.get("type") == "message":
                    await self._deliver(m["data"])
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def publish(self, msg: dict[str, Any]) -> None:
        try:
            await self.redis.publish(self.channel, json.dumps(msg, separators=(",", ":")))
        except Exception as e:
            log.warning("could not notify the other processes through Redis: %s", e)

    async def stop(self) -> None:
        await super().stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


def notifier_for(url: URL, redis: str | None, cluster: str) -> Notifier:
    """The channel of the processes on one database: Redis when given, else PostgreSQL's own
    LISTEN/NOTIFY, else none (SQLite: one process)."""
    if redis:
        return RedisNotifier(redis, cluster)
    if url.get_backend_name() == "sqlite":
        return Notifier()
    return PostgresNotifier(url.set(drivername="postgresql").render_as_string(hide_password=False))
