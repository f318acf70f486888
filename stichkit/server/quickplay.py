"""Quick play ("Schnell spielen"): a player names a game, a player count and rated or not, and
waits; the server seats the waiting players of one queue at a new table as soon as there are
enough of them.

The queue lives in the database (db/queue.py), so players waiting through different processes
find each other. Every process looks at the queues once in a while (and at once when someone
joins); a table is formed in the same transaction that marks its players as matched, so exactly
one process forms each table. A player who waited as long as they chose may fill the empty seats
with bots instead. A waiting player asks for news every few seconds; one who stops asking (the
page closed) leaves the queue after `quick_timeout`.

A matched player gets the table and a seat token, the same as joining a table in the lobby. The
token is kept in the queue's row until the player picks it up, for `quick_keep` at most.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from stichkit.core import Game, OptionError

from . import catalog
from .botrunner import SeatBot, parse_seat
from .db.accounts import Account
from .db.queue import Claim, QueueEntry, QueueKey, QueueStore
from .db.store import Conflict
from .errors import HubError
from .hub_protocol import RoomHub
from .lobby import new_seed
from .model import Seat, StoredTable, account_person, began
from .quotas import TableQuota
from .table import LiveTable, TableSettings
from .tokens import hash_token, new_table_id, new_token

log = logging.getLogger("stichkit.server")

# The rules a quick table plays: Jass as Swiss players know it (the Schieber to 1000), the other
# games as their rule sheets have them.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {"jass": {"profile": "schieber", "target": 1000}}
TAKEOVER_BOT = "heuristic"
# Where two or more people sit, a move timer keeps one who walks away from holding up the rest.
MOVE_TIME = 90.0


def distinct(entries: list[QueueEntry]) -> list[QueueEntry]:
    """The entries in order, each place, account and person once: one person never gets two seats
    at one table (two devices or tabs that joined at the same moment leave two places)."""
    seen: set[str | int] = set()
    out = []
    for e in entries:
        if e.id in seen or (e.account is not None and e.account in seen) or (e.person and e.person in seen):
            continue
        seen.add(e.id)
        if e.account is not None:
            seen.add(e.account)
        if e.person:
            seen.add(e.person)
        out.append(e)
    return out


def entry_id(ticket: str) -> str:
    """A queue ticket is stored only as its hash, as seat tokens are."""
    return hashlib.sha256(f"stichkit-queue:{ticket}".encode()).hexdigest()


class QuickPlay:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.next_look = 0.0
        self.next_sweep = 0.0
        self.next_full_note = 0.0

    @property
    def store(self) -> QueueStore:
        return self.hub.queue_store

    def _game(self, key: QueueKey) -> Game:
        try:
            return catalog.table_game(key.game, QUICK_OPTIONS.get(key.game.lower(), {}), key.players)
        except OptionError as e:
            raise HubError(400, str(e)) from None

    def _cutoff(self, now: float) -> float:
        return now - self.hub.settings.quick_timeout

    # -- the player's side -------------------------------------------------------------------

    async def join(self, name: str | None, game: str, players: int, rated: bool, wait: float,
                   account: Account | None = None, person: str | None = None) -> dict[str, Any]:  # fmt: skip
        """Join a queue: the ticket (shown once) and the queue's news. A logged-in player waits
        under the account's user name, and the seat follows the account."""
        if rated and account is None:
            raise HubError(403, "rated quick play is for account holders: log in first, or play unrated")
        if account is None and name is None:
            raise HubError(400, "name: a guest needs a name to sit under (1-40 characters), or log in")
        key = QueueKey(self._game(QueueKey(game, players, rated)).name, players, rated)
        ticket = new_token()
        now = time.time()
        who = None if account is None else account.id
        shown = account.name if account is not None else name
        assert shown is not None
        await self.hub.db(self.store.enqueue, entry_id(ticket), key, shown, wait, now, who, person)
        await self.match(key)
        return {"ticket": ticket, **await self.status(ticket)}

    async def status(self, ticket: str) -> dict[str, Any]:
        """The news of a place in the queue (asking is what keeps it): still waiting, or the seat."""
        now = time.time()
        e = await self.hub.db(self.store.seen, entry_id(ticket), now)
        if e is None:
            raise HubError(404, self._gone())
        if e.table_id is not None:
            return self._matched(e)
        counts = await self.hub.db(self.store.counts, self._cutoff(now))
        waited = now - e.created_at
        return {
            "status": "waiting", "game": e.key.game, "players": e.key.players, "rated": e.key.rated,
            "waiting": counts.get(e.key, 1), "waited": round(waited, 1), "wait": e.wait,
            "bots_offered": not e.key.rated and waited >= e.wait,
        }  # fmt: skip

    async def leave(self, ticket: str) -> dict[str, Any]:
        e = await self.hub.db(self.store.withdraw, entry_id(ticket))
        if e is None:
            raise HubError(404, self._gone())
        if e.table_id is not None:  # matched a moment ago: the seat is theirs, to take or to leave
            return self._matched(e)
        return {"status": "left"}

    async def fill_with_bots(self, ticket: str, bot: str, client: str | None = None) -> dict[str, Any]:
        """After the chosen wait: a table now, with whoever waits in the same queue and `bot` in
        the seats still empty. The table is `client`'s, held to its limits like one it opened."""
        now = time.time()
        e = await self.hub.db(self.store.seen, entry_id(ticket), now)
        if e is None:
            raise HubError(404, self._gone())
        if e.table_id is not None:
            return self._matched(e)
        if e.key.rated:
            raise HubError(409, "a rated table seats people only: wait for players, or join the unrated queue")
        if now - e.created_at < e.wait:
            left = e.wait - (now - e.created_at)
            raise HubError(409, f"bots are offered after the {e.wait:g} s you chose to wait; {left:.0f} s to go")
        s = self.hub.settings
        try:
            filler = parse_seat(f"bot:{bot}", s.max_bot_time, e.key.game, s.allow_remote_bots)
        except OptionError as err:
            raise HubError(400, str(err)) from None
        assert filler is not None
        for _ in range(3):  # others may be matched meanwhile: look again
            others = await self.hub.db(self.store.waiting, e.key, self._cutoff(now), 2 * e.key.players)
            if client is not None:
                await self.hub.lobby.make_room(client)
            if await self._form(e.key, distinct([e, *others])[: e.key.players], filler, client):
                break
            e = await self.hub.db(self.store.seen, e.id, time.time())
            if e is None:
                raise HubError(404, self._gone())
            if e.table_id is not None:
                break
        else:
            raise HubError(503, "the queue kept changing; try again")
        return await self.status(ticket)

    @staticmethod
    def _matched(e: QueueEntry) -> dict[str, Any]:
        return {"status": "matched", "table": e.table_id, "seat": e.seat, "token": e.token, "name": e.name}

    def _gone(self) -> str:
        return (f"no such place in the queue: it was left, or its player stopped asking for "
                f"{self.hub.settings.quick_timeout:g} s (or did not pick up the seat in time)")  # fmt: skip

    async def counts(self) -> list[dict[str, Any]]:
        found = await self.hub.db(self.store.counts, self._cutoff(time.time()))
        return [{"game": k.game, "players": k.players, "rated": k.rated, "waiting": n}
                for k, n in sorted(found.items(), key=lambda kv: (kv[0].game, kv[0].players, kv[0].rated))]  # fmt: skip

    # -- matching ----------------------------------------------------------------------------

    async def tick(self, now: float) -> None:
        """Once in a while: form the tables every full queue can fill, and forget who left."""
        s = self.hub.settings
        if now >= self.next_look:
            self.next_look = now + s.quick_interval
            for key, n in (await self.hub.db(self.store.counts, self._cutoff(now))).items():
                if n >= key.players:
                    await self.match(key)
        if now >= self.next_sweep:
            self.next_sweep = now + 10 * s.quick_interval
            await self.hub.db(self.store.sweep, self._cutoff(now), now - s.quick_keep)

    async def match(self, key: QueueKey) -> None:
        """Seat the oldest waiting players of queue `key`, a table at a time, while there are enough.
        A server holding all the tables it may leaves them waiting (a later look seats them)."""
        for _ in range(100):  # at most this many tables at one look; the next look goes on
            found = distinct(await self.hub.db(self.store.waiting, key, self._cutoff(time.time()), 2 * key.players))
            if len(found) < key.players:
                return
            if self.full():
                return
            await self._form(key, found[: key.players], None)  # lost to another process: look again

    def full(self) -> bool:
        """This process holds all the tables it may: say so in the log, once a minute at most."""
        s = self.hub.settings
        if len(self.hub.tables) < s.max_tables:
            return False
        now = time.time()
        if now >= self.next_full_note:
            self.next_full_note = now + 60
            log.warning("quick play: players wait, but this server holds %d tables already (--max-tables)",
                        s.max_tables)  # fmt: skip
        return True

    async def _form(self, key: QueueKey, entries: list[QueueEntry], filler: SeatBot | None,
                    client: str | None = None) -> bool:  # fmt: skip
        """A new table for `entries` (bots `filler` in the other seats, asked for by `client`, held
        to its limits). False: another process matched one of them first, and nothing was stored."""
        hub, s = self.hub, self.hub.settings
        if len(hub.tables) >= s.max_tables:
            raise HubError(503, f"this server holds {s.max_tables} tables already; try again later")
        game = self.hub.shared_game(self._game(key))
        takeover = parse_seat(f"bot:{TAKEOVER_BOT}", s.max_bot_time, game.name, s.allow_remote_bots)
        assert takeover is not None
        now = time.time()
        tid = new_table_id()
        claims = [Claim(e.id, i, new_token()) for i, e in enumerate(entries)]
        seats = [
            Seat(
                "human",
                name=e.name,
                token_hash=hash_token(tid, c.token),
                account=e.account,
                person=e.person or (None if e.account is None else account_person(e.account)),
            )
            for e, c in zip(entries, claims, strict=True)
        ]
        began(seats)  # who holds which seat of this game (model.barred_seats)
        bots: list[SeatBot | None] = [None] * len(seats)
        while len(seats) < key.players:
            assert filler is not None
            seats.append(Seat("bot", bot=filler.label, name=filler.label))
            bots.append(filler)
        move_time = MOVE_TIME if len(entries) > 1 else None
        stored = StoredTable(
            id=tid, name="", game=game.name, options=dict(game.options), private=False,
            settings=TableSettings("hand", 60.0, f"bot:{takeover.label}", move_time, hints=not key.rated,
                                   takebacks=not key.rated, rated=key.rated).as_dict(),
            status="playing", game_no=1, rev=1, created_at=now, updated_at=now, seats=seats, seed=new_seed(),
            started_at=now, opened_by=client,
        )  # fmt: skip
        quota = None
        if client is not None:
            quota = TableQuota(client, s.client_tables, s.client_bot_seats, sum(x.kind == "bot" for x in seats))
        try:
            await hub.db(self.store.form, stored, claims, self._cutoff(now), now, quota)
        except Conflict:
            return False
        t = LiveTable(stored, game, bots, takeover, now)
        hub.tables[t.id] = t
        await hub.owner.claim([t.id])
        await hub.peers.notify(t)
        hub.scheduler.schedule(t)
        return True
