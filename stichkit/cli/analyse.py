"""`stich analyse RECORD`: every card decision of a Jass game against the double-dummy solver.

RECORD is a stichkit record (one game of many deals) or a jass-kit game record or game log (one
deal a game, one game a line); `--format auto` tells them apart by their content. A jass-kit file
is read by the interop module's own reader (stichkit.interop.jasskit: read_games, import_game), and
each game is analysed on its own; a game that is malformed or breaks the rules is reported, named
by its line, and skipped (exit status 1).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import stichkit
from stichkit.analysis.endgame import Review, SeatTotal, sum_totals
from stichkit.analysis.review import (
    Analysis,
    GameResult,
    PartResult,
    analyse_part,
    assemble,
    engines_used,
    games_json,
    parts,
)
from stichkit.arena.executors import Executor, SerialExecutor
from stichkit.core.errors import RecordError, StichkitError, quote
from stichkit.core.files import decode_text, read_file

from .common import CliError

FORMATS = ("auto", "stichkit", "jasskit")
EXIT_SKIPPED = 1  # some games of a jass-kit file were skipped (the others are analysed)
NEITHER = (
    'is neither a stichkit record (a JSON object with "format": "stichkit-record": a --save, --records or '
    'stich import file) nor a jass-kit game record or game log (JSON objects with "dealer", "trump" and '
    '"tricks", or log lines {"game": ..., "date": ..., "player_ids": ...}, one a line); --format stichkit '
    "or --format jasskit reads it as one of them and says what does not fit"
)


@dataclass
class Source:
    """What a file holds: the games to analyse and the ones that could not be read."""

    kind: str  # "stichkit" or "jasskit"
    games: list[GameEntry] = field(default_factory=list)
    skipped: list[GameEntry] = field(default_factory=list)


@dataclass
class GameEntry:
    """One game of a file: its number (from 1), where it is, and its state or why it has none."""

    number: int
    where: str
    state: Any = None
    error: str = ""
    jasskit: dict[str, Any] = field(default_factory=dict)  # the dealer and, from a log, date and player ids


def analyse_file(path: str, console: Console, *, as_json: bool = False, every: bool = False,
                 engine: str = "auto", fmt: str = "auto", full: bool | None = None,
                 executor: Callable[[], Executor] | None = None) -> int:  # fmt: skip
    """Print the analysis of the record(s) in `path`: tables, or the JSON document (--json).
    `full` None: the tables solve the first two tricks of a deal by value only, the JSON document
    holds every legal card's value (as in its first version); True or False chooses for both.
    `executor` makes where the deals are solved (stich tournament's --workers and --executor;
    default: in this process). Returns the exit status: 0, or EXIT_SKIPPED when games of a
    jass-kit file were skipped."""
    every_card = as_json if full is None else full
    source = load(path, fmt)
    if source.kind == "stichkit" and source.games[0].state.game.name == "differenzler":
        return analyse_differenzler(source.games[0].state, console, as_json=as_json, every=every, path=path)
    if source.kind == "stichkit" and source.games[0].state.game.name == "coiffeur":
        return analyse_coiffeur(source.games[0].state, console, as_json=as_json, every=every, path=path)
    todo = [p for n, entry in enumerate(source.games) for p in parts(entry.state, engine, full=every_card, game=n)]
    solved: dict[int, list[PartResult]] = {n: [] for n in range(len(source.games))}
    label = "" if source.kind == "stichkit" else f"{len(source.games)} games "
    with (
        _progress(console, sum(p.cards for p in todo), label, enabled=not as_json) as advance,
        (executor or SerialExecutor)() as ex,
    ):
        if ex.name == "serial":  # in this process: the bar moves with every decision
            for part in todo:
                solved[part.game].append(analyse_part(part, partial(advance, 1)))
        else:  # deal by deal, as the workers finish them
            for _, result in ex.completed(analyse_part, todo):
                solved[result.game].append(result)
                advance(len(result.decisions))
    results = [
        GameResult(entry.number, entry.where, assemble(entry.state, solved[n], engine), entry.jasskit)
        for n, entry in enumerate(source.games)
    ]
    used = engines_used([r.analysis.engine for r in results], engine)
    if as_json:
        doc = results[0].analysis.to_json() if source.kind == "stichkit" else games_json(
            results, [(e.number, e.where, e.error) for e in source.skipped], used
        )  # fmt: skip
        print(json.dumps(doc, ensure_ascii=False))
        if source.skipped:
            err = Console(stderr=True, highlight=False)
            for e in source.skipped:
                err.print(f"[yellow]skipped:[/yellow] {escape(e.error)}")
    elif source.kind == "stichkit":
        print_analysis(results[0].analysis, console, path=path, every=every)
    else:
        print_games(results, source.skipped, console, path=path, every=every, engine=used)
    return EXIT_SKIPPED if source.skipped else 0


def analyse_differenzler(state: Any, console: Console, *, as_json: bool, every: bool, path: str) -> int:
    """A Differenzler game against the predictions: the last tricks of each deal, every hand and
    prediction known (stichkit.analysis.differenzler). Per seat the cards reviewed, the errors and
    the penalty points they cost; with --all every reviewed card; --json the whole review."""
    from stichkit.analysis.differenzler import ENDGAME_TRICKS, review_game

    review = review_game(state)
    if as_json:
        print(json.dumps(review.to_json(), ensure_ascii=False))
        return 0
    console.print(f"[b]{escape(path)}[/b]: Differenzler, the last {ENDGAME_TRICKS} tricks of every deal, each "
                  "player playing on to its own prediction with every hand known")  # fmt: skip
    console.print(_review_table(review, "Against the prediction", "Penalty lost"))
    shown = review.cards if every else [c for c in review.cards if c.loss > 0]
    for c in shown:
        best = ", ".join(c.best)
        console.print(f"deal {c.deal + 1} trick {c.trick}: seat {c.seat} played {c.played} (penalty {c.penalty}); "
                      f"best {best} (penalty {c.best_penalty}), cost {c.loss}")  # fmt: skip
    return 0


def analyse_coiffeur(state: Any, console: Console, *, as_json: bool, every: bool, path: str) -> int:
    """A Coiffeur game: the last tricks of each deal solved double-dummy, the announcing team for
    the most it can write, the others for the least (stichkit.analysis.coiffeur). Per seat the
    cards reviewed, the errors and the points (before the multiplier) they cost."""
    from stichkit.analysis.coiffeur import ENDGAME_TRICKS, review_game

    review = review_game(state)
    if as_json:
        print(json.dumps(review.to_json(), ensure_ascii=False))
        return 0
    console.print(f"[b]{escape(path)}[/b]: Coiffeur, the last {ENDGAME_TRICKS} tricks of every deal with every "
                  "hand known, valued by what the announcing team writes (before the multiplier)")  # fmt: skip
    console.print(_review_table(review, "Double dummy", "Points lost"))
    shown = review.cards if every else [c for c in review.cards if c.loss > 0]
    for c in shown:
        console.print(f"deal {c.deal + 1} trick {c.trick}: seat {c.seat} played {c.played} (writes {c.value}); "
                      f"best {', '.join(c.best)} (writes {c.best_value}), cost {c.loss}")  # fmt: skip
    return 0


def _review_table(review: Review[Any], title: str, lost: str) -> Any:
    """Per seat the cards of the last tricks reviewed, the errors, and what they cost (`lost`)."""
    table = Table(title=title, title_justify="left")
    for col in ("Seat", "Cards", "Errors", lost):
        table.add_column(col, justify="left" if col == "Seat" else "right")
    for t in review.totals():
        table.add_row(str(t.seat), str(t.decisions), str(t.errors), str(t.lost))
    return table


# -- reading --------------------------------------------------------------------------------------


def load(path: str, fmt: str = "auto") -> Source:
    """The games in the file at `path`, read as `fmt` (auto: by the content). A file that cannot be
    read, or fits neither format, is a CliError; a bad game in a jass-kit file is skipped with its
    reason (a file whose every game is bad is a CliError naming the first)."""
    if fmt not in FORMATS:
        raise CliError(f"--format {quote(fmt)} is not one of {', '.join(FORMATS)}")
    try:
        text = decode_text(read_file(path, "the record file", RecordError), f"the record file {quote(path, 200)}",
                           RecordError)  # fmt: skip
    except RecordError as e:
        raise CliError(str(e)) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    if fmt == "auto":
        fmt = detect(text)
        if not fmt:
            raise CliError(f"{quote(path, 200)} {NEITHER}")
    if fmt == "stichkit":
        try:
            state = stichkit.replay(text)
        except StichkitError as e:
            raise CliError(f"{quote(path, 200)} is not a record stichkit can replay: {e}") from None
        except RecursionError:
            raise CliError(f"{quote(path, 200)} is not a record stichkit can replay: nested too deeply") from None
        if state.game.name not in ("jass", "differenzler", "coiffeur"):
            raise CliError(
                f"stich analyse works on Jass, Differenzler and Coiffeur records; {path} is a {state.game.name} record"
            )
        return Source("stichkit", [GameEntry(1, path, state)])
    return load_jasskit(text, path)


def detect(text: str) -> str:
    """A file's format from its content: "stichkit", "jasskit", or "" when it looks like neither.
    A game log is jass-kit's when any of its lines is a jass-kit game (bad lines are the reader's
    to report)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a huge number, nested too deeply
        for line in text.splitlines():
            try:
                if _jasskit_like(json.loads(line)):  # a game log: one JSON object a line
                    return "jasskit"
            except (ValueError, RecursionError):
                continue
        return ""
    if isinstance(data, dict) and data.get("format") == "stichkit-record":
        return "stichkit"
    return "jasskit" if _jasskit_like(data) else ""


def _jasskit_like(data: Any) -> bool:
    """A jass-kit game record (its own keys) or a game-log entry (a game object under "game")."""
    return isinstance(data, dict) and (
        isinstance(data.get("game"), dict) or bool({"dealer", "tricks", "jassTyp"} & set(data))
    )


def load_jasskit(text: str, path: str) -> Source:
    """Every game of a jass-kit file, read and replayed by the interop module (read_games,
    import_game): the same checks as `stich import jasskit`."""
    from stichkit.interop.jasskit import JasskitError, import_game, read_games

    source = Source("jasskit")
    for n, (where, data) in enumerate(read_games(text.splitlines(keepends=True), path), 1):
        entry = GameEntry(n, where)
        try:
            if isinstance(data, JasskitError):  # a line that is not JSON
                raise data
            record = import_game(data, where)
            entry.state = stichkit.replay(record)
            entry.jasskit = record["jasskit"]
        except StichkitError as e:  # JasskitError included: malformed, or impossible under the rules
            entry.error = f"game {n}, {e}" if str(e).startswith(where) else f"game {n}, {where}: {e}"
        except RecursionError:
            entry.error = f"game {n}, {where}: nested too deeply"
        (source.skipped if entry.error else source.games).append(entry)
    if not source.games:
        if not source.skipped:
            raise CliError(f"{quote(path, 200)} holds no jass-kit game")
        first = source.skipped[0].error
        raise CliError(f"{quote(path, 200)}: no game could be analysed; {len(source.skipped)} skipped, the first: "
                       f"{first}")  # fmt: skip
    return source


# -- printing -------------------------------------------------------------------------------------


class _progress:
    """One progress bar over the decisions of every game, on the console, or nothing."""

    def __init__(self, console: Console, total: int, label: str, *, enabled: bool) -> None:
        self.console = console
        self.total = total
        self.label = label
        self.enabled = enabled
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.enabled:
            return lambda n: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("Solving {task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        self.bar = Progress(*columns, console=self.console, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task(self.label, total=self.total)

        def advance(n: int) -> None:
            self.bar.advance(task, n)

        return advance

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def print_analysis(result: Analysis, console: Console, *, path: str = "", every: bool = False,
                   header: bool = True, game: str = "") -> None:  # fmt: skip
    """The tables of one game: per deal the cards (those that lost points, or `every` card) and
    the totals per seat, then the game's totals. `game` names the game in the titles."""
    if header:
        opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
        console.print(
            f"[b]Analysis of {escape(path)}[/b]: jass ({escape(opts)}), {len(result.decisions)} cards played, "
            f"solved with all hands known ({result.engine} solver)"
        )
        console.print(VALUE_NOTE)
    for deal, trump in sorted(result.deals.items()):
        name = f"{game}deal {deal + 1}" if game else f"Deal {deal + 1}"
        rows = [d for d in result.decisions if d.deal == deal and (every or d.loss > 0)]
        table = Table(title=f"{name}, trump {trump}: " + ("every card" if every else "cards that lost points"),
                      title_justify="left")  # fmt: skip
        for col in ("Trick", "Seat", "Played", "Value", "Best", "Best value", "Lost"):
            table.add_column(col, justify="left" if col in ("Played", "Best") else "right")
        for d in rows:
            best = " ".join(d.best) + ("" if d.complete else " …")
            table.add_row(str(d.trick), str(d.seat), d.played, str(d.value), best, str(d.best_value),
                          str(d.loss) if d.loss else "")  # fmt: skip
        if rows:
            console.print(table)
            if not all(d.complete for d in rows):
                console.print(PARTIAL_NOTE)
        else:
            console.print(f"[b]{escape(name)}, trump {trump}[/b]: every card was a best card")
        if not game:
            console.print(_totals(result.totals(deal), f"Deal {deal + 1}: points lost per seat"))
    if not result.deals:
        console.print(f"[b]{escape(game.rstrip(': ') or 'The game')}[/b]: no card was played")
    console.print(_totals(result.totals(), f"{game}points lost per seat" if game else
                          "The whole game: points lost per seat"))  # fmt: skip


PARTIAL_NOTE = ("[dim]…: the first two tricks are solved by value only, so another card may be as good as the "
                "best card shown (--full solves every card: slower)[/dim]")  # fmt: skip
VALUE_NOTE = ("[dim]value: points the player's team takes from that card on, both sides playing perfectly "
              "(tricks, last trick, match; not Weis or Stöck)[/dim]")  # fmt: skip


def print_games(results: list[GameResult], skipped: list[GameEntry], console: Console, *, path: str,
                every: bool, engine: str) -> None:  # fmt: skip
    """The tables of each game of a jass-kit file, the totals per seat over all of them, and the
    games skipped with their reasons."""
    total = len(results) + len(skipped)
    opts = ", ".join(f"{k}={v}" for k, v in results[0].analysis.options.items() if k != "first_forehand")
    console.print(
        f"[b]Analysis of {escape(path)}[/b]: {total} jass-kit game{'s' * (total != 1)} (one deal each), "
        f"{len(results)} analysed ({escape(opts)}), solved with all hands known ({engine} solver)"
    )
    console.print(VALUE_NOTE)
    for r in results:
        facts = ", ".join(f"{k} {v}" for k, v in r.jasskit.items())
        console.print(f"[b]Game {r.number}[/b] ({escape(r.where)}{', ' + escape(facts) if facts else ''})")
        print_analysis(r.analysis, console, every=every, header=False, game=f"Game {r.number}: ")
    console.print(_totals(sum_totals(r.analysis.totals() for r in results),
                          f"All {len(results)} games analysed: points lost per seat" if len(results) > 1 else
                          "The game analysed: points lost per seat"))  # fmt: skip
    if skipped:
        console.print(f"[yellow]{len(skipped)} of {total} games skipped[/yellow] (not analysed, not in the totals):")
        for e in skipped:
            console.print(f"  {escape(e.error)}", highlight=False)


def _totals(totals: list[SeatTotal], title: str) -> Any:
    table = Table(title=title, title_justify="left")
    for col in ("Seat", "Team", "Cards", "Errors", "Points lost"):
        table.add_column(col, justify="right")
    for t in totals:
        table.add_row(str(t.seat), str(t.seat & 1), str(t.decisions), str(t.errors), str(t.lost))
    return table
