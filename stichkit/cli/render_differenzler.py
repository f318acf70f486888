"""Differenzler on the terminal: the table seen from one seat, the prediction, tricks, penalties.

Seats are named from the viewer as in Jass (play runs counter-clockwise: the player after you
sits on your Right, opposite you Across, the player before you on your Left), but everybody plays
for themselves. A prediction is typed as a plain number (`48`) or `predict:48`. Another player's
hidden prediction is never shown before the deal ends, not even as the move just made.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.differenzler.cards import MAX_PREDICTION

from .render import Renderer, View
from .render_jass import card_markup, card_text

POSITIONS = ("You", "Left", "Across", "Right")  # by (seat - me) mod 4
SUIT_NAMES = {"D": "Käse", "H": "Zug", "S": "Schokolade", "C": "Berg"}
HELP = f"""\
[b]Predicting[/b]: the points you will take in this deal, 0 to {MAX_PREDICTION}: type [b]48[/b] or [b]predict:48[/b].
[b]Playing a card[/b]: its name, any case ([b]H10[/b], [b]sj[/b]), or its number in your hand.
Your penalty is the difference between your prediction and your points; the lowest total wins."""


class DifferenzlerRenderer(Renderer):
    def seat_label(self, seat: int, me: int | None) -> str:
        if me is None:
            return f"Seat {seat}"
        return POSITIONS[(seat - me) % 4]

    def score_line(self, view: View, me: int | None) -> str:
        pen = view["penalties"]
        return "penalties: " + " · ".join(f"{self.seat_name(s, me)} {pen[s]}" for s in range(4))

    def choices(self, view: View, legal: list[str]) -> list[str]:
        if view.get("phase") == "predict":
            return []  # a number is the prediction itself
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        trump = view["trump"]
        shown = f" (turned up: {card_markup(view['trump_card'])})" if view["trump_card"] else ""
        deal = f"deal {view['deal_number'] + 1} of {view['deals']}"
        dealer = self.seat_name(view["dealer"], me)
        head = f"[b]Differenzler[/b] — {deal} · trump [b]{SUIT_NAMES[trump]} ({trump})[/b]{shown} · dealer {dealer}"
        parts: list[RenderableType] = [Text.from_markup(head), Text(self.score_line(view, me), style="dim")]
        parts.extend(Text.from_markup(line, style="dim") for line in log[-6:])
        table = Table(box=box.SIMPLE_HEAD)
        for col in ("Seat", "Prediction", "Points", "Cards"):
            table.add_column(col, justify="left" if col == "Seat" else "right")
        for s in range(4):
            seen = view["predictions"][s]
            pred = str(seen) if seen is not None else ("hidden" if view["predicted"][s] else "-")
            table.add_row(self.seat_name(s, me), pred, str(view["points"][s]), str(view["hand_sizes"][s]))
        parts.append(table)
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
        if view.get("phase") == "predict" and me is not None:
            parts.append(Text(f"Predict your points for this deal: 0 to {MAX_PREDICTION}."))
        elif legal:
            parts.append(Text("Choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(self.choices(view, legal), 1))))
        return Group(*parts)

    def prompt(self, view: View, legal: list[str]) -> str:
        if view.get("phase") == "predict":
            return f"Your prediction (0-{MAX_PREDICTION}) > "
        return f"Your card [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = text.strip()
        if view.get("phase") == "predict" and text.isdigit():
            return f"predict:{int(text)}"
        return super().normalize(text, view, legal)

    def help(self) -> str:
        return HELP

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        """What `seat` did: a card, or that it predicted; the number only if the viewer may know it."""
        if action.startswith("predict:"):
            if seat == me:
                return [f"You predict {action.split(':', 1)[1]}"]
            if after["options"]["predictions"] == "open":
                return [f"{self.seat_name(seat, me)} predicts {action.split(':', 1)[1]}"]
            return [f"{self.seat_name(seat, me)} has predicted (hidden until the deal ends)"]
        lines = [f"{self.seat_name(seat, me)}: {card_markup(action)}"]
        if len(after["tricks"]) > len(before["tricks"]):
            t = after["tricks"][-1]
            lines.append(f"{self.seat_name(t['winner'], me)} takes the trick ({t['points']} points)")
        return lines

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        if len(after["previous_deals"]) == len(before["previous_deals"]):
            return None
        return self._deal_table(after["previous_deals"][-1], me)

    def _deal_table(self, d: dict[str, Any], me: int | None) -> RenderableType:
        table = Table(box=box.SIMPLE_HEAD, title=f"Deal {d['deal'] + 1}: trump {d['trump']}", title_justify="left")
        for col in ("Seat", "Predicted", "Took", "Penalty"):
            table.add_column(col, justify="left" if col == "Seat" else "right")
        for s in range(4):
            table.add_row(self.seat_name(s, me), str(d["predictions"][s]), str(d["points"][s]), str(d["penalties"][s]))
        return table

    def deal_points(self, deal: dict[str, Any]) -> list[int]:
        return list(deal["penalties"])

    def scores(self, view: View, me: int | None) -> RenderableType:
        deals = view.get("previous_deals") or []
        table = Table(box=box.SIMPLE_HEAD, title="Penalties (predicted / took: penalty)", title_justify="left")
        table.add_column("Deal")
        for s in range(4):
            table.add_column(self.seat_name(s, me), justify="right")
        for d in deals:
            cells = [f"{d['predictions'][s]}/{d['points'][s]}: {d['penalties'][s]}" for s in range(4)]
            table.add_row(str(d["deal"] + 1), *cells)
        table.add_row("[b]Total[/b]", *(f"[b]{p}[/b]" for p in view["penalties"]), end_section=True)
        if not deals:
            return Group(table, Text("No deal has been finished yet.", style="dim"))
        return table

    def rules(self, view: View) -> RenderableType:
        trump = view["trump"]
        text = (f"Trump is {SUIT_NAMES[trump]} ({trump}): J 20, 9 14, A 11, 10 10, K 4, Q 3, the rest 0; trump order "
                "J 9 A K Q 10 8 7 6. Other suits: A 11, 10 10, K 4, Q 3, J 2; order A K Q J 10 9 8 7 6. "
                "The last trick brings 5: 157 a deal. No Weis, no Stöck. Follow suit or trump; follow trump "
                "when it is led (the trump J never has to); no undertrumping. See docs/differenzler.md.")  # fmt: skip
        return Text(text)

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = set(view.get("winners") or [])
        pen = view["penalties"]
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("")
        table.add_column("Penalty", justify="right")
        table.add_column("")
        for s in sorted(range(4), key=lambda s: pen[s]):
            table.add_row(self.seat_name(s, me), str(pen[s]), "[b]wins[/b]" if s in winners else "")
        names = " and ".join(self.seat_name(s, me) for s in sorted(winners))
        verb = "win" if names.startswith("You") or " and " in names else "wins"
        return Panel(Group(Text(f"Game over: {names} {verb}.", style="bold"), table), box=box.DOUBLE, expand=False)


RENDERER = DifferenzlerRenderer
