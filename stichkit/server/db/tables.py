"""Tables as stored: a new table (counted against its client's quota), a table read back whole
or from a version on, a table swept, and a table archived.

An archived table (a tournament's round table whose games are all over and in the tournament's
results) is no live table: no process loads it, reads it back or counts it, but its games stay,
for their records, replays and analyses (db/games.py reads them whatever the table's status)."""

from __future__ import annotations

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session

from ..model import StoredTable
from ..quotas import TableQuota
from .models import ActionRow, AnalysisRow, ChatRow, GameRow, SeatRow, TableRow
from .repository import Repository, actions_of, seat_of, to_dt, to_ts, value_of


def add_table(s: Session, t: StoredTable) -> None:
    """Add a new table and its first game within the transaction `s`."""
    s.add(
        TableRow(
            id=t.id, name=t.name, game=t.game, options=t.options, private=t.private, settings=t.settings,
            status=t.status, game_no=t.game_no, version=0, line=0, rev=t.rev, created_at=to_dt(t.created_at),
            updated_at=to_dt(t.updated_at), opened_by=t.opened_by,
            seats=[SeatRow(seat=i, kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash,
                           takeover=None, takeover_hand=None, rematch=False, account_id=x.account,
                           person=x.person, holders=x.holders)
                   for i, x in enumerate(t.seats)],
        )
    )  # fmt: skip
    s.flush()
    s.add(
        GameRow(table_id=t.id, game_no=t.game_no, seed=t.seed, seats=[x.public() for x in t.seats],
                status="playing", result=None, started_at=to_dt(t.started_at), finished_at=None)
    )  # fmt: skip


def client_tables(s: Session, client: str) -> tuple[int, int]:
    """The tables `client` opened that are stored, and the bot seats of those not over."""
    held = s.scalar(select(func.count()).select_from(TableRow).where(TableRow.opened_by == client)) or 0
    bots = s.scalar(
        select(func.count()).select_from(SeatRow).join(TableRow, TableRow.id == SeatRow.table_id)
        .where(TableRow.opened_by == client, TableRow.status != "over", SeatRow.kind == "bot")
    )  # fmt: skip
    return held, bots or 0


def hold_to(s: Session, quota: TableQuota) -> None:
    """Within the transaction `s` that stores a new table: raise the quota's LimitReached when the
    table would take its client past it. On PostgreSQL a lock per client, held to the commit,
    makes two processes opening tables for one client at once count one after the other."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "client " + quota.client})
    refusal = quota.refuse(*client_tables(s, quota.client))
    if refusal is not None:
        raise refusal


ARCHIVED = "archived"  # a table's status once it is archived: never loaded again


class TableStore(Repository):
    def create_table(self, t: StoredTable, quota: TableQuota | None = None) -> None:
        """Store a new table; with a `quota`, only if its client stays within it (else the quota's
        LimitReached is raised and nothing is stored). The count and the insert are one
        transaction, under a lock per client on PostgreSQL, so two processes opening tables for
        one client at once cannot both pass the last free place."""
        with self.sessions.begin() as s:
            if quota is not None:
                hold_to(s, quota)
            add_table(s, t)

    def client_tables(self, client: str) -> tuple[int, int]:
        with self.sessions() as s:
            return client_tables(s, client)

    def _stored(self, s: Session, row: TableRow, after: tuple[int, int, int] | None,
                last_chat: int = 0) -> StoredTable:  # fmt: skip
        g = s.get(GameRow, (row.id, row.game_no))
        assert g is not None, f"table {row.id} has no game {row.game_no}"
        complete = after is None or after[:2] != (row.game_no, row.line)
        actions = actions_of(s, row.id, row.game_no, 0 if after is None or complete else after[2])
        seats = [seat_of(x) for x in row.seats]
        return value_of(StoredTable, row, seats=seats, seed=g.seed, started_at=to_ts(g.started_at), actions=actions,
                        complete=complete, last_chat=last_chat)  # fmt: skip

    def load_tables(self) -> list[StoredTable]:
        with self.sessions() as s:
            newest = select(ChatRow.table_id, func.max(ChatRow.id)).group_by(ChatRow.table_id)
            last = {table_id: line for table_id, line in s.execute(newest)}
            rows = s.scalars(select(TableRow).where(TableRow.status != ARCHIVED).order_by(TableRow.created_at))
            return [self._stored(s, row, None, last.get(row.id, 0)) for row in rows]

    def load_table(self, table_id: str, after: tuple[int, int, int] | None = None) -> StoredTable | None:
        """The table; with `after` = (game_no, line, version) only the actions past that version if
        the game and its line are still the current ones (a rematch or a takeback elsewhere gives
        the whole game again). Read in full (no `after`), it also names its newest chat line
        (`last_chat`).

        The actions are those of the line read. On PostgreSQL the reads share one snapshot
        (REPEATABLE READ; under READ COMMITTED each statement could see a takeback the one before
        did not). SQLite serves one process, whose reads and writes take turns in its one
        database thread."""
        with self.sessions() as s:
            if self.engine.dialect.name == "postgresql":
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = s.get(TableRow, table_id)
            if row is None or row.status == ARCHIVED:
                return None
            last_chat = 0
            if after is None:
                last_chat = s.scalar(select(func.max(ChatRow.id)).where(ChatRow.table_id == table_id)) or 0
            return self._stored(s, row, after, last_chat)

    def revisions(self) -> dict[str, int]:
        with self.sessions() as s:
            return {i: r for i, r in s.execute(select(TableRow.id, TableRow.rev).where(TableRow.status != ARCHIVED))}

    def count_tables(self) -> int:
        with self.sessions() as s:
            return s.scalar(select(func.count()).select_from(TableRow)) or 0

    def archive_table(self, table_id: str) -> None:
        """The table leaves play for good, its games kept: no process loads or reads it back again
        (its seats, chat and games stay in the database for the records and replays)."""
        with self.sessions.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id)
                      .values(status=ARCHIVED, rev=TableRow.rev + 1))  # fmt: skip

    def delete_table(self, table_id: str) -> None:
        with self.sessions.begin() as s:
            for model in (AnalysisRow, ActionRow, ChatRow, GameRow, SeatRow):
                s.execute(delete(model).where(model.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))
