"""The hub: every table of this process, and everything that changes one.

The order of a move, whoever makes it (a person, a bot, a timer): under the table's lock, the
engine applies it (or refuses it with its reason, changing nothing); the database commits it
(or refuses it, when another process stored this version first: the engine takes it back); only
then is everyone told, each seat from its own view. Other processes on the same database hear a
notice and read the new actions from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from stichkit.bots import hint_bot
from stichkit.core import IllegalActionError, OptionError

from . import catalog
from .analysis import Analyses, DbKeeper
from .botrunner import CLOCKS, BotRunner, SeatBot, parse_bot_spec, parse_seat
from .connection import CLOSE_GOING_AWAY, CLOSE_REVOKED, CLOSE_SWEPT, Client, dumps
from .db import migrate
from .db.engine import SqliteLock, is_sqlite, make_engine, parse_db_url, safe_url
from .db.store import Conflict, Move, Store
from .model import Seat, StoredAction, StoredTable, TakebackRequest, stored_game
from .ownership import AdvisoryOwner, SoleOwner
from .pubsub import Notifier, PostgresNotifier, RedisNotifier
from .settings import Settings
from .table import LiveTable, Refusal, TableSettings, hand_of
from .tokens import hash_token, new_table_id, new_token

log = logging.getLogger("stichkit.server")
T = TypeVar("T")
MOVES_PER_COMMIT = 200
WRITERS = 4  # concurrent group commits on PostgreSQL (the database threads are 6)


class HubError(Exception):
    """A refused request: `status` is the HTTP status, the message the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class NewTable:
    game: str
    options: dict[str, Any]
    seats: list[str]
    private: bool
    name: str | None
    takeover: str
    grace: float
    takeover_bot: str
    move_time: float | None
    hints: bool = True
    takebacks: bool = True


def new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.instance = settings.instance
        self.url = parse_db_url(settings.db)
        self.sqlite = is_sqlite(self.url)
        self.tables: dict[str, LiveTable] = {}
        self.bots = BotRunner(settings.bot_workers)
        self.analyses = Analyses(settings.max_analyses)  # its keeper comes with the database (start)
        self._bot_cache: dict[str, SeatBot] = {}
        self._lock: SqliteLock | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._peers_seen: dict[str, float] = {}
        self._moves: asyncio.Queue[tuple[Move, asyncio.Future[Conflict | None]]] = asyncio.Queue()
        self.closing = False
        self.started = time.time()

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
        self.analyses.keeper = DbKeeper(self.db, self.store, self.instance)
        if self.sqlite:  # one process: a claim stored is one a stopped process of it left behind
            await self.db(self.store.release_analyses, None)
        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.owner = SoleOwner() if self.sqlite else AdvisoryOwner(conninfo)
        if s.redis:
            self.notifier: Notifier = RedisNotifier(s.redis, cluster)
        elif self.sqlite:
            self.notifier = Notifier()
        else:
            self.notifier = PostgresNotifier(conninfo)
        for stored in await self.db(self.store.load_tables):
            self._restore(stored)
        await self.notifier.start(self._on_notice)
        await self.notifier.publish({"k": "hello", "i": self.instance})
        await self._claim()
        for t in self.tables.values():
            self._schedule(t)
        self._tasks.append(asyncio.create_task(self._ticker()))
        # SQLite has one writer at a time anyway; PostgreSQL commits in parallel, so one slow commit
        # does not hold up every other table's moves.
        for _ in range(1 if self.sqlite else WRITERS):
            self._tasks.append(asyncio.create_task(self._writer()))
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

    # -- bots and tables from stored data ----------------------------------------------------

    def seat_bot(self, label: str) -> SeatBot:
        bot = self._bot_cache.get(label)
        if bot is None:
            s = self.settings
            bot = self._bot_cache[label] = parse_bot_spec(label, s.max_bot_time, allow_remote=s.allow_remote_bots)
        return bot

    def _stored_bot(self, table_id: str, label: str) -> SeatBot:
        """A stored bot spec; one this server no longer accepts is played by `heuristic`."""
        try:
            return self.seat_bot(label)
        except OptionError as e:
            log.warning("table %s: bot %r is not available (%s); heuristic plays instead", table_id, label, e)
            return self.seat_bot("heuristic")

    def _seat_bots(self, table_id: str, seats: list[Seat]) -> list[SeatBot | None]:
        return [self._stored_bot(table_id, s.bot) if s.kind == "bot" and s.bot else None for s in seats]

    def _live(self, stored: StoredTable) -> LiveTable:
        game = stored_game(stored.game, stored.options)  # a table stored by an earlier version too
        takeover = self._stored_bot(stored.id, stored.settings["takeover_bot"].removeprefix("bot:"))
        t = LiveTable(stored, game, self._seat_bots(stored.id, stored.seats), takeover, time.time())
        return t

    def _restore(self, stored: StoredTable) -> LiveTable | None:
        try:
            t = self._live(stored)
        except Exception:
            log.exception("table %s cannot be restored; it is left in the database untouched", stored.id)
            return None
        self.tables[t.id] = t
        return t

    # -- the lobby ---------------------------------------------------------------------------

    async def create_table(self, req: NewTable) -> LiveTable:
        if len(self.tables) >= self.settings.max_tables:
            raise HubError(503, f"this server holds {self.settings.max_tables} tables already; try again later")
        s = self.settings
        try:
            game = catalog.table_game(req.game, req.options, len(req.seats))
            seat_bots = [parse_seat(x, s.max_bot_time, game.name, s.allow_remote_bots) for x in req.seats]
            if req.takeover_bot.strip().lower() == "human":
                raise OptionError("takeover_bot must be a bot ('bot:heuristic', ...), not human")
            takeover = parse_seat(req.takeover_bot, s.max_bot_time, game.name, s.allow_remote_bots)
        except OptionError as e:
            raise HubError(400, str(e)) from None
        assert takeover is not None
        now = time.time()
        seats = [Seat("human") if b is None else Seat("bot", bot=b.label, name=b.label) for b in seat_bots]
        stored = StoredTable(
            id=new_table_id(), name=req.name or "", game=game.name,
            options=dict(game.options), private=req.private,
            settings=TableSettings(req.takeover, req.grace, "bot:" + takeover.label, req.move_time,
                                   req.hints, req.takebacks).as_dict(),
            status="waiting" if any(s.kind == "human" for s in seats) else "playing", game_no=1, rev=1,
            created_at=now, updated_at=now, seats=seats, seed=new_seed(), started_at=now,
        )  # fmt: skip
        await self.db(self.store.create_table, stored)
        t = LiveTable(stored, game, [b for b in seat_bots], takeover, now)
        self.tables[t.id] = t
        await self.owner.claim([t.id])
        await self._notify(t)
        self._schedule(t)
        return t

    async def table(self, table_id: str) -> LiveTable | None:
        """The table, also when another process made it a moment ago."""
        t = self.tables.get(table_id)
        if t is None and self.notifier.shared and 0 < len(table_id) <= 32:
            await self.sync(table_id)
            t = self.tables.get(table_id)
        return t

    @staticmethod
    def _human_seat(t: LiveTable, seat: int) -> None:
        """A seat a person may sit at (join it, move to it): one of the table's, not a bot's."""
        if not 0 <= seat < t.n:
            raise HubError(400, f"seat {seat} is not a seat of this table; seats are 0..{t.n - 1}")
        if t.seats[seat].kind == "bot":
            raise HubError(409, f"seat {seat} is a bot's")

    async def join(self, t: LiveTable, name: str, seat: int | None) -> tuple[int, str]:
        async with t.lock:
            for attempt in (1, 2):
                if seat is not None:
                    self._human_seat(t, seat)
                    candidates = [seat] if t.seats[seat].token_hash is None else []
                else:
                    candidates = t.free_seats()
                for s in candidates:
                    token = new_token()
                    th = hash_token(t.id, token)
                    now = time.time()
                    status = await self.db(self.store.claim_seat, t.id, s, name, th, now)
                    if status is None:
                        continue
                    seat_row = t.seats[s]
                    seat_row.name, seat_row.token_hash, seat_row.takeover, seat_row.takeover_hand = name, th, None, None
                    seat_row.rematch = False
                    started = status != t.status
                    if started:
                        t.status = status
                        t.moved_at = now
                    t.rev += 1
                    t.refresh_presence(now)
                    if started:  # the game begins: every connection gets its state (its `legal`) now
                        t.broadcast_state(now, t.last)
                    else:
                        t.broadcast_table(now)
                    await self._notify(t)
                    self._schedule(t)
                    return s, token
                if attempt == 1:
                    await self._sync_locked(t)  # another process may have changed the seats
            if seat is not None:
                raise HubError(409, f"seat {seat} is taken")
            raise HubError(409, "no human seat is free at this table")

    async def _seat_of_token(self, t: LiveTable, th: str) -> int:
        """The seat a token's hash holds (read again from the database once, in case another
        process seated it a moment ago); 401 when it holds none. Lock held."""
        seat = t.seat_of(th)
        if seat is None:
            await self._sync_locked(t)
            seat = t.seat_of(th)
        if seat is None:
            raise HubError(401, "this token holds no seat at this table")
        return seat

    async def leave(self, t: LiveTable, token: str) -> int:
        th = hash_token(t.id, token)
        async with t.lock:
            seat = await self._seat_of_token(t, th)
            takeover = "game" if t.status == "playing" else None
            now = time.time()
            if not await self.db(self.store.release_seat, t.id, seat, th, takeover, now):
                raise HubError(401, "this token holds no seat at this table")
            s = t.seats[seat]
            s.token_hash, s.name, s.takeover, s.takeover_hand, s.rematch = None, None, takeover, None, False
            t.rev += 1
            for c in list(t.clients):
                if c.token_hash == th:
                    c.close(CLOSE_REVOKED, "you left this seat")
            t.refresh_presence(now)
            t.broadcast_table(now)
            await self._notify(t)
            if (r := t.open_takeback()) is not None:
                # Whoever leaves was the asker (leaving withdraws) or one to answer (leaving says
                # no): a request asked by a player who is gone, or waiting for one, stays open for good.
                await self._set_takeback(t, replace(r, no=seat).text())
            self._schedule(t)
            return seat

    async def move_seat(self, t: LiveTable, token: str, to: int) -> int:
        """Before play, a player moves to another free seat (to sit beside a friend, say): the
        token goes with them. No hand is shown before play, so the move tells nobody anything."""
        th = hash_token(t.id, token)
        async with t.lock:
            seat = await self._seat_of_token(t, th)
            if t.status != "waiting":
                raise HubError(409, "seats can be changed only while the table waits for players")
            self._human_seat(t, to)
            if to == seat:
                return seat
            if t.seats[to].token_hash is not None:
                raise HubError(409, f"seat {to} is taken")
            now = time.time()
            if not await self.db(self.store.move_seat, t.id, seat, to, th, now):
                await self._sync_locked(t)
                raise HubError(409, "the seats changed meanwhile; look again")
            src, dst = t.seats[seat], t.seats[to]
            dst.name, dst.token_hash, src.name, src.token_hash = src.name, th, None, None
            t.rev += 1
            moved = self._recount(t)
            t.refresh_presence(now)
            t.broadcast_table(now, refresh=moved)  # the mover's pages get their state as the new seat
            await self._notify(t)
            await self._publish_presence(t)
            return to

    # -- connections -------------------------------------------------------------------------

    async def connect(self, t: LiveTable, client: Client) -> None:
        async with t.lock:
            t.clients.add(client)
            self._count(t, client, +1)
            now = time.time()
            t.refresh_presence(now)
            info = dumps(t.info(now))
            client.send(t.state_text(client.seat, info, None))
            for c in t.clients:
                if c is not client:
                    c.send(f'{{"type":"table","table":{info}}}')
        lines = await self.db(self.store.chat, t.id, self.settings.chat_history)
        client.send_obj({"type": "chat_history", "messages": [line.message() for line in lines]})
        # The history may hold a line another process said that this one has not passed on yet
        # (its notice is on the way), so it does not move the table's chat cursor (set when the
        # table was read): that would keep the line from the table's other connections. This one
        # may get such a line twice, in its history and as a chat (pages drop it by id).
        await self._publish_presence(t)

    async def disconnect(self, t: LiveTable, client: Client) -> None:
        await client.stop()
        if client not in t.clients:
            return
        t.clients.discard(client)
        self._count(t, client, -1)
        now = time.time()
        t.seen_at = now  # someone was here until now
        if client.seat is not None:
            t.human_at = now
        t.refresh_presence(now)
        t.broadcast_table(now)
        if not self.closing:
            await self._publish_presence(t)
            await self._maybe_rematch(t)

    def _count(self, t: LiveTable, client: Client, delta: int) -> None:
        if client.seat is None:
            t.local_watchers += delta
        else:
            t.local[client.seat] += delta

    def _recount(self, t: LiveTable) -> set[int]:
        """After seats moved (a rematch, a lost seat, a seat changed): each connection as the seat
        its token holds now. The seats whose connections came from another seat."""
        t.local = [0] * t.n
        t.local_watchers = 0
        moved: set[int] = set()
        for c in list(t.clients):
            if c.token_hash is not None:
                seat = t.seat_of(c.token_hash)
                if seat is None:
                    c.close(CLOSE_REVOKED, "this token holds no seat at this table any more")
                    t.clients.discard(c)
                    continue
                if seat != c.seat:
                    moved.add(seat)
                c.seat = seat
            self._count(t, c, +1)
        return moved

    # -- client messages ---------------------------------------------------------------------

    async def act(self, t: LiveTable, client: Client, action: str, version: int, game_no: int | None,
                  ref: Any) -> None:  # fmt: skip
        async with t.lock:
            refusal = t.refuse_act(client.seat, version, game_no)
            if refusal is not None:
                client.error(*refusal, ref=ref)
                return
            assert client.seat is not None
            try:
                a = t.game.parse_action(action)
                t.state.apply(a)
            except IllegalActionError as e:
                client.error("illegal", str(e), ref=ref, why=e)
                return
            refusal = await self._commit(t, client.seat, a.text, "human")
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def _commit(self, t: LiveTable, seat: int, text: str, by: str) -> tuple[str, str] | None:
        """Store the move already applied to `t.state`, then tell everyone. Lock held."""
        now = time.time()
        version = t.version + 1
        result = t.result()
        changes: dict[int, dict[str, Any]] = {}
        if result is None and any(s.takeover == "hand" for s in t.seats):
            hand = hand_of(t.state.view(None))
            for i, s in enumerate(t.seats):
                if s.takeover == "hand" and s.takeover_hand is not None and s.takeover_hand != hand and t.connected(i):
                    changes[i] = {"takeover": None, "takeover_hand": None}
        try:
            await self._store_move(
                Move(t.id, t.game_no, StoredAction(version, seat, text, by, now), t.line, result, changes)
            )
        except Conflict:
            t.state.undo()
            await self._sync_locked(t)
            return "stale", "another move was made first; the table is at version " + str(t.version)
        except Exception:
            log.exception("table %s: storing a move failed", t.id)
            t.state.undo()
            return "unavailable", "the move could not be saved; try again"
        t.version = version
        t.last = {"seat": seat, "version": version, "by": by}
        t.moved_at = now
        t.updated_at = now
        t.rev += 1
        if by == "human":
            t.human_at = now
        for i, values in changes.items():
            t.seats[i].takeover = values["takeover"]
            t.seats[i].takeover_hand = values["takeover_hand"]
        if result is not None:
            t.status = "over"
        t.broadcast_state(now, t.last)
        await self._notify(t)
        self._schedule(t)
        return None

    async def take_back(self, t: LiveTable, client: Client, version: int, game_no: int | None, ref: Any) -> None:
        """Undo the client's last decision and every later one: at once for a player alone with
        bots; where other players sit, they are asked first (see `answer_takeback`)."""
        seat = client.seat
        async with t.lock:
            refusal = t.refuse_takeback(seat, version, game_no)
            if refusal is not None:
                client.error(*refusal, ref=ref)
                return
            assert seat is not None
            to_version = t.takeback_to(seat)
            assert to_version is not None
            if t.takeback_voters(seat):
                ask = TakebackRequest(seat, t.game_no, t.line, to_version, round(time.time(), 3))
                refusal = await self._set_takeback(t, ask.text())
            else:
                refusal = await self._take_back_to(t, seat, to_version, None)
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def answer_takeback(self, t: LiveTable, client: Client, accept: bool, ref: Any) -> None:
        """A player's answer to the open takeback request: the last yes takes the moves back; a
        no (or the asker's withdrawal) closes the request."""
        seat = client.seat
        async with t.lock:
            for _ in range(3):  # an answer given elsewhere at the same moment: read it, try again
                refusal = t.refuse_answer(seat, accept)
                if refusal is not None:
                    break
                r = t.open_takeback()
                assert r is not None and seat is not None
                if not accept:
                    refusal = await self._set_takeback(t, replace(r, no=seat).text())
                elif seat in r.yes:
                    return  # said already
                elif all(i in r.yes or i == seat for i in t.takeback_voters(r.seat)):
                    refusal = await self._take_back_to(t, r.seat, r.to, t.takeback_text)
                else:
                    refusal = await self._set_takeback(t, replace(r, yes=(*r.yes, seat)).text())
                if refusal is None or refusal[0] != "stale":
                    break
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def _set_takeback(self, t: LiveTable, text: str) -> Refusal | None:
        """Store the takeback request's new text, then show it to everyone. Lock held."""
        now = time.time()
        try:
            await self.db(self.store.set_takeback, t.id, t.game_no, t.line, t.takeback_text, text, now)
        except Conflict:
            await self._sync_locked(t)
            return "stale", "the takeback request or the game changed meanwhile; look again"
        except Exception:
            log.exception("table %s: storing a takeback request failed", t.id)
            return "unavailable", "the takeback request could not be saved; try again"
        t.set_takeback(text)
        t.updated_at = now
        t.rev += 1
        t.broadcast_table(now)
        await self._notify(t)
        return None

    async def _take_back_to(self, t: LiveTable, seat: int, to_version: int, request: str | None) -> Refusal | None:
        """Take the game back to `to_version` decisions, for `seat` (with `request`, the one
        every other player agreed to). Stored first, like a move; a bot thinking is stopped. Lock held."""
        now = time.time()
        try:
            await self.db(self.store.take_back, t.id, t.game_no, t.line, t.version, to_version, now, request, seat)
        except Conflict:
            await self._sync_locked(t)
            return "stale", f"the game changed meanwhile; the table is at version {t.version}"
        except Exception:
            log.exception("table %s: storing a takeback failed", t.id)
            return "unavailable", "the takeback could not be saved; try again"
        if t.pending is not None:
            t.pending.cancel()
            t.pending = None
        undone = t.version - to_version
        t.take_back_to(to_version)
        t.last = {"seat": seat, "version": to_version, "by": "takeback", "undone": undone}
        t.last_hint = None
        t.moved_at = t.updated_at = t.human_at = now
        t.rev += 1
        t.broadcast_state(now, t.last)
        await self._notify(t)
        self._schedule(t)
        return None

    async def _store_move(self, move: Move) -> None:
        """Hand the move to the writer and wait for its commit (Conflict when it was refused)."""
        done: asyncio.Future[Conflict | None] = asyncio.get_running_loop().create_future()
        self._moves.put_nowait((move, done))
        refused = await done
        if refused is not None:
            raise refused

    async def _writer(self) -> None:
        """Commit the moves waiting, all in one transaction, then wake each move's table."""
        while True:
            batch = [await self._moves.get()]
            while len(batch) < MOVES_PER_COMMIT and not self._moves.empty():
                batch.append(self._moves.get_nowait())
            try:
                outcomes: list[Conflict | None] = await self.db(self.store.append_moves, [m for m, _ in batch])
            except Exception as e:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if not done.done():
                    done.set_result(outcome)

    async def chat(self, t: LiveTable, client: Client, text: str) -> None:
        seat = client.seat
        assert seat is not None
        name = t.seats[seat].name or f"seat {seat}"
        line = await self.db(self.store.add_chat, t.id, seat, name, text, time.time())
        t.last_chat_id = max(t.last_chat_id, line.id)
        t.rev += 1
        t.broadcast(dumps({"type": "chat", **line.message()}))
        await self._notify(t, chat=True)

    async def hint(self, t: LiveTable, client: Client, version: int, game_no: int | None, ref: Any) -> None:
        """What the game's hint bot (stichkit.bots.hint_bot) would play for the client's seat: only
        at its turn, from what the seat may know (bots sample the hidden cards), told to it alone."""
        seat = client.seat
        async with t.lock:
            refusal = t.refuse_act(seat, version, game_no)
            if refusal is not None:
                client.error(*refusal, ref=ref)
                return
            assert seat is not None
            if not t.settings.hints:
                client.error("no_hints", "this table plays without hints", ref=ref)
                return
            key = (t.game_no, t.version, seat)
            if t.last_hint is not None and t.last_hint[:3] == key:
                self._send_hint(client, key, t.last_hint[3], ref)
                return
            # one at a time per connection, and per seat (however many tabs ask): a seat keeps at
            # most one bot worker busy with hints
            if client.hint_task is not None or key in t.hints_due:
                client.error("busy", "a hint is being worked out for you already", ref=ref)
                return
            record = t.state.record()
            t.hints_due.add(key)
            line = t.line
        # worked out beside the connection's other messages: a move made meanwhile is not held up
        client.hint_task = asyncio.create_task(self._work_out_hint(t, client, key, line, record, ref))

    async def _work_out_hint(self, t: LiveTable, client: Client, key: tuple[int, int, int], line: int,
                             record: dict[str, Any], ref: Any) -> None:  # fmt: skip
        try:
            bot = self.hint_bot(t.game.name)
            action = await self.bots.decide_record(bot, record, key[2])
        except Exception:
            log.exception("table %s: the hint bot failed", t.id)
            client.error("unavailable", "no hint can be worked out now; try again", ref=ref)
            return
        finally:
            client.hint_task = None
            t.hints_due.discard(key)
        if (t.game_no, t.line) != (key[0], line):  # moves were taken back meanwhile: the version is another position
            client.error("stale", "moves were taken back; ask again", ref=ref)
            return
        t.last_hint = (*key, action)
        self._send_hint(client, key, action, ref)

    def hint_bot(self, game: str) -> SeatBot:
        """The game's hint bot, its clock within this server's --max-bot-time."""
        name, params = hint_bot(game)
        for clock in CLOCKS:
            if clock in params and float(params[clock]) > self.settings.max_bot_time:
                params[clock] = self.settings.max_bot_time
        return self.seat_bot(":".join([name, *(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                               for k, v in params.items())]))  # fmt: skip

    @staticmethod
    def _send_hint(client: Client, key: tuple[int, int, int], action: str, ref: Any) -> None:
        msg: dict[str, Any] = {"type": "hint", "game": key[0], "version": key[1], "action": action}
        if ref is not None:
            msg["ref"] = ref
        client.send_obj(msg)

    async def reclaim(self, t: LiveTable, client: Client, ref: Any) -> None:
        seat = client.seat
        assert seat is not None
        async with t.lock:
            if t.seats[seat].takeover is None:
                client.error("nothing_to_reclaim", "no bot plays your seat", ref=ref)
                return
            await self._set_seats(t, {seat: {"takeover": None, "takeover_hand": None}})

    async def rematch(self, t: LiveTable, client: Client, ref: Any) -> None:
        seat = client.seat
        assert seat is not None
        async with t.lock:
            if t.status != "over":
                client.error("not_over", "a rematch can be asked for once the game is over", ref=ref)
                return
            if not t.seats[seat].rematch:
                await self._set_seats(t, {seat: {"rematch": True}})
        await self._maybe_rematch(t)

    async def _set_seats(self, t: LiveTable, changes: dict[int, dict[str, Any]]) -> None:
        """Takeovers, reclaims, votes: stored, then shown. Lock held."""
        now = time.time()
        try:
            await self.db(self.store.update_seats, t.id, t.game_no, changes, now)
        except Conflict:
            await self._sync_locked(t)
            return
        for i, values in changes.items():
            for k, v in values.items():
                setattr(t.seats[i], k, v)
        if any("takeover" in v and v["takeover"] is None for v in changes.values()):
            t.moved_at = now  # a seat back in human hands gets its move timer afresh
        t.rev += 1
        t.refresh_presence(now)
        # A seat that changed hands gets its state again (its `legal` changed); everyone else the table.
        t.broadcast_table(now, refresh={i for i, v in changes.items() if "takeover" in v})
        await self._notify(t)
        self._schedule(t)

    async def _maybe_rematch(self, t: LiveTable) -> None:
        async with t.lock:
            if not t.rematch_ready():
                return
            now = time.time()
            seats = t.rotated_seats()
            status = "playing" if all(s.kind == "bot" or s.token_hash for s in seats) else "waiting"
            seed = new_seed()
            try:
                await self.db(self.store.start_game, t.id, t.game_no + 1, seed, seats, status, now)
            except Conflict:
                await self._sync_locked(t)
                return
            stored = StoredTable(
                id=t.id, name=t.name, game=t.game.name, options=t.game.options, private=t.private,
                settings=t.settings.as_dict(), status=status, game_no=t.game_no + 1, rev=t.rev + 1,
                created_at=t.created_at, updated_at=now, seats=seats, seed=seed, started_at=now,
            )  # fmt: skip
            self._new_game(t, stored, now)
            await self._notify(t)
            self._schedule(t)

    def _reload(self, t: LiveTable, stored: StoredTable, now: float) -> None:
        """The table's game read in full again: a new game, or the same game on a new line."""
        self._new_game(t, stored, now, takeback=stored.game_no == t.game_no and stored.line != t.line)

    def _new_game(self, t: LiveTable, stored: StoredTable, now: float, takeback: bool = False) -> None:
        if t.pending is not None:
            t.pending.cancel()
            t.pending = None
        t.seat_bots = self._seat_bots(t.id, stored.seats)
        t.load_game(stored, now)
        if takeback:  # pages show it as such (they would drop a lower version of the same line)
            t.last = {"seat": None, "version": t.version, "by": "takeback"}
        t.last_hint = None
        self._recount(t)
        t.refresh_presence(now)
        t.broadcast_state(now, t.last)

    # -- bots, timers, takeovers -------------------------------------------------------------

    def _schedule(self, t: LiveTable) -> None:
        """Start the bot's move when a bot is to move at a table this process owns."""
        if self.closing or t.dropped or t.pending is not None or t.status != "playing" or not self.owner.owns(t.id):
            return
        seat = t.turn
        if seat is None:
            return
        bot = t.bot_for(seat)
        if bot is not None:
            by = "bot" if t.seats[seat].kind == "bot" else "takeover"
            t.pending = asyncio.create_task(self._bot_move(t, seat, bot, by))

    async def _bot_move(self, t: LiveTable, seat: int, bot: SeatBot, by: str) -> None:
        game_no, line, version = t.game_no, t.line, t.version
        try:
            if by != "timer":
                wait = t.moved_at + self.settings.bot_delay - time.time()
                if wait > 0:
                    await asyncio.sleep(wait)
            if (t.game_no, t.line, t.version) != (game_no, line, version):
                return
            try:
                text = await self.bots.decide(bot, t.state, seat)
            except Exception:
                log.exception("table %s: bot %s failed; it plays its first legal move", t.id, bot.label)
                text = ""
            async with t.lock:
                if (t.game_no, t.line, t.version, t.status, t.turn) != (game_no, line, version, "playing", seat):
                    return
                if by != "timer" and t.bot_for(seat) is None:  # the human took the seat back meanwhile
                    return
                try:
                    t.state.apply(text)
                except IllegalActionError:
                    text = t.state.legal_actions()[0].text
                    t.state.apply(text)
                await self._commit(t, seat, text, by)
        except asyncio.CancelledError:
            pass
        finally:
            if t.pending is asyncio.current_task():
                t.pending = None
                self._schedule(t)

    async def _tick_table(self, t: LiveTable, now: float) -> None:
        """Move timers, grace times and rematches of a table this process owns."""
        if t.status == "playing" and t.pending is None:
            deadline = t.deadline()
            turn = t.turn
            if deadline is not None and turn is not None and now >= deadline:
                t.pending = asyncio.create_task(self._bot_move(t, turn, t.takeover_bot, "timer"))
        if t.status == "playing" and t.settings.takeover != "off":
            due = [
                i for i, s in enumerate(t.seats)
                if s.kind == "human" and s.token_hash and s.takeover is None and t.away_since[i] is not None
                and now - t.away_since[i] >= t.settings.grace  # type: ignore[operator]
            ]  # fmt: skip
            if due:
                async with t.lock:
                    hand = t.hand()
                    mode = t.settings.takeover
                    await self._set_seats(t, {i: {"takeover": mode, "takeover_hand": hand} for i in due})
        if t.status == "over" and t.rematch_ready():
            await self._maybe_rematch(t)

    def _sweepable(self, t: LiveTable, now: float) -> bool:
        s = self.settings
        if t.anyone_here():
            t.seen_at = now
            if t.humans_here():
                t.human_at = now
            return False
        idle = now - max(t.updated_at, t.seen_at)
        if t.status == "waiting":
            return idle >= s.sweep_waiting
        if t.status == "over":
            return idle >= s.sweep_finished
        has_humans = any(x.kind == "human" for x in t.seats)
        return has_humans and now - t.human_at >= s.sweep_abandoned

    async def _sweep(self, now: float) -> None:
        for t in list(self.tables.values()):
            if self.owner.owns(t.id) and self._sweepable(t, now):
                log.info("sweeping table %s (%s, %s)", t.id, t.game.name, t.status)
                await self.db(self.store.delete_table, t.id)
                await self._drop(t)
                await self.notifier.publish({"k": "changed", "i": self.instance, "t": t.id})

    async def _drop(self, t: LiveTable) -> None:
        t.dropped = True
        self.tables.pop(t.id, None)
        if t.pending is not None:
            t.pending.cancel()
        for c in list(t.clients):
            c.close(CLOSE_SWEPT, "this table was swept")
        await self.owner.release(t.id)

    # -- the background loop -----------------------------------------------------------------

    async def _ticker(self) -> None:
        s = self.settings
        last = {"claim": 0.0, "beat": 0.0, "resync": time.time(), "sweep": time.time()}
        while True:
            await asyncio.sleep(s.tick)
            try:
                now = time.time()
                for t in list(self.tables.values()):
                    if self.owner.owns(t.id):
                        await self._tick_table(t, now)
                if now - last["claim"] >= 1.0:
                    last["claim"] = now
                    await self._claim()
                if self.notifier.shared and now - last["beat"] >= s.heartbeat:
                    last["beat"] = now
                    await self.notifier.publish({"k": "hb", "i": self.instance})
                    self._expire_peers(now)
                if self.notifier.shared and now - last["resync"] >= s.resync_interval:
                    last["resync"] = now
                    await self._resync_all()
                if now - last["sweep"] >= s.sweep_interval:
                    last["sweep"] = now
                    await self._sweep(now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the server's background loop failed once; it goes on")

    async def _claim(self) -> None:
        new = await self.owner.claim(list(self.tables))
        for table_id in new:
            await self.sync(table_id)  # the previous owner may have moved since we last heard
            t = self.tables.get(table_id)
            if t is not None:
                self._schedule(t)

    # -- other processes ---------------------------------------------------------------------

    async def _notify(self, t: LiveTable, chat: bool = False) -> None:
        if self.notifier.shared:
            msg: dict[str, Any] = {"k": "changed", "i": self.instance, "t": t.id}
            if chat:
                msg["chat"] = 1
            await self.notifier.publish(msg)

    async def _publish_presence(self, t: LiveTable) -> None:
        if self.notifier.shared:
            await self.notifier.publish(
                {"k": "presence", "i": self.instance, "t": t.id, "s": t.local, "w": t.local_watchers}
            )

    async def _on_notice(self, msg: dict[str, Any]) -> None:
        kind, sender = msg.get("k"), msg.get("i")
        if kind == "reconnected":  # notices may have been lost meanwhile
            await self._resync_all()
            return
        if sender == self.instance or not isinstance(sender, str):
            return
        now = time.time()
        self._peers_seen[sender] = now
        table_id = msg.get("t")
        if kind == "hello":
            for t in self.tables.values():
                if t.clients:
                    await self._publish_presence(t)
        elif kind == "changed" and isinstance(table_id, str):
            await self.sync(table_id, chat=bool(msg.get("chat")))
        elif kind == "presence" and isinstance(table_id, str):
            there = self.tables.get(table_id)
            seats, watchers = msg.get("s"), msg.get("w")
            if there is None or not isinstance(seats, list) or len(seats) != there.n or not isinstance(watchers, int):
                return
            there.peers[sender] = ([int(x) for x in seats], watchers)
            there.refresh_presence(now)
            there.broadcast_table(now)

    def _expire_peers(self, now: float) -> None:
        gone = {p for p, seen in self._peers_seen.items() if now - seen > self.settings.peer_timeout}
        for p in gone:
            del self._peers_seen[p]
            log.info("process %s went silent; its connections no longer count", p)
        for t in self.tables.values():
            stale = [p for p in t.peers if p not in self._peers_seen]
            if stale:
                for p in stale:
                    del t.peers[p]
                t.refresh_presence(now)
                t.broadcast_table(now)

    async def _resync_all(self) -> None:
        revs = await self.db(self.store.revisions)
        for table_id, rev in revs.items():
            t = self.tables.get(table_id)
            if t is None or t.rev != rev or t.chat_due:
                await self.sync(table_id, chat=True)  # a lost notice may have been a chat line
        for table_id in [i for i in self.tables if i not in revs]:
            await self.sync(table_id)

    async def sync(self, table_id: str, chat: bool = False) -> None:
        """Catch up with the database: a table made, changed or swept by another process."""
        t = self.tables.get(table_id)
        if t is None:
            stored = await self.db(self.store.load_table, table_id)
            if stored is not None and table_id not in self.tables:
                t = self._restore(stored)
                if t is not None:
                    await self.owner.claim([t.id])
                    self._schedule(t)
            return
        t.chat_due = t.chat_due or chat
        if t.syncing:  # one catch-up at a time; ask for another round
            t.resync = True
            return
        t.syncing = True
        try:
            while True:
                t.resync = False
                async with t.lock:
                    await self._sync_locked(t)
                if t.chat_due:
                    t.chat_due = False  # before the read: a chat notice during it asks for another
                    try:
                        lines = await self.db(self.store.chat, t.id, self.settings.chat_history, t.last_chat_id)
                    except BaseException:
                        # The revision is read already, so the next resync would not look again:
                        # the line stays due, and the resync reads it (see _resync_all).
                        t.chat_due = True
                        raise
                    for line in lines:
                        if line.id > t.last_chat_id:
                            t.last_chat_id = line.id
                            t.broadcast(dumps({"type": "chat", **line.message()}))
                if not t.resync:
                    break
        finally:
            t.syncing = False

    async def _sync_locked(self, t: LiveTable) -> None:
        stored = await self.db(self.store.load_table, t.id, (t.game_no, t.line, t.version))
        now = time.time()
        if stored is None:
            await self._drop(t)
            return
        if stored.complete:  # a rematch, or moves taken back, elsewhere
            self._reload(t, stored, now)
        else:
            for a in stored.actions:
                try:
                    t.apply_stored(a)
                except (IllegalActionError, ValueError):
                    log.exception("table %s: stored action %d does not apply; reloading", t.id, a.version)
                    full = await self.db(self.store.load_table, t.id)
                    if full is None:
                        await self._drop(t)
                        return
                    self._reload(t, full, now)
                    break
                if t.state.is_terminal():
                    t.status = "over"
                t.broadcast_state(now, t.last)
            changed = [vars(s) for s in stored.seats] != [vars(s) for s in t.seats] or stored.status != t.status
            if stored.takeback != t.takeback_text:  # asked, answered or withdrawn elsewhere
                t.set_takeback(stored.takeback)
                if not changed:
                    t.broadcast_table(now)
            if changed:
                t.seats = stored.seats
                t.seat_bots = self._seat_bots(t.id, stored.seats)
                if stored.status != t.status:
                    t.moved_at = now
                started = stored.status == "playing" and t.status == "waiting"
                t.status = stored.status
                moved = self._recount(t)
                t.refresh_presence(now)
                if started:  # another process seated the last player: the game begins here too
                    t.broadcast_state(now, t.last)
                else:  # a player who changed seats through another process: its state as the new seat
                    t.broadcast_table(now, refresh=moved)
        t.rev = stored.rev
        t.updated_at = stored.updated_at
        self._schedule(t)
