"""Stichwahl on the terminal: the trump board (family + marker, and the card drawn for it), every
player's bonus cards, the trick with pearls and bonus symbols, the prize choice with what each
prize gives and hands over, and the scores. Views only.

Every card shows its pearls (•) and its bonus symbol: ⇅ flips the marker, +1 is a pearl bonus
(a point at once), →N/B changes trump to a family shown.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.stichwahl.cards import FAMILIES, FAMILY_NAMES, FIRST_FIVE, NAMES, PEARL, VALUES
from stichkit.games.stichwahl.rules import led_family, trick_winner

from .render import Renderer, View

STYLE = {"O": "bright_black", "P": "dark_orange3", "N": "cyan", "B": "blue", "5": "magenta"}
HELP = """\
[b]Play a card[/b]: its name ([b]N2[/b], [b]b9[/b], [b]5a[/b]) or its number in the menu.
[b]Use a bonus card[/b] before playing: [b]use:O8[/b] (flip the marker) or [b]use:O3:N[/b] (make Narwal trump).
[b]First bonus card[/b]: [b]bonus:N2[/b] or just [b]N2[/b]. [b]Prize[/b]: [b]prize:N2[/b] or [b]N2[/b]. \
[b]Next leader[/b]: its number in the menu, or [b]lead:2[/b] for seat 2.
Marker 9: the highest trump wins, else the highest of the led family; marker 1: the lowest. A 5 may always \
be played and counts as a 5 of the led family. A number always picks from the numbered menu.
Symbols: • a pearl, ⇅ flips the marker, +1 a pearl bonus (a point at once), →N changes trump."""


def family_name(letter: str) -> str:
    return f"{FAMILY_NAMES[FAMILIES.index(letter)]} ({letter})"


class StichwahlRenderer(Renderer):
    def __init__(self, game: Any, **display: Any) -> None:
        super().__init__(game, **display)
        self.table = game.table  # the game's own table: never read again from a path a record names

    # -- cards ----------------------------------------------------------------------------------

    def symbol(self, name: str) -> str:
        """The bonus symbol printed on a card: ⇅ flip, +1 pearl, →N/B trump change, "" none."""
        c = self.table.cards[NAMES.index(name)]
        kind = c.bonus_kind
        if kind == "flip":
            return "⇅"
        if kind == "pearl":
            return "+1"
        if kind == "trump":
            return "→" + "/".join(c.trump_families)
        return ""

    def _card(self, name: str) -> str:
        style = STYLE.get(name[0], "")
        pearls = "•" * self.table.pearls[NAMES.index(name)]
        return f"[{style} bold]{name}[/][dim]{pearls}{self.symbol(name)}[/dim]"

    def _bonus_text(self, name: str) -> str:
        c = self.table.cards[NAMES.index(name)]
        kind = c.bonus_kind
        what = {"flip": "flips the marker", "pearl": "a point at once", "none": "no bonus"}.get(
            kind, "makes " + " or ".join(family_name(f) for f in c.trump_families) + " trump"
        )
        return f"{self._card(name)} [dim]({what})[/dim]"

    # -- the screen -----------------------------------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        return list(legal)

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, me), self._players(view, me)]
        status = self.trick_status(view, me)
        if status:
            parts.append(Text.from_markup(status))
        last = view.get("last_trick")
        if last is not None:
            label = "Last trick" if last["deal"] == view["deal_number"] else "Last trick (previous deal)"
            parts.append(Text.from_markup(self._trick_line(last, me, label)))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._hand(view, legal))
        return Group(*parts)

    def _header(self, view: View, me: int | None) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        marker = "9 — highest wins" if view["marker"] == 9 else "1 — lowest wins"
        draws = ", then ".join(self._card(c) for c in view["draws"])
        grid.add_row("Trump", f"[b]{family_name(view['trump'])}[/b]   marker [b]{marker}[/b]")
        grid.add_row("Drawn", f"{draws} [dim](the card drawn for trump and marker; a 5 is drawn again)[/dim]")
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
            bonus = " ".join(self._card(c) for c in view["bonus_cards"][s]) or "[dim]none[/dim]"
            if view["first_bonus"] is None:
                bonus = "[dim]choosing…[/dim]" if not view["first_bonus_chosen"][s] else "[dim]chosen (hidden)[/dim]"
            name = self.seat_name(s, me)
            if s == view["current_player"]:
                name = f"[b]▶ {name}[/b]"
            cell = self._card(played[s]) if s in played else ""
            t.add_row(name, str(view["hand_sizes"][s]), bonus, str(view["point_piles"][s]),
                      str(view["deal_points"][s]), cell)  # fmt: skip
        led = view["led_family"]
        title = "Trick" + (f" — led {family_name(led)}" if led else "")
        return Panel(t, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def _winning(self, plays: list[dict[str, Any]], trump: str, marker: int) -> int:
        """The index (play order) of the card winning `plays` under this trump and marker."""
        cards = [NAMES.index(p["card"]) for p in plays]
        return trick_winner(cards, FAMILIES.index(trump), marker == 9)

    def five_note(self, plays: list[dict[str, Any]], win: int, trump: str, marker: int) -> str | None:
        """Why a 5 takes the trick, when it does (the rule players find least obvious)."""
        card = plays[win]["card"]
        if NAMES.index(card) < FIRST_FIVE:
            return None
        led = led_family([NAMES.index(p["card"]) for p in plays])
        if led < 0:
            return f"{card} takes the trick: only 5s were played, and the first 5 wins"
        fam = FAMILIES[led]
        as_trump = ", which is trump" if fam == trump else ""
        way = "lowest" if marker == 1 else "highest"
        return (
            f"{card} takes the trick: a 5 counts as {family_name(fam)} 5 (the led family{as_trump}), "
            f"and with the marker on {marker} the {way} card wins"
        )

    def trick_status(self, view: View, me: int | None) -> str | None:
        plays = view["trick"]
        if not plays or view["phase"] != "play":
            return None
        win = self._winning(plays, view["trump"], view["marker"])
        seat = plays[win]["seat"]
        prizes = [p["card"] for p in plays if p["seat"] != seat]
        line = f"Winning the trick: [b]{self.seat_name(seat, me)}[/b] with {self._card(plays[win]['card'])}"
        if prizes:
            best = max(prizes, key=lambda c: (self._takes(c, view), c))
            line += f" · worth up to {self._takes(best, view)} cards (prize {self._card(best)})"
        note = self.five_note(plays, win, view["trump"], view["marker"])
        return line + (f"\n[dim]{note}[/dim]" if note else "")

    def _takes(self, card: str, view: View) -> int:
        """Cards a winner gets for this prize now: its pearls, topped up from the draw pile; a 5: 1."""
        c = NAMES.index(card)
        if c >= FIRST_FIVE:
            return 1
        n = len(view["hand_sizes"])
        pearls = self.table.pearls[c]
        return min(pearls, n - 1) + min(max(0, pearls - (n - 1)), view["draw_pile"])

    def _trick_line(self, t: dict[str, Any], me: int | None, label: str) -> str:
        cards = "  ".join(f"{self.seat_label(p['seat'], me)} {self._card(p['card'])}" for p in t["plays"])
        got = f"{t['taken'] + t['from_draw_pile']} cards"
        line = f"[dim]{label}:[/dim] {cards} → {self.seat_name(t['winner'], me)} chose {self._card(t['prize'])}, {got}"
        if t["bonus_to"] is not None:
            line += f"; {self.seat_name(t['bonus_to'], me)} keeps it as a bonus card"
        if t["pearl_to"] is not None:
            line += f"; {self.seat_name(t['pearl_to'], me)} +1 (pearl bonus)"
        win = next(i for i, p in enumerate(t["plays"]) if p["seat"] == t["winner"])
        note = self.five_note(t["plays"], win, t["trump"], t["marker"])
        return line + (f"\n  [dim]{note}[/dim]" if note else "")

    def _hand(self, view: View, legal: list[str]) -> Text:
        text = Text.from_markup("[b]Your hand[/b]  " + "  ".join(self._card(c) for c in view["hand"]))
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
            return f"use {self._card(card)} ({'flip the marker' if not fam else 'make ' + family_name(fam) + ' trump'})"
        if kind == "prize":
            got = self._takes(rest, view)
            if NAMES.index(rest) >= FIRST_FIVE:
                return f"prize {self._card(rest)} (you take 1 card; no bonus is handed over)"
            owner = next(p["seat"] for p in view["trick"] if p["card"] == rest)
            who = self.seat_name(owner, view["seat"])
            c = NAMES.index(rest)
            if self.table.kind[c] == PEARL:
                hands = f"{who} scores +1 at once (pearl bonus)"
            else:
                hands = f"{who} gets it as a bonus card: {self._bonus_text(rest)}"
            return f"prize {self._card(rest)} (you take {got} cards; {hands})"
        if kind == "lead":
            return f"{self.seat_name(int(rest), view['seat'])} leads"
        return self._card(action)

    def prompt(self, view: View, legal: list[str]) -> str:
        what = {"first_bonus": "First bonus card", "prize": "Your prize", "lead": "Who leads next"}
        return f"{what.get(view['phase'], 'Your move')} > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = super().normalize(text, view, legal)  # a number is the menu entry, in every phase
        prefix = {"first_bonus": "bonus:", "prize": "prize:", "lead": "lead:"}.get(view["phase"])
        if prefix and not text.lower().startswith(prefix):
            return prefix + text
        return text

    def help(self) -> str:
        return HELP

    # -- the commands ---------------------------------------------------------------------------

    def tricks(self, view: View, me: int | None) -> RenderableType:
        if not view["tricks"]:
            return Text("No trick has been taken in this deal yet.")
        lines = [self._trick_line(t, me, f"Trick {i}") for i, t in enumerate(view["tricks"], 1)]
        return Text.from_markup("\n".join(lines))

    def rules(self, view: View) -> RenderableType:
        """The card table: pearls and bonus of every card, by family; then how tricks and deals go."""
        table = Table(box=box.SIMPLE_HEAD, title="The cards: pearls • and bonus", title_justify="left")
        table.add_column("Family")
        for v in VALUES:
            table.add_column(str(v), justify="center")
        for f, letter in enumerate(FAMILIES):
            cells = []
            for v in VALUES:
                name = f"{letter}{v}"
                cells.append(f"{'•' * self.table.pearls[NAMES.index(name)]}{self.symbol(name)}")
            table.add_row(f"{FAMILY_NAMES[f]} ({letter})", *cells)
        n = view["options"]["players"]
        notes = [
            "⇅ flips the marker; +1 a point at once for whoever played it; →N changes trump to that family.",
            "The 5s (5a-5d): one pearl, no bonus; may always be played; count as a 5 of the led family."
            if n > 2
            else "Two players play without the 5s.",
            f"Now: trump {family_name(view['trump'])}, marker {view['marker']} "
            f"({'highest' if view['marker'] == 9 else 'lowest'} trump wins, else the "
            f"{'highest' if view['marker'] == 9 else 'lowest'} card of the led family).",
            "The winner chooses one card another player played: takes as many cards as it shows pearls "
            "(topped up from the draw pile); its player keeps it as a bonus card (a pearl bonus scores +1 instead).",
            f"A deal scores 1 point per card in the point pile, +1 for every 2 unused bonus cards; "
            f"first to {view['target']} after a deal wins.",
        ]
        return Group(table, Text.from_markup("\n".join(notes)))

    def explain(self, view: View, action: str, me: int) -> str | None:
        kind, _, rest = action.partition(":")
        if kind == "prize":
            return f"it gives you {self._takes(rest, view)} cards"
        if kind in ("bonus", "use", "lead"):
            return None
        plays = [*view["trick"], {"seat": me, "card": action}]
        if len(plays) == 1:
            return "you lead"
        win = self._winning(plays, view["trump"], view["marker"])
        if plays[win]["seat"] == me:
            return "it takes the trick for now"
        return f"it cannot take the trick from {self.seat_name(plays[win]['seat'], me)}"

    # -- what happened --------------------------------------------------------------------------

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
            effect = "flips the marker" if not fam else f"makes {family_name(fam)} trump"
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


RENDERER = StichwahlRenderer
