"""`stich import`, `stich export` and `stich serve-bot`: stichkit and other Jass software.

    stich import jasskit games.txt --out records/
    stich export jasskit game.json --drop-weis-stoeck > log.txt
    stich serve-bot heuristic strong=ismcts:time=2 --port 5000 --timeout 10

See docs/interop.md.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from stichkit.core import OptionError

from .common import CliError

FORMATS = ("jasskit",)
NEED_INTEROP = "stich serve-bot needs the interop extra (FastAPI, uvicorn): pip install 'stichkit[interop]'"
PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def add_commands(sub: Any) -> None:
    imp = sub.add_parser("import", help="turn another program's game records into stichkit records",
                         description="Import jass-kit game records or game logs (one JSON game a line).")  # fmt: skip
    imp.add_argument("format", choices=FORMATS, metavar="FORMAT", help="jasskit")
    imp.add_argument("file", metavar="FILE", help="a jass-kit game record or game log; - reads standard input")
    imp.add_argument("--out", metavar="DIR", help="write one record file per game to DIR (default: one record a "
                     "line to standard output)")  # fmt: skip
    imp.add_argument("--skip-invalid", action="store_true",
                     help="leave out games that do not replay, and list them, instead of stopping at the "
                          "first")  # fmt: skip

    exp = sub.add_parser("export", help="write a stichkit record in another program's format",
                         description="Export a stichkit Jass record for jass-kit: one game per deal.")  # fmt: skip
    exp.add_argument("format", choices=FORMATS, metavar="FORMAT", help="jasskit")
    exp.add_argument("record", metavar="RECORD", help="a stichkit record file (from --save, --records, import)")
    exp.add_argument("--out", metavar="FILE", help="write to FILE (default: standard output)")
    exp.add_argument("--drop-weis-stoeck", action="store_true",
                     help="export a game played with Weis or Stöck anyway: they are left out, and the export "
                          "says what it left out")  # fmt: skip
    exp.add_argument(
        "--games",
        action="store_true",
        help="bare game records, one a line (an unfinished last deal included), instead of a game log",
    )
    exp.add_argument("--date", help="the log's date, DD.MM.YY HH:MM:SS (default: now)")
    exp.add_argument("--player-ids", metavar="A,B,C,D", help="the log's four player ids (default 0,0,0,0)")

    srv = sub.add_parser("serve-bot", help="serve bots to jass-kit tournaments over HTTP",
                         description="Serve stichkit bots behind jass-kit's remote-player protocol: "
                                     "POST /PLAYER/action_trump, /PLAYER/action_play_card, /PLAYER/game_info; "
                                     "GET /PLAYER.")  # fmt: skip
    srv.add_argument("bots", nargs="+", metavar="BOT",
                     help="a bot spec (heuristic, ismcts:time=2, ...), served as /NAME where NAME is the bot's "
                          "name; or NAME=SPEC to name it")  # fmt: skip
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=5000, help="port (default 5000; 0 picks a free one)")
    srv.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="the caller's time limit per request: every answer comes within it (default 10)")  # fmt: skip
    srv.add_argument("--margin", type=float, default=0.25, metavar="SECONDS",
                     help="time kept back from the bots for the network (default 0.25)")  # fmt: skip
    srv.add_argument("--seed", type=int, help="seed the bots: the same observation gets the same answer")
    srv.add_argument("--access-log", action="store_true", help="log every request")


def cmd_import(args: argparse.Namespace, console: Any) -> int:
    from stichkit.interop.jasskit import JasskitError, import_game, read_games

    lines = _read_lines(args.file)
    name = "stdin" if args.file == "-" else args.file
    records: list[dict[str, Any]] = []
    skipped: list[str] = []
    for where, data in read_games(lines, name):
        try:
            if isinstance(data, JasskitError):
                raise data
            records.append(import_game(data, where))
        except JasskitError as e:
            if not args.skip_invalid:
                raise CliError(f"{e} (nothing written; --skip-invalid leaves such games out)") from None
            skipped.append(str(e))
    if not records and not skipped:
        raise CliError(f"{name} holds no jass-kit game")
    out_dir = _out_dir(args.out) if args.out else None  # made only once every game has been read
    if out_dir is not None:
        stem = "stdin" if args.file == "-" else Path(args.file).stem
        width = max(4, len(str(len(records))))
        for i, record in enumerate(records, 1):
            (out_dir / f"{stem}-{i:0{width}d}.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
    else:
        for record in records:
            sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()
    err = console if out_dir is not None else _stderr_console(console)
    finished = sum(1 for r in records if _deal_finished(r))
    where_to = f" to {out_dir}/" if out_dir is not None else ""
    err.print(f"imported {len(records)} jass-kit games{where_to} ({finished} finished, "
              f"{len(records) - finished} unfinished)", highlight=False)  # fmt: skip
    for reason in skipped:
        err.print(f"[yellow]left out:[/yellow] {_escape(reason)}", highlight=False)
    return 0


def cmd_export(args: argparse.Namespace, console: Any) -> int:
    from stichkit.interop.jasskit import JasskitError, export_record, log_entry

    try:
        record = json.loads("".join(_read_lines(args.record)))
    except json.JSONDecodeError as e:
        raise CliError(f"{args.record} is not a stichkit record: invalid JSON ({e.msg}, line {e.lineno})") from None
    try:
        exported = export_record(record, drop_weis_stoeck=args.drop_weis_stoeck)
    except JasskitError as e:
        raise CliError(f"{args.record}: {e}") from None
    date = _date(args.date)
    ids = _player_ids(args.player_ids)
    lines = []
    for deal in exported.deals:
        game = deal.to_jasskit()
        if args.games:
            lines.append(game)
        elif deal.complete:
            lines.append(log_entry(game, date=date, player_ids=ids))
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as e:
            raise CliError(f"cannot write {args.out}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    err = _stderr_console(console) if not args.out else console
    unfinished = [d for d in exported.deals if not d.complete]
    kind = "game records" if args.games else "game-log lines"
    err.print(f"exported {len(lines)} {kind} ({len(exported.deals)} deals)" + (f" to {args.out}" if args.out else ""),
              highlight=False)  # fmt: skip
    for note in exported.notes:
        err.print(f"[yellow]note:[/yellow] {_escape(note)}", highlight=False)
    if unfinished and not args.games:
        err.print(f"[yellow]note:[/yellow] deal {unfinished[0].number} is unfinished: a game log holds finished "
                  "games only, so it is left out (--games writes it)", highlight=False)  # fmt: skip
    return 0


def cmd_serve_bot(args: argparse.Namespace, console: Any) -> int:
    try:
        import uvicorn

        from stichkit.interop.jasskit.server import Players, create_app
    except ImportError:
        raise CliError(NEED_INTEROP) from None
    specs = _served(args.bots)
    if args.timeout <= 0 or args.margin < 0 or args.timeout <= args.margin:
        raise CliError(f"--timeout ({args.timeout:g}) must be more than --margin ({args.margin:g}), and both "
                       "positive")  # fmt: skip
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port} is not a port (0-65535)")
    try:
        sock = _listen(args.host, args.port)
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    host, port = sock.getsockname()[:2]
    players = Players(specs, timeout=args.timeout, margin=args.margin, seed=args.seed)
    shown = f"[{host}]" if ":" in host else host
    for name, spec in specs.items():
        console.print(f"serving {_escape(spec.label)} at http://{shown}:{port}/{name}", highlight=False)
    console.print(f"answers within {args.timeout:g} s (bots think at most {args.timeout - args.margin:g} s); "
                  "Ctrl-C stops", highlight=False)  # fmt: skip
    sys.stdout.flush()
    config = uvicorn.Config(create_app(players), log_level="info" if args.access_log else "warning",
                            access_log=args.access_log)  # fmt: skip
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        players.close()
        sock.close()
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket. Made with proto IPPROTO_TCP, so that asyncio turns Nagle's algorithm
    off on the connections (with proto 0 every keep-alive answer waits ~40 ms for a delayed ACK)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _served(texts: list[str]) -> dict[str, Any]:
    from stichkit.arena import parse_bot

    specs: dict[str, Any] = {}
    for text in texts:
        head = text.partition(":")[0]
        name, eq, spec_text = text.partition("=") if "=" in head else ("", "", text)
        try:
            spec = parse_bot(spec_text)
        except OptionError as e:
            raise CliError(str(e)) from None
        name = name.strip() if eq else spec.name
        if not PLAYER_NAME.fullmatch(name):
            raise CliError(f"player name {name!r}: use letters, digits, '.', '_' and '-' (it is part of the URL)")
        if name in specs:
            raise CliError(f"two bots are served as {name!r}: name them, e.g. fast=ismcts:time=0.2 slow=ismcts:time=5")
        specs[name] = spec
    return specs


def _read_lines(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.readlines()
    try:
        with open(path, encoding="utf-8") as f:
            return f.readlines()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file (UTF-8)") from None


def _out_dir(path: str) -> Path:
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot make {path}: {e.strerror or e}") from None
    return out


def _deal_finished(record: dict[str, Any]) -> bool:
    return sum(1 for m in record["moves"] if "chance" in m) > 1


def _date(text: str | None) -> datetime:
    from stichkit.interop.jasskit.mapping import DATE_FORMAT

    if text is None:
        return datetime.now().replace(microsecond=0)
    try:
        return datetime.strptime(text, DATE_FORMAT)
    except ValueError:
        raise CliError(f"--date {text!r} is not DD.MM.YY HH:MM:SS (e.g. 24.12.26 18:30:00)") from None


def _player_ids(text: str | None) -> list[Any]:
    if text is None:
        return [0, 0, 0, 0]
    ids: list[Any] = [x.strip() for x in text.split(",")]
    if len(ids) != 4 or not all(ids):
        raise CliError(f"--player-ids gives the four players' ids, e.g. 17,4,17,9; not {text!r}")
    return [int(x) if x.isdigit() else x for x in ids]


def _stderr_console(console: Any) -> Any:
    """Messages go to standard error when the records go to standard output (tests pass a console)."""
    if getattr(console, "file", None) is sys.stdout:
        from rich.console import Console

        return Console(stderr=True)
    return console


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
