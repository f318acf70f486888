"""Coiffeur on the terminal: the table seen from one seat, the mode, the tricks, and both sheets.

Seats are named from the viewer as in Jass (You, Right, Partner, Left; play runs
counter-clockwise). Both sheets are public: the screen shows every row, its multiplier, the mode
played in it and what it scored, for Us and for Them.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .render import Renderer, View
from .render_jass import card_markup, card_text

POSITIONS = ("You", "Left", "Partner", "Right")  # by (seat - me) mod 4
MODE_NAMES = {
    "D": "Käse (D)", "H": "Zug (H)", "S": "Schokolade (S)", "C": "Berg (C)", "obe": "Obenabe", "une": "Undenufe",
    "slalom-obe": "Slalom, Obenabe first", "slalom-une": "Slalom, Undenufe first",
    "guschti-obe": "Guschti, 5 Obenabe then 4 Undenufe", "guschti-une": "Guschti, 5 Undenufe then 4 Obenabe",
}  # fmt: skip
KIND_NAMES = {**MODE_NAMES, "slalom": "Slalom", "guschti": "Guschti", "joker": "Joker"}
HELP = """\
[b]Announcing[/b]: a mode still open on your team's sheet, by its number or its name ([b]trump:obe[/b]),
or [b]push[/b]: to your partner, who must then announce; or, when the table pushes around (push=around,
as Swisslos), to the next player, who may push on, until the choice comes back to the first, who must
announce. Only the announcing team writes its points, times the row's multiplier.
[b]Playing a card[/b]: its name, any case ([b]H10[/b], [b]sj[/b]), or its number in your hand.
When both sheets are full, the higher total wins."""


class CoiffeurRenderer(Renderer):
    def seat_label(self, seat: int, me: int | None) -> str:
        if me is None:
            return f"Seat {seat}"
        return POSITIONS[(seat - me) % 4]

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def choices(self, view: View, legal: list[str]) -> list[str]:
        return list(legal)

    def sheets(self, view: View, me: int | None) -> RenderableType:
        """Both sheets side by side: row, multiplier, and per team the mode played and its score."""
        table = Table(box=box.SIMPLE_HEAD, title="Sheets", title_justify="left")
        table.add_column("Row")
        table.add_column("×", justify="right")
        order = [0, 1] if me is None or me % 2 == 0 else [1, 0]
        for t in order:
            table.add_column(self.team_label(self.teams()[t], me), justify="right")
        sheets = view["sheets"]
        for r, row in enumerate(sheets[0]["rows"]):
            cells = []
            for t in order:
                cell = sheets[t]["rows"][r]
                if cell["points"] is None:
                    cells.append("-")
                else:
                    mode = f"{cell['mode']} " if row["kind"] in ("joker", "slalom", "guschti") else ""
                    cells.append(f"{mode}{cell['points']} = {cell['score']}")
            table.add_row(KIND_NAMES[row["kind"]], str(row["multiplier"]), *cells)
        table.add_row("[b]Total[/b]", "", *(f"[b]{sheets[t]['total']}[/b]" for t in order), end_section=True)
        return table

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        deal = f"deal {view['deal_number'] + 1} of {view['deals']}"
        if view["mode"] is None:
            mover = view["current_player"]
            who = self.seat_name(view["forehand"] if mover is None else mover, me)
            pushers = ", ".join(self.seat_name(s, me) for s in view.get("pushed_by") or ())
            status = f"{who} announces" + (f" (pushed by {pushers})" if pushers else "")
        else:
            status = f"[b]{MODE_NAMES[view['mode']]}[/b] by {self.seat_name(view['chooser'], me)}"
            if view["trick_mode"] and view["trick_mode"] != view["mode"]:
                status += f" · this trick: [b]{MODE_NAMES[view['trick_mode']]}[/b]"
        parts: list[RenderableType] = [Text.from_markup(f"[b]Coiffeur[/b] — {deal} · {status}")]
        parts.append(Text(self.score_line(view, me), style="dim"))
        parts.extend(Text.from_markup(line, style="dim") for line in log[-6:])
        parts.append(self.sheets(view, me))
        if view["trick"]:
            played = "  ".join(f"{self.seat_name(p['seat'], me)}: {card_markup(p['card'])}" for p in view["trick"])
            parts.append(Text.from_markup("Trick: " + played))
        if view.get("hand"):
            hand = Text("Your hand: ")
            playable = set(legal)
            for i, c in enumerate(view["hand"]):
                if i:
                    hand.append(" ")
                hand.append_text(card_text(c, view["phase"] != "play" or c in playable))
            parts.append(hand)
        if legal:
            parts.append(Text("Choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(self.choices(view, legal), 1))))
        return Group(*parts)

    def prompt(self, view: View, legal: list[str]) -> str:
        if view.get("phase") in ("trump", "pushed"):
            if "push" not in legal:
                return "Announce a mode (a number, or trump:NAME) > "
            return "Announce a mode (a number, or trump:NAME) or push > "
        return f"Your card [{' '.join(legal)}] > "

    def help(self) -> str:
        return HELP

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action == "push":
            return [f"{who} pushes"]
        if action.startswith("trump:"):
            return [f"{who} announces {MODE_NAMES[action[6:]]}"]
        lines = [f"{who}: {card_markup(action)}"]
        if len(after["tricks"]) > len(before["tricks"]):
            t = after["tricks"][-1]
            lines.append(f"{self.seat_name(t['winner'], me)} takes the trick ({t['points']} points)")
        return lines

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        if len(after["previous_deals"]) == len(before["previous_deals"]):
            return None
        d = after["previous_deals"][-1]
        team = self.team_label(self.teams()[d["team"]], me)
        row = after["sheets"][d["team"]]["rows"][d["row"]]
        return Text(
            f"Deal {d['deal'] + 1}: {MODE_NAMES[d['mode']]} for {team}: {d['points'][d['team']]} points"
            + (" and the match (257)" if d["tricks"][d["team"]] == 9 else "")
            + f", written {d['written']} × {row['multiplier']} = {d['score']}"
        )

    def deal_points(self, deal: dict[str, Any]) -> list[int]:
        return [deal["score"] if deal["team"] == 0 else 0, deal["score"] if deal["team"] == 1 else 0]

    def rules(self, view: View) -> RenderableType:
        text = (
            "A suit as trump: J 20, 9 14, A 11, 10 10, K 4, Q 3, the rest 0; trump order J 9 A K Q 10 8 7 6. "
            "Obenabe: A high, every 8 counts 8. Undenufe: 6 high, 6 counts 11, 8 counts 8, A nothing. Slalom "
            "alternates Obenabe and Undenufe trick by trick, Guschti plays 5 tricks of one then 4 of the other. "
            "The last trick brings 5, all nine tricks 257. No Weis, no Stöck. Follow suit (or trump); "
            "no undertrumping. See docs/coiffeur.md."
        )
        return Text(text)

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = set(view.get("winners") or [])
        if len(winners) == 4:
            head = "Game over: a draw."
        else:
            team = self.team_label((0, 2) if 0 in winners else (1, 3), me)
            head = f"Game over: {team} {'win' if team in ('Us', 'Them') or '+' in team else 'wins'}."
        return Panel(Group(Text(head, style="bold"), self.sheets(view, me)), box=box.DOUBLE, expand=False)


RENDERER = CoiffeurRenderer
