"""Finished games: their records and their replays, public once a game is over."""

from __future__ import annotations

import time
from collections import OrderedDict
from threading import Lock
from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

import stichkit
from stichkit.core import State

from ..analysis import Busy, silent
from ..db.models import ActionRow, GameRow, TableRow
from ..db.store import StoredAnalysis, to_ts
from ..dependencies import HubDep, SessionDep
from ..hub import Hub, HubError

router = APIRouter(prefix="/api/tables", tags=["records"])

GameNo = Query(default=None, ge=1, description="the game at the table (1, 2, ...); default: the latest finished one")


def finished_game(session: Session, table_id: str, game_no: int | None) -> tuple[TableRow, GameRow]:
    table = session.get(TableRow, table_id)
    if table is None:
        raise HubError(404, f"no table {table_id!r} here (it may have been swept)")
    if game_no is None:
        game = session.scalars(
            select(GameRow)
            .where(GameRow.table_id == table_id, GameRow.status == "over")
            .order_by(GameRow.game_no.desc())
        ).first()
        if game is None:
            raise HubError(403, "no game at this table is over yet: records are public once a game ends")
        return table, game
    found = session.get(GameRow, (table_id, game_no))
    if found is None:
        raise HubError(404, f"table {table_id} has no game {game_no}")
    if found.status != "over":
        raise HubError(403, f"game {game_no} is not over: its record is public once it ends")
    return table, found


def replayed(session: Session, table: TableRow, game: GameRow) -> tuple[State, list[ActionRow]]:
    """The game rebuilt from its seed and its actions, through the engine."""
    actions = list(
        session.scalars(
            select(ActionRow)
            .where(ActionRow.table_id == table.id, ActionRow.game_no == game.game_no)
            .order_by(ActionRow.version)
        )
    )
    state = stichkit.load_game(table.game, **table.options).new_state(seed=game.seed)
    for a in actions:
        state.apply(a.action)
    return state, actions


@router.get("/{table_id}/games")
def games(table_id: str, session: SessionDep) -> dict[str, Any]:
    """Every game played at the table, finished or not (who sat where, the result)."""
    if session.get(TableRow, table_id) is None:
        raise HubError(404, f"no table {table_id!r} here (it may have been swept)")
    rows = session.scalars(select(GameRow).where(GameRow.table_id == table_id).order_by(GameRow.game_no))
    return {
        "games": [
            {"game_no": g.game_no, "status": g.status, "seats": g.seats, "result": g.result,
             "started_at": to_ts(g.started_at), "finished_at": None if g.finished_at is None else to_ts(g.finished_at),
             "takebacks": takebacks_of(g)}
            for g in rows
        ]
    }  # fmt: skip


@router.get("/{table_id}/record")
def record(table_id: str, session: SessionDep, game: int | None = GameNo) -> dict[str, Any]:
    """The engine's record of a finished game (`stichkit.replay(record)` rebuilds it), with the
    server's `seats`: who sat where (see `Store.claim_seat` for a seat that changed hands), and
    `takebacks`: how many times each seat took moves back."""
    table, row = finished_game(session, table_id, game)
    state, _ = replayed(session, table, row)
    return {**state.record(), "seats": seats_of(table, row), "takebacks": takebacks_of(row)}


def takebacks_of(game: GameRow) -> list[int]:
    """Takebacks per seat (a game stored before they were counted: none)."""
    return [int(x) for x in game.takebacks] if game.takebacks else [0] * len(game.seats)


def seats_of(table: TableRow, game: GameRow) -> list[dict[str, Any]]:
    """The game's seats. A game finished by an older server kept no human names (it stored the
    seats before anyone sat): while the table is still at that game, they come from its seats."""
    out = [{"seat": i, **s} for i, s in enumerate(game.seats)]
    if table.game_no == game.game_no:
        for s, now in zip(out, table.seats, strict=False):
            if s["kind"] == "human" and s.get("name") is None and now.name is not None:
                s["name"], s["names"] = now.name, [now.name]
    return out


_REPLAYS: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_REPLAYS_LOCK = Lock()
REPLAY_CACHE = 16


@router.get("/{table_id}/replay")
def replay(table_id: str, session: SessionDep, game: int | None = GameNo) -> dict[str, Any]:
    """A finished game version by version: the spectator's view and every hand."""
    table, row = finished_game(session, table_id, game)
    key = (table.id, row.game_no)
    with _REPLAYS_LOCK:
        if key in _REPLAYS:
            _REPLAYS.move_to_end(key)
            return _REPLAYS[key]
    _, actions = replayed(session, table, row)
    state = stichkit.load_game(table.game, **table.options).new_state(seed=row.seed)
    n = state.game.num_players

    def frame(version: int, a: ActionRow | None) -> dict[str, Any]:
        return {
            "version": version, "seat": None if a is None else a.seat, "action": None if a is None else a.action,
            "view": state.view(None), "hands": [state.view(s)["hand"] for s in range(n)],
        }  # fmt: skip

    frames = [frame(0, None)]
    for a in actions:
        state.apply(a.action)
        frames.append(frame(a.version, a))
    out = {
        "table": table.id, "game_no": row.game_no, "game": table.game, "options": table.options,
        "seats": seats_of(table, row), "result": row.result, "takebacks": takebacks_of(row), "frames": frames,
    }  # fmt: skip
    with _REPLAYS_LOCK:
        _REPLAYS[key] = out
        while len(_REPLAYS) > REPLAY_CACHE:
            _REPLAYS.popitem(last=False)
    return out


@router.post("/{table_id}/analysis")
async def start_analysis(table_id: str, hub: HubDep, game: int | None = GameNo) -> dict[str, Any]:
    """Begin the double-dummy analysis of a finished Jass game (as `stich analyse`), or see how far
    it is: the deals solved so far, in the analysis format of docs/analysis.md."""

    def find() -> tuple[tuple[str, int], StoredAnalysis | None]:
        with hub.store.session() as session:
            table, row = finished_game(session, table_id, game)
            if table.game != "jass":
                raise HubError(400, f"the analysis solves Jass games; this table plays {table.game}")
            return (table.id, row.game_no), hub.store.analysis(table.id, row.game_no)

    key, kept = await run_in_threadpool(find)
    for _ in range(2):
        if kept is not None and kept.status == "done":  # solved before (by any process, before a restart too)
            return {"table": key[0], "game_no": key[1], **kept.document}
        job = hub.analyses.get(key)
        if job is not None and job.status != "failed":  # in work here
            return {"table": key[0], "game_no": key[1], **job.to_json()}
        if kept is not None and not silent(kept, time.time()):  # in work in another process
            return {"table": key[0], "game_no": key[1], **kept.document}
        state = await run_in_threadpool(replayed_game, hub, key)
        try:
            job = await hub.analyses.begin(key, state, kept)
        except Busy as e:
            raise HubError(503, str(e)) from None
        if job is not None:
            return {"table": key[0], "game_no": key[1], **job.to_json()}
        kept = await run_in_threadpool(hub.store.analysis, *key)  # another process claimed it first
    raise HubError(503, "the analysis changed hands twice meanwhile; ask again")


@router.get("/{table_id}/analysis")
def analysis(table_id: str, hub: HubDep, session: SessionDep, game: int | None = GameNo) -> dict[str, Any]:
    """The analysis of a finished game as far as it has come (begin it with POST)."""
    table, row = finished_game(session, table_id, game)
    job = hub.analyses.get((table.id, row.game_no))
    kept = hub.store.analysis(table.id, row.game_no) if job is None else None
    answer = job.to_json() if job is not None else kept.document if kept is not None else None
    if answer is None:
        raise HubError(404, f"game {row.game_no} of table {table.id} has not been analysed; begin with POST")
    return {"table": table.id, "game_no": row.game_no, **answer}


def replayed_game(hub: Hub, key: tuple[str, int]) -> State:
    """A finished game rebuilt from the database (its own session: called from a worker thread)."""
    with hub.store.session() as session:
        table, row = finished_game(session, *key)
        return replayed(session, table, row)[0]
