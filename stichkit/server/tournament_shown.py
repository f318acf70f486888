"""A tournament as it is shown: to anyone (its settings, entrants, rounds, tables, games and
standings) and what is the asker's alone (the organiser's invitation link, a player's table and
seat token). No seed and no card of a game in play, and in a duplicate round, whose tables play
the same cards, no game's record, replay or analysis before the round ends (`sealed`, which the
routes of records and replays ask too). A Jass tournament also shows its players by points lost
per card in the games analysed (`jass_errors`)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from stichkit.arena import tournaments as arena

from .db.tournaments import TournamentStore
from .errors import HubError
from .hub_protocol import RoomHub
from .model import Entrant, StoredTournament
from .tokens import hash_token
from .tournament_arena import arena_entrants, arena_settings, player_id, standings_of
from .tournament_common import load


def entrant_shown(e: Entrant) -> dict[str, Any]:
    replaced = None if e.replaced_by is None else {"bot": e.replaced_by, "round": e.replaced_round}
    return {"number": e.number, "id": player_id(e), "name": e.name, "kind": e.kind, "bot": e.bot,
            "team": e.team, "account": e.account is not None, "replaced": replaced}  # fmt: skip


class Shown:
    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    @property
    def store(self) -> TournamentStore:
        return self.hub.tournament_store

    async def document(self, tournament_id: str, person: str) -> dict[str, Any]:
        t = await load(self.hub, tournament_id)
        e = t.entrant_of(person)
        for x in t.tables:  # the asker's table, also when another process opened it a moment ago
            if e is not None and x.round == t.round and x.status == "playing" and player_id(e) in x.tokens:
                await self.hub.table(x.table_id)
        out = self.shown(t, person)
        if t.game == "jass":
            out["jass_errors"] = await self.jass_errors(t)
        return out

    async def jass_errors(self, t: StoredTournament) -> list[dict[str, Any]]:
        """The players by points lost per card in the tournament's analysed games (a game's
        `analysis` link begins one), fewest first: the tournament page's second table. A seat a bot
        played for a gone player is not counted for them, and no game of a duplicate round in play is."""
        sealed = {r.number for r in t.rounds if r.status == "playing"} if t.format == "duplicate" else set()
        seats: dict[tuple[str, int], arena.GamePlayed] = {}
        for x in t.tables:
            if x.round not in sealed:
                for i, result in enumerate(x.results):
                    seats[(x.table_id, i + 1)] = arena.GamePlayed.from_json(result)
        found = await self.hub.db(self.store.analysed_seats, list(seats))
        names = {player_id(e): e.name for e in t.entrants}
        totals: dict[str, list[int]] = {}  # player: games, cards, errors, lost
        for key, rows in found.items():
            game = seats[key]
            for row in rows:
                seat = row.get("seat")
                if not isinstance(seat, int) or not 0 <= seat < len(game.seats) or seat in game.replaced:
                    continue
                pid = game.seats[seat]
                if pid is None or pid not in names:
                    continue  # the fill bot's seat
                total = totals.setdefault(pid, [0, 0, 0, 0])
                for k, v in enumerate((1, row.get("decisions", 0), row.get("errors", 0), row.get("lost", 0))):
                    total[k] += int(v)
        out = [{"entrant": pid, "name": names[pid], "games": g, "cards": c, "errors": n, "lost": lost,
                "per_card": round(lost / c, 3) if c else None} for pid, (g, c, n, lost) in totals.items()]  # fmt: skip
        out.sort(key=lambda r: (r["per_card"] is None, r["per_card"] or 0.0, r["name"]))
        return out

    def shown(self, t: StoredTournament, person: str | None) -> dict[str, Any]:
        """The tournament as anyone sees it, and what is the asker's alone: the organiser's
        invitation link, a player's table and seat token. No seed and no card of a game in play."""
        settings = arena_settings(t.settings)
        names = {player_id(e): e.name for e in t.entrants}
        try:
            entrants = arena_entrants(t, settings)
        except HubError:
            entrants = []
        entrant_names = {e.id: e.name for e in entrants}
        sealed = settings.format == "duplicate"
        rounds = []
        for r in t.rounds:
            plan = arena.RoundPlan.from_json(r.plan)
            open_now = not (sealed and r.status == "playing")
            tables = []
            for x in (x for x in t.tables if x.round == r.number):
                tp = plan.tables[x.number - 1]
                games = []
                for i, g in enumerate(tp.games):
                    done = arena.GamePlayed.from_json(x.results[i]) if i < len(x.results) else None
                    entry: dict[str, Any] = {"game_no": i + 1, "seats": [names.get(p) if p else settings.fill_bot
                                                                        for p in g.seats]}  # fmt: skip
                    if done is not None:
                        entry.update(scores=list(done.scores), winners=list(done.winners), replaced=list(done.replaced))
                        if open_now:
                            entry.update(record=f"/api/tables/{x.table_id}/record?game={i + 1}",
                                         replay=f"/api/tables/{x.table_id}/replay?game={i + 1}")  # fmt: skip
                            if t.game == "jass":  # its double-dummy analysis: points lost per card
                                entry["analysis"] = f"/api/tables/{x.table_id}/analysis?game={i + 1}"
                    games.append(entry)
                tables.append({
                    "number": x.number, "status": x.status, "entrants": [entrant_names.get(e, e) for e in tp.entrants],
                    "table": x.table_id if open_now else None,  # its games' records and replays name it
                    "link": f"/tables/{x.table_id}" if open_now and x.status == "playing" else None,  # archived after
                    "games": games,
                })  # fmt: skip
            rounds.append({"number": r.number, "status": r.status, "started_at": r.started_at, "ended_at": r.ended_at,
                           "byes": [entrant_names.get(b, b) for b in plan.byes], "tables": tables})  # fmt: skip
        table = standings_of(t)
        standing = [{**s.to_json(), "name": entrant_names.get(s.entrant, s.entrant)} for s in table]
        out: dict[str, Any] = {
            "id": t.id, "name": t.name, "game": t.game, "options": t.options, "format": t.format,
            "settings": {k: v for k, v in t.settings.items() if k != "options"}, "status": t.status,
            "round": t.round, "rounds": settings.rounds, "rev": t.rev, "created_at": t.created_at,
            "start_at": t.start_at, "started_at": t.started_at, "ended_at": t.ended_at, "ended_early": t.ended_early,
            "entrants": [entrant_shown(e) for e in t.entrants],
            "teams": [{"id": e.id, "name": e.name, "members": [names.get(m) for m in e.members]}
                      for e in entrants if e.members],
            "rounds_played": rounds, "standings": standing, "final": t.status == "over",
            "organiser": person is not None and secrets.compare_digest(t.organiser.encode(), person.encode()),
            "you": self._you(t, person),
        }  # fmt: skip
        if out["organiser"] and t.invitation is not None:
            out["invitation"] = {"token": t.invitation, "link": f"/tournaments/{t.id}?invitation={t.invitation}"}
        return out

    def _you(self, t: StoredTournament, person: str | None) -> dict[str, Any] | None:
        """The asker's entry and, while a round is played, their table now: its link, their seat in
        the game being played and the seat's token (theirs alone)."""
        e = t.entrant_of(person)
        if e is None:
            return None
        out: dict[str, Any] = {"entrant": e.number, "name": e.name, "table": None}
        pid = player_id(e)
        for x in t.tables:
            if x.round == t.round and pid in x.tokens and x.status == "playing" and t.status != "over":
                live = self.hub.tables.get(x.table_id)
                token = x.tokens[pid]
                seat = None if live is None else live.seat_of(hash_token(x.table_id, token))
                out["table"] = {"id": x.table_id, "link": f"/tables/{x.table_id}", "seat": seat, "token": token,
                                "round": x.round, "number": x.number}  # fmt: skip
        return out

    def sealed(self, table_id: str) -> bool:
        """A game of a duplicate round whose cards are still to be played, at this table or
        another: while the tournament plays the round, or any of its tables plays on (but one
        archived, deleted or left alone for long: `TournamentStore.in_play`; called in a
        database thread)."""
        found = self.store.of_table(table_id)
        if found is None:
            return False
        t = self.store.load(found[0])
        if t is None or t.format != "duplicate":
            return False
        if t.status != "over" and any(r.number == found[1] and r.status == "playing" for r in t.rounds):
            return True
        ids = [x.table_id for x in t.tables if x.round == found[1]]
        return bool(self.store.in_play(ids, time.time()))
