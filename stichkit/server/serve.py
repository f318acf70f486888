"""`stich serve`: check the flags and the database, then run the server under uvicorn."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from .origins import normal_origin
from .settings import Settings, default_db_url

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

EXIT_USAGE = 2
NEED_WEB = "stich serve needs the web extra: pip install 'stichkit[web]'"


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    about = "Run the table server: a lobby and tables for people and bots (docs/server.md)."
    p = sub.add_parser("serve", help="run the multiplayer table server (needs stichkit[web])", description=about)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0: every)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="URL", help="database URL: sqlite:////path/server.db or postgresql://user@host/db "
                   f"(default: $STICHKIT_DB, else {default_db_url()})")  # fmt: skip
    p.add_argument("--redis", metavar="URL", help="Redis URL: notify other server processes through Redis pub/sub "
                   "instead of PostgreSQL LISTEN/NOTIFY (default: $STICHKIT_REDIS)")  # fmt: skip
    p.add_argument("--bot-workers", type=int, metavar="N", help="processes in which bots think (default: the CPUs)")
    p.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS",
                   help="least pause before a bot's move shows (0.5); drawn, never shorter than the bot may "
                        "think")  # fmt: skip
    p.add_argument("--max-bot-time", type=float, default=5.0, metavar="SECONDS",
                   help="most seconds a bot may think per move (5)")  # fmt: skip
    p.add_argument("--allow-remote-bots", action="store_true",
                   help="seat bots that call other servers (remote:URL); off: table openers cannot make "
                        "this server send requests to addresses of their choosing")  # fmt: skip
    p.add_argument("--max-tables", type=int, default=2000, metavar="N", help="tables held at once (2000)")
    p.add_argument(
        "--leaderboard-min-games",
        type=int,
        default=5,
        metavar="N",
        help="rated games a player needs to be on a game's leaderboard (5)",
    )
    p.add_argument("--max-analyses", type=int, default=4, metavar="N",
                   help="finished Jass games waiting for their analysis at once, solved one at a time in a "
                        "process of their own (4; 0: the server analyses none)")  # fmt: skip
    p.add_argument("--client-tables", type=int, default=20, metavar="N",
                   help="tables one client (address) may hold, whatever their status (20; 0: no limit)")  # fmt: skip
    p.add_argument("--client-bot-seats", type=int, default=12, metavar="N",
                   help="bot seats at one client's tables that wait or play (12; 0: no limit)")  # fmt: skip
    p.add_argument("--client-tournaments", type=int, default=3, metavar="N",
                   help="tournaments one client may run at once, not over (3; 0: no limit)")  # fmt: skip
    p.add_argument("--client-bot-entrants", type=int, default=16, metavar="N",
                   help="bots one client may enter in its tournaments not over (16; 0: no limit)")  # fmt: skip
    p.add_argument("--tournament-entrants", type=int, default=64, metavar="N",
                   help="the most entrants one tournament may take (64)")  # fmt: skip
    p.add_argument("--client-hints", type=int, default=2, metavar="N",
                   help="hints one client may have in work at once (2; 0: no limit)")  # fmt: skip
    p.add_argument("--client-analyses", type=int, default=1, metavar="N",
                   help="analyses one client may have waiting or in work (1; 0: no limit)")  # fmt: skip
    p.add_argument("--background-analyses", type=int, default=1, metavar="N",
                   help="the server's own analyses (a Jass tournament's games) waiting or in work at once, "
                        "after every player's (1; 0: none)")  # fmt: skip
    p.add_argument("--client-workers", type=int, metavar="N",
                   help="bot workers one client's bots and hints may hold at once "
                        "(default: half the workers; 0: all)")  # fmt: skip
    p.add_argument("--table-bot-time", type=float, default=30.0, metavar="SECONDS",
                   help="seconds of thinking (their clocks) one table's bots may use a minute "
                        "(30; 0: no limit)")  # fmt: skip
    p.add_argument("--sweep-waiting", type=float, default=1800, metavar="SECONDS",
                   help="delete a waiting table nobody has open after this long (1800)")  # fmt: skip
    p.add_argument("--sweep-abandoned", type=float, default=7200, metavar="SECONDS",
                   help="delete a game in play with no human at it after this long (7200)")  # fmt: skip
    p.add_argument("--sweep-finished", type=float, default=604800, metavar="SECONDS",
                   help="delete a finished game nobody looks at after this long (604800: a week)")  # fmt: skip
    p.add_argument("--sweep-idle", type=float, default=14400, metavar="SECONDS",
                   help="delete a waiting table at which nothing happened for this long, even while someone has it "
                        "open (14400: four hours)")  # fmt: skip
    p.add_argument("--sweep-unwatched", type=float, default=300, metavar="SECONDS",
                   help="delete a table only bots play (no person holds a seat) nobody has open after this long "
                        "(300)")  # fmt: skip
    p.add_argument("--malloc-trim", type=float, default=60, metavar="SECONDS",
                   help="give the memory the C allocator keeps free back to the system this often (60; glibc "
                        "only; 0: never)")  # fmt: skip
    p.add_argument("--message-rate", type=float, default=20.0, metavar="N",
                   help="messages a second one connection may send, in bursts of 3 seconds' worth (20)")  # fmt: skip
    p.add_argument("--allowed-origin", action="append", default=[], metavar="URL",
                   help="a site (https://host[:port]) whose pages may open this server's tables, besides the "
                        "server's own; may be given several times")  # fmt: skip
    p.add_argument("--max-connections-per-client", type=int, default=100, metavar="N",
                   help="connections one client address may hold at once; more are closed at once (100)")  # fmt: skip
    p.add_argument("--request-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="a request's head and body must arrive within this; else 408 (10)")  # fmt: skip
    p.add_argument("--ws-deflate", action="store_true",
                   help="compress WebSocket messages (less traffic, much more server CPU; default off)")  # fmt: skip
    p.add_argument(
        "--login-limit",
        default="10/15 minutes",
        metavar="RATE",
        help="wrong passwords for one user name, from anywhere ('10/15 minutes'; shared through Redis)",
    )
    p.add_argument(
        "--login-address-limit",
        default="30/minute",
        metavar="RATE",
        help="login attempts from one client address ('30/minute')",
    )
    p.add_argument(
        "--register-limit", default="10/hour", metavar="RATE", help="registrations from one client address ('10/hour')"
    )
    p.add_argument(
        "--session-days",
        type=float,
        default=30,
        metavar="DAYS",
        help="how long a login lasts without logging in again (30)",
    )
    p.add_argument("--migrate-only", action="store_true", help="create or migrate the database, then exit")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def settings_from(args: argparse.Namespace) -> Settings:
    """Settings from the flags; a bad value raises ValueError saying which and what is allowed."""
    checks = [
        (args.port, 0, 65535, "--port"), (args.bot_delay, 0, 60, "--bot-delay"),
        (args.max_bot_time, 0.01, 600, "--max-bot-time"), (args.message_rate, 0.1, 100_000, "--message-rate"),
        (args.max_tables, 1, 1_000_000, "--max-tables"), (args.max_analyses, 0, 1000, "--max-analyses"),
        (args.sweep_waiting, 1, 10**9, "--sweep-waiting"), (args.sweep_abandoned, 1, 10**9, "--sweep-abandoned"),
        (args.sweep_finished, 1, 10**9, "--sweep-finished"), (args.sweep_idle, 1, 10**9, "--sweep-idle"),
        (args.max_connections_per_client, 1, 1_000_000, "--max-connections-per-client"),
        (args.request_timeout, 0.1, 3600, "--request-timeout"),
        (args.leaderboard_min_games, 1, 10_000, "--leaderboard-min-games"),
        (args.sweep_unwatched, 1, 10**9, "--sweep-unwatched"), (args.malloc_trim, 0, 10**9, "--malloc-trim"),
        (args.client_tables, 0, 10**6, "--client-tables"), (args.client_bot_seats, 0, 10**6, "--client-bot-seats"),
        (args.client_hints, 0, 1000, "--client-hints"), (args.client_analyses, 0, 1000, "--client-analyses"),
        (args.background_analyses, 0, 1000, "--background-analyses"),
        (args.table_bot_time, 0, 3600, "--table-bot-time"),
        (args.client_tournaments, 0, 10**6, "--client-tournaments"),
        (args.client_bot_entrants, 0, 10**6, "--client-bot-entrants"),
        (args.tournament_entrants, 2, 10_000, "--tournament-entrants"),
    ]  # fmt: skip
    if args.bot_workers is not None:
        checks.append((args.bot_workers, 1, 256, "--bot-workers"))
    checks.append((args.session_days, 0.001, 3650, "--session-days"))
    if args.client_workers is not None:
        checks.append((args.client_workers, 0, 256, "--client-workers"))
    for value, low, high, flag in checks:
        if not low <= value <= high:
            raise ValueError(f"{flag} must be between {low} and {high}, not {value}")
    for rate, flag in ((args.login_limit, "--login-limit"), (args.login_address_limit, "--login-address-limit"),
                       (args.register_limit, "--register-limit")):  # fmt: skip
        check_rate(rate, flag)
    s = Settings(
        bot_delay=args.bot_delay, max_bot_time=args.max_bot_time, max_tables=args.max_tables,
        leaderboard_min_games=args.leaderboard_min_games,
        sweep_waiting=args.sweep_waiting, sweep_abandoned=args.sweep_abandoned, sweep_finished=args.sweep_finished,
        message_rate=args.message_rate, message_burst=max(1, round(3 * args.message_rate)),
        allow_remote_bots=args.allow_remote_bots, max_analyses=args.max_analyses,
        login_per_name=args.login_limit, login_per_address=args.login_address_limit,
        register_per_address=args.register_limit, session_lifetime=args.session_days * 86400,
        sweep_idle=args.sweep_idle,
        client_tables=args.client_tables, client_bot_seats=args.client_bot_seats, client_hints=args.client_hints,
        client_analyses=args.client_analyses, background_analyses=args.background_analyses,
        client_workers=args.client_workers, table_bot_time=args.table_bot_time,
        sweep_unwatched=args.sweep_unwatched, client_tournaments=args.client_tournaments,
        client_bot_entrants=args.client_bot_entrants, tournament_entrants=args.tournament_entrants,
        sweep_interval=min(60.0, max(0.5, min(args.sweep_waiting, args.sweep_abandoned, args.sweep_finished,
                                              args.sweep_idle, args.sweep_unwatched) / 4)),
    )  # fmt: skip
    origins = []
    for origin in args.allowed_origin:
        try:
            origins.append(normal_origin(origin))
        except ValueError as e:
            raise ValueError(f"--allowed-origin: {e}") from None
    s = s.but(allowed_origins=tuple(origins), max_client_connections=args.max_connections_per_client,
              request_timeout=args.request_timeout, malloc_trim=args.malloc_trim)  # fmt: skip
    if args.db:
        s = s.but(db=args.db)
    if args.redis:
        s = s.but(redis=args.redis)
    if args.bot_workers:
        s = s.but(bot_workers=args.bot_workers)
    return s


def check_rate(rate: str, flag: str) -> None:
    """A rate in the `limits` notation ('10/minute', '5 per 15 minutes'), or ValueError."""
    from limits import parse

    try:
        parse(rate)
    except ValueError:
        raise ValueError(f"{flag} is a rate such as '10/minute' or '5/15 minutes', not {rate!r}") from None


# Python's cycle collector, tuned for a server holding hundreds of live games: with the default
# (700, 10, 10) every message's short-lived objects soon start a young collection, the objects in
# flight at that moment pile up as "old", and every few seconds a full collection of the whole
# heap stops the event loop for 100-300 ms at 500 tables: most of the slowest moves
# (bench/serve_load.py, 500 tables on SQLite: p99 21-161 ms with the default, 14-16 ms with the
# collector off). Young collections 7 times rarer make full ones about ten times rarer.
GC_THRESHOLDS = (5000, 10, 10)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from uvicorn.config import LOGGING_CONFIG

        from .app import create_app
        from .db.engine import DatabaseError, make_engine, parse_db_url, safe_url
        from .db.migrate import upgrade
        from .guard import protocols
        from .logs import log_config, scrub_root
    except ImportError:
        print(NEED_WEB, file=sys.stderr)
        return EXIT_USAGE
    try:
        settings = settings_from(args)
        url = parse_db_url(settings.db)
    except ValueError as e:  # DatabaseError is one
        print(f"stich serve: {e}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    scrub_root()
    # Alembic lists its plugins at INFO on every start; the migrations it runs still show.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    if args.migrate_only:
        try:
            upgrade(make_engine(url))
        except Exception as e:
            print(f"stich serve: cannot migrate {safe_url(url)}: {e}", file=sys.stderr)
            return 1
        print(f"{safe_url(url)}: schema is up to date")
        return 0
    try:
        check_database(url)
    except DatabaseError as e:
        print(f"stich serve: {e}", file=sys.stderr)
        return EXIT_USAGE
    print(f"stich serve: http://{args.host}:{args.port}/  (database {safe_url(url)})", flush=True)
    gc.set_threshold(*GC_THRESHOLDS)
    raise_file_limit()
    forwarded = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
    uvicorn.run(
        create_app(settings), host=args.host, port=args.port, log_level=args.log_level,
        ws_max_size=settings.max_message, ws_per_message_deflate=args.ws_deflate,
        ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=5,
        proxy_headers=True, forwarded_allow_ips=forwarded, log_config=log_config(LOGGING_CONFIG),
        **protocols(settings.max_client_connections, settings.request_timeout, forwarded),
    )  # fmt: skip
    return 0


def raise_file_limit() -> None:
    """Every connection is a file descriptor: take the soft limit up to the hard one (systemd's
    default soft limit, 1024, is what a thousand slow connections used up)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as e:
            logging.getLogger("stichkit.server").warning("cannot raise the open-file limit from %d: %s", soft, e)


def check_database(url: URL) -> None:
    """Fail with a clear message before the server starts: the database cannot be reached, or an
    SQLite file is in use by another server."""
    from sqlalchemy import text

    from .db.engine import DatabaseError, SqliteLock, is_sqlite, make_engine, safe_url

    if is_sqlite(url):
        lock = SqliteLock(url)
        lock.acquire()
        lock.release()
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as e:
        reason = str(getattr(e, "orig", e)).strip().splitlines()[0]
        raise DatabaseError(f"cannot reach the database {safe_url(url)}: {reason}") from None
    finally:
        engine.dispose()
