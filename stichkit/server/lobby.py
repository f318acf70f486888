"""The lobby: open a table, take a seat, move to another before play, leave it.

Answers are HTTP's: a refusal is a HubError with its status. A seat's token is made here, shown
once, and stored only as its hash.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any

from stichkit.core import OptionError

from . import catalog
from .botrunner import parse_seat
from .connection import CLOSE_REVOKED
from .db.accounts import Account
from .errors import HubError
from .hub_protocol import RoomHub
from .messages import STATE, TABLE, News
from .model import Seat, StoredTable, barred_seats, began, sat_down
from .quotas import TableQuota
from .refusals import Refusal
from .table import LiveTable, TableSettings
from .tokens import hash_token, new_table_id, new_token


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
    shared_screen: bool = False
    rated: bool = False
    client: str | None = None  # who opens it (clients.client_key), held to its quota; None: the server itself


def new_seed() -> int:
    return random.SystemRandom().getrandbits(62)


def refused(refusal: Refusal, status: int, reason: str) -> HubError:
    """A change the store refused, as HTTP answers it: `status` and `reason` when another process
    changed the table first, 503 when the database failed."""
    code, why = refusal
    return HubError(status, reason) if code == "stale" else HubError(503, why)


class Lobby:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def create_table(self, req: NewTable, account: Account | None = None) -> LiveTable:
        """A new table. A rated one is opened by an account holder and seats people only (the
        takeover bot plays for whoever is away or left), without hints or takebacks."""
        hub, s = self.hub, self.hub.settings
        if req.rated:
            if account is None:
                raise HubError(403, "rated tables are for account holders: log in first, or open an unrated table")
            if any(x.strip().lower() != "human" for x in req.seats):
                raise HubError(400, "a rated table seats people only: every seat must be 'human'")
            if req.shared_screen:
                raise HubError(400, "a rated table has one person at each seat: shared_screen must be false")
            req = replace(req, hints=False, takebacks=False)
        if req.client is not None:
            await self.make_room(req.client)
        if len(hub.tables) >= s.max_tables:
            raise HubError(503, f"this server holds {s.max_tables} tables already; try again later", "max_tables")
        try:
            game = hub.shared_game(catalog.table_game(req.game, req.options, len(req.seats)))
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
                                   req.hints, req.takebacks, req.shared_screen, req.rated).as_dict(),
            status="waiting" if any(s.kind == "human" for s in seats) else "playing", game_no=1, rev=1,
            created_at=now, updated_at=now, seats=seats, seed=new_seed(), started_at=now, opened_by=req.client,
        )  # fmt: skip
        quota = None
        if req.client is not None:
            quota = TableQuota(req.client, s.client_tables, s.client_bot_seats, sum(x.kind == "bot" for x in seats))
        await hub.db(hub.store.create_table, stored, quota)  # LimitReached: over the client's quota
        t = LiveTable(stored, game, list(seat_bots), takeover, now)
        hub.tables[t.id] = t  # nobody has it open yet: nobody to tell here
        await hub.owner.claim([t.id])
        await hub.peers.notify(t)
        hub.scheduler.schedule(t)
        return t

    async def make_room(self, client: str) -> None:
        """A client at its limit of tables gives up its oldest finished ones that nobody has open
        (with their records), so that a player who opens a new table now and then is never
        refused, while nobody can fill the server with finished games."""
        hub, limit = self.hub, self.hub.settings.client_tables
        if not limit:
            return
        held, _ = await hub.db(hub.store.client_tables, client)
        if held < limit:
            return
        done = [t for t in hub.tables.values() if t.opened_by == client and t.status == "over" and not t.anyone_here()]
        done.sort(key=lambda t: t.updated_at)
        for t in done[: held - limit + 1]:
            await hub.sweep(t, "its opener opened a new table")

    async def join(self, t: LiveTable, name: str, seat: int | None, account: Account | None = None,
                   person: str | None = None) -> tuple[int, str]:  # fmt: skip
        """Claim `seat`, or the lowest free human seat: (the seat, its token). A logged-in player
        sits under the account's user name, and the seat follows the account. `person`
        (identity.person) holds one seat of a table at a time, and never takes a second seat of a
        game in play (it would know two hands), unless the table allows shared screens. A rated table seats
        account holders only."""
        if t.settings.rated and account is None:
            raise HubError(403, "a rated table seats account holders only: log in first")
        if account is not None:
            name = account.name
        one_seat = not t.settings.shared_screen
        async with t.lock:
            read_again = False
            for _ in range(t.n + 2):
                barred = barred_seats(t.seats, person, t.status == "playing") if one_seat else {}
                if seat is not None:
                    self._human_seat(t, seat)
                    if seat in barred:
                        raise HubError(403, barred[seat])
                    free = [seat] if t.seats[seat].token_hash is None else []
                else:
                    free = [i for i in t.free_seats() if i not in barred]
                    if not free and t.free_seats():
                        raise HubError(403, barred[t.free_seats()[0]])
                if free:
                    token = new_token()
                    account_id = None if account is None else account.id
                    refusal = await self._sit(t, free[0], name, token, account_id, person, one_seat)
                    if refusal is None:
                        return free[0], token
                    if refusal[0] != "stale":
                        raise HubError(503, refusal[1])
                elif read_again:
                    break
                else:
                    await self.hub.peers.sync_locked(t)  # another process may have changed the seats
                read_again = True  # a stale claim read the table again too
            if seat is not None:
                raise HubError(409, f"seat {seat} is taken")
            raise HubError(409, "no human seat is free at this table")

    async def _sit(self, t: LiveTable, seat: int, name: str, token: str, account: int | None, person: str | None,
                   one_seat: bool) -> Refusal | None:  # fmt: skip
        """`name` (of `account`, when logged in; `person`) takes the free human `seat` with `token`.
        Lock held."""
        th = hash_token(t.id, token)
        now = time.time()

        def seated(status: str) -> News:
            s = t.seats[seat]
            s.name, s.token_hash, s.takeover, s.takeover_hand, s.rematch = name, th, None, None, False
            s.account = account
            started = status != t.status
            sat_down(s, person, t.status == "playing")
            if started:
                t.status = status
                t.moved_at = now
                if status == "playing":
                    began(t.seats)
            t.refresh_presence(now)
            return STATE if started else TABLE  # the game begins: every connection gets its `legal` now

        hub = self.hub
        write = hub.db(hub.store.claim_seat, t.id, seat, name, th, now, account, person, one_seat)
        return await hub.store_then_tell(t, write, seated, "the seat")

    async def leave(self, t: LiveTable, th: str, why: str = "you left this seat") -> int:
        """Give the seat up (held by the token whose hash is `th`): the token stops working, and
        its connections close, saying `why`; during play the takeover bot plays on."""
        async with t.lock:
            seat = await self._seat_of_token(t, th)
            takeover = "game" if t.status == "playing" else None
            now = time.time()

            def left(_: None) -> News:
                s = t.seats[seat]
                s.token_hash, s.name, s.takeover, s.takeover_hand, s.rematch = None, None, takeover, None, False
                s.account, s.person = None, None
                for c in list(t.clients):
                    if c.token_hash == th:
                        c.close(CLOSE_REVOKED, why)
                t.refresh_presence(now)
                return TABLE

            hub = self.hub
            write = hub.db(hub.store.release_seat, t.id, seat, th, takeover, now)
            refusal = await hub.store_then_tell(t, write, left, "leaving the seat")
            if refusal is not None:
                raise refused(refusal, 401, "this token holds no seat at this table")
            if (r := t.open_takeback()) is not None:
                # Whoever leaves was the asker (leaving withdraws) or one to answer (leaving says
                # no): a request asked by a player who is gone, or waiting for one, stays open for good.
                await self.hub.takebacks.set_request(t, replace(r, no=seat).text())
            return seat

    async def move_seat(self, t: LiveTable, th: str, to: int) -> int:
        """Before play, a player moves to another free seat (to sit beside a friend, say): the
        token (its hash `th`) goes with them. No hand is shown before play, so the move tells
        nobody anything."""
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

            def moved(_: None) -> News:
                src, dst = t.seats[seat], t.seats[to]
                dst.name, dst.token_hash, src.name, src.token_hash = src.name, th, None, None
                dst.account, src.account = src.account, None
                dst.person, src.person = src.person, None
                movers = t.recount()
                t.refresh_presence(now)
                return News(refresh=frozenset(movers))  # the mover's pages get their state as the new seat

            hub = self.hub
            write = hub.db(hub.store.move_seat, t.id, seat, to, th, now)
            refusal = await hub.store_then_tell(t, write, moved, "the seat change")
            if refusal is not None:
                raise refused(refusal, 409, "the seats changed meanwhile; look again")
            await self.hub.peers.publish_presence(t)
            return to

    @staticmethod
    def _human_seat(t: LiveTable, seat: int) -> None:
        """A seat a person may sit at (join it, move to it): one of the table's, not a bot's."""
        if not 0 <= seat < t.n:
            raise HubError(400, f"seat {seat} is not a seat of this table; seats are 0..{t.n - 1}")
        if t.seats[seat].kind == "bot":
            raise HubError(409, f"seat {seat} is a bot's")

    async def _seat_of_token(self, t: LiveTable, th: str) -> int:
        """The seat a token's hash holds (read again from the database once, in case another
        process seated it a moment ago); 401 when it holds none. Lock held."""
        seat = t.seat_of(th)
        if seat is None:
            await self.hub.peers.sync_locked(t)
            seat = t.seat_of(th)
        if seat is None:
            raise HubError(401, "this token holds no seat at this table")
        return seat
