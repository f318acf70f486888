"""What every room of a tournament asks the same way: the tournament read (404 when there is
none), the organiser told apart from everyone else, a bot spec checked as a table's bot seat is,
and the quota the opener of a tournament is held to."""

from __future__ import annotations

import secrets

from .botrunner import SeatBot, parse_bot_spec
from .errors import HubError
from .hub_protocol import RoomHub
from .model import StoredTournament
from .quotas import TournamentQuota


async def load(hub: RoomHub, tournament_id: str) -> StoredTournament:
    t = None
    if 0 < len(tournament_id) <= 32:
        t = await hub.db(hub.tournament_store.load, tournament_id)
    if t is None:
        raise HubError(404, f"no tournament {tournament_id[:40]!r} here")
    return t


def check_organiser(t: StoredTournament, person: str) -> None:
    if not secrets.compare_digest(t.organiser.encode(), person.encode()):
        raise HubError(403, "only the tournament's organiser (who opened it) may do this")


def quota_of(hub: RoomHub, client: str) -> TournamentQuota:
    s = hub.settings
    return TournamentQuota(client, s.client_tournaments, s.client_bot_entrants)


def tournament_bot(hub: RoomHub, spec: str, game: str) -> SeatBot:
    """A bot for a tournament's seats, as a table's bot seat is checked (OptionError)."""
    s = hub.settings
    return parse_bot_spec(spec, s.max_bot_time, game, s.allow_remote_bots)
