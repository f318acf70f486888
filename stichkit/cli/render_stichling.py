"""Stichling on the terminal: the four trick places side by side, everyone's tiles, and for each
card of your hand where it may go and why. The rulebook's German terms stand next to the English
ones (Durchgang, Stich, Siegpunkte-Kärtchen, Anzeigestein, eröffnen, bedienen, abwerfen).

A card is played by its name and target (`G7>2`, `G7>new`), by its name alone when it has one
place to go, or by its number in your hand; when it could go several ways you are told where.
A tile order is typed by its code (`231`: the tiles by size, left to right) or by the tiles'
values (`246`, `2-4-6`).
"""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.stichling.cards import (
    COLOUR_NAMES,
    COLOUR_NAMES_DE,
    COLOURS,
    DEALS,
    HAND_SIZE,
    ORDER_TEXTS,
    ORDERS,
    TILES,
    TOP_VALUE,
)

from .render import Renderer, View

COLOUR_STYLE = {"G": "green", "Y": "yellow", "P": "magenta", "B": "blue"}
HELP = """\
[b]Playing a card[/b]: the card, [b]>[/b] and a trick place 1-4 or [b]new[/b] ([b]G7>2[/b], [b]g7>new[/b]); \
or the card alone ([b]G7[/b]) or its number when it has only one place to go; [b]G7 2[/b] and [b]3>new[/b] work too.
A card follows an open trick of its colour or opens a new trick while a place is free. Only a card that
fits nowhere (no trick of its colour, all four places taken) may be thrown off onto another colour.
[b]Laying out tiles[/b] (Siegpunkte-Kärtchen): the values left to right ([b]246[/b] or [b]2-4-6[/b]), the code \
[b]order:231[/b] or [b]231[/b] (1 = smallest tile), or the choice's number.
German: Stich = trick, eröffnen = open, bedienen = follow, abwerfen = throw off, Anzeigestein = owner's marker."""


def card_text(card: str, playable: bool = True) -> Text:
    return Text(card, style=COLOUR_STYLE.get(card[:1], "") + " bold" if playable else "dim")


def card_markup(card: str) -> str:
    return f"[{COLOUR_STYLE.get(card[:1], 'bold')} bold]{card}[/]"


def colour_name(letter: str) -> str:
    i = COLOURS.index(letter)
    return f"{COLOUR_NAMES[i]} ({COLOUR_NAMES_DE[i]})"


def order_values(view: View, action: str) -> list[int]:
    ranks = ORDERS[ORDER_TEXTS.index(action)]
    return [view["tiles"][r] for r in ranks]


def order_by_values(view: View, text: str) -> str | None:
    """The order action whose tiles, left to right, have the values typed (`246`, `2-4-6`, `2 4 6`)."""
    parts = re.split(r"[\s,/-]+", text.strip())
    if len(parts) == 1:
        parts = list(parts[0])  # one digit per tile: every tile value is below 10
    if not all(p.isdigit() for p in parts):
        return None
    wanted = [int(p) for p in parts]
    return next((a for a in ORDER_TEXTS if order_values(view, a) == wanted), None)


def targets_by_card(legal: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for a in legal:
        card, _, target = a.partition(">")
        if target:
            out.setdefault(card, []).append(target)
    return out


class StichlingRenderer(Renderer):
    # -- the screen -----------------------------------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        if view["phase"] == "order":
            return list(legal)
        return list(view["hand"])

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._players(view, me), self._places(view, me)]
        status = self.trick_status(view, me)
        if status:
            parts.append(Text.from_markup(status))
        last = view.get("last_trick")
        if last is not None:
            parts.append(self._last_trick(last, view, me))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._own_tiles(view))
            parts.append(self._hand(view, legal, me))
        return Group(*parts)

    def _players(self, view: View, me: int | None) -> RenderableType:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for label, justify in (("Player", "left"), ("Tricks (Stiche)", "right"), ("Face up (aufgedeckt)", "right"),
                               ("Tiles seen", "left"), ("Score", "right")):  # fmt: skip
            table.add_column(label, justify=justify)  # type: ignore[arg-type]
        turn = view["current_player"]
        for s in range(view["players"]):
            name = self.seat_name(s, me) + (" ◀" if s == turn else "")
            if s == view["starter"]:
                name += " [dim](starts)[/dim]"
            face = view["face_up"][s]
            if view["phase"] == "order":
                seen = "laying out tiles…" if not view["tiles_laid"][s] else "tiles laid"
            else:
                seen = " ".join(str(t) for t in view["tiles_seen"][s]) or "—"
            table.add_row(
                name, str(view["taken"][s]), "—" if face is None else f"[b]{face}[/b]", seen, str(view["scores"][s])
            )
        tiles = " ".join(str(t) for t in view["tiles"])
        title = (f"Stichling · deal (Durchgang) {min(view['deal_number'], 2) + 1} of 3 · "
                 f"score tiles (Siegpunkte-Kärtchen) {tiles}")  # fmt: skip
        return Panel(table, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def _places(self, view: View, me: int | None) -> RenderableType:
        grid = Table(box=box.ROUNDED, show_header=True, expand=False,
                     caption="owner: who plays the highest card of the led colour (the Anzeigestein)")  # fmt: skip
        for i in range(4):
            grid.add_column(f"Place {i + 1}", min_width=16)
        cells: list[Text] = []
        for place in view["places"]:
            if place is None:
                cells.append(Text("free\n(open a new trick:\neröffnen)", style="dim"))
                continue
            cell = Text()
            cell.append(colour_name(place["led"]) + " led", style=COLOUR_STYLE[place["led"]])
            cell.append("\nowner: ")
            cell.append(self.seat_name(place["owner"], me), style="bold")
            cell.append(f" with {place['best']}")
            for e in place["cards"]:
                cell.append("\n")
                cell.append_text(card_text(e["card"]))
                cell.append(f"  {self.seat_label(e['seat'], me)}", style="dim")
            left = 4 - len(place["cards"])
            cell.append(f"\n{left} more to fill", style="italic dim")
            cells.append(cell)
        grid.add_row(*cells)
        return grid

    def _own_tiles(self, view: View) -> Text:
        line = Text("Your tiles  ", style="bold")
        order = view["tile_order"]
        if order is None:
            line.append("not laid out yet", style="dim")
            return line
        seat = view["seat"]
        taken = view["taken"][seat]
        up = None if taken == 0 else (taken - 1) % 3
        for i, t in enumerate(order):
            line.append(f"[{t}]", style="reverse bold" if i == up else "")
            line.append(f" after {i + 1}/{i + 4} tricks   ", style="dim")
        return line

    def _hand(self, view: View, legal: list[str], me: int) -> RenderableType:
        line = Text("Your hand  ", style="bold")
        hand = view["hand"]
        for n, card in enumerate(hand, 1):
            if n > 1 and card[0] != hand[n - 2][0]:
                line.append("│ ", style="dim")
            line.append(f"{n}:", style="dim")
            line.append_text(card_text(card))
            line.append("  ")
        if view["phase"] == "order":
            line.append("\nLay out   ", style="bold")
            for n, action in enumerate(legal, 1):
                line.append(f"{n}:{'-'.join(map(str, order_values(view, action)))}")
                line.append(f" ({action.removeprefix('order:')})  ", style="dim")
            line.append("\n(left to right: the tile after your 1st/4th, 2nd/5th, 3rd/6th trick)", style="dim")
            return line
        return Group(line, self.where_cards_go(view))

    def where_cards_go(self, view: View) -> Text:
        """For each colour in the hand: where its cards may go now, and why."""
        out = Text()
        places = view["places"]
        free = any(p is None for p in places)
        colours = [c for c in COLOURS if any(card[0] == c for card in view["hand"])]
        for c in colours:
            own = [str(p["place"]) for p in places if p is not None and p["led"] == c]
            out.append(f"  {COLOUR_NAMES[COLOURS.index(c)]:<7}", style=COLOUR_STYLE[c])
            if own and free:
                out.append(f"→ follow (bedienen) on place {', '.join(own)}, or open (eröffnen) a new trick")
            elif own:
                out.append(f"→ follow (bedienen) on place {', '.join(own)} (all four places taken: no new trick)")
            elif free:
                out.append(f"→ open (eröffnen) a new trick only (no {COLOUR_NAMES[COLOURS.index(c)]} trick open)")
            else:
                out.append("→ throw off (abwerfen) onto any place 1-4 (no trick of its colour, no free place)")
            out.append("\n")
        return out

    def prompt(self, view: View, legal: list[str]) -> str:
        if view["phase"] == "order":
            return f"Tiles [{' '.join(a.removeprefix('order:') for a in legal)}] > "
        return f"Your card [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = text.strip()
        if view["phase"] == "order":
            by_values = order_by_values(view, text)
            if by_values is not None:
                return by_values
            if text.isdigit() and len(text) == 3:
                if sorted(text) != ["1", "2", "3"]:
                    tiles = "-".join(map(str, view["tiles"]))
                    raise ValueError(
                        f"{text} is no way to lay out this deal's tiles {tiles}: type their values left to right "
                        f"(e.g. {''.join(map(str, view['tiles'][::-1]))}), a code 123 ... 321, or the menu number"
                    )
                return f"order:{text}"
            return super().normalize(text, view, legal)
        card, sep, target = text.replace(" ", ">", 1).partition(">")
        card, target = card.strip(), target.strip().lower()
        if card.isdigit():
            card = super().normalize(card, view, legal)
        if target in ("n", "new", "neu"):
            target = "new"
        if sep and target:
            return f"{card}>{target}"
        options = targets_by_card(legal)
        match = next((c for c in options if c.lower() == card.lower()), None)
        if match is None:
            if re.fullmatch(r"[GYPBgypb]\d{1,2}", card):
                raise ValueError(f"you do not hold {card.upper()}; your hand: {' '.join(view['hand'])}")
            return text  # not a card: the engine says what is wrong
        where = options[match]
        if len(where) == 1:
            return f"{match}>{where[0]}"
        places = ", ".join(f"{match}>{t}" for t in where)
        raise ValueError(f"{match} may go onto {self._describe_targets(view, match, where)}; type one of {places}")

    def _describe_targets(self, view: View, card: str, where: list[str]) -> str:
        """Each target with what the card would do there: follow or be thrown off, and who owns
        the trick afterwards (or takes it, when the card is the fourth)."""
        me = view["seat"]
        value = int(card[1:])
        parts = []
        for t in where:
            if t == "new":
                free = next(i for i, p in enumerate(view["places"]) if p is None)
                parts.append(f"a new trick (>new: place {free + 1}, yours for now)")
                continue
            p = view["places"][int(t) - 1]
            follows = p["led"] == card[0]
            what = f"follows {COLOUR_NAMES[COLOURS.index(p['led'])]}" if follows else "thrown off, cannot win"
            owner = me if follows and value > int(p["best"][1:]) else p["owner"]
            who = self.seat_name(owner, me)
            if len(p["cards"]) == 3:
                outcome = "the 4th card: " + ("you take the trick" if owner == me else f"{who} takes the trick")
            elif owner == me and p["owner"] != me:
                outcome = "you take it over"
            else:
                outcome = f"{who} keeps it"
            parts.append(f"place {t} ({what}; {outcome})")
        return ", ".join(parts)

    def trick_status(self, view: View, me: int | None) -> str | None:
        """Who owns each open trick and how many cards it still needs; what your next trick turns up."""
        open_ = [p for p in view["places"] if p is not None]
        if not open_ or view["phase"] != "play":
            return None
        parts = [
            f"place {p['place']} [b]{self.seat_name(p['owner'], me)}[/b] with {card_markup(p['best'])} "
            f"({4 - len(p['cards'])} to go)"
            for p in open_
        ]
        line = "Winning: " + " · ".join(parts)
        order = view.get("tile_order")
        if me is not None and order:
            nxt = order[view["taken"][me] % 3]
            line += f"\n[dim]A trick counts one for its taker; your next one turns up your tile {nxt}.[/dim]"
        return line

    def menu_number(self, view: View, action: str) -> int | None:
        if view["phase"] == "order":
            return super().menu_number(view, action)
        card = action.partition(">")[0]
        return view["hand"].index(card) + 1 if card in view["hand"] else None

    def explain(self, view: View, action: str, me: int) -> str | None:
        if action.startswith("order:"):
            return "the tiles laid for the tricks your hand is likely to take"
        card, _, target = action.partition(">")
        return f"{card} onto {self._describe_targets(view, card, [target])}"

    def _last_trick(self, t: dict[str, Any], view: View, me: int | None) -> Text:
        """As Jass's line: the cards with who played them, who took the trick and the tile it turned up."""
        earlier = "" if t["deal"] == view["deal_number"] else ", previous deal"
        line = Text(f"Last trick (place {t['place']}, {colour_name(t['led'])} led{earlier}): ", style="dim")
        for e in t["cards"]:
            line.append(f"{self.seat_label(e['seat'], me)} ")
            line.append_text(card_text(e["card"]))
            line.append("  ")
        line.append(f"→ {self.seat_name(t['winner'], me)} (tile {t['tile']} face up)")
        return line

    def tricks(self, view: View, me: int | None) -> RenderableType:
        done = view["tricks"]
        if not done:
            return Text("No trick has been taken in this deal yet.")
        table = Table(box=box.SIMPLE_HEAD, title="Tricks taken in this deal", title_justify="left")
        for col in ("No.", "Place", "Led", "Cards, in play order", "Taken by"):
            table.add_column(col)
        for i, t in enumerate(done, 1):
            cards = Text()
            for e in t["cards"]:
                cards.append_text(card_text(e["card"]))
                cards.append(f" {self.seat_label(e['seat'], me)}  ", style="dim")
            table.add_row(str(i), str(t["place"]), colour_name(t["led"]), cards, self.seat_name(t["owner"], me))
        return table

    def rules(self, view: View) -> RenderableType:
        n = view["players"]
        tiles = "; ".join(f"deal {d + 1}: {' '.join(map(str, TILES[d]))}" for d in range(DEALS))
        lines = [
            f"[b]Cards[/b]: 1-{TOP_VALUE[n]} in four colours ({', '.join(colour_name(c) for c in COLOURS)}), "
            f"{HAND_SIZE} each; {DEALS} deals (Durchgänge) of {HAND_SIZE} rounds.",
            f"[b]Score tiles[/b] (Siegpunkte-Kärtchen), laid out secretly left to right: {tiles}.",
            "Your 1st, 4th, 7th ... trick turns up the left tile, the 2nd, 5th ... the middle, the 3rd, 6th ... "
            "the right one; the tile face up at the end of the deal scores (no trick: 0).",
            "[b]A card goes[/b] onto an open trick of its colour (bedienen), or opens a new trick (eröffnen) on a "
            "free place; only a card that fits nowhere may be thrown off (abwerfen) onto another colour.",
            "[b]The owner[/b] of a trick played its highest card of the led colour (higher values win); "
            "a thrown-off card never owns. The 4th card fills the trick: its owner takes it at once.",
            "Tricks still open after the 12th round score nothing. After three deals the most points win.",
        ]
        return Text.from_markup("\n".join(lines))

    def help(self) -> str:
        return HELP

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action.startswith("order:"):
            if seat == me:
                return [f"{who} lay out your tiles {'-'.join(map(str, order_values(before, action)))}"]
            return [f"{who} lays out their tiles face down"]
        card, _, target = action.partition(">")
        places = before["places"]
        if target == "new":
            index = next(i for i, p in enumerate(places) if p is None)
            lines = [f"{who} opens (eröffnet) a new trick on place {index + 1} with {card_markup(card)}"]
        else:
            index = int(target) - 1
            led = places[index]["led"]
            verb = "plays (bedient)" if led == card[0] else "throws off (wirft ab)"
            lines = [f"{who} {verb} {card_markup(card)} onto place {index + 1}"]
        same_deal = after["deal_number"] == before["deal_number"] and after["phase"] != "over"
        if same_deal:
            taken_after = after["taken"]
        else:
            taken_after = after["previous_deals"][-1]["taken"] if after["previous_deals"] else before["taken"]
        for s in range(len(taken_after)):
            if taken_after[s] > before["taken"][s]:
                k = taken_after[s]
                lines.append(
                    f"  → {self.seat_name(s, me)} takes the trick (Stich) on place {index + 1} ({self._nth(k)} trick)"
                )
        return lines

    @staticmethod
    def _nth(k: int) -> str:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th") if k not in (11, 12, 13) else "th"
        return f"{k}{suffix}"

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        deals = after["previous_deals"]
        if len(deals) == len(before["previous_deals"]):
            return None
        d = deals[-1]
        table = Table(box=box.SIMPLE_HEAD)
        for label in ("", "Tricks", "Face-up tile", "Points", "Game score"):
            table.add_column(label, justify="right" if label else "left")
        totals = [sum(x["points"][s] for x in deals) for s in range(len(d["points"]))]
        for s in range(len(d["points"])):
            face = d["face_up"][s]
            table.add_row(
                self.seat_name(s, me), str(d["taken"][s]), "none" if face is None else str(face),
                str(d["points"][s]), str(totals[s]),
            )  # fmt: skip
        open_left = sum(1 for p in before["places"] if p is not None)
        note = "Unfinished tricks are discarded and score nothing." if open_left else ""
        return Group(Text(f"Deal {d['deal'] + 1} is over. {note}", style="bold"), table)

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = view["winners"] or []
        if not winners:
            return Text("The game is not finished.")
        names = " and ".join(self.seat_name(w, me) for w in winners)
        scores = "  ".join(f"{self.seat_name(s, me)} {x}" for s, x in enumerate(view["scores"]))
        verb = "share the win" if len(winners) > 1 else "wins"
        return Panel(Text(f"Game over: {names} {verb}.  {scores}", style="bold"), box=box.DOUBLE, expand=False)


RENDERER = StichlingRenderer
