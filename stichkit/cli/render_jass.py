"""Jass on the terminal: the table seen from one seat, the trump choice, tricks, Weis, Stöck, scores.

Seats are named from the viewer: play runs counter-clockwise (the next player is seat - 1), so
the player after you sits on your Right, your Partner opposite, and the player before you on
your Left. Seats 0+2 play against 1+3.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.jass.cards import DECK, LAST_TRICK_BONUS, MODE_NAMES, MODES, POINTS, STRENGTH, SUIT_NAMES_DE, SUITS

from .render import Renderer, View

SUIT_STYLE = {"D": "yellow", "H": "red", "S": "dark_orange3", "C": "green"}
POSITIONS = ("You", "Left", "Partner", "Right")  # by (seat - me) mod 4
TRUMP_ALIASES = {
    "obenabe": "obe", "oben": "obe", "undenufe": "une", "unten": "une", "schieben": "push", "schiebe": "push",
    **{name.lower(): suit for name, suit in zip(SUIT_NAMES_DE, SUITS, strict=True)},
    **{suit.lower(): suit for suit in SUITS},
}  # fmt: skip
HELP = """\
[b]Playing a card[/b]: its name, any case ([b]H10[/b], [b]sj[/b]), or its number in your hand.
[b]Choosing trump[/b]: [b]H[/b] or [b]trump:H[/b] (suits D Käse, H Zug, S Schokolade, C Berg), [b]obe[/b] / [b]une[/b] \
(schieber profile), [b]push[/b] to leave the choice to your partner, or the choice's number.
[b]Commands[/b]: [b]help[/b], [b]save[/b] [FILE], [b]quit[/b].
Play passes to the right (counter-clockwise). Only the cards shown bright may be played now."""


def card_text(card: str, playable: bool = True) -> Text:
    style = SUIT_STYLE.get(card[:1], "") + " bold" if playable else "dim"
    return Text(card, style=style)


def card_markup(card: str) -> str:
    return f"[{SUIT_STYLE.get(card[:1], 'bold')} bold]{card}[/]"


def mode_name(mode: str | None) -> str:
    return "—" if mode is None else MODE_NAMES[MODES.index(mode)]


def trick_winner(cards: list[dict[str, Any]], trump: str) -> tuple[int, int]:
    """Winner seat and card points of a full trick, from public cards (for a deal's last trick,
    which the next deal's view no longer lists)."""
    mode = MODES.index(trump)
    idx = [DECK.parse(c["card"]) for c in cards]
    led = idx[0] // 9
    best = max(range(len(idx)), key=lambda i: STRENGTH[mode][led][idx[i]])
    return cards[best]["seat"], sum(POINTS[mode][c] for c in idx)


class JassRenderer(Renderer):
    def seat_label(self, seat: int, me: int | None) -> str:
        return f"Seat {seat}" if me is None else POSITIONS[(seat - me) % 4]

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def _team_name(self, team: int, me: int | None) -> str:
        return self.team_label(self.teams()[team], me)

    # -- the screen -----------------------------------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        if view["phase"] in ("trump", "pushed"):
            return list(legal)
        return list(view["hand"])

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, me), self._table(view, me)]
        if view["tricks"]:
            parts.append(self._last_trick(view["tricks"][-1], me))
        if log:
            parts.append(Text.from_markup("\n".join(log[-6:]), style="dim"))
        if me is not None:
            parts.append(self._hand(view, legal))
        return Group(*parts)

    def _header(self, view: View, me: int | None) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        s, d = view["scores"], view["deal_points"]
        us, them = (0, 1) if me is None or me % 2 == 0 else (1, 0)
        grid.add_row(
            "Score",
            f"[b]{self._team_name(us, me)} {s[us]}[/b]  ·  [b]{self._team_name(them, me)} {s[them]}[/b]"
            f"   [dim](first to {view['target']}; this deal {d[us]} : {d[them]})[/dim]",
        )
        grid.add_row("Trump", self._trump_line(view, me))
        if view["weis_scored_by"] is None:
            off = view["options"].get("weis") == "off"
            weis = "[dim]off[/dim]" if off else "[dim]shown after the first trick[/dim]"
        elif view["weis"]:
            weis = "; ".join(f"{self.seat_name(w['seat'], me)} {w['text']}" for w in view["weis"])
        else:
            weis = "[dim]none[/dim]"
        grid.add_row("Weis", weis)
        if view["stoeck"] is not None:
            grid.add_row("Stöck", f"{self.seat_name(view['stoeck'], me)} +20")
        won = [0, 0]
        for t in view["tricks"]:
            won[t["winner"] % 2] += 1
        grid.add_row("Tricks", f"{self._team_name(us, me)} {won[us]}  ·  {self._team_name(them, me)} {won[them]}")
        title = f"Jass · deal {view['deal_number'] + 1} · profile {view['profile']}"
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def _trump_line(self, view: View, me: int | None) -> str:
        fore = view["forehand"]
        if view["trump"] is None:
            if view["pushed"]:
                return f"{self.seat_name(fore, me)} pushed; {self.seat_name((fore + 2) % 4, me)} chooses"
            return f"{self.seat_name(fore, me)} chooses (or pushes)"
        line = f"[b]{mode_name(view['trump'])}[/b], chosen by {self.seat_name(view['trump_chosen_by'], me)}"
        if view["pushed"]:
            line += f" (pushed by {self.seat_name(fore, me)})"
        return line

    def _table(self, view: View, me: int | None) -> RenderableType:
        base = 0 if me is None else me
        played = {c["seat"]: c["card"] for c in view["trick"]}
        turn = view["current_player"]

        def cell(seat: int) -> Text:
            text = Text(self.seat_name(seat, me), style="bold" if seat == turn else "")
            text.append("\n")
            if seat in played:
                text.append_text(card_text(played[seat]))
                if view["trick"] and view["trick"][0]["seat"] == seat:
                    text.append(" led", style="dim")
            elif seat == turn:
                choosing = view["phase"] in ("trump", "pushed")
                text.append("choosing trump…" if choosing else "to play…", style="italic")
            else:
                text.append("·", style="dim")
            return text

        grid = Table.grid(padding=(0, 4))
        for _ in range(3):
            grid.add_column(justify="center", min_width=14)
        left, partner, right = (base + 1) % 4, (base + 2) % 4, (base + 3) % 4
        grid.add_row("", cell(partner), "")
        grid.add_row(cell(left), "", cell(right))
        grid.add_row("", cell(base), "")
        return Panel(grid, title="Table", title_align="left", box=box.ROUNDED, expand=False)

    def _last_trick(self, trick: dict[str, Any], me: int | None) -> Text:
        line = Text("Last trick: ", style="dim")
        for i, card in enumerate(trick["cards"]):
            seat = (trick["leader"] - i) % 4
            line.append(f"{self.seat_label(seat, me)} ")
            line.append_text(card_text(card))
            line.append("  ")
        line.append(f"→ {self.seat_name(trick['winner'], me)} ({trick['points']} points)")
        return line

    def _hand(self, view: View, legal: list[str]) -> Text:
        line = Text("Your hand  ", style="bold")
        numbered = view["phase"] == "play"
        playable = set(legal) if numbered and legal else set(view["hand"])
        for n, card in enumerate(view["hand"], 1):
            if n > 1 and card[0] != view["hand"][n - 2][0]:
                line.append("│ ", style="dim")
            if numbered:
                line.append(f"{n}:", style="" if card in playable else "dim")
            line.append_text(card_text(card, card in playable))
            line.append("  ")
        if not numbered and legal:
            line.append("\nChoose     ", style="bold")
            for n, action in enumerate(legal, 1):
                label = "push" if action == "push" else mode_name(action.partition(":")[2])
                line.append(f"{n}:{label}  ")
        return line

    def prompt(self, view: View, legal: list[str]) -> str:
        if view["phase"] in ("trump", "pushed"):
            return f"Trump [{' '.join(a.removeprefix('trump:') for a in legal)}] > "
        return f"Your card [{' '.join(legal)}] > "

    def normalize(self, text: str, view: View, legal: list[str]) -> str:
        text = super().normalize(text, view, legal)
        if view["phase"] in ("trump", "pushed"):
            key = text.lower().removeprefix("trump:")
            key = TRUMP_ALIASES.get(key, key)
            if key == "push":
                return "push"
            return f"trump:{key.upper() if len(key) == 1 else key}"
        return text

    def help(self) -> str:
        return HELP

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action == "push":
            return [f"{who} pushes; {self.seat_name((seat + 2) % 4, me)} chooses trump"]
        if action.startswith("trump:"):
            return [f"{who} chooses trump [b]{mode_name(action.partition(':')[2])}[/b]"]
        lines = [f"{who} plays {card_markup(action)}"]
        new_deal = after["deal_number"] != before["deal_number"]
        if len(after["tricks"]) > len(before["tricks"]) and not new_deal:
            t = after["tricks"][-1]
            lines.append(f"  → {self.seat_name(t['winner'], me)} takes the trick ({t['points']} points)")
        elif new_deal:
            cards = [*before["trick"], {"seat": seat, "card": action}]
            winner, points = trick_winner(cards, before["trump"])
            lines.append(f"  → {self.seat_name(winner, me)} takes the last trick ({points + LAST_TRICK_BONUS} points)")
        if not new_deal and before["weis_scored_by"] is None and after["weis_scored_by"] is not None:
            if after["weis"]:
                for w in after["weis"]:
                    lines.append(f"  Weis: {self.seat_name(w['seat'], me)} shows {w['text']}")
            else:
                lines.append("  No Weis this deal")
        stoeck = None
        if not new_deal and before["stoeck"] is None and after["stoeck"] is not None:
            stoeck = after["stoeck"]
        elif new_deal and before["stoeck"] is None and after["previous_deals"][-1]["stoeck"][seat % 2]:
            stoeck = seat
        if stoeck is not None:
            lines.append(f"  Stöck! {self.seat_name(stoeck, me)} held trump King and Queen (+20)")
        return lines

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        deals = after["previous_deals"]
        if len(deals) == len(before["previous_deals"]):
            return None
        d = deals[-1]
        us, them = (0, 1) if me is None or me % 2 == 0 else (1, 0)
        running = [sum(x["total"][t] for x in deals) for t in (0, 1)]
        title = f"Deal {d['deal'] + 1}: {mode_name(d['trump'])}, chosen by {self.seat_name(d['chooser'], me)}"
        if d["pushed"]:
            title += " after a push"
        if not d["complete"]:
            title += " (game decided during the deal)"
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("")
        table.add_column(self._team_name(us, me), justify="right")
        table.add_column(self._team_name(them, me), justify="right")
        rows = [("Trick points", d["trick_points"]), ("Weis", d["weis"]), ("Stöck", d["stoeck"])]
        match = [100 if d["match"] == t else 0 for t in (0, 1)]
        rows.append(("Match", match))
        if any(d["voided"]):
            rows.append(("Voided by match", [-v for v in d["voided"]]))
        for label, pair in rows:
            table.add_row(label, str(pair[us]), str(pair[them]))
        table.add_row("[b]Deal total[/b]", f"[b]{d['total'][us]}[/b]", f"[b]{d['total'][them]}[/b]", end_section=True)
        table.add_row("Game score", str(running[us]), str(running[them]))
        return Group(Text(title, style="bold"), table)

    def final(self, view: View, me: int | None) -> RenderableType:
        winners = view["winners"] or []
        s = view["scores"]
        if not winners:
            return Text("The game is not finished.")
        team = winners[0] % 2
        names = " and ".join(self.seat_name(w, me) for w in sorted(winners))
        label = self._team_name(team, me)
        verdict = "win" if me is None or me % 2 != team else "win!"
        text = f"Game over: {label} ({names}) {verdict}  {s[team]} : {s[1 - team]}"
        return Panel(Text(text, style="bold"), box=box.DOUBLE, expand=False)


RENDERER = JassRenderer
