"""Stichwahl on the terminal: the trump board (family + marker), every player's bonus cards, the
trick with pearls, the prize choice with what each prize gives, and the scores. Views only."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.stichwahl.cards import FAMILIES, FAMILY_NAMES, NAMES, PEARL

from .render import Renderer, View

STYLE = {"O": "bright_black", "P": "dark_orange3", "N": "cyan", "B": "blue", "5": "magenta"}
HELP = """\
[b]Play a card[/b]: its name ([b]N2[/b], [b]b9[/b], [b]5a[/b]) or its number.
[b]Use a bonus card[/b] before playing: [b]use:O8[/b] (flip the marker) or [b]use:O3:N[/b] (make Narwal trump).
[b]First bonus card[/b]: [b]bonus:N2[/b] or just [b]N2[/b]. [b]Prize[/b]: [b]prize:N2[/b] or [b]N2[/b]. \
[b]Next leader[/b]: [b]lead:2[/b] or the seat number.
Marker 9: the highest trump wins, else the highest of the led family; marker 1: the lowest. A 5 may always \
be played and takes the led family. Numbers pick from the numbered choices.
[b]Commands[/b]: [b]help[/b], [b]save[/b] [FILE], [b]quit[/b]."""


def card_markup(name: str, table: Any = None) -> str:
    style = STYLE.get(name[0], "")
    pearls = ""
    if table is not None:
        pearls = "•" * table.pearls[NAMES.index(name)]
    return f"[{style} bold]{name}[/]{f'[dim]{pearls}[/dim]' if pearls else ''}"


class StichwahlRenderer(Renderer):
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.table = game.table  # the game's own table: never read again from a path a record names

    def _card(self, name: str) -> str:
        return card_markup(name, self.table)

    def _bonus_text(self, name: str) -> str:
        c = self.table.cards[NAMES.index(name)]
        kind = c.bonus_kind
        what = {"flip": "flip ⇅", "pearl": "pearl +1", "none": "—"}.get(kind, "trump→" + "/".join(c.trump_families))
        return f"{self._card(name)} [dim]({what})[/dim]"

    def choices(self, view: View, legal: list[str]) -> list[str]:
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, me), self._players(view, me)]
        if view["tricks"]:
            parts.append(Text.from_markup(self._trick_line(view["tricks"][-1], me, "Last trick")))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._hand(view, legal, me))
        return Group(*parts)

    def _header(self, view: View, me: int | None) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        fam = FAMILIES.index(view["trump"])
        marker = "9 — highest wins" if view["marker"] == 9 else "1 — lowest wins"
        grid.add_row("Trump", f"[b]{FAMILY_NAMES[fam]}[/b] ({view['trump']})   marker [b]{marker}[/b]")
        grid.add_row("Scores", "  ".join(f"{self.seat_name(s, me)} {p}" for s, p in enumerate(view["scores"]))
                     + f"   [dim](to {view['target']})[/dim]")  # fmt: skip
        pile = f"   draw pile {view['draw_pile']}" if view["options"]["players"] < 4 else ""
        grid.add_row("Deal", f"{view['deal_number'] + 1}, started by {self.seat_name(view['starter'], me)}{pile}")
        return Panel(grid, title="Stichwahl", title_align="left", box=box.ROUNDED, expand=False)

    def _players(self, view: View, me: int | None) -> RenderableType:
        t = Table(box=box.SIMPLE_HEAD)
        for col in ("Player", "Cards", "Bonus cards", "Point pile", "Deal points", "Trick"):
            t.add_column(col)
        played = {p["seat"]: p["card"] for p in view["trick"]}
        for s in range(len(view["hand_sizes"])):
            bonus = " ".join(self._bonus_text(c) for c in view["bonus_cards"][s]) or "[dim]none[/dim]"
            if view["first_bonus"] is None:
                bonus = "[dim]choosing…[/dim]" if not view["first_bonus_chosen"][s] else "[dim]chosen (hidden)[/dim]"
            name = self.seat_name(s, me)
            if s == view["current_player"]:
                name = f"[b]▶ {name}[/b]"
            cell = self._card(played[s]) if s in played else ""
            t.add_row(name, str(view["hand_sizes"][s]), bonus, str(view["point_piles"][s]),
                      str(view["deal_points"][s]), cell)  # fmt: skip
        led = view["led_family"]
        title = "Trick" + (f" — led {FAMILY_NAMES[FAMILIES.index(led)]}" if led else "")
        return Panel(t, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def _trick_line(self, t: dict[str, Any], me: int | None, label: str) -> str:
        cards = "  ".join(f"{self.seat_label(p['seat'], me)} {self._card(p['card'])}" for p in t["plays"])
        got = f"{t['taken'] + t['from_draw_pile']} cards"
        line = f"[dim]{label}:[/dim] {cards} → {self.seat_name(t['winner'], me)} chose {self._card(t['prize'])}, {got}"
        if t["bonus_to"] is not None:
            line += f"; {self.seat_name(t['bonus_to'], me)} keeps it as a bonus"
        if t["pearl_to"] is not None:
            line += f"; {self.seat_name(t['pearl_to'], me)} +1 (pearl)"
        return line

    def _hand(self, view: View, legal: list[str], me: int) -> Text:
        text = Text.from_markup("[b]Your hand[/b]  " + "  ".join(self._card(c) for c in view["hand"]))
        if view.get("my_first_bonus"):
            text.append_text(Text.from_markup(f"\nYour first bonus card: {self._bonus_text(view['my_first_bonus'])}"))
        if legal:
            text.append("\nChoices   ", style="bold")
            for i, a in enumerate(legal, 1):
                text.append_text(Text.from_markup(f"{i}:{self._describe(a, view)}  "))
        return text

    def _describe(self, action: str, view: View) -> str:
        kind, _, rest = action.partition(":")
        if kind == "bonus":
            return f"lay {self._bonus_text(rest)}"
        if kind == "use":
            card, _, fam = rest.partition(":")
            return f"use {self._card(card)} ({'flip' if not fam else 'trump→' + FAMILY_NAMES[FAMILIES.index(fam)]})"
        if kind == "prize":
            c = NAMES.index(rest)
            n = len(view["hand_sizes"])
            if c >= 32:
                return f"prize {self._card(rest)} (1 point, no bonus)"
            pearls = self.table.pearls[c]
            got = min(pearls, n - 1) + min(max(0, pearls - (n - 1)), view["draw_pile"])
            owner = next(p["seat"] for p in view["trick"] if p["card"] == rest)
            what = "+1 at once" if self.table.kind[c] == PEARL else "bonus card"
            return f"prize {self._card(rest)} (you {got}, {self.seat_label(owner, view['seat'])} {what})"
        if kind == "lead":
            return f"{self.seat_name(int(rest), view['seat'])} leads"
        return self._card(action)

    def prompt(self, view: View, legal: list[str]) -> str:
        what = {"first_bonus": "First bonus card", "prize": "Your prize", "lead": "Who leads next"}
        return f"{what.get(view['phase'], 'Your move')} > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        if view["phase"] == "lead" and text.strip().isdigit():
            return "lead:" + text.strip()  # the help promises: a seat number names the next leader
        text = super().normalize(text, view, legal)
        prefix = {"first_bonus": "bonus:", "prize": "prize:", "lead": "lead:"}.get(view["phase"])
        if prefix and not text.lower().startswith(prefix):
            return prefix + text
        return text

    def help(self) -> str:
        return HELP

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        kind, _, rest = action.partition(":")
        if kind == "bonus":
            lines = [f"{who} lays a first bonus card"]
            if after["first_bonus"] is not None and before["first_bonus"] is None:
                shown = [f"{self.seat_label(s, me)} {self._bonus_text(c)}" for s, c in enumerate(after["first_bonus"])]
                lines.append("  First bonus cards: " + ", ".join(shown))
            return lines
        if kind == "use":
            card, _, fam = rest.partition(":")
            effect = "flips the marker" if not fam else f"makes {FAMILY_NAMES[FAMILIES.index(fam)]} trump"
            return [f"{who} uses {self._card(card)}: {effect}"]
        if kind == "prize":
            t = after["tricks"][-1] if after["deal_number"] == before["deal_number"] else None
            if t is None:
                return [f"{who} chooses {self._card(rest)}; the deal is over"]
            return [self._trick_line(t, me, "Trick")]
        if kind == "lead":
            return [f"{who} decides: {self.seat_name(int(rest), me)} leads"]
        return [f"{who} plays {self._card(action)}"]

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        deals = after["previous_deals"]
        if len(deals) == len(before["previous_deals"]):
            return None
        d = deals[-1]
        t = Table(box=box.SIMPLE_HEAD, title=f"Deal {d['deal'] + 1}")
        for col in ("Player", "Point pile", "Unused bonus", "Deal points", "Total"):
            t.add_column(col)
        for s, pts in enumerate(d["points"]):
            t.add_row(self.seat_name(s, me), str(d["point_piles"][s]), str(d["unused_bonus"][s]), str(pts),
                      str(after["scores"][s]))  # fmt: skip
        return t

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = view["winners"] or []
        names = ", ".join(self.seat_name(w, me) for w in winners)
        return Panel(Text(f"Game over: {names} wins with {view['scores']}", style="bold"), box=box.DOUBLE, expand=False)


RENDERER = StichwahlRenderer
