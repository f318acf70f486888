"""Drawing games from views: one renderer per game, looked up by name, with a plain fallback.

A renderer only ever sees views (`state.view(seat)`), the legal actions of the seat to move and
the action just taken, so nothing hidden can reach the screen. A new game plugs in by adding a
module with a `Renderer` subclass and one line to `_MODULES`.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from stichkit.core.game import Game

View = dict[str, Any]

# Games with their own renderer, and the module that defines it (its class is `RENDERER`).
_MODULES: dict[str, str] = {
    "jass": "stichkit.cli.render_jass",
}


class Renderer:
    """The plain renderer, good for any game: seat numbers, hand and legal actions as notation."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- seats and teams ------------------------------------------------------------------------

    def seat_label(self, seat: int, me: int | None) -> str:
        return "You" if seat == me else f"Seat {seat}"

    def seat_name(self, seat: int, me: int | None) -> str:
        """A label with the seat number, e.g. "Left (1)"."""
        label = self.seat_label(seat, me)
        return f"{label} ({seat})" if label != f"Seat {seat}" else label

    def teams(self) -> list[tuple[int, ...]]:
        """The sides that share a result; individual games have one seat per side."""
        return [(s,) for s in range(self.game.num_players)]

    def team_label(self, team: tuple[int, ...], me: int | None) -> str:
        if len(team) == 1:
            return self.seat_name(team[0], me)
        if me is None:
            return "Team " + "+".join(map(str, team))
        return "Us" if me in team else "Them"

    # -- the screen of a seat about to move -----------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        """What the numbers on screen stand for, in order (index 1 is the first)."""
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [Text(f"{self.game.name} — scores {view.get('scores')}", style="bold")]
        parts.extend(Text.from_markup(line, style="dim") for line in log[-6:])
        if view.get("hand"):
            parts.append(Text("Your hand: " + " ".join(view["hand"])))
        parts.append(Text("Choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(self.choices(view, legal), 1))))
        return Group(*parts)

    def prompt(self, view: View, legal: list[str]) -> str:
        return f"Your move [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        """Player input to action notation: a number picks from `choices`; aliases are expanded."""
        text = text.strip()
        if text.isdigit():
            options = self.choices(view, legal)
            i = int(text)
            if not 1 <= i <= len(options):
                raise ValueError(f"{i} is not a choice; numbers go from 1 to {len(options)}")
            return options[i - 1]
        return text

    def help(self) -> str:
        return "Type an action in notation, or its number."

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        """Lines (rich markup) telling what `seat` did with `action`, from public views."""
        return [f"{self.seat_name(seat, me)}: {action}"]

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        """The table of a deal that this action finished, if any."""
        return None

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = view.get("winners") or []
        names = ", ".join(self.seat_name(s, me) for s in winners)
        return Text(f"Game over. Winners: {names}. Scores: {view.get('scores')}", style="bold")


def renderer_for(game: Game) -> Renderer:
    """The game's renderer: `RENDERER` in stichkit/cli/render_<game>.py, else the plain one."""
    module = _MODULES.get(game.name, f"stichkit.cli.render_{game.name}")
    if importlib.util.find_spec(module) is None:
        return Renderer(game)
    cls: type[Renderer] = importlib.import_module(module).RENDERER
    return cls(game)
