"""One WebSocket client: its own outgoing queue (a slow reader never holds a table up) and its
message budget (a flood is answered with errors, then with a closed connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from starlette.websockets import WebSocket

from stichkit.core import IllegalActionError

from .clients import UNKNOWN

CLOSE_GOING_AWAY = 1001
CLOSE_REVOKED = 4401
CLOSE_SLOW = 4408
CLOSE_SWEPT = 4410
CLOSE_FLOOD = 4429


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Client:
    """A connection to one table, as seat `seat` (None: a spectator)."""

    def __init__(self, ws: WebSocket, seat: int | None, token_hash: str | None, *, rate: float, burst: int,
                 max_queue: int, who: str = UNKNOWN, account: int | None = None) -> None:  # fmt: skip
        self.ws = ws
        self.who = who  # the client (clients.client_key), for the limits on what one client may claim
        # the account it was opened as (its seat's, or a watcher's login): a ban closes it (bans.py)
        self.account = account
        self.seat = seat
        self.token_hash = token_hash
        self.rate = rate
        self.burst = burst
        self.max_queue = max_queue
        self._budget = float(burst)
        self._stamp = time.monotonic()
        self.dropped = 0  # messages dropped in a row for flooding
        self.hint_task: asyncio.Task[None] | None = None  # a hint being worked out (one at a time)
        self.closing = False
        self._queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self._sender = asyncio.create_task(self._send_all())

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self._queue.qsize() >= self.max_queue:
            self.close(CLOSE_SLOW, "too many messages are waiting: the client does not read them")
            return
        self._queue.put_nowait(text)

    def send_obj(self, obj: dict[str, Any]) -> None:
        self.send(dumps(obj))

    def error(self, code: str, reason: str, ref: Any = None, why: IllegalActionError | None = None) -> None:
        """An error message; for a move the engine refused (`why`), also the engine's code and params
        (`reason_code`, `reason_params`), from which a client writes the reason in its own language."""
        msg: dict[str, Any] = {"type": "error", "code": code, "reason": reason}
        if why is not None:
            msg["reason_code"], msg["reason_params"] = why.code, why.params
        if ref is not None:
            msg["ref"] = ref
        self.send_obj(msg)

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued have gone out."""
        if not self.closing:
            self.closing = True
            self._queue.put_nowait((code, reason[:120]))

    def allow(self) -> bool:
        """Whether one more message fits the budget (`rate` a second, up to `burst` at once)."""
        now = time.monotonic()
        self._budget = min(float(self.burst), self._budget + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._budget >= 1.0:
            self._budget -= 1.0
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    async def _send_all(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, tuple):
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
        except Exception:  # the peer went away: the receive loop notices and cleans up
            self.closing = True

    async def stop(self) -> None:
        self.closing = True
        if self.hint_task is not None:
            self.hint_task.cancel()  # nobody to tell (the bot's worker finishes its move unheard)
        if not self._sender.done():
            self._sender.cancel()
        with contextlib.suppress(BaseException):
            await self._sender
