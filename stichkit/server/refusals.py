"""Why a request is refused before the engine is asked: a move or a hint out of turn, for another
game or version, a takeback or its answer that the table does not allow now. Each refusal is a
code and a reason that says what was wrong; None lets the request through.
"""

from __future__ import annotations

from typing import Any

from .table import LiveTable

Refusal = tuple[str, str]  # (code, reason)


def refuse_act(t: LiveTable, seat: int | None, version: Any, game_no: Any) -> Refusal | None:
    """Why a move from `seat` is refused, before the engine is asked (None: ask it)."""
    if seat is None:
        return "spectator", "spectators cannot act; join a seat to play"
    if t.status == "waiting":
        return "waiting", "the game starts when every seat is taken"
    if t.status == "over" or t.state.is_terminal():
        return "over", "the game is over"
    if (stale := refuse_stale(t, version, game_no)) is not None:
        return stale
    if t.turn != seat:
        return "not_your_turn", f"it is seat {t.turn}'s turn, not seat {seat}'s"
    if t.seats[seat].takeover is not None:
        return "takeover", "a bot plays your seat now; send reclaim to take it back"
    return None


def refuse_stale(t: LiveTable, version: Any, game_no: Any) -> Refusal | None:
    """A request made for another game or version than the table's current one."""
    if game_no is not None and game_no != t.game_no:
        return "stale", f"game {game_no} is not the table's current game {t.game_no}"
    if version != t.version:
        return "stale", f"version {version} is not the current version {t.version}"
    return None


def refuse_takeback(t: LiveTable, seat: int | None, version: Any, game_no: Any) -> Refusal | None:
    """Why `seat` may not take its last move back, nor ask to, now (None: it may)."""
    if seat is None:
        return "spectator", "spectators cannot take moves back; join a seat to play"
    if not t.settings.takebacks:
        return "no_takebacks", "this table plays without takebacks"
    if t.status != "playing" or t.state.is_terminal():
        return "not_playing", "moves can be taken back only while the game is being played"
    if (stale := refuse_stale(t, version, game_no)) is not None:
        return stale
    if t.seats[seat].takeover is not None:
        return "takeover", "a bot plays your seat now; send reclaim to take it back"
    if t.takeback_to(seat) is None:
        return "nothing_to_take_back", "you have made no move in this game yet"
    if (r := t.open_takeback()) is not None:
        whose = "your" if r.seat == seat else f"seat {r.seat}'s"
        return "takeback_open", f"{whose} takeback is waiting for its answers; one request at a time"
    return None


def refuse_answer(t: LiveTable, seat: int | None, accept: bool) -> Refusal | None:
    """Why `seat` may not answer the open takeback request so (None: it may)."""
    r = t.open_takeback()
    if r is None:
        return "no_takeback", "no takeback is waiting for an answer"
    if seat == r.seat:
        if accept:
            return "own_takeback", "you asked for this takeback; answer with accept false to withdraw it"
        return None
    if seat not in t.takeback_voters(r.seat):
        return "not_asked", "only the players at the table answer a takeback"
    return None
