"""How one server process is configured: from `stich serve`'s flags, else the environment, else defaults.

Every time limit of docs/server.md is here, so an operator finds them in one place.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

STATIC_DIR = Path(__file__).parent / "static"

HOUR = 3600.0
DAY = 24 * HOUR


def default_db_path() -> Path:
    """`$STICHKIT_HOME/server.db`, else `${XDG_DATA_HOME:-~/.local/share}/stichkit/server.db`."""
    home = os.environ.get("STICHKIT_HOME")
    if home:
        return Path(home).expanduser() / "server.db"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data).expanduser() / "stichkit" / "server.db"


def default_db_url() -> str:
    return "sqlite:///" + str(default_db_path().resolve())


@dataclass(frozen=True)
class Settings:
    """One server process. Times are in seconds."""

    db: str = field(default_factory=lambda: os.environ.get("STICHKIT_DB") or default_db_url())
    redis: str | None = field(default_factory=lambda: os.environ.get("STICHKIT_REDIS") or None)
    # Bots: worker processes for every bot but `random`; the least pause before a bot's move (so
    # people can follow; the pause is drawn, pacing.py); the most a search bot may be given per decision.
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 2)
    bot_delay: float = 0.5
    max_bot_time: float = 5.0
    allow_remote_bots: bool = False  # `remote:URL` bots make the server call other servers
    max_tables: int = 2000  # active tables (not swept); more are refused with 503
    max_analyses: int = 4  # finished Jass games waiting for (or in) their analysis; 0: none analysed
    # What one client (clients.py: an address, later an account) may claim (quotas.py; 0: no
    # limit): tables held, bot seats at its tables in play, hints and analyses in flight, and bot
    # workers at once (None: half of them, at least one; 0: all). Each table's bots may think this many
    # seconds a minute (their clocks; 0: no limit).
    client_tables: int = 20
    client_bot_seats: int = 12
    client_hints: int = 2
    client_analyses: int = 1
    background_analyses: int = 1  # the server's own (a Jass tournament's games), after every player's
    client_workers: int | None = None
    table_bot_time: float = 30.0
    # Tournaments (tournaments.py): how many one client may run at once (not over), how many bots
    # it may enter in them, and the most entrants a tournament may take.
    client_tournaments: int = 3
    client_bot_entrants: int = 16
    tournament_entrants: int = 64
    # Sweeping: a waiting table nobody has open, a game in play with no human at it, a finished
    # game nobody looks at: each is deleted after this long without activity.
    sweep_interval: float = 60.0
    sweep_waiting: float = 30 * 60.0
    sweep_abandoned: float = 2 * HOUR
    sweep_finished: float = 7 * DAY
    # A waiting table at which nothing has changed (no join, no chat) for this long is swept even
    # while someone has it open: a page left open must not keep a table (and its chat) for good.
    sweep_idle: float = 4 * HOUR
    sweep_unwatched: float = 5 * 60.0  # a table only bots play (no person holds a seat) nobody has open
    # How often the C allocator is told to give freed memory back to the system (trim.py; glibc
    # only; 0: never): without it the server's resident size creeps up under long play.
    malloc_trim: float = 60.0
    # Clients: the largest message, and the message rate (a token bucket per connection).
    max_message: int = 64 * 1024
    message_rate: float = 20.0
    message_burst: int = 60
    max_queue: int = 1000  # messages waiting for a slow client before it is closed
    chat_history: int = 50  # lines a connection gets on arriving
    chat_kept: int = 200  # lines a table keeps (older ones are deleted as new ones come)
    # Browsers: the origins besides the server's own whose pages may open a table's WebSocket
    # (normalised scheme://host[:port]).
    allowed_origins: tuple[str, ...] = ()
    # Connections (guard.py): how many one client address may hold at once, and how long a
    # request's head and body may take to arrive.
    max_client_connections: int = 100
    request_timeout: float = 10.0
    # Several processes on one PostgreSQL: how often presence is announced, and after how long a
    # silent process's connections no longer count; how often each process re-reads every table
    # in case a notification was lost.
    heartbeat: float = 2.0
    peer_timeout: float = 7.0
    resync_interval: float = 10.0
    ban_check: float = 5.0  # how often each process looks for seats banned accounts still hold (bans.py)
    # Quick play: how often each process looks for queues it can seat; how long a waiting player
    # may stay silent before leaving the queue; how long a match waits for its player to pick it up.
    quick_interval: float = 1.0
    quick_timeout: float = 15.0
    quick_keep: float = 120.0
    leaderboard_min_games: int = 5  # rated games a player needs to be on a game's leaderboard
    tick: float = 0.25  # how often move timers, grace times and ownership are looked at
    # Accounts (docs/operations.md): the secret that signs session cookies (None: one made once and
    # kept in the database); how long a login lasts; the rate limits of logins and registrations,
    # in the `limits` library's notation, counted in Redis when there is one.
    secret: str | None = field(default_factory=lambda: os.environ.get("STICHKIT_SECRET") or None)
    session_lifetime: float = 30 * DAY
    login_per_name: str = "10/15 minutes"
    login_per_address: str = "30/minute"
    register_per_address: str = "10/hour"
    static_dir: Path = STATIC_DIR
    instance: str = field(default_factory=lambda: secrets.token_hex(6))

    @property
    def workers_per_client(self) -> int:
        if self.client_workers == 0:
            return self.bot_workers
        return self.client_workers or max(1, self.bot_workers // 2)

    def but(self, **changes: Any) -> Settings:
        return replace(self, **changes)
