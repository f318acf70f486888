"""Every read and write of the database, as plain data in and out (the values of ../model.py).

Nothing else in the server queries the database: the hub keeps its live tables through here, and
the routes read finished games, their records and analyses through here too. The store is split
by concern, a file each (tables, seats, moves, takebacks, chat, games, analyses); `Store` joins
them into the one way in. The methods are synchronous (SQLAlchemy sessions) and short; the hub
runs them in its database thread(s), never in the event loop. Each write is one transaction, and
a move's transaction is committed before anyone is told of the move.
"""

from __future__ import annotations

from .analyses import AnalysisStore, StoredAnalysis
from .chat import ChatStore
from .games import GameStore
from .moves import Move, MoveStore
from .repository import Conflict, Missing, NotOver, to_dt, to_ts
from .seats import SeatStore
from .tables import TableStore
from .takebacks import TakebackStore

__all__ = ["Conflict", "Missing", "Move", "NotOver", "Store", "StoredAnalysis", "to_dt", "to_ts"]


class Store(TableStore, SeatStore, MoveStore, TakebackStore, ChatStore, GameStore, AnalysisStore):
    """The database of tables and their games: one engine, one sessionmaker, every concern's
    reads and writes."""
