"""`stich replay`: a saved game move by move, seen by a spectator or by one seat."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from stichkit.core.errors import UndoError

from .common import CliError, read_record
from .render import renderer_for


def replay_file(
    path: str,
    console: Console,
    *,
    seat: int | None = None,
    wait: Callable[[], str] | None = None,
    cards: str = "seed",
) -> int:
    """Print every move of the record in `path`. `wait`, if given, is called between moves (--step)."""
    state = read_record(path)
    game = state.game
    if seat is not None and not 0 <= seat < game.num_players:
        raise CliError(f"--seat {seat} is not a seat of {game.name}; seats are 0..{game.num_players - 1}")
    original = state.record()
    history = state.history()
    for _ in history:  # back to the first deal; the record's deals stay in the state
        try:
            state.undo()
        except UndoError:
            break
    r = renderer_for(game, cards=cards)
    who = "a spectator" if seat is None else f"seat {seat}"
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    console.print(f"[b]Replay of {escape(path)}[/b]: {game.name} ({escape(opts)}), {len(history)} moves, seen by {who}")
    deal_key = "deal_number"
    shown_deal = None
    for i, (mover, action) in enumerate(history):
        before = state.view(None)
        if before.get(deal_key) != shown_deal:
            shown_deal = before.get(deal_key)
            console.rule(f"Deal {shown_deal + 1}" if isinstance(shown_deal, int) else "")
            if seat is not None:
                console.print(Text("Hand of " + r.seat_name(seat, seat) + ": " + " ".join(state.view(seat)["hand"])))
        if wait is not None and i > 0 and wait().strip().lower() in ("q", "quit"):
            return 0
        state.apply(action)
        after = state.view(None)
        for line in r.events(before, after, mover, str(action), seat):
            console.print(line)
        summary = r.deal_summary(before, after, seat)
        if summary is not None:
            console.print(summary)
    if state.record() != original:
        console.print("[yellow]warning: the replayed game differs from the record[/yellow]")
    if state.is_terminal():
        console.print(r.final(state.view(seat), seat))
    else:
        view = state.view(seat)
        console.print(f"[dim]The record ends here, game not finished: {escape(r.score_line(view, seat))}[/dim]")
    return 0
