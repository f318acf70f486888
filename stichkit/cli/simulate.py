"""`stich simulate`: bots against bots, many games, one results table (or JSON).

Game i is played with seed S+i and every bot is seeded from it, so a run repeats exactly, with
any number of worker processes. The games are streamed to the workers and summed up as they
come back, so a run of any length needs no more memory than a short one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import stichkit
from stichkit.bots import CHEAT_NOTE, is_cheating

from .common import CliError
from .render import renderer_for


def simulate(
    game: stichkit.Game,
    seats: list[str],
    games: int,
    seed: int,
    executor: Callable[[], Any],
    console: Console,
    *,
    progress: bool,
) -> dict[str, Any]:
    """Play `games` games (streamed: any number costs no memory) on the executor that
    `executor()` makes, and sum them up."""
    from stichkit.arena.simulation import SimulatedGame

    options = game.portable_options()
    tasks = (SimulatedGame(game.name, options, tuple(seats), seed + i) for i in range(games))
    results = _played(executor, tasks, games)
    tally = Tally(game.num_players)
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("Playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("games", total=games)
            for r in results:
                tally.add(r)
                bar.advance(task)
    else:
        for r in results:
            tally.add(r)
    return summarize(game, seats, games, seed, tally)


def _played(
    executor: Callable[[], Any], tasks: Iterable[Any], games: int
) -> Iterator[tuple[list[int], list[int], int]]:
    from stichkit.arena.executors import ExecutorError
    from stichkit.arena.simulation import play_simulated

    try:
        with executor() as ex:
            chunk = max(1, min(64, games // (ex.workers * 8)))  # short games: fewer, larger units
            yield from ex.map(play_simulated, tasks, chunk=chunk)
    except ExecutorError as e:
        raise CliError(str(e)) from None


class Tally:
    """The games' sums, kept as they come in."""

    def __init__(self, n: int) -> None:
        self.wins = [0] * n
        self.totals = [0] * n
        self.moves = 0

    def add(self, result: tuple[list[int], list[int], int]) -> None:
        scores, winners, moves = result
        for s in winners:
            self.wins[s] += 1
        for s, x in enumerate(scores):
            self.totals[s] += x
        self.moves += moves


def summarize(game: stichkit.Game, seats: list[str], games: int, seed: int, tally: Tally) -> dict[str, Any]:
    n = game.num_players
    wins, totals = tally.wins, tally.totals
    per_seat = [
        {"seat": s, "bot": seats[s], "cheats": is_cheating(seats[s]), "wins": wins[s], "win_rate": wins[s] / games,
         "mean_score": totals[s] / games}
        for s in range(n)
    ]  # fmt: skip
    out: dict[str, Any] = {
        "game": game.name,
        "options": dict(game.options),
        "games": games,
        "seed": seed,
        "seats": seats,
        "per_seat": per_seat,
        # Bots that see all hands (`open`): their results are an evaluation upper bound, not play.
        "cheating": sorted({b for b in seats if is_cheating(b)}),
    }
    teams = renderer_for(game).teams()
    if any(len(t) > 1 for t in teams):
        out["per_team"] = [
            {
                "seats": list(t),
                "bots": [seats[s] for s in t],
                "wins": wins[t[0]],
                "win_rate": wins[t[0]] / games,
                "mean_score": totals[t[0]] / games,
            }
            for t in teams
        ]
    out["mean_moves"] = tally.moves / games
    return out


def print_results(res: dict[str, Any], console: Console, as_json: bool) -> None:
    if as_json:
        console.out(json.dumps(res, indent=2), highlight=False)
        return
    title = f"{res['game']} · {res['games']} games · seeds {res['seed']}..{res['seed'] + res['games'] - 1}"
    table = Table(title=title, title_justify="left")
    for col, just in (("Seat", "right"), ("Bot", "left"), ("Wins", "right"), ("Win rate", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    table.add_column("Mean score", justify="right")
    for row in res["per_seat"]:
        rate, mean = f"{row['win_rate']:.1%}", f"{row['mean_score']:.1f}"
        table.add_row(str(row["seat"]), _bot_cell(row["bot"]), str(row["wins"]), rate, mean)
    console.print(table)
    if "per_team" in res:
        teams = Table(title="Teams", title_justify="left")
        for col in ("Seats", "Bots", "Wins", "Win rate", "Mean score"):
            teams.add_column(col, justify="left" if col in ("Seats", "Bots") else "right")
        for row in res["per_team"]:
            teams.add_row(
                "+".join(map(str, row["seats"])),
                ", ".join(_bot_cell(b) for b in row["bots"]),
                str(row["wins"]),
                f"{row['win_rate']:.1%}",
                f"{row['mean_score']:.1f}",
            )
        console.print(teams)
    if res["cheating"]:
        console.print(f"[red]{CHEAT_NOTE}:[/red] " + ", ".join(res["cheating"]))
    console.print(f"[dim]{res['mean_moves']:.1f} decisions per game on average[/dim]")


def _bot_cell(bot: str) -> str:
    return escape(bot) + (" [red](CHEATS: sees all hands)[/red]" if is_cheating(bot) else "")
