"""The rules of Coiffeur as functions. The card play is Jass's and comes from
stichkit.games.jass.rules (one rule, one place): which cards may be played, why a card may not,
what a played card reveals. Coiffeur's own rules are the sheet: its rows, what each row accepts,
where a chosen mode is written, and what a deal writes there.

A sheet is a tuple of rows (kind, multiplier). A kind is a suit (D H S C), "obe", "une",
"slalom", "guschti" or "joker"; a joker row takes a suit, Obenabe or Undenufe.
"""

from __future__ import annotations

from stichkit.games.jass.rules import cannot_hold, legal_cards, next_reference, why_not

from .cards import GUSCHTI_OBE, GUSCHTI_UNE, MATCH_BONUS, PLAY_MODES, SLALOM_OBE, SLALOM_UNE

ROW_KINDS = ("D", "H", "S", "C", "obe", "une", "slalom", "guschti", "joker")
Row = tuple[str, int]
Sheet = tuple[Row, ...]

# The common sheets, each with its source (docs/coiffeur.md). The suits are D H S C: Ecken or
# Schellen (D), Herz or Rosen (H), Schaufel or Schilten (S), Kreuz or Eicheln (C). The sources
# give the multipliers by the suits' names, which differ in the French and the Swiss deck.
SHEETS: dict[str, str] = {
    # jassverzeichnis.ch, "Anleitung für den Coiffeur-Jass" (the Jassreglement's eight rows), in
    # French suits: Schaufel 1, Kreuz 2, Ecken 3, Herz 4
    "8-rows": "S1 C2 D3 H4 obe5 une6 joker7 joker8",
    # the same in Swiss suits: Eichle 1, Rosen 2, Schilten 3, Schellen 4
    "8-rows-swiss": "C1 H2 S3 D4 obe5 une6 joker7 joker8",
    # jassen.ch, "Jassarten Schweiz": ten rows with Slalom and Guschti (Swisslos's 10 rounds):
    # Rose 1, Eichel 2, Schilte 3, Schelle 4
    "10-rows": "H1 C2 S3 D4 obe5 une6 slalom7 guschti8 joker9 joker10",
    # the six modes of the Schieber, each once, counting 1 to 6
    "6-rows": "D1 H2 S3 C4 obe5 une6",
}
MAX_ROWS = 20
MAX_MULTIPLIER = 100
ROWS_HELP = (
    "rows as 'kind multiplier' words, e.g. 'S1 C2 D3 H4 obe5 une6 joker7 joker8'; kinds: "
    + ", ".join(ROW_KINDS)
    + f"; 1 to {MAX_ROWS} rows, multipliers 1 to {MAX_MULTIPLIER}"
)


def parse_rows(text: str) -> Sheet:
    """A sheet as written ("S1 C2 ... joker8"); ValueError says what is wrong and what is allowed."""
    words = text.split()
    if not 1 <= len(words) <= MAX_ROWS:
        raise ValueError(f"a sheet has 1 to {MAX_ROWS} rows, not {len(words)}; {ROWS_HELP}")
    rows = []
    for w in words:
        kind = w.rstrip("0123456789")
        digits = w[len(kind) :]
        if kind not in ROW_KINDS or not digits or not 1 <= int(digits) <= MAX_MULTIPLIER:
            raise ValueError(f"row {w!r} is not a kind followed by its multiplier; {ROWS_HELP}")
        rows.append((kind, int(digits)))
    return tuple(rows)


def sheet_of(name: str, rows: str) -> Sheet:
    """The sheet the options name: `rows` when written, else the named common sheet."""
    return parse_rows(rows) if rows else parse_rows(SHEETS[name])


def accepts(kind: str, play_mode: int) -> bool:
    """May a row of this kind hold a deal played in `play_mode`?"""
    if kind == "joker":
        return play_mode < 6  # a joker row is a free choice of a suit, Obenabe or Undenufe
    if kind == "slalom":
        return play_mode in (SLALOM_OBE, SLALOM_UNE)
    if kind == "guschti":
        return play_mode in (GUSCHTI_OBE, GUSCHTI_UNE)
    return play_mode < 6 and PLAY_MODES[play_mode] == kind


def row_for(sheet: Sheet, filled: int, play_mode: int) -> int:
    """The row a team writes a deal in `play_mode` in: its own open row first, else the first
    open joker row; -1 if none is open. `filled` has bit r set for each row already played."""
    joker = -1
    for r, (kind, _) in enumerate(sheet):
        if filled >> r & 1 or not accepts(kind, play_mode):
            continue
        if kind != "joker":
            return r
        if joker < 0:
            joker = r
    return joker


def open_modes(sheet: Sheet, filled: int) -> int:
    """The play modes a team may still announce, as a bitmask over PLAY_MODES."""
    return sum(1 << m for m in range(len(PLAY_MODES)) if row_for(sheet, filled, m) >= 0)


def written(points: int, tricks: int) -> int:
    """What the choosing team writes before the multiplier: its points, plus the match bonus for
    all nine tricks (157 + 100 = 257)."""
    return points + MATCH_BONUS if tricks == 9 else points


def next_seat(seat: int) -> int:
    """Play goes counter-clockwise, as in every Jass: seat 0, 3, 2, 1, 0, ..."""
    return (seat + 3) & 3


def forehand_of(deal: int) -> int:
    """Who announces (or pushes) in deal `deal` (0-based): seat 0, then the player to the right;
    so the teams take turns, and each announces once per row of its sheet."""
    return -deal & 3


__all__ = [
    "MAX_MULTIPLIER",
    "MAX_ROWS",
    "ROWS_HELP",
    "ROW_KINDS",
    "SHEETS",
    "Row",
    "Sheet",
    "accepts",
    "cannot_hold",
    "forehand_of",
    "legal_cards",
    "next_reference",
    "next_seat",
    "open_modes",
    "parse_rows",
    "row_for",
    "sheet_of",
    "why_not",
    "written",
]  # fmt: skip
