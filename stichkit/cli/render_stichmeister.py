"""Stich-Meister on the terminal: the rules in force (in German and English), the trump order once
the rules are revealed, the trick with who is winning it and what it is worth, the last trick,
a numbered hand (playable cards bright; the reason comes only when an unplayable card is typed),
rule-card choices, setup picks, and a round summary with what every scoring card gave."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.stichmeister.cards import SUIT_NAMES, SUITS, deck_mask, hand_size

from .render import Renderer, View

SUIT_STYLE = {"F": "magenta", "M": "yellow", "K": "red", "T": "cyan"}
SETUP_VERB = {"pass": "pass", "down": "lay face down", "show": "show", "discard": "discard"}
HELP = """\
[b]Play a card[/b]: its name ([b]K4[/b], [b]t15[/b]) or its number in your hand; only the bright cards may be \
played now (type another and you are told why not).
[b]Choose a rule card[/b]: its number in the menu, or [b]rule:N[/b] with the card's number.
[b]Setup picks[/b] (pass, lay face down, show, discard): the card or its number in your hand.
[b]Remove a card[/b] from the trick you won (rule 34): the card or its number in the menu."""


def card_text(card: str | None, bright: bool = True) -> Text:
    if card is None:
        return Text("▒▒", style="dim")
    return Text(card, style=(SUIT_STYLE.get(card[0], "") + " bold") if bright else "dim")


def card_markup(card: str | None) -> str:
    return "▒▒ (face down)" if card is None else f"[{SUIT_STYLE.get(card[0], 'bold')} bold]{card}[/]"


class StichMeisterRenderer(Renderer):
    # -- the screen -----------------------------------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        """The hand by position while playing or picking cards for a setup rule; else the menu."""
        if view["phase"] == "play":
            return list(view["hand"])
        setup = view.get("setup")
        if view["phase"] == "setup" and setup:
            return [f"{setup['action']}:{c}" for c in view["hand"]]
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, me)]
        if view.get("last_round"):
            parts.append(self.round_table(view["last_round"], view, me))
        if view["active_rules"]:
            parts.append(self._rules_table(view["active_rules"], "Rules in force"))
        else:
            chosen = ", ".join(self.seat_name(s, me) for s in view["chosen"]) or "nobody yet"
            parts.append(Text(f"Choosing rule cards in secret; chosen so far: {chosen}"))
        if view["trick"]:
            trick = Text("Trick: ")
            for t in view["trick"]:
                trick.append(f"{self.seat_label(t['seat'], me)} ")
                trick.append_text(card_text(t["card"]))
                trick.append("  ")
            parts.append(trick)
        status = self.trick_status(view, me)
        if status:
            parts.append(Text.from_markup(status))
        if view.get("last_trick"):
            parts.append(Text.from_markup(self._trick_line(view["last_trick"], me, "Last trick")))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._hand(view, legal, me))
        return Group(*parts)

    def _header(self, view: View, me: int | None) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        grid.add_row("Round", f"{view['round'] + 1} of {view['rounds']}, dealer {self.seat_name(view['dealer'], me)}")
        grid.add_row("Scores", "  ".join(f"{self.seat_name(s, me)} {p}" for s, p in enumerate(view["scores"])))
        if view["active_rules"]:
            grid.add_row(
                "Tricks", "  ".join(f"{self.seat_name(s, me)} {p}" for s, p in enumerate(view["tricks_taken"]))
            )
            grid.add_row("Trump", view["trump_line"] + ("" if view["trump"] else " (this round has no trump)"))
            if view["direction"] < 0:
                grid.add_row("Direction", "counter-clockwise (rule 37)")
        else:
            grid.add_row("Trump", "[dim]set by the rule cards, once everyone has chosen one[/dim]")
        return Panel(grid, title="Stich-Meister", title_align="left", box=box.ROUNDED)

    def _rules_table(self, cards: list[dict[str, Any]], title: str) -> Table:
        rules = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
        rules.add_column("No.", justify="right")
        rules.add_column("kind")
        rules.add_column("rule")
        rules.add_column("Regel", style="dim")
        for r in cards:
            rules.add_row(str(r["number"]), r["kind"], r["text_en"], r["text_de"])
        return rules

    def trick_status(self, view: View, me: int | None) -> str | None:
        if view["phase"] != "play" or not view["trick"]:
            return None
        standing = view.get("trick_winning")
        if standing is None:
            if any(t["face_down"] for t in view["trick"]):
                return "[dim]Who wins is hidden until the face-down cards are turned up (rule 26).[/dim]"
            return "[dim]The first card of a trick cannot win it (rule 29): nobody is winning yet.[/dim]"
        line = f"Winning the trick: [b]{self.seat_name(standing['seat'], me)}[/b] with {card_markup(standing['card'])}"
        if standing["taker"] != standing["seat"]:
            line += f", which goes to {self.seat_name(standing['taker'], me)} (rule 35)"
        value = standing["value"]
        return line + f" · worth {value} point{'s' if abs(value) != 1 else ''} so far"

    def _trick_line(self, t: dict[str, Any], me: int | None, label: str) -> str:
        cards = "  ".join(f"{self.seat_label(c['seat'], me)} {card_markup(c['card'])}" for c in t["cards"])
        win = next((c["card"] for c in t["cards"] if c["seat"] == t["winner"]), "")
        line = f"[dim]{label}:[/dim] {cards} → {self.seat_name(t['winner'], me)} wins with {card_markup(win)}"
        if t["taker"] != t["winner"]:
            line += f", {self.seat_name(t['taker'], me)} takes it"
        if t.get("removed"):
            line += f" ({card_markup(t['removed'])} removed)"
        value = t.get("value")
        if value is not None:
            line += f" · worth {value}"
        return line

    def _hand(self, view: View, legal: list[str], me: int) -> RenderableType:
        lines: list[RenderableType] = []
        if view["rule_hand"] and view["phase"] != "choose":
            lines.append(
                Text("Your rule cards: " + "; ".join(f"{r['number']}: {r['text_en']}" for r in view["rule_hand"]))
            )
        numbered = view["phase"] in ("play", "setup")
        wanted = set(legal)
        setup = view.get("setup")
        prefix = f"{setup['action']}:" if view["phase"] == "setup" and setup else ""
        hand = Text("Your hand  ", style="bold")
        for n, card in enumerate(view["hand"], 1):
            ok = (prefix + card in wanted) if numbered else True
            if n > 1 and card[0] != view["hand"][n - 2][0]:
                hand.append("│ ", style="dim")
            if numbered:
                hand.append(f"{n}:", style="" if ok else "dim")
            hand.append_text(card_text(card, ok))
            hand.append("  ")
        lines.append(hand)
        if view["phase"] == "setup" and setup:
            verb = SETUP_VERB.get(setup["action"], setup["action"])
            to = f" to the {setup['to']}" if setup.get("to") else ""
            picked = " ".join(setup["my_picks"]) or "none yet"
            lines.append(Text(f"Rule {setup['rule']}: {verb} {setup['count']} card(s){to}; picked: {picked}"))
        elif view["phase"] == "choose" and legal:
            by_number = {r["number"]: r for r in view["rule_hand"]}
            menu = Table.grid(padding=(0, 1))
            for i, a in enumerate(legal, 1):
                r = by_number.get(int(a.partition(":")[2]))
                text = f"{r['text_en']} [dim]({r['text_de']})[/dim]" if r else ""
                menu.add_row(f"{i}:", f"rule {a.partition(':')[2]}", r["kind"] if r else "", Text.from_markup(text))
            lines.append(Text("Choose a rule card:", style="bold"))
            lines.append(menu)
        elif view["phase"] == "remove" and legal:
            lines.append(Text("Remove a card from the trick (rule 34): "
                              + "  ".join(f"{i}:{a.partition(':')[2]}" for i, a in enumerate(legal, 1))))  # fmt: skip
        return Group(*lines)

    def prompt(self, view: View, legal: list[str]) -> str:
        if view["phase"] == "play":
            return f"Your card [{' '.join(legal)}] > "
        return f"Your move [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = super().normalize(text, view, legal)  # a number: the hand position, or the menu entry
        if ":" in text:
            return text
        setup = view.get("setup")
        if view["phase"] == "setup" and setup:
            return f"{setup['action']}:{text}"
        if view["phase"] == "remove":
            return f"remove:{text}"
        return text

    def help(self) -> str:
        return HELP

    # -- the commands ---------------------------------------------------------------------------

    def tricks(self, view: View, me: int | None) -> RenderableType:
        if not view["tricks"]:
            return Text("No trick has been taken in this round yet.")
        table = Table(box=box.SIMPLE_HEAD, title=f"Tricks of round {view['round'] + 1}", title_justify="left")
        for col in ("No.", "Cards, in play order", "Won by", "Taken by", "Worth"):
            table.add_column(col, justify="right" if col in ("No.", "Worth") else "left")
        for i, t in enumerate(view["tricks"], 1):
            cards = "  ".join(f"{self.seat_label(c['seat'], me)} {card_markup(c['card'])}" for c in t["cards"])
            if t.get("removed"):
                cards += f"  [dim]({t['removed']} removed)[/dim]"
            table.add_row(str(i), cards, self.seat_name(t["winner"], me), self.seat_name(t["taker"], me),
                          str(t.get("value", "")))  # fmt: skip
        return table

    def scores(self, view: View, me: int | None) -> RenderableType:
        n = len(view["scores"])
        table = Table(box=box.SIMPLE_HEAD, title="Scores", title_justify="left")
        table.add_column("Round")
        table.add_column("Rule cards")
        for s in range(n):
            table.add_column(self.seat_name(s, me), justify="right")
        for r in view["previous_rounds"]:
            table.add_row(str(r["round"] + 1), " ".join(map(str, r["rules"])), *map(str, r["points"]))
        table.add_row("[b]Game[/b]", "", *(f"[b]{p}[/b]" for p in view["scores"]), end_section=True)
        return table

    def rules(self, view: View) -> RenderableType:
        n = view["options"]["players"]
        values = "2-9, 11, 12, 14, 15" if n == 3 else "1-15"
        parts: list[RenderableType] = [
            Text.from_markup(
                f"[b]Cards[/b]: {', '.join(f'{s} {name}' for s, name in zip(SUITS, SUIT_NAMES, strict=True))}, "
                f"values {values} ({deck_mask(n).bit_count()} cards, {hand_size(n)} each). Without trump rules: "
                "follow the led suit; the highest card of the led suit wins.\n"
                "[b]Points[/b]: every trick is worth 1 point; the scoring cards in force change that.\n"
                f"[b]Trump order[/b] (highest first): {view['trump_line'] if view['active_rules'] else 'not set yet'}"
            )
        ]
        if view["active_rules"]:
            parts.append(self._rules_table(view["active_rules"], "Rule cards in force"))
        else:
            parts.append(Text("Rule cards in force: none yet (they are revealed once everyone has chosen)."))
        if view["rule_hand"]:
            parts.append(self._rules_table(view["rule_hand"], "Your rule cards"))
        return Group(*parts)

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action.startswith("rule:"):
            lines = [f"{who} chooses a rule card"]
            if after["active_rules"] and not before["active_rules"]:
                rules = ", ".join(f"{r['number']} ({r['text_en']})" for r in after["active_rules"])
                lines.append(f"  Revealed: {rules}")
            return lines
        if action.startswith("remove:"):
            lines = [f"{who} removes {card_markup(action.partition(':')[2])} from the trick (rule 34)"]
        elif ":" in action:
            verb = SETUP_VERB.get(action.partition(":")[0], "picks")
            lines = [f"{who} picks a card to {verb}" if seat != me else f"{who} {verb} {action.partition(':')[2]}"]
        else:
            down = after["trick"] and after["trick"][-1]["seat"] == seat and after["trick"][-1]["card"] is None
            lines = [f"{who} plays a card face down" if down else f"{who} plays {card_markup(action)}"]
        new_round = after["round"] != before["round"] or (after["phase"] == "over" and before["phase"] != "over")
        if len(after["tricks"]) > len(before["tricks"]) and not new_round:
            lines.append("  → " + self._trick_line(after["tricks"][-1], me, "trick"))
        elif new_round and after.get("last_trick"):
            lines.append("  → " + self._trick_line(after["last_trick"], me, "last trick of the round"))
        return lines

    def round_table(self, done: dict[str, Any], view: View, me: int | None) -> RenderableType:
        """A finished round: each seat's tricks and points, with what every scoring card gave."""
        n = len(done["points"])
        texts = {c.number: c.text_en for c in self.game.rule_cards}  # type: ignore[attr-defined]
        table = Table(box=box.SIMPLE_HEAD, title=f"Round {done['round'] + 1}", title_justify="left")
        table.add_column("")
        for s in range(n):
            table.add_column(self.seat_name(s, me), justify="right")
        table.add_row("Tricks taken", *map(str, done["tricks_taken"]))
        table.add_row("A point per trick", *map(str, done["tricks_taken"]))
        for step in done["scoring"]:
            label = f"Rule {step['rule']}: {texts.get(step['rule'], '')}"
            table.add_row(label, *(f"{p:+d}" if p else "·" for p in step["points"]))
        table.add_row("[b]Round points[/b]", *(f"[b]{p}[/b]" for p in done["points"]), end_section=True)
        table.add_row("Game score", *map(str, view["scores"]))
        return table

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        if len(after["previous_rounds"]) == len(before["previous_rounds"]):
            return None
        done = after.get("last_round")
        return None if done is None else self.round_table(done, after, me)


RENDERER = StichMeisterRenderer
