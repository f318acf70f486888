"""Every message a table sends, built from views: a seat's `state` carries `view(seat)`, a
spectator's `view(None)`; the table info beside it holds seats, names, presence and timers, never
a card. The hub's parts say what changed (`News`); `tell` sends it to the table's connections in
this process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .connection import dumps
from .table import LiveTable


@dataclass(frozen=True)
class News:
    """What a stored change tells the table's connections in this process (`tell`):
    every connection its `state` (a move, a takeback, the next game, the game beginning); else a
    chat line alone; else the table info, the seats in `refresh` getting their `state` again
    instead (what they may do changed)."""

    state: bool = False
    chat: str | None = None  # the chat message, as sent
    refresh: frozenset[int] = frozenset()


STATE = News(state=True)
TABLE = News()


def table_info(t: LiveTable, now: float) -> dict[str, Any]:
    """The table as the lobby and every connection see it: seats, names, presence, timers, the
    result; never a card."""
    deadline = t.deadline()
    seats = []
    moved = t.movers()
    for i, s in enumerate(t.seats):
        takeover = None
        if s.kind == "human" and s.takeover is not None:
            takeover = {"mode": s.takeover, "bot": t.takeover_bot.label}
        seats.append({
            "seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "account": s.account is not None,
            "claimed": s.kind == "bot" or s.token_hash is not None, "connected": t.connected(i),
            "away_since": t.away_since[i], "takeover": takeover, "rematch": s.kind == "bot" or s.rematch,
            "moved": i in moved,
        })  # fmt: skip
    return {
        "id": t.id, "name": t.name, "game": t.game.name, "options": t.game.options,
        "players": t.n, "private": t.private, "invite": f"/tables/{t.id}", "status": t.status,
        "game_no": t.game_no, "version": t.version,
        "turn": None if t.status == "waiting" else t.turn,
        "deadline": deadline, "time_left": None if deadline is None else round(max(0.0, deadline - now), 3),
        "settings": t.settings.as_dict(), "seats": seats, "spectators": t.spectators(),
        "rematch": t.rematch_info(), "created_at": t.created_at, "result": t.result(),
        "takeback": t.takeback_info(),
    }  # fmt: skip


def state_text(t: LiveTable, seat: int | None, info_json: str, last: dict[str, Any] | None) -> str:
    """The `state` message of `seat` (None: a spectator): its view, what it may do, the table."""
    return (
        f'{{"type":"state","seat":{dumps(seat)},"game_no":{t.game_no},"line":{t.line},'
        f'"version":{t.version},'
        f'"view":{dumps(t.view_for(seat))},"legal":{dumps(t.legal_for(seat))},'
        f'"last":{dumps(last)},"table":{info_json}}}'
    )


def broadcast_state(t: LiveTable, now: float, last: dict[str, Any] | None) -> None:
    """The current version to every connection, one view per seat."""
    if not t.clients:
        return
    info_json = dumps(table_info(t, now))
    texts: dict[int | None, str] = {}
    for c in list(t.clients):
        text = texts.get(c.seat)
        if text is None:
            text = texts[c.seat] = state_text(t, c.seat, info_json, last)
        c.send(text)


def broadcast_table(t: LiveTable, now: float, refresh: set[int] | None = None) -> None:
    """The table info to everyone; the seats in `refresh` get their `state` again instead."""
    if t.clients:
        info_json = dumps(table_info(t, now))
        text = f'{{"type":"table","table":{info_json}}}'
        for c in list(t.clients):
            if refresh and c.seat in refresh:
                c.send(state_text(t, c.seat, info_json, None))
            else:
                c.send(text)


def tell(t: LiveTable, news: News, now: float) -> None:
    """Send what a stored change tells this process's connections at the table."""
    if news.chat is not None:
        broadcast(t, news.chat)
    elif news.state:
        broadcast_state(t, now, t.last)
    else:
        broadcast_table(t, now, refresh=set(news.refresh))


def broadcast(t: LiveTable, text: str) -> None:
    for c in list(t.clients):
        c.send(text)
