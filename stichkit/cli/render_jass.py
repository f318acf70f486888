"""Jass on the terminal: the table seen from one seat, the trump choice, tricks, Weis, Stöck, scores.

Seats are named from the viewer: play runs counter-clockwise (the next player is seat - 1), so
the player after you sits on your Right, your Partner opposite, and the player before you on
your Left. Seats 0+2 play against 1+3.

Suits keep their letters D H S C everywhere (the notation); their names on screen follow
`--cards`: the seed sheet's (Käse, Zug, Schokolade, Berg), the Swiss German ones (Schellen,
Rosen, Schilten, Eicheln, paired with D H S C as jass-kit pairs them) or the French ones (Ecke,
Herz, Schaufel, Kreuz).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stichkit.games.jass.cards import (
    DECK,
    LAST_TRICK_BONUS,
    MATCH_BONUS,
    MODES,
    POINTS,
    RANKS,
    STOECK_POINTS,
    STRENGTH,
    SUIT_NAMES_DE,
    SUITS,
)
from stichkit.games.jass.profiles import PROFILES

from .render import Renderer, View

SUIT_STYLE = {"D": "yellow", "H": "red", "S": "dark_orange3", "C": "green"}
POSITIONS = ("You", "Left", "Partner", "Right")  # by (seat - me) mod 4
SUIT_NAMES = {
    "seed": SUIT_NAMES_DE,  # the seed sheet's: Käse, Zug, Schokolade, Berg
    "swiss": ("Schellen", "Rosen", "Schilten", "Eicheln"),
    "french": ("Ecke", "Herz", "Schaufel", "Kreuz"),
}
# Every suit name a player may type for trump, whatever `--cards` shows (singular forms too).
_NAME_ALIASES = {"schelle": "D", "ecken": "D", "rose": "H", "schilte": "S", "schaufeln": "S", "eichel": "C"}
TRUMP_ALIASES = {
    "obenabe": "obe", "oben": "obe", "undenufe": "une", "unten": "une", "schieben": "push", "schiebe": "push",
    **{name.lower(): suit for names in SUIT_NAMES.values() for name, suit in zip(names, SUITS, strict=True)},
    **_NAME_ALIASES,
    **{suit.lower(): suit for suit in SUITS},
}  # fmt: skip
HELP = """\
[b]Playing a card[/b]: its name, any case ([b]H10[/b], [b]sj[/b]), or its number in your hand.
[b]Choosing trump[/b]: [b]H[/b] or [b]trump:H[/b] or the suit's name ({suits}), [b]obe[/b] / [b]une[/b] \
(schieber profile), [b]schieben[/b] (or [b]push[/b]) to leave the choice to your partner, or the choice's number.
Play passes to the right (counter-clockwise). Only the cards shown bright may be played now."""


def card_text(card: str, playable: bool = True) -> Text:
    style = SUIT_STYLE.get(card[:1], "") + " bold" if playable else "dim"
    return Text(card, style=style)


def card_markup(card: str) -> str:
    return f"[{SUIT_STYLE.get(card[:1], 'bold')} bold]{card}[/]"


def trick_winner(cards: list[dict[str, Any]], trump: str) -> tuple[int, int]:
    """The seat winning these cards (play order, a whole trick or its start) and their points."""
    mode = MODES.index(trump)
    idx = [DECK.parse(c["card"]) for c in cards]
    led = idx[0] // 9
    best = max(range(len(idx)), key=lambda i: STRENGTH[mode][led][idx[i]])
    return cards[best]["seat"], sum(POINTS[mode][c] for c in idx)


def order_of(mode: int, suit: int) -> list[str]:
    """The ranks of `suit` from highest to lowest when it is led under `mode`."""
    row = STRENGTH[mode][suit]
    return [RANKS[c - suit * 9] for c in sorted(range(suit * 9, suit * 9 + 9), key=lambda c: -row[c])]


class JassRenderer(Renderer):
    def seat_label(self, seat: int, me: int | None) -> str:
        return f"Seat {seat}" if me is None else POSITIONS[(seat - me) % 4]

    def teams(self) -> list[tuple[int, ...]]:
        return [(0, 2), (1, 3)]

    def _team_name(self, team: int, me: int | None) -> str:
        return self.team_label(self.teams()[team], me)

    def score_line(self, view: View, me: int | None) -> str:
        s = view["scores"]
        us, them = (0, 1) if me is None or me % 2 == 0 else (1, 0)
        return f"{self._team_name(us, me)} {s[us]} · {self._team_name(them, me)} {s[them]}"

    # -- names ----------------------------------------------------------------------------------

    def suit_name(self, suit: int) -> str:
        return f"{SUIT_NAMES[self.cards][suit]} ({SUITS[suit]})"

    def mode_name(self, mode: str | None) -> str:
        if mode is None:
            return "—"
        i = MODES.index(mode)
        return self.suit_name(i) if i < 4 else ("Obenabe", "Undenufe")[i - 4]

    def _renamed(self, text: str) -> str:
        """The engine's messages name suits as the seed sheet does; say them as chosen."""
        if self.cards == "seed":
            return text
        for i, suit in enumerate(SUITS):
            text = text.replace(f"{SUIT_NAMES_DE[i]} ({suit})", self.suit_name(i))
        return text

    # -- the screen -----------------------------------------------------------------------------

    def choices(self, view: View, legal: list[str]) -> list[str]:
        if view["phase"] in ("trump", "pushed"):
            return list(legal)
        return list(view["hand"]) + [a for a in ("weis", "stoeck") if a in legal]  # what may be said

    def screen(self, view: View, me: int | None, legal: list[str], log: list[str]) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, me), self._table(view, me)]
        status = self.trick_status(view, me)
        if status:
            parts.append(Text.from_markup(status))
        last = view.get("last_trick")
        if last is not None:
            parts.append(self._last_trick(last, me))
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
            f"   [dim]({_goal(view)}; this deal {d[us]} : {d[them]})[/dim]",
        )
        grid.add_row("Trump", self._trump_line(view, me))
        if view["weis_scored_by"] is None:
            off = view["options"].get("weis") == "off"
            weis = "[dim]off[/dim]" if off else "[dim]shown after the first trick[/dim]"
            said = view.get("announced")
            if said:  # weis="announce": the points are heard at once, the cards come later
                heard = "; ".join(f"{self.seat_name(a['seat'], me)} {' + '.join(map(str, a['points']))}" for a in said)
                weis = f"announced: {heard} {weis}"
        elif view["weis"]:
            weis = "; ".join(f"{self.seat_name(w['seat'], me)} {w['text']}" for w in view["weis"])
        else:
            weis = "[dim]none[/dim]"
        grid.add_row("Weis", weis)
        if view["stoeck"] is not None:
            grid.add_row("Stöck", f"{self.seat_name(view['stoeck'], me)} +{STOECK_POINTS}")
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
                chooser = self.seat_name((fore + 2) % 4, me)
                return f"{self.seat_name(fore, me)} hat geschoben (pushed); {chooser} chooses"
            return f"{self.seat_name(fore, me)} chooses (or schiebt: pushes){self._multipliers_note(view)}"
        line = f"[b]{self.mode_name(view['trump'])}[/b], chosen by {self.seat_name(view['trump_chosen_by'], me)}"
        if (view.get("multiplier") or 1) > 1:
            line += f" [b]· counts ×{view['multiplier']}[/b]"
        if view["pushed"]:
            line += f" (geschoben by {self.seat_name(fore, me)})"
        return line

    def _multipliers_note(self, view: View) -> str:
        """At the trump choice: what each mode counts, when they do not all count once."""
        table = view.get("multipliers") or {}
        modes = [MODES[m] for m in PROFILES[view["profile"]].trump_modes]
        if all(table.get(m, 1) == 1 for m in modes):
            return ""
        return " [dim]· " + ", ".join(f"{self.mode_name(m)} ×{table[m]}" for m in modes) + "[/dim]"

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

    def trick_status(self, view: View, me: int | None) -> str | None:
        if not view["trick"] or view["trump"] is None:
            return None
        seat, points = trick_winner(view["trick"], view["trump"])
        card = next(c["card"] for c in view["trick"] if c["seat"] == seat)
        line = f"Winning the trick: [b]{self.seat_name(seat, me)}[/b] with {card_markup(card)} · worth {points} points"
        if len(view["tricks"]) == 8:
            line += f" + {LAST_TRICK_BONUS} for the last trick"
        return line

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
        if numbered and "weis" in legal:
            mine = " + ".join(str(w["points"]) for w in view.get("own_weis") or [])
            line.append("\nAnnounce   ", style="bold")
            line.append(f"{len(view['hand']) + 1}:weis ({mine}) before your first card, or play it in silence")
        if numbered and "stoeck" in legal:
            n = len(view["hand"]) + 1 + ("weis" in legal)
            line.append("\nStöck      ", style="bold")
            line.append(f"{n}:stoeck before the second of trump King and Queen, or lose it in silence")
        if not numbered and legal:
            line.append("\nChoose     ", style="bold")
            for n, action in enumerate(legal, 1):
                label = "schieben (push)" if action == "push" else self.mode_name(action.partition(":")[2])
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

    def refusal(self, error: Exception, view: View) -> str:
        return self._renamed(super().refusal(error, view))

    def help(self) -> str:
        return HELP.format(suits=", ".join(f"{s} {n}" for s, n in zip(SUITS, SUIT_NAMES[self.cards], strict=True)))

    # -- the commands ---------------------------------------------------------------------------

    def tricks(self, view: View, me: int | None) -> RenderableType:
        if not view["tricks"]:
            return Text("No trick has been taken in this deal yet.")
        table = Table(box=box.SIMPLE_HEAD, title=f"Tricks of deal {view['deal_number'] + 1}", title_justify="left")
        for col, just in (("No.", "right"), ("Cards, in play order", "left"), ("Taken by", "left"),
                          ("Points", "right")):  # fmt: skip
            table.add_column(col, justify=just)  # type: ignore[arg-type]
        for i, t in enumerate(view["tricks"], 1):
            cards = Text()
            for k, card in enumerate(t["cards"]):
                cards.append(f"{self.seat_label((t['leader'] - k) % 4, me)} ")
                cards.append_text(card_text(card))
                cards.append("  ")
            table.add_row(str(i), cards, self.seat_name(t["winner"], me), str(t["points"]))
        return table

    def scores(self, view: View, me: int | None) -> RenderableType:
        us, them = (0, 1) if me is None or me % 2 == 0 else (1, 0)
        table = Table(box=box.SIMPLE_HEAD, title=f"Scores ({_goal(view)})", title_justify="left")
        for col in ("Deal", "Trump", self._team_name(us, me), self._team_name(them, me)):
            table.add_column(col, justify="right" if col not in ("Deal", "Trump") else "left")
        for d in view["previous_deals"]:
            trump = f"{self.mode_name(d['trump'])} by {self.seat_name(d['chooser'], me)}" if d["trump"] else "—"
            table.add_row(str(d["deal"] + 1), trump, str(d["total"][us]), str(d["total"][them]))
        if view["phase"] != "over" and view["trump"] is not None:
            dp = view["deal_points"]
            now = f"{view['deal_number'] + 1} (so far)"
            table.add_row(now, self.mode_name(view["trump"]), str(dp[us]), str(dp[them]))
        s = view["scores"]
        table.add_row("[b]Game[/b]", "", f"[b]{s[us]}[/b]", f"[b]{s[them]}[/b]", end_section=True)
        return table

    def rules(self, view: View) -> RenderableType:
        """Card orders and points for the trump in force (or for every mode while trump is open)."""
        profile = PROFILES[view["profile"]]
        table = Table(box=box.SIMPLE_HEAD, title="Card order (highest first) = points", title_justify="left")
        table.add_column("Suit")
        table.add_column("Order and points")

        def row(label: str, mode: int, suit: int) -> None:
            pts = POINTS[mode][suit * 9 : suit * 9 + 9]
            cells = "  ".join(f"{r}={pts[RANKS.index(r)]}" if pts[RANKS.index(r)] else r for r in order_of(mode, suit))
            table.add_row(label, cells)

        if view["trump"] is not None:
            mode = MODES.index(view["trump"])
            if mode < 4:
                row(f"{self.mode_name(view['trump'])}: trump", mode, mode)
                row("the other suits", mode, (mode + 1) % 4)
            else:
                row(f"{self.mode_name(view['trump'])}: every suit", mode, 0)
        else:
            row("the trump suit", 0, 0)
            row("a suit that is not trump", 0, 1)
            for mode in (m for m in profile.trump_modes if m >= 4):
                row(f"{self.mode_name(MODES[mode])}: every suit", mode, 0)
        seq = profile.sequence_points
        top = next(n for n in range(3, len(seq)) if all(p == seq[n] for p in seq[n:]))
        runs = [f"{n}: {seq[n]}" for n in range(3, top)] + [f"{top}{'+' if top < len(seq) - 1 else ''}: {seq[top]}"]
        fours = ", ".join(f"{RANKS[r]}s {p}" for r, p in enumerate(profile.four_points) if p)
        options = view["options"]
        stoeck = f"; Stöck (trump K and Q) +{STOECK_POINTS}" if options.get("stoeck", True) else ""
        weis = f"cards in a row {', '.join(runs)}; four of a kind: {fours}" if options.get("weis") != "off" else "off"
        notes = [
            "The trump Jack is the Bour, the trump 9 the Nell; the Bour never has to follow trump.",
            "Undertrumping (a lower trump than one in the trick) only with nothing but trumps in hand.",
            f"Last trick +{LAST_TRICK_BONUS}; all nine tricks (match) +{MATCH_BONUS}{stoeck}.",
            f"Weis: {weis}.",
        ]
        if any(m >= 4 for m in profile.trump_modes):
            notes.append("Obenabe: A high, 8s count 8. Undenufe: 6 high, 6s count 11, 8s count 8, Aces 0.")
        mults = view.get("multipliers") or {}
        if any(mults.get(MODES[m], 1) != 1 for m in profile.trump_modes):
            each = ", ".join(f"{self.mode_name(MODES[m])} ×{mults[MODES[m]]}" for m in profile.trump_modes)
            notes.append(f"A deal's points (cards, Weis, Stöck, match) count by its trump: {each}.")
        return Group(table, Text("\n".join(notes)))

    def explain(self, view: View, action: str, me: int) -> str | None:
        if action == "push":
            return "no suit is strong enough to choose trump: your partner chooses (schieben)"
        if action == "weis":
            return "your Weis can still score: the other team has announced no more"
        if action.startswith("trump:"):
            mode = action.partition(":")[2]
            if mode in ("obe", "une"):
                return f"your hand is strong in {'high' if mode == 'obe' else 'low'} cards"
            held = [c for c in view["hand"] if c[0] == mode]
            tops = [name for rank, name in (("J", "the Bour"), ("9", "the Nell")) if mode + rank in held]
            return f"you hold {len(held)} {self.suit_name(SUITS.index(mode))}" + (
                f", with {' and '.join(tops)}" if tops else ""
            )
        trick = [*view["trick"], {"seat": me, "card": action}]
        seat, points = trick_winner(trick, view["trump"])
        if len(trick) == 1:
            return "you lead"
        if seat == me:
            return f"it takes the trick for now ({points} points in it)"
        if seat % 2 == me % 2:
            return f"your partner is winning this trick ({points} points in it)"
        return f"it cannot take the trick from {self.seat_name(seat, me)}"

    # -- what happened --------------------------------------------------------------------------

    def events(self, before: View, after: View, seat: int, action: str, me: int | None) -> list[str]:
        who = self.seat_name(seat, me)
        if action == "push":
            return [f"{who} schiebt (pushes); {self.seat_name((seat + 2) % 4, me)} chooses trump"]
        if action.startswith("trump:"):
            return [f"{who} chooses trump [b]{self.mode_name(action.partition(':')[2])}[/b]"]
        if action == "stoeck":
            return [f"{who}: Stöck!"]
        if action == "weis":
            said: list[int] = next((a["points"] for a in after.get("announced") or [] if a["seat"] == seat), [])
            return [f"{who} weist (announces) {' + '.join(map(str, said))}"]
        lines = [f"{who} plays {card_markup(action)}"]
        new_deal = after["deal_number"] != before["deal_number"]
        if len(after["tricks"]) > len(before["tricks"]) and not new_deal:
            t = after["tricks"][-1]
            lines.append(f"  → {self.seat_name(t['winner'], me)} takes the trick ({t['points']} points)")
        elif new_deal or (after["phase"] == "over" and len(after["tricks"]) == len(before["tricks"])):
            cards = [*before["trick"], {"seat": seat, "card": action}]
            if len(cards) == 4:
                winner, points = trick_winner(cards, before["trump"])
                last = len(before["tricks"]) == 8
                bonus = LAST_TRICK_BONUS if last else 0
                what = "the last trick" if last else "the trick"
                lines.append(f"  → {self.seat_name(winner, me)} takes {what} ({points + bonus} points)")
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
            lines.append(f"  Stöck! {self.seat_name(stoeck, me)} held trump King and Queen (+{STOECK_POINTS})")
        return lines

    def deal_summary(self, before: View, after: View, me: int | None) -> RenderableType | None:
        deals = after["previous_deals"]
        if len(deals) == len(before["previous_deals"]):
            return None
        d = deals[-1]
        us, them = (0, 1) if me is None or me % 2 == 0 else (1, 0)
        running = [sum(x["total"][t] for x in deals) for t in (0, 1)]
        title = f"Deal {d['deal'] + 1}: {self.mode_name(d['trump'])}, chosen by {self.seat_name(d['chooser'], me)}"
        if d["pushed"]:
            title += " after schieben (a push)"
        if not d["complete"]:
            title += " (game decided during the deal)"
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("")
        table.add_column(self._team_name(us, me), justify="right")
        table.add_column(self._team_name(them, me), justify="right")
        rows = [("Trick points", d["trick_points"]), ("Weis", d["weis"]), ("Stöck", d["stoeck"])]
        match = [MATCH_BONUS if d["match"] == t else 0 for t in (0, 1)]
        rows.append(("Match", match))
        if any(d["voided"]):
            rows.append(("Voided by match", [-v for v in d["voided"]]))
        for label, pair in rows:
            table.add_row(label, str(pair[us]), str(pair[them]))
        if d.get("multiplier", 1) > 1:
            table.add_row(f"Counts ×{d['multiplier']} ({self.mode_name(d['trump'])})", "", "")
        table.add_row("[b]Deal total[/b]", f"[b]{d['total'][us]}[/b]", f"[b]{d['total'][them]}[/b]", end_section=True)
        table.add_row("Game score", str(running[us]), str(running[them]))
        return Group(Text(title, style="bold"), table)


RENDERER = JassRenderer


def _goal(view: View) -> str:
    """What ends the game: the target, or a fixed number of deals (option deals)."""
    if view.get("deals"):
        return f"deal {min(view['deals_played'] + 1, view['deals'])} of {view['deals']}"
    return f"first to {view['target']}"
