"""The quick-play queue as stored: one row per waiting player, in the database every process shares.

A table is formed from waiting rows in one transaction: each row is marked as matched only if it
is still waiting (a conditional update), and the new table is added in the same transaction. Two
processes that pick the same players at once cannot both succeed: the second finds a row matched
already, its transaction is rolled back (Conflict) and its table never existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..model import StoredTable
from ..quotas import TableQuota
from .models import QueueRow
from .repository import Conflict, to_dt, value_of
from .tables import add_table, hold_to


@dataclass(frozen=True)
class QueueKey:
    """One queue: a game, a player count, rated or not."""

    game: str
    players: int
    rated: bool


@dataclass(frozen=True)
class QueueEntry:
    id: str
    key: QueueKey
    name: str
    wait: float
    created_at: float
    seen_at: float
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None
    account: int | None = None  # the logged-in player's account (None: a guest)
    person: str | None = None  # who waits (identity.person)


@dataclass(frozen=True)
class Claim:
    """A waiting entry given a seat at a new table, with the seat's token to hand over."""

    entry: str
    seat: int
    token: str


def _entry(r: QueueRow) -> QueueEntry:
    return value_of(QueueEntry, r, key=QueueKey(r.game, r.players, r.rated), account=r.account_id)


def _live(seen_after: datetime) -> ColumnElement[bool]:
    """Waiting, and its player asked for news since `seen_after`."""
    return and_(QueueRow.table_id.is_(None), QueueRow.seen_at > seen_after)


class QueueStore:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def enqueue(self, entry_id: str, key: QueueKey, name: str, wait: float, at: float, account: int | None,
                person: str | None = None) -> None:  # fmt: skip
        """A new place in queue `key`. An account, and a person, waits in one queue at a time: its
        earlier place (a search from another device or tab, say) is given up."""
        with self.sessions.begin() as s:
            if account is not None:
                s.execute(delete(QueueRow).where(QueueRow.account_id == account, QueueRow.table_id.is_(None)))
            if person is not None:
                s.execute(delete(QueueRow).where(QueueRow.person == person, QueueRow.table_id.is_(None)))
            s.add(QueueRow(id=entry_id, game=key.game, players=key.players, rated=key.rated, name=name, wait=wait,
                           created_at=to_dt(at), seen_at=to_dt(at), account_id=account, person=person))  # fmt: skip

    def seen(self, entry_id: str, at: float) -> QueueEntry | None:
        """The entry, its player seen now (a matched entry keeps the time of its match)."""
        with self.sessions.begin() as s:
            s.execute(update(QueueRow).where(QueueRow.id == entry_id, QueueRow.table_id.is_(None))
                      .values(seen_at=to_dt(at)))  # fmt: skip
            row = s.get(QueueRow, entry_id)
            return None if row is None else _entry(row)

    def withdraw(self, entry_id: str) -> QueueEntry | None:
        """Leave the queue: the entry as it was (None: there was none). A matched entry stays, so
        its player can still pick up the seat."""
        with self.sessions.begin() as s:
            row = s.get(QueueRow, entry_id)
            if row is None:
                return None
            found = _entry(row)
            if row.table_id is None:
                s.delete(row)
            return found

    def counts(self, seen_after: float) -> dict[QueueKey, int]:
        """How many wait in each queue that has anyone waiting."""
        q = (select(QueueRow.game, QueueRow.players, QueueRow.rated, func.count())
             .where(_live(to_dt(seen_after))).group_by(QueueRow.game, QueueRow.players, QueueRow.rated))  # fmt: skip
        with self.sessions() as s:
            return {QueueKey(g, p, bool(r)): int(n) for g, p, r, n in s.execute(q)}

    def waiting(self, key: QueueKey, seen_after: float, limit: int) -> list[QueueEntry]:
        """The oldest `limit` entries waiting in the queue `key`."""
        q = (select(QueueRow).where(QueueRow.game == key.game, QueueRow.players == key.players,
                                    QueueRow.rated == key.rated, _live(to_dt(seen_after)))
             .order_by(QueueRow.created_at, QueueRow.id).limit(limit))  # fmt: skip
        with self.sessions() as s:
            return [_entry(r) for r in s.scalars(q)]

    def form(self, table: StoredTable, claims: list[Claim], seen_after: float, at: float,
             quota: TableQuota | None = None) -> None:  # fmt: skip
        """Match the claimed entries into `table` and store the table, all in one transaction.
        Conflict (and nothing stored) when any of them is no longer waiting; with a `quota` (bots
        asked for by a client), its LimitReached when the table would take the client past it."""
        with self.sessions.begin() as s:
            if quota is not None:
                hold_to(s, quota)
            for c in sorted(claims, key=lambda c: c.entry):  # one order everywhere: no deadlock between processes
                done = s.execute(
                    update(QueueRow).where(QueueRow.id == c.entry, _live(to_dt(seen_after)))
                    .values(table_id=table.id, seat=c.seat, token=c.token, seen_at=to_dt(at))
                )  # fmt: skip
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    raise Conflict(f"queue entry {c.entry[:8]} is no longer waiting")
            add_table(s, table)

    def sweep(self, waiting_seen_before: float, matched_before: float) -> int:
        """Forget players who stopped asking, and matches nobody picked up in time."""
        gone = or_(and_(QueueRow.table_id.is_(None), QueueRow.seen_at < to_dt(waiting_seen_before)),
                   and_(QueueRow.table_id.is_not(None), QueueRow.seen_at < to_dt(matched_before)))  # fmt: skip
        with self.sessions.begin() as s:
            return int(s.execute(delete(QueueRow).where(gone)).rowcount)  # type: ignore[attr-defined]
