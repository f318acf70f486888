"""The hub as its rooms see it (lobby.py, moves.py, peers.py, ...): what they read of it and the
calls they make on it and on each other.

The hub builds the rooms and hands itself to each; a room names it by this protocol, not by the
`Hub` class, so that no room imports the hub that imports it (tests/test_layers.py finds any such
circle, imports for the type checker included). mypy checks that `Hub` is a `RoomHub` where the
hub hands itself to a room, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from stichkit.core import Game

from .analysis import Analyses
from .botrunner import BotRunner, SeatBot
from .db.accounts import AccountStore
from .db.queue import QueueStore
from .db.store import Store
from .db.tournaments import TournamentStore
from .messages import News
from .model import Seat, StoredTable
from .ownership import SoleOwner
from .pubsub import Notifier
from .quotas import BotTime, InFlight
from .refusals import Refusal
from .settings import Settings
from .table import LiveTable

T = TypeVar("T")
W = TypeVar("W")


class LobbyRoom(Protocol):
    """What the other rooms ask of lobby.py."""

    async def leave(self, t: LiveTable, th: str, why: str = ...) -> int: ...

    async def make_room(self, client: str) -> None: ...


class PresenceRoom(Protocol):
    """What the other rooms ask of presence.py."""

    async def chat_again(self, t: LiveTable) -> None: ...


class MovesRoom(Protocol):
    """What the other rooms ask of moves.py."""

    async def commit(self, t: LiveTable, seat: int, text: str, by: str) -> Refusal | None: ...


class TakebacksRoom(Protocol):
    """What the other rooms ask of takebacks.py."""

    async def set_request(self, t: LiveTable, text: str) -> Refusal | None: ...


class SeatsRoom(Protocol):
    """What the other rooms ask of seats.py."""

    async def set_seats(self, t: LiveTable, changes: dict[int, dict[str, Any]]) -> Refusal | None: ...

    async def maybe_rematch(self, t: LiveTable) -> None: ...


class SchedulerRoom(Protocol):
    """What the other rooms ask of scheduler.py."""

    def schedule(self, t: LiveTable) -> None: ...


class PeersRoom(Protocol):
    """What the other rooms ask of peers.py."""

    async def notify(self, t: LiveTable, chat: bool = ...) -> None: ...

    async def notify_chat_renamed(self, table_id: str) -> None: ...

    async def publish_presence(self, t: LiveTable) -> None: ...

    async def sync(self, table_id: str, chat: bool = ...) -> None: ...

    async def sync_locked(self, t: LiveTable) -> None: ...


class BansRoom(Protocol):
    """What the other rooms ask of bans.py."""

    async def enforce(self) -> int: ...


class RoomHub(Protocol):
    """What a room uses of the hub (hub.py): its settings, tables, stores and workers, which the
    rooms read and never replace; the rooms it asks for each other; and the one way a table
    changes (`store_then_tell`) with the table registry's calls."""

    settings: Settings
    instance: str
    closing: bool
    tables: dict[str, LiveTable]
    store: Store
    accounts_store: AccountStore
    queue_store: QueueStore
    tournament_store: TournamentStore
    analyses: Analyses
    bots: BotRunner
    bot_time: BotTime
    in_flight: InFlight
    notifier: Notifier
    owner: SoleOwner

    @property
    def lobby(self) -> LobbyRoom: ...

    @property
    def presence(self) -> PresenceRoom: ...

    @property
    def moves(self) -> MovesRoom: ...

    @property
    def takebacks(self) -> TakebacksRoom: ...

    @property
    def seats(self) -> SeatsRoom: ...

    @property
    def scheduler(self) -> SchedulerRoom: ...

    @property
    def peers(self) -> PeersRoom: ...

    @property
    def bans(self) -> BansRoom: ...

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def store_then_tell(
        self,
        t: LiveTable,
        write: Awaitable[W],
        change: Callable[[W], News],
        what: str,
        stale: str = ...,
        undo: Callable[[], None] | None = ...,
    ) -> Refusal | None: ...

    async def table(self, table_id: str) -> LiveTable | None: ...

    def seat_bot(self, label: str) -> SeatBot: ...

    def seat_bots(self, table_id: str, seats: list[Seat]) -> list[SeatBot | None]: ...

    def shared_game(self, game: Game) -> Game: ...

    def restore(self, stored: StoredTable) -> LiveTable | None: ...

    def reload(self, t: LiveTable, stored: StoredTable, now: float) -> None: ...

    async def sweep(self, t: LiveTable, why: str) -> None: ...

    async def archive(self, t: LiveTable, why: str) -> None: ...

    async def drop(self, t: LiveTable, why: str = ...) -> None: ...
