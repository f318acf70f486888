"""`stich analyse RECORD`: every card decision of a Jass game against the double-dummy solver."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from stichkit.analysis.review import Analysis, analyse

from .common import CliError, read_record


def analyse_file(path: str, console: Console, *, as_json: bool = False, every: bool = False,
                 engine: str = "auto") -> int:  # fmt: skip
    """Print the analysis of the record in `path`: tables, or the JSON document (--json)."""
    state = read_record(path)
    if state.game.name != "jass":
        raise CliError(f"stich analyse works on Jass records; {path} is a {state.game.name} record")
    if as_json:
        result = analyse(state, engine)
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("Solving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = analyse(state, engine, progress=advance)
    print_analysis(result, console, path=path, every=every)
    return 0


def print_analysis(result: Analysis, console: Console, *, path: str = "", every: bool = False) -> None:
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    console.print(
        f"[b]Analysis of {escape(path)}[/b]: jass ({escape(opts)}), {len(result.decisions)} cards played, "
        f"solved with all hands known ({result.engine} solver)"
    )
    console.print("[dim]value: points the player's team takes from that card on, both sides playing perfectly "
                  "(tricks, last trick, match; not Weis or Stöck)[/dim]")  # fmt: skip
    for deal, trump in sorted(result.deals.items()):
        rows = [d for d in result.decisions if d.deal == deal and (every or d.loss > 0)]
        table = Table(title=f"Deal {deal + 1}, trump {trump}: " + ("every card" if every else "cards that lost points"),
                      title_justify="left")  # fmt: skip
        for col in ("Trick", "Seat", "Played", "Value", "Best", "Best value", "Lost"):
            table.add_column(col, justify="left" if col in ("Played", "Best") else "right")
        for d in rows:
            table.add_row(str(d.trick), str(d.seat), d.played, str(d.value), " ".join(d.best), str(d.best_value),
                          str(d.loss) if d.loss else "")  # fmt: skip
        if rows:
            console.print(table)
        else:
            console.print(f"[b]Deal {deal + 1}, trump {trump}[/b]: every card was a best card")
        console.print(_totals(result, deal, f"Deal {deal + 1}: points lost per seat"))
    console.print(_totals(result, None, "The whole game: points lost per seat"))


def _totals(result: Analysis, deal: int | None, title: str) -> Any:
    table = Table(title=title, title_justify="left")
    for col in ("Seat", "Team", "Cards", "Errors", "Points lost"):
        table.add_column(col, justify="right")
    for t in result.totals(deal):
        table.add_row(str(t.seat), str(t.seat & 1), str(t.decisions), str(t.errors), str(t.lost))
    return table
