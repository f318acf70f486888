"""A decision at a table, whoever makes it: a person (`act`), a bot, a move timer or a takeover
(scheduler.py), top to bottom:

1. refused before the engine is asked, when it is not the seat's to make (`refusals.refuse_act`);
2. applied by the engine, or refused with the engine's reason, changing nothing;
3. stored: moves of many tables that arrive together share one commit (`writer`); a version
   another process stored first is refused, and the engine takes the move back;
4. only then told, each seat from its own view, to this process's connections and through a
   notice to the other processes; then the bot whose turn it is starts (`Hub.store_then_tell`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from stichkit.core import IllegalActionError

from .connection import Client
from .db.store import Conflict, Move
from .hub_protocol import RoomHub
from .messages import STATE, News
from .model import StoredAction
from .refusals import Refusal, refuse_act
from .table import LiveTable

MOVES_PER_COMMIT = 200


class Moves:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self._queue: asyncio.Queue[tuple[Move, asyncio.Future[Conflict | None]]] = asyncio.Queue()

    async def act(self, t: LiveTable, client: Client, action: str, version: int, game_no: int | None,
                  ref: Any) -> None:  # fmt: skip
        """A person's move: `action` for the client's seat at `version` of game `game_no`."""
        async with t.lock:
            refusal = refuse_act(t, client.seat, version, game_no)
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
            refusal = await self.commit(t, client.seat, a.text, "human")
            if refusal is not None:
                client.error(*refusal, ref=ref)

    async def commit(self, t: LiveTable, seat: int, text: str, by: str) -> Refusal | None:
        """Store the decision already applied to `t.state`, then tell everyone. Lock held."""
        now = time.time()
        version = t.version + 1
        result = t.result()
        back = t.takeovers_ending()  # a hand's takeover ends with the hand, when the human is here
        move = Move(t.id, t.game_no, StoredAction(version, seat, text, by, now), t.line, result, back)

        def made(_: None) -> News:
            t.version = version
            t.last = {"seat": seat, "version": version, "by": by}
            t.moved_at = t.updated_at = now
            if by == "human":
                t.human_at = now
            for i, values in back.items():
                t.seats[i].takeover = values["takeover"]
                t.seats[i].takeover_hand = values["takeover_hand"]
            if result is not None:
                t.status = "over"
            return STATE

        return await self.hub.store_then_tell(
            t, self._store(move), made, "the move",
            stale="another move was made first; the table is at version {version}", undo=t.state.undo,
        )  # fmt: skip

    async def _store(self, move: Move) -> None:
        """Hand the move to the writer and wait for its commit (Conflict when it was refused)."""
        done: asyncio.Future[Conflict | None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((move, done))
        refused = await done
        if refused is not None:
            raise refused

    async def writer(self) -> None:
        """Commit the moves waiting, all in one transaction, then wake each move's table."""
        hub = self.hub
        while True:
            batch = [await self._queue.get()]
            while len(batch) < MOVES_PER_COMMIT and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                outcomes: list[Conflict | None] = await hub.db(hub.store.append_moves, [m for m, _ in batch])
            except Exception as e:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if not done.done():
                    done.set_result(outcome)
