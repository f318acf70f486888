"""The live table: `/ws/tables/{id}`, with a seat's token to play it, without one to watch.

The token comes in the subprotocol `stichkit.token.TOKEN`, offered beside `stichkit` (a browser
can send it so, and no log or proxy records it); `?token=TOKEN` is still accepted for older
clients, and kept out of the server's own log (logs.py)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from ..clients import client_key
from ..connection import CLOSE_FLOOD, Client
from ..credentials import COOKIE
from ..dependencies import HubDep, cross_site
from ..hub import Hub
from ..logs import TOKEN_PROTOCOL, refusing
from ..origins import origin_allowed
from ..schemas import (
    CLIENT_MESSAGES,
    MESSAGE_TYPES,
    Act,
    Chat,
    Hint,
    Ping,
    Rematch,
    Takeback,
    TakebackAnswer,
    ValidationError,
    explain,
)
from ..table import LiveTable
from ..tokens import clean_token, hash_token

router = APIRouter(tags=["table"])

FLOOD_ERRORS = 5  # flood errors sent in a row before the server stops answering them
SUBPROTOCOL = "stichkit"


async def deny(ws: WebSocket, status: int, reason: str) -> None:
    """Refuse at the handshake: an HTTP answer where the server can send one, else a 403. The log
    gets one line for it (uvicorn's, at INFO: a refusal is the client's doing, not a failure)."""
    refusing.set(True)
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(JSONResponse({"error": reason}, status_code=status))
    else:
        await ws.close(code=4000 + status, reason=reason)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, hub: HubDep, token: str | None = None) -> None:
    s = hub.settings
    origin = ws.headers.get("origin")
    if not origin_allowed(origin, ws.headers.get("host"), s.allowed_origins):
        await deny(ws, 403, f"pages from {str(origin)[:100]!r} may not open this server's tables (a WebSocket "
                   "is accepted from the server's own pages and the origins its operator allows)")  # fmt: skip
        return
    offered: list[str] = list(ws.scope.get("subprotocols") or [])
    carried = [p for p in offered if p.startswith(TOKEN_PROTOCOL)]
    if carried:
        if SUBPROTOCOL not in offered:
            await deny(ws, 400, f"offer the subprotocol {SUBPROTOCOL!r} beside '{TOKEN_PROTOCOL}TOKEN'")
            return
        token = carried[0].removeprefix(TOKEN_PROTOCOL)
    t = await hub.table(table_id)
    if t is None:
        await deny(ws, 404, f"no table {table_id!r} here")
        return
    seat: int | None = None
    token_hash = None
    watcher: int | None = None  # a spectator's account, from the session cookie
    if token is not None:
        token = clean_token(token)
        token_hash = hash_token(t.id, token)
        seat = t.seat_of(token_hash)
        if seat is None and hub.notifier.shared:
            await hub.sync(t.id)  # a seat claimed through another process a moment ago
            seat = t.seat_of(token_hash)
        if seat is None:
            await deny(ws, 403, "this token holds no seat at this table")
            return
    else:  # a logged-in player's other device: the account's seat here, if it holds one
        seat, token_hash, watcher = await account_seat(ws, hub, t)
    await ws.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    account = t.seats[seat].account if seat is not None else None  # a seat that follows an account is its
    who = client_key(ws.client.host if ws.client else None, None if account is None else str(account))
    client = Client(ws, seat, token_hash, rate=s.message_rate, burst=s.message_burst, max_queue=s.max_queue, who=who,
                    account=account if seat is not None else watcher)  # fmt: skip
    await hub.connect(t, client)
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if client.closing:
                continue
            if not client.allow():
                if client.dropped > 2 * s.message_burst:
                    client.close(CLOSE_FLOOD, "too many messages")
                elif client.dropped <= FLOOD_ERRORS:
                    rate = f"{s.message_rate:g}"
                    client.error("flood", f"too many messages: at most {rate} a second; this one was dropped")
                continue
            text = msg.get("text")
            if text is None:
                client.error("bad_json", "send JSON objects in text frames, not binary ones")
                continue
            await handle(hub, t, client, text)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.disconnect(t, client)


async def account_seat(ws: WebSocket, hub: Hub, t: LiveTable) -> tuple[int | None, str | None, int | None]:
    """The seat the session cookie's account holds at table `t`, with its token's hash, and the
    account; (None, None, the account) to watch as it, (None, None, None) to watch as a guest.
    Only the page's own connections use the cookie (dependencies.cross_site)."""
    cookie = ws.cookies.get(COOKIE)
    if cookie is None or cross_site(ws) is not None:
        return None, None, None
    found = await hub.accounts.session(cookie)
    if found is None:
        return None, None, None
    account = found[0].id
    if hub.notifier.shared and not any(s.account == account for s in t.seats):
        await hub.sync(t.id)  # seated through another process a moment ago
    for i, s in enumerate(t.seats):
        if s.account == account and s.token_hash is not None:
            return i, s.token_hash, account
    return None, None, account


def _ref(raw: Any) -> Any:
    """The client's message id, echoed as `ref` when it is a short string or a whole number."""
    ok = isinstance(raw, int | str) and not isinstance(raw, bool) and len(str(raw)) <= 64
    return raw if ok else None


async def handle(hub: Hub, t: LiveTable, client: Client, text: str) -> None:
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        client.error("bad_json", 'a message is a JSON object, e.g. {"type": "ping"}')
        return
    if not isinstance(data, dict):
        client.error("bad_json", 'a message is a JSON object, e.g. {"type": "ping"}')
        return
    ref = _ref(data.get("id"))
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        client.error("unknown_type", f"unknown message type {str(kind)[:40]!r}; types: {', '.join(MESSAGE_TYPES)}", ref)
        return
    try:
        msg = CLIENT_MESSAGES.validate_python(data)
    except ValidationError as e:
        client.error("bad_message", explain(e), ref)
        return
    if isinstance(msg, Ping):
        client.send_obj({"type": "pong", "ref": ref})
        return
    if client.seat is None:
        client.error("spectator", f"spectators cannot {'act' if kind == 'act' else kind}; join a seat first", ref)
        return
    if isinstance(msg, Act):
        await hub.act(t, client, msg.action, msg.version, msg.game, ref)
    elif isinstance(msg, Chat):
        await hub.chat(t, client, msg.text)
    elif isinstance(msg, Hint):
        await hub.hint(t, client, msg.version, msg.game, ref)
    elif isinstance(msg, Takeback):
        await hub.take_back(t, client, msg.version, msg.game, ref)
    elif isinstance(msg, TakebackAnswer):
        await hub.answer_takeback(t, client, msg.accept, ref)
    elif isinstance(msg, Rematch):
        await hub.rematch(t, client, ref)
    else:
        await hub.reclaim(t, client, ref)
