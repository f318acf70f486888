"""The `stich` command: `play`, `simulate`, `tournament`, `replay`, `analyse`, `games`, `serve` (the table
server, stichkit/server) and `admin` (its accounts), and `import`, `export` and `serve-bot` for
other Jass software (cli/interop.py).

Parsing is argparse; drawing is rich, imported only when a command needs it, so the engine keeps
no dependencies (`pip install stichkit[cli]` brings rich).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, NoReturn

import stichkit
from stichkit.arena.executors import EXECUTORS

from .common import HUMAN, CliError, check_path, check_seed, check_workers, load_game, parse_options, parse_seats
from .interop import add_commands as add_interop_commands

EXIT_USAGE = 2
SUIT_NAMES = ("seed", "swiss", "french")  # Jass suit names on screen (--cards)
NEED_RICH = "stich needs the rich library for this command: install stichkit[cli]  (pip install 'stichkit[cli]')"


MAX_DELAY = 60.0  # seconds before a bot's move: more is a typo
MAX_GAMES = 10**12  # games or deals of one run (they are streamed, so this bounds only the seeds)


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors that quote little of a huge argument."""

    def error(self, message: str) -> NoReturn:
        super().error(message if len(message) <= 300 else message[:297] + "...")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stich", description="Play, simulate and replay trick-taking card games.")
    parser.add_argument("--version", action="version", version=f"stich (stichkit) {stichkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a game at this terminal", description="Play a game against bots.")
    play.add_argument("game", metavar="GAME", help="game name (see `stich games`)")
    play.add_argument("options", nargs="*", metavar="option=value", help="game options, e.g. target=1500")
    play.add_argument("--seats", help=f"one player per seat, e.g. {HUMAN},heuristic,heuristic,heuristic")
    play.add_argument("--seed", type=int, help="seed for the deals and the bots (a game you can play again)")
    play.add_argument("--delay", type=float, default=0.6, metavar="SECONDS", help="pause before each bot move")
    play.add_argument("--save", metavar="FILE", help="save the game to FILE after every move")
    play.add_argument("--resume", metavar="FILE", help="go on with a saved game (its seats and bots too)")
    play.add_argument("--cards", choices=SUIT_NAMES, default="seed",
                      help="Jass suit names: seed (Käse ...), swiss (Schellen ...) or french (Ecke ...)")  # fmt: skip

    sim = sub.add_parser("simulate", help="let bots play many games", description="Bots against bots.")
    sim.add_argument("game", metavar="GAME")
    sim.add_argument("options", nargs="*", metavar="option=value", help="game options, e.g. target=1500")
    sim.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    sim.add_argument("--seats", required=True, help="one bot per seat, e.g. heuristic,random,heuristic,random")
    sim.add_argument("--seed", type=int, help="game i uses seed SEED+i (default: random, printed)")
    add_executor_args(sim)
    sim.add_argument("--json", action="store_true", help="print machine-readable results only")

    tour = sub.add_parser("tournament", help="a duplicate tournament between bots",
                          description="Bots against bots on duplicate deals: every bot plays every hand.")  # fmt: skip
    tour.add_argument("game", metavar="GAME")
    tour.add_argument("options", nargs="*", metavar="option=value", help="game options, e.g. target=1500")
    tour.add_argument("--seats", required=True,
                      help="one bot per seat, e.g. ismcts,heuristic,ismcts,heuristic (or ismcts:time=0.2)")  # fmt: skip
    tour.add_argument("--deals", type=int, required=True, metavar="N", help="how many deals (each played per rotation)")
    tour.add_argument("--seed", type=int, help="deal i uses game seed SEED+i (default: random, printed)")
    add_executor_args(tour)
    tour.add_argument("--json", action="store_true", help="print machine-readable results only")
    tour.add_argument("--plot", metavar="FILE.png", help="draw the mean scores with their intervals to FILE.png")
    tour.add_argument("--records", metavar="DIR", help="write every game's record (and index.json) to DIR")
    tour.add_argument("--resume", action="store_true",
                      help="with --records: games whose records are in DIR are read back, not played again "
                           "(go on with an interrupted run, or add deals to a finished one)")  # fmt: skip

    rep = sub.add_parser("replay", help="step through a saved game", description="Replay a game record.")
    rep.add_argument("file", metavar="FILE")
    rep.add_argument("--seat", type=int, metavar="N", help="see the game as seat N (default: spectator)")
    rep.add_argument("--step", action="store_true", help="wait for Enter between moves (on a terminal)")
    rep.add_argument("--cards", choices=SUIT_NAMES, default="seed", help="Jass suit names (as for play)")

    ana = sub.add_parser("analyse", help="every card of a Jass game against the double-dummy solver; "
                         "a Differenzler game's last tricks against the predictions",
                         description="Solve each card decision of a Jass record with all hands known: the best "
                         "card(s), the points each card played lost, totals per deal and seat. RECORD is a "
                         "stichkit record, or a jass-kit game record or game log (every game in it).")  # fmt: skip
    ana.add_argument("file", metavar="RECORD")
    ana.add_argument("--format", choices=("auto", "stichkit", "jasskit"), default="auto", dest="record_format",
                     help="what RECORD is (default auto: told from its content)")  # fmt: skip
    ana.add_argument("--json", action="store_true", help="print the analysis as JSON (docs/analysis.md)")
    ana.add_argument("--all", action="store_true", help="list every card, not only those that lost points")
    ana.add_argument("--engine", choices=("auto", "c", "python"), default="auto", help="solver engine (default auto)")
    ana.add_argument("--full", action=argparse.BooleanOptionalAction, default=None,
                     help="solve every legal card of the first two tricks too, to list all their best cards "
                          "(slower: minutes a deal). Default: no for the tables, yes for --json, whose "
                          "values then hold every legal card; --json --no-full is fast and marks each "
                          "decision solved by value only \"complete\": false")  # fmt: skip
    add_executor_args(ana, "deals solved")

    sub.add_parser("games", help="list the games")
    add_interop_commands(sub)  # import, export, serve-bot
    from stichkit.server.admin import add_parser as add_admin
    from stichkit.server.serve import add_parser as add_serve

    add_serve(sub)
    add_admin(sub)
    return parser


def add_executor_args(cmd: argparse.ArgumentParser, units: str = "games played") -> None:
    """Where the games are played, or the deals solved (see docs/cluster.md)."""
    cmd.add_argument("--workers", type=int, metavar="K",
                     help=f"{units} at once (default: 1; with --executor process, this machine's CPUs; "
                          "with --executor ray, the Ray cluster's CPUs)")  # fmt: skip
    cmd.add_argument("--executor", choices=EXECUTORS,
                     help="serial (in this process), process (local worker processes) or ray (a Ray cluster: "
                          "pip install 'stichkit[cluster]'); default: process if --workers is over 1, "
                          "else serial")  # fmt: skip
    cmd.add_argument("--ray-address", metavar="ADDRESS",
                     help="the Ray cluster's head node, host:port (or auto: the cluster this machine joined); "
                          "default: $RAY_ADDRESS, else a Ray started on this machine for the run")  # fmt: skip
    cmd.add_argument("--ray-runtime-env", metavar="JSON",
                     help='Ray runtime environment for the workers, e.g. {"pip": ["stichkit"]} or '
                          '{"py_modules": ["/path/to/stichkit"]}')  # fmt: skip


def executor_factory(args: argparse.Namespace) -> Any:
    """The executor the arguments choose, as a function that makes it: the command checks its
    other input first, so that a typo never waits for a Ray cluster to start."""
    import json

    from stichkit.arena.executors import ExecutorError, make_executor

    if args.workers is not None:
        check_workers(args.workers)
    env = None
    if args.ray_runtime_env is not None:
        try:
            env = json.loads(args.ray_runtime_env)
        except json.JSONDecodeError as e:
            raise CliError(f"--ray-runtime-env is not valid JSON ({e.msg}, column {e.colno})") from None
        if not isinstance(env, dict):
            raise CliError('--ray-runtime-env is a JSON object, e.g. {"pip": ["stichkit"]}')

    def make() -> Any:
        try:
            return make_executor(args.executor, args.workers, address=args.ray_address, runtime_env=env)
        except ExecutorError as e:
            raise CliError(str(e)) from None

    if args.executor == "serial" and args.workers not in (None, 1):
        raise CliError("--executor serial works in this process, one at a time: leave out --workers")
    if args.executor not in (None, "ray") and (args.ray_address or env):
        raise CliError(f"--ray-address and --ray-runtime-env are for --executor ray, not {args.executor}")
    return make


def main(argv: list[str] | None = None, *, console: Any = None, input_fn: Any = None) -> int:
    """Run `stich`. Tests pass `console` (a rich Console) and `input_fn` (prompt -> answer)."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        # Options may follow flags (`stich play jass --seed 3 target=1500`): argparse leaves them over.
        stray = [w for w in extra if w.startswith("-") or "=" not in w]
        if stray:
            parser.error("unrecognized arguments: " + " ".join(stray))
    except SystemExit as e:  # --help, --version, usage errors: a return code, not an exception
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    if args.command == "games":
        for name in stichkit.game_names():
            print(name)
        return 0
    if args.command == "serve":  # needs the web extra, not rich
        from stichkit.server.serve import run as run_server

        return run_server(args)
    if args.command == "admin":  # needs the web extra, not rich
        from stichkit.server.admin import run as run_admin

        return run_admin(args)
    args.options = [*getattr(args, "options", []), *extra]
    try:
        import rich  # noqa: F401
    except ImportError:
        print(NEED_RICH, file=sys.stderr)
        return EXIT_USAGE
    from rich.console import Console

    out = console if console is not None else Console()
    try:
        if args.command == "play":
            return cmd_play(args, out, input_fn)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "tournament":
            return cmd_tournament(args, out)
        if args.command == "analyse":
            return cmd_analyse(args, out)
        if args.command in ("import", "export", "serve-bot"):
            from . import interop

            if args.options:
                raise CliError("unrecognized arguments: " + " ".join(args.options))
            return {"import": interop.cmd_import, "export": interop.cmd_export,
                    "serve-bot": interop.cmd_serve_bot}[args.command](args, out)  # fmt: skip
        return cmd_replay(args, out, input_fn)
    except CliError as e:
        err = console if console is not None else Console(stderr=True)
        err.print(f"[red]stich {args.command}:[/red] {_escape(str(e))}")
        return EXIT_USAGE


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def cmd_play(args: argparse.Namespace, console: Any, input_fn: Any) -> int:
    from .play import start

    if not 0 <= args.delay <= MAX_DELAY:  # also refuses nan and inf
        raise CliError(f"--delay must be 0 to {MAX_DELAY:g} seconds, not {args.delay}")
    check_seed(args.seed)
    if args.save is not None:
        check_path(args.save, "--save", for_writing=True)
    if args.resume is not None:
        check_path(args.resume, "--resume")
    return start(args, console, input_fn)


def cmd_simulate(args: argparse.Namespace, console: Any) -> int:
    from .simulate import print_results, simulate

    if not 1 <= args.games <= MAX_GAMES:
        raise CliError(f"--games must be 1 to {MAX_GAMES:,}")
    check_seed(args.seed)
    executor = executor_factory(args)
    game = load_game(args.game, parse_options(args.options))
    seats = parse_seats(args.seats, game.num_players, allow_human=False, game=game.name)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    show_bar = console.is_terminal and not args.json
    results = simulate(game, seats, args.games, seed, executor, console, progress=show_bar)
    print_results(results, console, args.json)
    return 0


def cmd_tournament(args: argparse.Namespace, console: Any) -> int:
    from .tournament import check_plot, check_records, plot, print_summary, run, seed_of_records

    if not 1 <= args.deals <= MAX_GAMES:
        raise CliError(f"--deals must be 1 to {MAX_GAMES:,}")
    check_seed(args.seed)
    executor = executor_factory(args)
    if args.resume and not args.records:
        raise CliError("--resume reads the records of an earlier run: give their directory with --records DIR")
    game = load_game(args.game, parse_options(args.options))
    if args.plot is not None:  # before the tournament, so that a bad name does not lose its hours
        check_plot(args.plot)
    if args.records is not None:
        check_records(args.records)
    seed = args.seed
    if seed is None and args.resume:
        seed = seed_of_records(args.records, game.name)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    show_bar = console.is_terminal and not args.json
    res = run(game, args.seats, args.deals, seed, executor, console, progress=show_bar, records_dir=args.records,
              resume=args.resume)  # fmt: skip
    if args.plot:
        plot(res, args.plot)
        res["plot"] = args.plot
    print_summary(res, console, args.json)
    return 0


def cmd_analyse(args: argparse.Namespace, console: Any) -> int:
    from stichkit.analysis import SolveError
    from stichkit.arena.executors import ExecutorError

    from .analyse import analyse_file

    if args.options:
        raise CliError("unrecognized arguments: " + " ".join(args.options))
    try:
        return analyse_file(args.file, console, as_json=args.json, every=args.all, engine=args.engine,
                            fmt=args.record_format, full=args.full, executor=executor_factory(args))  # fmt: skip
    except (SolveError, ExecutorError) as e:
        raise CliError(str(e)) from None


def cmd_replay(args: argparse.Namespace, console: Any, input_fn: Any) -> int:
    from .replay import replay_file

    wait = None
    if args.step:
        if input_fn is not None:
            wait = lambda: input_fn("")
        elif sys.stdin.isatty():
            wait = lambda: console.input("[dim]Enter: next move, q: stop[/dim] ")
    return replay_file(args.file, console, seat=args.seat, wait=wait, cards=args.cards)
