"""The hub: every table this process holds, the rooms that change them, and the one way a table
changes, stored first and only then told.

A request comes in at one of the hub's doors (listed in `Hub.__init__`) and is handled in the room
of its concern, each a file that reads top to bottom:

- lobby.py: open a table, take a seat, move to another, leave it;
- presence.py: open the table's page and close it (who is there), and chat;
- moves.py: a decision, whoever makes it (a person, a bot, a timer): checked, applied, stored, told;
- takebacks.py: moves taken back, at once or once the other players agree;
- hints.py: what the hint bot would play, for the asking seat alone;
- seats.py: takeovers and reclaims, rematch votes and the next game;
- scheduler.py: this process's own work at the tables it owns: bots' moves, move timers,
  takeovers, sweeping;
- peers.py: the other processes on the same database: notices, catching up, presence;
- accounts.py: register, log in and out, a new password, a deleted account;
- bans.py: a banned account's seats at the live tables, given up as if it left;
- quickplay.py: the quick-play queues, shared by every process, and the tables formed from them;
- tournaments.py: tournaments, their rounds played at tables, each step taken by one process.

Every change of a table, in every room, ends in `Hub.store_then_tell` under the table's lock: the
database commits it (or refuses it, when another process changed the table first: the table is
read again, and the engine takes back a move it applied); only then does the live table change
and is everyone told, each seat from its own view; then the other processes hear a notice and
read the change from the database, and the bots whose turn it is start their move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from stichkit.core import Game, OptionError

from .accounts import Accounts
from .analysis import Analyses, DbKeeper
from .bans import Bans
from .botrunner import BotRunner, Recent, SeatBot, parse_bot_spec
from .connection import CLOSE_GOING_AWAY, CLOSE_SWEPT
from .db import migrate
from .db.accounts import AccountStore
from .db.engine import SqliteLock, is_sqlite, make_engine, parse_db_url, safe_url
from .db.profiles import ProfileStore
from .db.queue import QueueStore
from .db.social import SocialStore
from .db.store import Conflict, Store
from .db.tournaments import TournamentStore
from .errors import HubError
from .hints import Hints
from .lobby import Lobby, NewTable
from .messages import News, tell
from .model import Seat, StoredTable, stored_game
from .moves import Moves
from .ownership import AdvisoryOwner, SoleOwner
from .peers import Peers
from .presence import Presence
from .pubsub import Notifier, notifier_for
from .quickplay import QuickPlay
from .quotas import BotTime, InFlight
from .ratelimit import Limits
from .refusals import Refusal
from .scheduler import Scheduler
from .seats import Seats
from .settings import Settings
from .table import LiveTable
from .takebacks import Takebacks
from .tournaments import Tournaments

__all__ = ["Hub", "HubError", "NewTable"]

log = logging.getLogger("stichkit.server")
T = TypeVar("T")
W = TypeVar("W")
WRITERS = 4  # concurrent group commits on PostgreSQL (the database threads are 6)


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.instance = settings.instance
        self.url = parse_db_url(settings.db)
        self.sqlite = is_sqlite(self.url)
        self.tables: dict[str, LiveTable] = {}
        self.bots = BotRunner(settings.bot_workers, settings.workers_per_client, settings.malloc_trim)
        self.analyses = Analyses(
            settings.max_analyses,
            per_client=settings.client_analyses,
            background=settings.background_analyses,
            trim_seconds=settings.malloc_trim,
        )  # keeper: at start
        self.in_flight = InFlight()  # each client's hints in work here (quotas.py)
        self.bot_time = BotTime(settings.table_bot_time)  # each table's bots' thinking a minute
        self._bot_cache: Recent[str, SeatBot] = Recent(256)  # bot specs as tables name them, checked
        self._games: Recent[str, Game] = Recent(64)  # the game each set of options is played by, shared
        self._lock: SqliteLock | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.closing = False
        self.started = time.time()
        # The rooms, one per concern (see the module's docstring).
        self.lobby = Lobby(self)
        self.presence = Presence(self)
        self.moves = Moves(self)
        self.takebacks = Takebacks(self)
        self.hints = Hints(self)
        self.seats = Seats(self)
        self.scheduler = Scheduler(self)
        self.peers = Peers(self)
        self.accounts = Accounts(self)
        self.bans = Bans(self)
        self.quick = QuickPlay(self)
        self.tournaments = Tournaments(self)
        # The doors: what the routes call, each handled in its room.
        self.create_table = self.lobby.create_table
        self.join = self.lobby.join
        self.move_seat = self.lobby.move_seat
        self.leave = self.lobby.leave
        self.connect = self.presence.connect
        self.disconnect = self.presence.disconnect
        self.chat = self.presence.chat
        self.act = self.moves.act
        self.take_back = self.takebacks.take_back
        self.answer_takeback = self.takebacks.answer
        self.hint = self.hints.hint
        self.hint_bot = self.hints.bot
        self.reclaim = self.seats.reclaim
        self.rematch = self.seats.rematch
        self.sync = self.peers.sync

    # -- start and stop ----------------------------------------------------------------------

    async def start(self) -> None:
        s = self.settings
        if self.sqlite:
            self._lock = SqliteLock(self.url)
            self._lock.acquire()
        self.engine = make_engine(self.url)
        self._db_pool = ThreadPoolExecutor(1 if self.sqlite else 6, thread_name_prefix="stichkit-db")
        await self.db(migrate.upgrade, self.engine)
        cluster = await self.db(migrate.cluster_id, self.engine)
        self.store = Store(self.engine)
        self.accounts_store = AccountStore(self.engine)
        secret = s.secret if s.secret else await self.db(migrate.session_secret, self.engine)
        limits = Limits(s.redis, cluster, login_per_name=s.login_per_name, login_per_address=s.login_per_address,
                        register_per_address=s.register_per_address)  # fmt: skip
        self.accounts.start(secret, limits)
        self.queue_store = QueueStore(self.store.sessions)
        self.profile_store = ProfileStore(self.engine)
        self.social_store = SocialStore(self.engine)
        self.tournament_store = TournamentStore(self.store.sessions)
        self.analyses.keeper = DbKeeper(self.db, self.store, self.instance)
        if self.sqlite:  # one process: a claim stored is one a stopped process of it left behind
            await self.db(self.store.release_analyses, None)
        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.owner = SoleOwner() if self.sqlite else AdvisoryOwner(conninfo)
        self.notifier: Notifier = notifier_for(self.url, s.redis, cluster)
        for stored in await self.db(self.store.load_tables):
            self.restore(stored)
        await self.notifier.start(self.peers.on_notice)
        await self.notifier.publish({"k": "hello", "i": self.instance})
        await self.scheduler.claim()
        for t in self.tables.values():
            self.scheduler.schedule(t)
        self._tasks.append(asyncio.create_task(self._background()))
        # SQLite has one writer at a time anyway; PostgreSQL commits in parallel, so one slow commit
        # does not hold up every other table's moves.
        for _ in range(1 if self.sqlite else WRITERS):
            self._tasks.append(asyncio.create_task(self.moves.writer()))
        self._tasks.append(asyncio.create_task(self.bots.warm()))
        log.info("stich serve: %d tables restored from %s; notifications: %s", len(self.tables), safe_url(self.url),
                 self.notifier.name)  # fmt: skip

    async def stop(self) -> None:
        self.closing = True
        for task in self._tasks:
            task.cancel()
        for t in self.tables.values():
            if t.pending is not None:
                t.pending.cancel()
            for c in list(t.clients):
                c.close(CLOSE_GOING_AWAY, "the server is restarting; reconnect in a moment")
        await asyncio.sleep(0.05)
        with contextlib.suppress(Exception):
            await self.notifier.stop()
        with contextlib.suppress(Exception):
            await self.owner.stop()
        self.bots.close()
        self.analyses.close()
        with contextlib.suppress(Exception):  # whoever asks next begins them again, at once
            await self.db(self.store.release_analyses, self.instance)
        self._db_pool.shutdown(wait=True)
        self.engine.dispose()
        if self._lock is not None:
            self._lock.release()

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the database thread(s): the event loop never waits on the disk."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, lambda: fn(*args, **kwargs))

    async def _background(self) -> None:
        """Once a tick: this process's own work at its tables, and its part with the others."""
        while True:
            await asyncio.sleep(self.settings.tick)
            try:
                now = time.time()
                await self.scheduler.tick(now)
                await self.peers.tick(now)
                await self.bans.tick(now)
                await self.quick.tick(now)
                await self.tournaments.tick(now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the server's background loop failed once; it goes on")

    # -- the one way a table changes ---------------------------------------------------------

    async def store_then_tell(self, t: LiveTable, write: Awaitable[W], change: Callable[[W], News], what: str,
                              stale: str = "", undo: Callable[[], None] | None = None) -> Refusal | None:  # fmt: skip
        """Store a change of table `t`, then tell everyone. The table's lock is held.

        `write` stores the change (a store call through `db`, not awaited yet). When another
        process changed the table first (Conflict), the table is read again and the answer is
        "stale" (`stale`, its `{version}` the version now); on any other failure it is
        "unavailable". Either way `undo` takes back what was done to the live table beforehand
        (a move the engine applied), and nobody hears of anything. Once stored, `change` makes
        the change on the live table (given what `write` answered) and says what this process's
        connections are told; the other processes get a notice, and a bot whose turn it is now
        starts its move. None: done."""
        try:
            written = await write
        except Conflict:
            if undo is not None:
                undo()
            await self.peers.sync_locked(t)
            return "stale", stale.format(version=t.version)
        except Exception:
            log.exception("table %s: storing %s failed", t.id, what)
            if undo is not None:
                undo()
            return "unavailable", f"{what} could not be saved; try again"
        news = change(written)
        t.rev += 1  # as the write counted it in the database
        t.updated_at = time.time()  # as the write stamped it
        tell(t, news, time.time())
        await self.peers.notify(t, chat=news.chat is not None)
        self.scheduler.schedule(t)
        return None

    # -- the live tables, and tables from stored data ----------------------------------------

    async def table(self, table_id: str) -> LiveTable | None:
        """The table, also when another process made it a moment ago."""
        t = self.tables.get(table_id)
        if t is None and self.notifier.shared and 0 < len(table_id) <= 32:
            await self.peers.sync(table_id)
            t = self.tables.get(table_id)
        return t

    def seat_bot(self, label: str) -> SeatBot:
        s = self.settings
        return self._bot_cache.get(label, lambda: parse_bot_spec(label, s.max_bot_time,
                                                                 allow_remote=s.allow_remote_bots))  # fmt: skip

    def shared_game(self, game: Game) -> Game:
        """The one game the tables of this game and these options play: a game builds its tables
        once for all its states (a Stichling game's action tables are 0.6 MB, forty times a
        table's own state), so a game for each table cost that much per table. Options that are
        not plain values (a card table read from a file) keep a game of their own."""
        try:
            key = game.name + json.dumps(game.options, sort_keys=True)
        except (TypeError, ValueError):
            return game
        return self._games.get(key, lambda: game)

    def stored_bot(self, table_id: str, label: str) -> SeatBot:
        """A stored bot spec; one this server no longer accepts is played by `heuristic`."""
        try:
            return self.seat_bot(label)
        except OptionError as e:
            log.warning("table %s: bot %r is not available (%s); heuristic plays instead", table_id, label, e)
            return self.seat_bot("heuristic")

    def seat_bots(self, table_id: str, seats: list[Seat]) -> list[SeatBot | None]:
        return [self.stored_bot(table_id, s.bot) if s.kind == "bot" and s.bot else None for s in seats]

    def restore(self, stored: StoredTable) -> LiveTable | None:
        """A table read from the database joins this process's tables (None: it cannot be
        played here, and is left in the database untouched)."""
        try:
            game = self.shared_game(stored_game(stored.game, stored.options))  # stored by an earlier version too
            takeover = self.stored_bot(stored.id, stored.settings["takeover_bot"].removeprefix("bot:"))
            t = LiveTable(stored, game, self.seat_bots(stored.id, stored.seats), takeover, time.time())
        except Exception:
            log.exception("table %s cannot be restored; it is left in the database untouched", stored.id)
            return None
        self.tables[t.id] = t
        return t

    def reload(self, t: LiveTable, stored: StoredTable, now: float) -> None:
        """The table's game read in full: the next game (a rematch), or the same game on a new
        line (a takeback). A bot thinking on the old one is stopped."""
        if t.pending is not None:
            t.pending.cancel()
            t.pending = None
        t.seat_bots = self.seat_bots(t.id, stored.seats)
        t.load_game(stored, now)
        t.last_hint = None
        t.recount()
        t.refresh_presence(now)

    async def sweep(self, t: LiveTable, why: str) -> None:
        """Delete the table with its games (wherever it is held: the other processes hear a notice)."""
        log.info("sweeping table %s (%s, %s): %s", t.id, t.game.name, t.status, why)
        await self.db(self.store.delete_table, t.id)
        await self.drop(t)
        await self.peers.notify(t)

    async def archive(self, t: LiveTable, why: str) -> None:
        """The table leaves memory and play for good, its games kept for their records and
        replays (a tournament's finished round table): the other processes hear a notice, read
        it back as gone and drop it too, and no process loads it at its start."""
        log.info("archiving table %s (%s, %s): %s", t.id, t.game.name, t.status, why)
        await self.db(self.store.archive_table, t.id)
        await self.drop(t, "this table's games are over; their records and replays stay")
        await self.peers.notify(t)

    async def drop(self, t: LiveTable, why: str = "this table was swept") -> None:
        """The table is gone (swept or archived, here or by another process): its connections are closed."""
        t.dropped = True
        self.tables.pop(t.id, None)
        if t.pending is not None:
            t.pending.cancel()
        for c in list(t.clients):
            c.close(CLOSE_SWEPT, why)
        await self.owner.release(t.id)
