"""Who plays each seat during play, and the next game: a bot takes a human's seat over (after the
grace time, scheduler.py) and the human reclaims it; after a game, the rematch votes, and when
every player here agrees, the next game at the same table with everyone one seat further."""

from __future__ import annotations

import time
from typing import Any

from .connection import Client
from .hub_protocol import RoomHub
from .lobby import new_seed
from .messages import STATE, News
from .model import TABLE_OPENER, StoredTable, began
from .refusals import Refusal
from .table import LiveTable


class Seats:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    async def reclaim(self, t: LiveTable, client: Client, ref: Any) -> None:
        """The human takes the seat back from the takeover bot at once."""
        seat = client.seat
        assert seat is not None
        async with t.lock:
            if t.seats[seat].takeover is None:
                client.error("nothing_to_reclaim", "no bot plays your seat", ref=ref)
                return
            refusal = await self.set_seats(t, {seat: {"takeover": None, "takeover_hand": None}})
        if refusal is not None:
            client.error(*refusal, ref=ref)

    async def rematch(self, t: LiveTable, client: Client, ref: Any) -> None:
        """The seat asks for (or agrees to) a rematch."""
        seat = client.seat
        assert seat is not None
        async with t.lock:
            if t.status != "over":
                client.error("not_over", "a rematch can be asked for once the game is over", ref=ref)
                return
            if t.opened_by is not None and t.opened_by.startswith(TABLE_OPENER):
                client.error("tournament", "a tournament's table plays the games of its round, no rematch", ref=ref)
                return
            refusal = None if t.seats[seat].rematch else await self.set_seats(t, {seat: {"rematch": True}})
        if refusal is not None:
            client.error(*refusal, ref=ref)
        await self.maybe_rematch(t)

    async def set_seats(self, t: LiveTable, changes: dict[int, dict[str, Any]]) -> Refusal | None:
        """Takeovers, reclaims, votes: stored, then shown. Lock held."""
        now = time.time()

        def changed(_: None) -> News:
            for i, values in changes.items():
                for k, v in values.items():
                    setattr(t.seats[i], k, v)
            if any("takeover" in v and v["takeover"] is None for v in changes.values()):
                t.moved_at = now  # a seat back in human hands gets its move timer afresh
            t.refresh_presence(now)
            # A seat that changed hands gets its state again (its `legal` changed); everyone else the table.
            return News(refresh=frozenset(i for i, v in changes.items() if "takeover" in v))

        hub = self.hub
        write = hub.db(hub.store.update_seats, t.id, t.game_no, changes, now)
        return await hub.store_then_tell(t, write, changed, "the seats", stale="the game changed meanwhile; look again")

    async def maybe_rematch(self, t: LiveTable) -> None:
        """The next game, once every connected human seat has agreed."""
        async with t.lock:
            if not t.rematch_ready():
                return
            now = time.time()
            seats = t.rotated_seats()
            status = "playing" if all(s.kind == "bot" or s.token_hash for s in seats) else "waiting"
            if status == "playing":
                began(seats)
            seed = new_seed()

            def begun(_: None) -> News:
                stored = StoredTable(
                    id=t.id, name=t.name, game=t.game.name, options=t.game.options, private=t.private,
                    settings=t.settings.as_dict(), status=status, game_no=t.game_no + 1, rev=t.rev,
                    created_at=t.created_at, updated_at=now, seats=seats, seed=seed, started_at=now,
                )  # fmt: skip
                self.hub.reload(t, stored, now)
                return STATE

            hub = self.hub
            write = hub.db(hub.store.start_game, t.id, t.game_no + 1, seed, seats, status, now)
            await hub.store_then_tell(t, write, begun, "the next game")  # refused: the next tick tries again
