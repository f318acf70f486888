"""What every part of the store shares: its sessions, the time columns, the refusals, and the
rows read back as the plain values of ../model.py.

The store is split by concern (tables.py, seats.py, moves.py, takebacks.py, chat.py, games.py,
analyses.py); store.py joins the parts into the one `Store` the server reads and writes through.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..model import Seat, StoredAction
from .models import ActionRow, SeatRow, TableRow

V = TypeVar("V")


class Conflict(Exception):
    """Another process changed the table first (a move at this version, a rematch, a seat)."""


class Missing(LookupError):
    """No such table (it may have been swept), or no such game at it."""


class NotOver(Exception):
    """The game asked for is still being played: its record is public once it ends."""


def to_dt(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


def to_ts(d: datetime) -> float:
    return d.timestamp()


class Repository:
    """A part of the store: its engine, and sessions that keep their values after the commit."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)


def value_of(cls: type[V], row: Any, **given: Any) -> V:
    """The plain value `cls` (a dataclass of ../model.py or of a store's part) of a row whose
    columns bear its fields' names: a time as seconds since 1970, a JSON column copied (not the
    session's own), a field the row lacks (or names otherwise) from `given`, else its default.
    The one way a row becomes a value, so a column added to both needs no line here."""
    values: dict[str, Any] = {}
    for name in _field_names(cls):
        if name in given:
            values[name] = given[name]
        elif hasattr(row, name):
            v = getattr(row, name)
            if isinstance(v, datetime):
                v = to_ts(v)
            elif isinstance(v, dict | list):
                v = type(v)(v)
            values[name] = v
    return cls(**values)


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """Read once per class: a table's load turns every action of its game into a value."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def seat_of(row: SeatRow) -> Seat:
    return value_of(Seat, row, account=row.account_id, holders=list(row.holders) if row.holders else None)


def actions_of(s: Session, table_id: str, game_no: int, after: int = 0) -> list[StoredAction]:
    """The game's actions past version `after`, in order."""
    q = select(ActionRow).where(ActionRow.table_id == table_id, ActionRow.game_no == game_no,
                                ActionRow.version > after)  # fmt: skip
    rows = s.scalars(q.order_by(ActionRow.version))
    return [value_of(StoredAction, a, at=to_ts(a.created_at)) for a in rows]


def bump(s: Session, table_id: str, at: float, **values: Any) -> None:
    """The table changed: its revision grows by one (what other processes watch for)."""
    s.execute(
        update(TableRow).where(TableRow.id == table_id).values(rev=TableRow.rev + 1, updated_at=to_dt(at), **values)
    )
