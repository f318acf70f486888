"""Stich-Meister on the terminal: the rules in force with their text, the trump order in one
line, the trick, the hand (playable cards bright, the others with the reason they may not be
played), rule-card choices and setup picks."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .render import Renderer, View

SUIT_STYLE = {"F": "magenta", "M": "yellow", "K": "red", "T": "cyan"}


def card_text(card: str | None, bright: bool = True) -> Text:
    if card is None:
        return Text("▒▒", style="dim")
    return Text(card, style=(SUIT_STYLE.get(card[0], "") + " bold") if bright else "dim")


class StichMeisterRenderer(Renderer):
    def choices(self, view: View, legal: list[str]) -> list[str]:
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        grid.add_row("Round", f"{view['round'] + 1} of {view['rounds']}, dealer {self.seat_name(view['dealer'], me)}")
        grid.add_row("Scores", "  ".join(f"{self.seat_name(s, me)} {p}" for s, p in enumerate(view["scores"])))
        grid.add_row("Tricks", "  ".join(f"{self.seat_name(s, me)} {p}" for s, p in enumerate(view["tricks_taken"])))
        grid.add_row("Trump", view["trump_line"])
        parts: list[RenderableType] = [Panel(grid, title="Stich-Meister", title_align="left", box=box.ROUNDED)]
        if view["active_rules"]:
            rules = Table(box=box.SIMPLE_HEAD, title="Rules in force")
            rules.add_column("No.", justify="right")
            rules.add_column("kind")
            rules.add_column("rule")
            for r in view["active_rules"]:
                rules.add_row(str(r["number"]), r["kind"], r["text_en"])
            parts.append(rules)
        else:
            chosen = ", ".join(self.seat_name(s, me) for s in view["chosen"]) or "nobody yet"
            parts.append(Text(f"Choosing rule cards in secret; chosen so far: {chosen}"))
        trick = Text("Trick: ")
        for t in view["trick"]:
            trick.append(f"{self.seat_label(t['seat'], me)} ")
            trick.append_text(card_text(t["card"]))
            trick.append("  ")
        parts.append(trick)
        if view["tricks"]:
            t = view["tricks"][-1]
            line = " ".join(c["card"] for c in t["cards"])
            parts.append(Text(f"Last trick: {line} → won by {self.seat_name(t['winner'], me)}", style="dim"))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._hand(view, legal))
        return Group(*parts)

    def _hand(self, view: View, legal: list[str]) -> RenderableType:
        lines: list[RenderableType] = []
        if view["rule_hand"]:
            lines.append(
                Text("Your rule cards: " + "; ".join(f"{r['number']}: {r['text_en']}" for r in view["rule_hand"]))
            )
        hand = Text("Your hand  ", style="bold")
        playable = set(legal) if view["phase"] == "play" else set(view["hand"])
        for card in view["hand"]:
            hand.append_text(card_text(card, card in playable))
            hand.append("  ")
        lines.append(hand)
        for card, why in (view.get("illegal_reasons") or {}).items():
            lines.append(Text(f"  {card}: {why}", style="dim"))
        if view["phase"] != "play" and legal:
            lines.append(Text("Choose: " + "  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1))))
        return Group(*lines)

    def prompt(self, view: View, legal: list[str]) -> str:
        return f"Your move [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = super().normalize(text, view, legal)
        if view["phase"] == "choose" and text.isdigit() is False and text.strip().isdigit():
            return f"rule:{text.strip()}"
        setup = view.get("setup")
        if setup and ":" not in text:
            return f"{setup['action']}:{text}"
        if view["phase"] == "remove" and ":" not in text:
            return f"remove:{text}"
        return text

    def help(self) -> str:
        return (
            "Play a card by its name (K4, T15) or number. Choose a rule card with rule:N. Setup picks: the card "
            "name (pass/down/show/discard is added). Commands: help, save [FILE], quit."
        )

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action.startswith("rule:"):
            lines = [f"{who} chooses a rule card"]
            if after["active_rules"] and not before["active_rules"]:
                lines.append("  Revealed: " + ", ".join(str(r["number"]) for r in after["active_rules"]))
            return lines
        if ":" in action and not action.startswith("remove:"):
            return [f"{who} picks a card"]
        shown = (
            action
            if not (before["trick"] and after["trick"] and after["trick"][-1]["card"] is None)
            else "a card face down"
        )
        return [f"{who}: {shown}"]


RENDERER = StichMeisterRenderer
