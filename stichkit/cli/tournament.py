"""`stich tournament`: duplicate deals between bots, with intervals, ratings, a chart and records.

    stich tournament jass --seats ismcts,heuristic,ismcts,heuristic --deals 50 --workers 2
    stich tournament jass --seats ismcts:iterations=2000,heuristic,ismcts:iterations=2000,heuristic --deals 500 \
        --executor ray --ray-address 10.0.0.5:6379 --records runs/jass --resume

Bots are written `name` or `name:key=value:...` (e.g. `ismcts:time=0.2`). See docs/arena.md.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from stichkit.core import Game, OptionError, RecordError
from stichkit.core.errors import quote

from .common import CliError, check_path

NEED_ARENA = "this needs the arena extra (openskill, matplotlib): pip install 'stichkit[arena]'"


def parse_specs(text: str, num_players: int, game: str | None = None) -> list[Any]:
    from stichkit.arena import parse_bot

    words = [w for w in text.split(",")]
    if len(words) != num_players:
        raise CliError(f"--seats names {len(words)} bots, but this game has {num_players} seats")
    try:
        return [parse_bot(w, game) for w in words]
    except OptionError as e:
        raise CliError(str(e)) from None


def run(
    game: Game,
    seats: str,
    deals: int,
    seed: int,
    executor: Callable[[], Any],
    console: Console,
    *,
    progress: bool,
    records_dir: str | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    from stichkit.arena import run_tournament, schedule, summarize
    from stichkit.arena.executors import ExecutorError
    from stichkit.arena.records import read_finished, record_name, write_record

    specs = parse_specs(seats, game.num_players, game.name)
    try:
        import openskill  # noqa: F401
    except ImportError:
        raise CliError(NEED_ARENA) from None
    out_dir = None
    if records_dir is not None:
        out_dir = Path(records_dir)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot make {records_dir}: {e.strerror or e}") from None
    tasks = schedule(game, specs, deals, seed)
    try:
        finished = read_finished(out_dir, tasks) if resume and out_dir is not None else {}
    except RecordError as e:
        raise CliError(str(e)) from None
    total = len(tasks) - len(finished)
    for r in finished.values():
        r.record = None

    def keep(r: Any) -> None:
        if out_dir is not None:
            write_record(out_dir, game.name, r)
        r.record = None  # on disk now: a long run keeps only the results in memory

    def play(on_result: Callable[[Any], None]) -> list[Any]:
        """The games not played yet, on the executor the command chose (started only now)."""
        try:
            with executor() as ex:
                return run_tournament(game, specs, deals, seed, executor=ex, records=out_dir is not None,
                                      on_result=on_result, finished=finished)  # fmt: skip
        except ExecutorError as e:
            kept = f". The games played so far are in {out_dir}: --resume goes on from them" if out_dir else ""
            raise CliError(f"{e}{kept}") from None

    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("Playing"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"), TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("games", total=total)

            def step(r: Any) -> None:
                keep(r)
                bar.advance(task)

            results = play(step)
    else:
        results = play(keep)
    summary = summarize(game, specs, deals, seed, results)
    if finished:
        summary["resumed_games"] = len(finished)
    if out_dir is not None:
        summary["records"] = str(out_dir)
        index = [{"file": record_name(game.name, r.deal, r.rotation), "deal": r.deal, "seed": r.seed,
                  "rotation": r.rotation, "players": r.players, "scores": r.scores, "winners": r.winners}
                 for r in results]  # fmt: skip
        (out_dir / "index.json").write_text(json.dumps({"summary": summary, "games": index}, indent=1) + "\n",
                                            encoding="utf-8")  # fmt: skip
    return summary


def share_interval(share: float, half: float | None) -> str:
    """A win share with its 95% interval, clipped to 0-100% (a share cannot leave that range)."""
    if half is None:
        return f"{share:.1%}"
    lo, hi = max(0.0, share - half), min(1.0, share + half)
    return f"{share:.1%} ({lo * 100:.1f}–{hi * 100:.1f}%)"


def score_interval(mean: float, half: float | None) -> str:
    return f"{mean:.1f}" if half is None else f"{mean:.1f} ± {half:.1f}"


WIDE = 110  # columns a full table needs; narrower terminals get one block per bot


def print_summary(res: dict[str, Any], console: Console, as_json: bool) -> None:
    if as_json:
        console.out(json.dumps(res, indent=2), highlight=False)
        return
    title = (f"{res['game']} · duplicate tournament · {res['deals']} deals × {len(res['rotations'])} rotations "
             f"= {res['games']} games · seeds {res['seed']}..{res['seed'] + res['deals'] - 1}")  # fmt: skip
    rows = []
    for row in res["bots"]:
        rating = row.get("rating")
        rows.append({
            "bot": escape(row["bot"]) + (" [red](CHEATS: sees all hands)[/red]" if row["cheats"] else ""),
            "seats": str(row["seats"]),
            "score": score_interval(row["mean_score"], row["score_ci95"]),
            "share": share_interval(row["win_share"], row["win_share_ci95"]),
            "even": f"{row['even_share']:.0%}",
            "rate": f"{row['win_rate']:.1%}",
            "rating": "–" if rating is None else f"{rating['mu']:.1f} ± {rating['sigma']:.1f}",
            "speed": "–" if row["seconds_per_decision"] is None else f"{row['seconds_per_decision']:.3f}",
        })  # fmt: skip
    if console.width >= WIDE:
        table = Table(title=title, title_justify="left")
        for col in ("Bot", "Seats", "Mean score ± 95%", "Win share (95% interval)", "Even", "Win rate", "Rating",
                    "s/dec"):  # fmt: skip
            table.add_column(col, justify="left" if col == "Bot" else "right")
        for r in rows:
            table.add_row(r["bot"], r["seats"], r["score"], r["share"], r["even"], r["rate"], r["rating"], r["speed"])
        console.print(table)
    else:  # a narrow terminal: one block per bot, nothing squeezed
        console.print(f"[b]{escape(title)}[/b]")
        for r in rows:
            console.print(f"\n[b]{r['bot']}[/b]  [dim]plays {r['seats']} seat(s) of each game[/dim]")
            console.print(f"  mean score  {r['score']}  (95%)")
            console.print(f"  win share   {r['share']}, even {r['even']}")
            console.print(f"  win rate    {r['rate']}")
            console.print(f"  rating      {r['rating']}")
            console.print(f"  s/decision  {r['speed']}")
    fell_back = [(row["bot"], row["fallbacks"]) for row in res["bots"] if row.get("fallbacks")]
    if fell_back:
        console.print("[yellow]fallback moves (the bot failed to answer; a legal fallback was played):[/yellow] "
                      + ", ".join(f"{escape(bot)} {n}" for bot, n in fell_back))  # fmt: skip
    if res["cheating"]:
        console.print("[red]cheats: sees all hands; evaluation upper bound only:[/red] " + ", ".join(res["cheating"]))
    if "records" in res:
        console.print(
            f"[dim]records of every game in {escape(res['records'])} (replay one with `stich replay FILE`)[/dim]"
        )
    if res.get("resumed_games"):
        console.print(f"[dim]{res['resumed_games']} games read back from the records of an earlier run[/dim]")
    console.print(f"[dim]{res['mean_moves']:.1f} decisions per game on average[/dim]")


def plot(res: dict[str, Any], path: str) -> None:
    """A bar chart of each bot's mean score with its 95% interval (matplotlib, no display needed)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CliError(NEED_ARENA) from None
    rows = res["bots"]
    names = [r["bot"] + (" (cheats)" if r["cheats"] else "") for r in rows]
    means = [r["mean_score"] for r in rows]
    errs = [r["score_ci95"] or 0.0 for r in rows]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(rows) + 1), 3.6))
    colors = ["#c0392b" if r["cheats"] else "#2e86c1" for r in rows]
    ax.bar(range(len(rows)), means, yerr=errs, capsize=6, color=colors)
    ax.set_xticks(range(len(rows)), names, rotation=15, ha="right")
    ax.set_ylabel("mean game score (95% interval)")
    ax.set_title(f"{res['game']}: {res['deals']} duplicate deals, {res['games']} games")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)


def check_plot(path: str) -> None:
    """Before the tournament: the chart's file name has a format matplotlib writes, in a directory
    that exists (an error after hours of play would lose them)."""
    check_path(path, "--plot", for_writing=True)
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CliError(NEED_ARENA) from None
    formats = Figure().canvas.get_supported_filetypes()
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in formats:
        raise CliError(
            f"--plot {quote(path, 200)}: the file name must end in one of {', '.join('.' + f for f in formats)}"
        )


def check_records(directory: str) -> None:
    """Before the tournament: --records is a directory we can make and write to."""
    check_path(directory, "--records")
    where = Path(directory)
    try:
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=where):
            pass
    except OSError as e:
        raise CliError(f"--records {quote(directory, 200)} is not a directory stichkit can write to: "
                       f"{e.strerror or e}") from None  # fmt: skip


def seed_of_records(records_dir: str, game: str) -> int | None:
    """The seed of an earlier run whose records are in `records_dir` (for --resume without --seed)."""
    from stichkit.arena.records import records_seed

    try:
        return records_seed(Path(records_dir), game)
    except RecordError as e:
        raise CliError(f"{e}; pass --seed") from None
