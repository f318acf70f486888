"""Finished games: their records and their replays, public once a game is over."""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from threading import Lock
from typing import Any

from fastapi import APIRouter, Query, Response
from starlette.concurrency import run_in_threadpool

from ..analysis import Busy, silent
from ..db.store import Missing, NotOver, StoredAnalysis
from ..dependencies import ClientDep, HubDep
from ..hub import Hub, HubError
from ..model import FinishedGame

router = APIRouter(prefix="/api/tables", tags=["records"])

GAME_MAX = 2**31 - 1  # the largest game number a database column holds (PostgreSQL's integer)
GameNo = Query(default=None, ge=1, le=GAME_MAX,
               description="the game at the table (1, 2, ...); default: the latest finished one")  # fmt: skip


def finished_game(hub: Hub, table_id: str, game_no: int | None) -> FinishedGame:
    """The finished game asked for (404: no such table or game; 403: not over yet). Called in a
    worker thread: the store is synchronous."""
    if hub.tournaments.sealed(table_id):
        raise HubError(403, "this game is of a duplicate round still in play: the other tables play the same "
                            "cards, so it is shown once the round has ended")  # fmt: skip
    try:
        return hub.store.finished_game(table_id, game_no)
    except Missing as e:
        raise HubError(404, str(e)) from None
    except NotOver as e:
        raise HubError(403, str(e)) from None


@router.get("/{table_id}/games")
def games(table_id: str, hub: HubDep) -> dict[str, Any]:
    """Every game played at the table, finished or not (who sat where, the result)."""
    try:
        return {"games": [g.summary() for g in hub.store.games(table_id)]}
    except Missing as e:
        raise HubError(404, str(e)) from None


@router.get("/{table_id}/record")
def record(table_id: str, hub: HubDep, game: int | None = GameNo) -> dict[str, Any]:
    """The engine's record of a finished game (`stichkit.replay(record)` rebuilds it), with the
    server's `seats`: who sat where (see `Store.claim_seat` for a seat that changed hands), and
    `takebacks`: how many times each seat took moves back."""
    found = finished_game(hub, table_id, game)
    return {**found.state().record(), "seats": found.seats, "takebacks": found.played.takeback_counts()}


REPLAY_CACHE_BYTES = 8 * 2**20  # the replays kept for the next ask, as the JSON they are sent as


class Replays:
    """The replays asked for last, kept as the JSON they are sent as, `budget` bytes of it in all.

    A count of replays would not bound them: a replay holds every hand at every version, so a long
    game's is large (a 1000-point Jass game: 1 MB of JSON, 3.7 MB as Python objects), and sixteen
    of them kept the server 60 MB bigger. A replay larger than the whole budget is not kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._kept: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = Lock()  # the route runs in the thread pool

    def get(self, key: tuple[str, int]) -> bytes | None:
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body

    def keep(self, key: tuple[str, int], body: bytes) -> None:
        if len(body) > self.budget:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            self.size += len(body) - (0 if old is None else len(old))
            self._kept[key] = body
            while self.size > self.budget:
                self.size -= len(self._kept.popitem(last=False)[1])

    def __len__(self) -> int:
        return len(self._kept)


REPLAYS = Replays(REPLAY_CACHE_BYTES)


@router.get("/{table_id}/replay")
def replay(table_id: str, hub: HubDep, game: int | None = GameNo) -> Response:
    """A finished game version by version: the spectator's view and every hand."""
    found = finished_game(hub, table_id, game)
    key = (found.table_id, found.game_no)
    body = REPLAYS.get(key)
    if body is None:
        frames = []
        for state, a in zip(found.states(), [None, *found.actions], strict=True):
            n = state.game.num_players
            frames.append({
                "version": 0 if a is None else a.version, "seat": None if a is None else a.seat,
                "action": None if a is None else a.action,
                "view": state.view(None), "hands": [state.view(s)["hand"] for s in range(n)],
            })  # fmt: skip
        out = {
            "table": found.table_id, "game_no": found.game_no, "game": found.game, "options": found.options,
            "seats": found.seats, "result": found.played.result, "takebacks": found.played.takeback_counts(),
            "frames": frames,
        }  # fmt: skip
        body = json.dumps(out, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
        REPLAYS.keep(key, body)
    return Response(body, media_type="application/json")


@router.post("/{table_id}/analysis")
async def start_analysis(table_id: str, hub: HubDep, client: ClientDep, game: int | None = GameNo) -> dict[str, Any]:
    """Begin the double-dummy analysis of a finished Jass game (as `stich analyse`), or see how far
    it is: the deals solved so far, in the analysis format of docs/analysis.md."""

    def find() -> tuple[FinishedGame, StoredAnalysis | None]:
        found = finished_game(hub, table_id, game)
        if found.game != "jass":
            raise HubError(400, f"the analysis solves Jass games; this table plays {found.game}")
        return found, hub.store.analysis(found.table_id, found.game_no)

    found, kept = await run_in_threadpool(find)
    key = (found.table_id, found.game_no)
    for _ in range(2):
        if kept is not None and kept.status == "done":  # solved before (by any process, before a restart too)
            return {"table": key[0], "game_no": key[1], **kept.document}
        job = hub.analyses.get(key)
        if job is not None and job.status != "failed":  # in work here
            return {"table": key[0], "game_no": key[1], **job.to_json()}
        if kept is not None and not silent(kept, time.time()):  # in work in another process
            return {"table": key[0], "game_no": key[1], **kept.document}
        state = await run_in_threadpool(found.state)
        try:
            job = await hub.analyses.begin(key, state, kept, client)
        except Busy as e:
            raise HubError(503, str(e)) from None
        if job is not None:
            return {"table": key[0], "game_no": key[1], **job.to_json()}
        kept = await run_in_threadpool(hub.store.analysis, *key)  # another process claimed it first
    raise HubError(503, "the analysis changed hands twice meanwhile; ask again")


@router.get("/{table_id}/analysis")
def analysis(table_id: str, hub: HubDep, game: int | None = GameNo) -> dict[str, Any]:
    """The analysis of a finished game as far as it has come (begin it with POST)."""
    found = finished_game(hub, table_id, game)
    key = (found.table_id, found.game_no)
    job = hub.analyses.get(key)
    kept = hub.store.analysis(*key) if job is None else None
    answer = job.to_json() if job is not None else kept.document if kept is not None else None
    if answer is None:
        raise HubError(404, f"game {key[1]} of table {key[0]} has not been analysed; begin with POST")
    return {"table": key[0], "game_no": key[1], **answer}
