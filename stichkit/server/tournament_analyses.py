"""The analyses a Jass tournament queues by itself, so that its table of points lost per card
(`jass_errors`, tournaments.py) fills without anyone asking: when a round of a Jass tournament
ends, its finished games are queued for the double-dummy analysis (analysis.py) as the server's
own, background work.

Bounded twice: each process has a budget of background analyses (`Analyses.background`, one by
default) that players' own analyses and every visitor's limit (quotas.py) never see, and a
player's game is always taken first. Of several processes only one solves a game: each is
claimed in the database (analysis.py's keeper), and one already done or in work elsewhere is
passed over. A process remembers the tournaments it saw end a round and looks at them every few
seconds until each of their games is solved or claimed; no game of a duplicate round still in
play is analysed (its cards are sealed)."""

from __future__ import annotations

import logging
import time

from .analysis import Busy, silent
from .hub_protocol import RoomHub

log = logging.getLogger("stichkit.server")

LOOK = 5.0  # seconds between looks at the tournaments with games to analyse


class TournamentAnalyses:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.pending: set[str] = set()  # tournaments with games that may still need their analysis
        self.next_look = 0.0

    def round_ended(self, tournament_id: str) -> None:
        self.pending.add(tournament_id)

    async def look(self, now: float) -> None:
        """Queue what fits of the pending tournaments' games; forget a tournament once all of its
        games are solved or claimed."""
        if now < self.next_look or not self.pending or not self.hub.analyses.background:
            return
        self.next_look = now + LOOK
        for tid in sorted(self.pending):
            try:
                if await self._queue(tid):
                    self.pending.discard(tid)
            except Busy:
                return  # the budget is spent: the next look goes on
            except Exception:
                log.exception("tournament %s: queueing its analyses failed; the next look tries again", tid)

    async def _queue(self, tid: str) -> bool:
        """True when every finished game of the tournament is solved, or in work somewhere (games of
        a duplicate round in play wait for its end)."""
        hub = self.hub
        t = await hub.db(hub.tournament_store.load, tid)
        if t is None or t.game != "jass":
            return True
        playing = {r.number for r in t.rounds if r.status == "playing"}
        sealed = playing if t.format == "duplicate" else set()
        settled = True
        for x in t.tables:
            if x.round in sealed:
                settled = False
                continue
            for game_no in range(1, len(x.results) + 1):
                key = (x.table_id, game_no)
                job = hub.analyses.get(key)
                if job is not None and job.status != "failed":
                    continue
                kept = await hub.db(hub.store.analysis, *key)
                if kept is not None and (kept.status == "done" or not silent(kept, time.time())):
                    continue  # solved, or in work in another process
                found = await hub.db(hub.store.finished_game, *key)
                state = await hub.db(found.state)
                if await hub.analyses.begin(key, state, kept, background=True) is None:
                    continue  # another process claimed it first
        return settled  # a round still to come is looked at again when it ends
