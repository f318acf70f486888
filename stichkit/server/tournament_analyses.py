"""The analyses a Jass tournament queues by itself, so that its table of points lost per card
(`jass_errors`, tournament_shown.py) fills without anyone asking: when a round of a Jass
tournament ends (or the tournament is ended early), its finished games are queued for the
double-dummy analysis (analysis.py) as the server's own, background work.

The step that ends the round marks the tournament in the database (db/tournaments.py,
`analyses_due`), so every process, and a process started again after a stop, finds the games
still to analyse without anyone opening the tournament. Each process looks at the marked
tournaments every few seconds and queues what fits of their games; the mark goes once every
finished game is solved or claimed, unless a step came in between (it is taken away only at the
revision read). No game of a duplicate round still in play is analysed (its cards are sealed):
the step that ends that round marks the tournament again. After a tournament is over, a round
table archived, deleted or left alone for long (`GIVEN_UP`, db/tournaments.py) seals its round's
cards no more: the round's finished games are analysed, its unfinished ones never, and the mark
goes. A game whose table or game row is gone is passed over (one warning per process), so a
tournament of only such games is unmarked at the next look.

Bounded twice: the server's own analyses are the analysis queue's lowest priority, with a budget
of their own per process (`--background-analyses`, one by default) that players' analyses and
every visitor's limit (quotas.py) never see, and a player's game is always taken first. Of
several processes only one solves a game: each is claimed in the database (analysis.py's
keeper), and one already done or in work elsewhere is passed over."""

from __future__ import annotations

import logging
import time

from .analysis import BACKGROUND, Busy, silent
from .db.repository import Missing
from .hub_protocol import RoomHub
from .model import StoredTournament

log = logging.getLogger("stichkit.server")

LOOK = 5.0  # seconds between looks at the tournaments with games to analyse


class TournamentAnalyses:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub
        self.next_look = 0.0
        self.gone: set[tuple[str, int]] = set()  # games found gone, each warned about once

    async def look(self, now: float) -> None:
        """Queue what fits of the marked tournaments' games; unmark a tournament once all of its
        games are solved."""
        hub = self.hub
        if now < self.next_look or not hub.analyses.budget(BACKGROUND):
            return
        self.next_look = now + LOOK
        for tid, _ in await hub.db(hub.tournament_store.analyses_due):
            try:
                t = await hub.db(hub.tournament_store.load, tid)
                if t is None or await self._queue(t):
                    await hub.db(hub.tournament_store.analyses_settled, tid, t.rev if t is not None else 0)
            except Busy:
                return  # the budget is spent: the next look goes on
            except Exception:
                log.exception("tournament %s: queueing its analyses failed; the next look tries again", tid)

    async def _sealed(self, t: StoredTournament) -> set[int]:
        """The rounds whose games are sealed: a duplicate round in play, and after the tournament
        ended early, such a round while any of its tables still plays (not one archived,
        deleted or left alone for long: `TournamentStore.in_play`)."""
        playing = {r.number for r in t.rounds if r.status == "playing"}
        if t.format != "duplicate" or not playing or t.status != "over":
            return playing if t.format == "duplicate" else set()
        ids = [x.table_id for x in t.tables if x.round in playing]
        still = await self.hub.db(self.hub.tournament_store.in_play, ids, time.time())
        return {x.round for x in t.tables if x.table_id in still}

    async def _queue(self, t: StoredTournament) -> bool:
        """Queue the finished games not solved yet. True when each is solved (or failed here: a
        player's request begins it again; or gone: its table or game deleted), but for the sealed
        games of a round whose end marks the tournament again. A game in work keeps the mark, so
        that when its process stops before it is solved, the claim goes silent and the next look
        here or elsewhere takes it over."""
        hub = self.hub
        if t.game != "jass":
            return True
        sealed = await self._sealed(t)
        settled = t.status != "over" or not sealed  # after an early end nothing marks it again
        games = [(x.table_id, n) for x in t.tables if x.round not in sealed for n in range(1, len(x.results) + 1)]
        solved = await hub.db(hub.tournament_store.analysed_seats, games)
        for key in games:
            job = hub.analyses.get(key)
            if key in solved or (job is not None and job.status in ("done", "failed")):
                continue
            if job is not None:
                settled = False
                continue  # queued or in work here
            kept = await hub.db(hub.store.analysis, *key)
            if kept is not None and (kept.status == "done" or not silent(kept, time.time())):
                settled = False
                continue  # solved a moment ago, or in work in another process
            try:
                found = await hub.db(hub.store.finished_game, *key)
            except Missing as e:
                if key not in self.gone:  # deleted by hand: nothing to analyse, now or later
                    self.gone.add(key)
                    log.warning("tournament %s: game %s of table %s is not analysed: %s", t.id, key[1], key[0], e)
                continue
            settled = False
            state = await hub.db(found.state)
            await hub.analyses.begin(key, state, kept, priority=BACKGROUND)  # None: another process claimed it
        return settled
