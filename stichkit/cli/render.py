"""Drawing games from views: one renderer per game, looked up by name, with a plain fallback.

A renderer only ever sees views (`state.view(seat)`), the legal actions of the seat to move and
the action just taken, so nothing hidden can reach the screen. A new game plugs in by adding a
module with a `Renderer` subclass and one line to `_MODULES`.

Besides the screen of a seat about to move, a renderer answers the player's commands: `tricks`
(this deal's tricks), `scores` (every deal so far), `rules` (a short card reference) and the
"why" of a `hint`. The bot behind `hint` is the renderer's `hint_bot`: the game's hint bot from
`stichkit.bots.hint_bot`, which the table server's hints use too.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.bots import hint_bot
from stichkit.core.game import Game

View = dict[str, Any]

# Games with their own renderer, and the module that defines it (its class is `RENDERER`).
_MODULES: dict[str, str] = {
    "jass": "stichkit.cli.render_jass",
}

# The engines' words for a card the mover does not hold (played out of turn, or a typo).
_NOT_HELD = re.compile(r"seat \d+, whose turn it is, does not hold (\S+)")


class Renderer:
    """The plain renderer, good for any game: seat numbers, hand and legal actions as notation."""

    @property
    def hint_bot(self) -> str:
        """The bot that answers `hint` (a name for stichkit.bots.make): the game's, from stichkit.bots."""
        return hint_bot(self.game.name)[0]

    @property
    def hint_params(self) -> dict[str, Any]:
        return hint_bot(self.game.name)[1]

    def __init__(self, game: Game, *, cards: str = "seed") -> None:
        self.game = game
        self.cards = cards  # which names the suits go by on screen (Jass: seed, swiss, french)

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

    def score_line(self, view: View, me: int | None) -> str:
        """The game score in one line, one entry per side (e.g. "You (0) 12 · Seat 1 9")."""
        scores = view.get("scores") or []
        return " · ".join(f"{self.team_label(t, me)} {scores[t[0]]}" for t in self.teams() if t[0] < len(scores))

    # -- the screen of a seat about to move -----------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        """What the numbers on screen stand for, in order (index 1 is the first)."""
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [Text(f"{self.game.name} — {self.score_line(view, me)}", style="bold")]
        parts.extend(Text.from_markup(line, style="dim") for line in log[-6:])
        if view.get("hand"):
            parts.append(Text("Your hand: " + " ".join(view["hand"])))
        parts.append(Text("Choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(self.choices(view, legal), 1))))
        return Group(*parts)

    def trick_status(self, view: View, me: int | None) -> str | None:
        """Who is winning the trick in progress and what it is worth (rich markup), if one is."""
        return None

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

    def refusal(self, error: Exception, view: View) -> str:
        """The engine's reason an action was refused, in the words of the player at the screen.

        The engine speaks of seats ("seat 0, whose turn it is, does not hold H10"), since its callers
        are programs; here the seat is the player reading, so: "you do not hold H10 (your hand: ...)"."""
        text = str(error)
        found = _NOT_HELD.search(text)
        if found:
            hand = " ".join(view.get("hand") or []) or "empty"
            return f"you do not hold {found.group(1)} (your hand: {hand})"
        return text

    def help(self) -> str:
        return "Type an action in notation, or its number."

    # -- the commands: tricks, scores, rules, hint ----------------------------------------------

    def tricks(self, view: View, me: int | None) -> RenderableType:
        """The tricks of the deal in progress (the `tricks` command)."""
        tricks = view.get("tricks") or []
        if not tricks:
            return Text("No trick has been taken in this deal yet.")
        table = Table(box=box.SIMPLE_HEAD, title="Tricks of this deal", title_justify="left")
        for col in ("No.", "Cards", "Taken by"):
            table.add_column(col)
        for i, t in enumerate(tricks, 1):
            cards = t.get("cards") or []
            shown = " ".join(c["card"] if isinstance(c, dict) else str(c) for c in cards)
            table.add_row(str(i), shown, self.seat_name(t["winner"], me))
        return table

    def scores(self, view: View, me: int | None) -> RenderableType:
        """The score of every finished deal and the game score (the `scores` command)."""
        deals = view.get("previous_deals") or []
        teams = self.teams()
        table = Table(box=box.SIMPLE_HEAD, title="Scores", title_justify="left")
        table.add_column("Deal")
        for t in teams:
            table.add_column(self.team_label(t, me), justify="right")
        for i, d in enumerate(deals):
            points = self.deal_points(d)
            table.add_row(str(i + 1), *(str(points[t[0]]) for t in teams))
        scores = view.get("scores") or []
        table.add_row("[b]Game[/b]", *(f"[b]{scores[t[0]]}[/b]" for t in teams), end_section=True)
        if not deals:
            return Group(table, Text("No deal has been finished yet.", style="dim"))
        return table

    def deal_points(self, deal: dict[str, Any]) -> list[int]:
        """What one finished deal (an entry of `previous_deals`) gave each seat."""
        return list(deal.get("points") or deal.get("total") or [])

    def rules(self, view: View) -> RenderableType:
        """A short card reference: card orders, points, what is special now (the `rules` command)."""
        return Text(f"{self.game.name}: see docs/{self.game.name}.md for the rules.")

    def menu_number(self, view: View, action: str) -> int | None:
        """The number that picks `action` from the menu on screen, if one does."""
        menu = self.choices(view, view.get("legal_actions") or [])
        return menu.index(action) + 1 if action in menu else None

    def explain(self, view: View, action: str, me: int) -> str | None:
        """Why `action` is a good move here, in a few words, as far as the view tells (for `hint`)."""
        return None

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        """Lines (rich markup) telling what `seat` did with `action`, from public views."""
        return [f"{self.seat_name(seat, me)}: {action}"]

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        """The table of a deal that this action finished, if any."""
        return None

    def final(self, view: View, me: int | None) -> RenderableType:
        """The game-over table: every side's score, the winners marked."""
        winners = set(view.get("winners") or [])
        scores = view.get("scores") or []
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("")
        table.add_column("Score", justify="right")
        table.add_column("")
        ranked = sorted(self.teams(), key=lambda t: -scores[t[0]] if t[0] < len(scores) else 0)
        for t in ranked:
            won = bool(winners & set(t))
            table.add_row(self.team_label(t, me), str(scores[t[0]]), "[b]wins[/b]" if won else "")
        names = " and ".join(self.team_label(t, me) for t in ranked if winners & set(t)) or "nobody"
        verb = "win" if names.startswith(("Us", "You")) or " and " in names else "wins"
        return Panel(Group(Text(f"Game over: {names} {verb}.", style="bold"), table), box=box.DOUBLE, expand=False)


def renderer_for(game: Game, *, cards: str = "seed") -> Renderer:
    """The game's renderer: `RENDERER` in stichkit/cli/render_<game>.py, else the plain one."""
    module = _MODULES.get(game.name, f"stichkit.cli.render_{game.name}")
    if importlib.util.find_spec(module) is None:
        return Renderer(game, cards=cards)
    cls: type[Renderer] = importlib.import_module(module).RENDERER
    return cls(game, cards=cards)
