"""Which process makes a table's own moves: its bots' moves, timed-out moves, takeovers, sweeping.

Humans may act through any process (the action's version number decides races); but a bot must
move once, so exactly one process owns each table. On SQLite there is one process. On
PostgreSQL a process owns a table while it holds a session advisory lock on it: when the process
dies, even by SIGKILL, its connection closes, the database frees its locks, and another process
takes the tables over within a second.
"""

from __future__ import annotations

import contextlib
import logging
import zlib
from typing import Any

log = logging.getLogger("stichkit.server")

LOCK_SPACE = 0x57C5  # the first key of the two-key advisory locks; the second is the table's


def lock_key(table_id: str) -> int:
    return zlib.crc32(table_id.encode()) - 2**31


class SoleOwner:
    """One process, owner of everything (SQLite: a file lock keeps other processes away)."""

    def owns(self, table_id: str) -> bool:
        return True

    async def claim(self, table_ids: list[str]) -> list[str]:
        """Try to own these tables; the ones newly owned."""
        return []

    async def release(self, table_id: str) -> None:
        return None

    async def stop(self) -> None:
        return None


class AdvisoryOwner(SoleOwner):
    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._conn: Any = None
        self._owned: dict[str, int] = {}

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    async def claim(self, table_ids: list[str]) -> list[str]:
        import psycopg

        wanted = [t for t in table_ids if t not in self._owned]
        try:
            if self._conn is None or self._conn.closed:
                if self._owned:
                    log.warning("lost the database connection holding table locks; taking tables anew")
                self._owned.clear()
                self._conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                await self._conn.execute("SELECT 1")
            else:  # a dead link would keep the locks away from everyone else: notice it
                await self._conn.execute("SELECT 1")
            if not wanted:
                return []
            keys = [lock_key(t) for t in wanted]
            cur = await self._conn.execute(
                "SELECT k, pg_try_advisory_lock(%s, k) FROM unnest(%s::int[]) AS k", (LOCK_SPACE, keys)
            )
            got = {k for k, ok in await cur.fetchall() if ok}
        except Exception as e:
            log.warning("could not take table locks: %s", e)
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    await self._conn.close()
            self._conn = None
            self._owned.clear()
            return []
        new = []
        for t in wanted:
            k = lock_key(t)
            if k in got:
                self._owned[t] = k
                new.append(t)
        return new

    async def release(self, table_id: str) -> None:
        key = self._owned.pop(table_id, None)
        if key is None or self._conn is None:
            return
        with contextlib.suppress(Exception):
            await self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, key))

    async def stop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        self._owned.clear()
