"""`stich admin`: the operator's side of accounts, on the server's database (docs/operations.md).

`users` lists the accounts; `reset-password NAME` gives one a new password (printed, or read
from standard input) and ends its sessions; `ban NAME` ends every session and refuses the next
logins, `unban NAME` lifts the ban. `reports` lists the chat lines players reported (open ones;
`--all` with those dealt with), `resolve N` marks report N as dealt with. It works beside
running servers: they find a session gone at its next request, and a banned account's seats are
given up at the tables (bans.py), at once when the servers hear the admin's notice (PostgreSQL's
channel, or Redis), else within the servers' next look (`ban_check`, 5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any, TextIO

from .settings import default_db_url

EXIT_USAGE = 2
NEED_WEB = "stich admin needs the web extra: pip install 'stichkit[web]'"


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    about = (
        "Accounts on the table server's database: list them, reset a password, ban; the chat lines "
        "players reported (docs/operations.md)."
    )
    p = sub.add_parser("admin", help="the table server's accounts (needs stichkit[web])", description=about)
    p.add_argument(
        "--db", metavar="URL", help=f"the server's database URL (default: $STICHKIT_DB, else {default_db_url()})"
    )
    acts = p.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    acts.add_parser("users", help="list the accounts: name, since when, banned, sessions, seats")
    reset = acts.add_parser("reset-password", help="a new password for an account; its sessions end")
    reset.add_argument("name", metavar="NAME")
    reset.add_argument("--password-stdin", action="store_true",
                       help="read the new password from standard input (default: make one and print it)")  # fmt: skip
    ban = acts.add_parser("ban", help="ban an account: its sessions end, and it cannot log in")
    ban.add_argument("name", metavar="NAME")
    ban.add_argument("--reason", default=None, help="shown to the account at its next login")
    ban.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="the servers' Redis, to tell them at once (default: $STICHKIT_REDIS)",
    )
    unban = acts.add_parser("unban", help="lift a ban")
    unban.add_argument("name", metavar="NAME")
    reports = acts.add_parser("reports", help="the chat lines players reported, oldest first")
    reports.add_argument("--all", action="store_true", help="also the reports dealt with")
    resolve = acts.add_parser("resolve", help="mark a report as dealt with")
    resolve.add_argument("report", type=int, metavar="N", help="the report's number, as `reports` lists it")


def _when(t: float | None) -> str:
    return "-" if t is None else datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M")


def _reports(args: argparse.Namespace, social: Any, now: float, out: TextIO) -> int:
    """`reports`: each report with the line as it was said; `resolve N`: report N is dealt with."""
    if args.admin_command == "resolve":
        if not social.resolve(args.report, now):
            print(f"stich admin: there is no open report {args.report} (see `stich admin reports`)", file=sys.stderr)
            return 1
        print(f"report {args.report}: dealt with", file=out)
        return 0
    found = social.reports(include_resolved=args.all)
    for r in found:
        state = "open" if r.resolved_at is None else f"dealt with {_when(r.resolved_at)}"
        print(f"#{r.id}  {_when(r.created_at)}  table {r.table_id} line {r.chat_id}  [{state}]", file=out)
        print(f"    {r.said_by} (seat {r.seat + 1}, {_when(r.said_at)}): {r.text!r}", file=out)
        print(f"    reported by {r.reporter}" + (f": {r.reason!r}" if r.reason else ""), file=out)
    print(f"{len(found)} report(s)" + ("" if args.all else " open"), file=out)
    return 0


def _tell_servers(url: Any, redis: str | None, engine: Any, msg: dict[str, Any]) -> str | None:
    """Send the running servers a notice on their channel: its name (None: there is none, SQLite)."""
    from .db.migrate import cluster_id
    from .pubsub import notifier_for

    notifier = notifier_for(url, redis, cluster_id(engine))
    if not notifier.shared:
        return None

    async def tell() -> None:
        try:
            await notifier.publish(msg)
        finally:
            await notifier.stop()

    asyncio.run(tell())
    return notifier.name


def run(args: argparse.Namespace, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        from . import credentials
        from .db.accounts import AccountStore
        from .db.engine import DatabaseError, make_engine, parse_db_url, safe_url
        from .db.migrate import upgrade
        from .db.social import SocialStore
        from .settings import Settings
        from .usernames import name_key
    except ImportError:
        print(NEED_WEB, file=sys.stderr)
        return EXIT_USAGE
    try:
        url = parse_db_url(args.db or Settings().db)
    except DatabaseError as e:
        print(f"stich admin: {e}", file=sys.stderr)
        return EXIT_USAGE
    engine = make_engine(url)
    try:
        try:
            upgrade(engine)
        except Exception as e:
            print(f"stich admin: cannot open {safe_url(url)}: {e}", file=sys.stderr)
            return 1
        store = AccountStore(engine)
        now = time.time()
        if args.admin_command in ("reports", "resolve"):
            return _reports(args, SocialStore(engine), now, out)
        if args.admin_command == "users":
            rows = store.summaries(now)
            print(f"{'name':<20}  {'registered':<16}  {'last seen':<16}  sessions  seats  banned", file=out)
            for r in rows:
                a = r.account
                banned = ("yes" + (f" ({a.ban_reason})" if a.ban_reason else "")) if a.banned else "no"
                print(f"{a.name:<20}  {_when(a.created_at):<16}  {_when(r.last_seen):<16}  {r.sessions:>8}  "
                      f"{r.seats:>5}  {banned}", file=out)  # fmt: skip
            print(f"{len(rows)} accounts", file=out)
            return 0
        account = store.find(name_key(args.name))
        if account is None:
            print(f"stich admin: no account is named {args.name!r} (see `stich admin users`)", file=sys.stderr)
            return 1
        if args.admin_command == "reset-password":
            if args.password_stdin:
                password = (stdin or sys.stdin).readline().rstrip("\n")
                try:
                    credentials.check_password(password)
                except credentials.BadPassword as e:
                    print(f"stich admin: {e}; nothing was changed", file=sys.stderr)
                    return EXIT_USAGE
            else:
                password = secrets.token_urlsafe(12)
            store.set_password(account.id, credentials.hash_password(password), now)
            print(f"{account.name}: the password is new; every session ended", file=out)
            if not args.password_stdin:
                print(f"new password: {password}", file=out)
            return 0
        if args.admin_command == "ban":
            ended = store.ban(account.id, args.reason, now)
            print(f"{account.name}: banned; {ended} session(s) ended", file=out)
            held = store.seats(account.id)
            if held:
                msg = {"k": "banned", "i": f"admin:{secrets.token_hex(4)}", "a": account.id}
                told = _tell_servers(url, args.redis or Settings().redis, engine, msg)
                when = f"at once (told through {told})" if told else "within seconds (at their next look)"
                print(f"{account.name}: its {len(held)} seat(s) at tables are given up by the servers {when}; "
                      "during play the takeover bot finishes the game, a loss at a rated table", file=out)  # fmt: skip
            return 0
        store.ban(account.id, None, None)
        print(f"{account.name}: the ban is lifted", file=out)
        return 0
    finally:
        engine.dispose()
