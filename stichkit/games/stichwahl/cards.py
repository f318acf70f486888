"""The Stichwahl deck and its card table (pearls and bonus per card), loaded from cards.toml.

Card index: family * 8 + value position for the 32 family cards (families O P N B = Orca,
Pottwal, Narwal, Blauwal; values 1 2 3 4 6 7 8 9), then 32-35 for the colourless 5s `5a`-`5d`.
The table is data, not code: the rulebook's text fixes only a few facts, the rest is
reconstructed (see docs/stichwahl.md), and a user may load a corrected copy (option `cards`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from stichkit.cards import Deck
from stichkit.core.errors import StichkitError, quote
from stichkit.core.files import DataFile

FAMILIES = "OPNB"
FAMILY_NAMES = ("Orca", "Pottwal", "Narwal", "Blauwal")  # the rulebook's "Orcawal" is the Orca
VALUES = (1, 2, 3, 4, 6, 7, 8, 9)
FIVES = ("5a", "5b", "5c", "5d")
NAMES = (*(f + str(v) for f in FAMILIES for v in VALUES), *FIVES)
# Pearls the rulebook's text fixes ("Damit bekommt sie 3 Punkte" for Narwal-2; the 5s give one
# point, "Perle links"): a corrected table may not contradict them.
TEXT_PEARLS = {"N2": 3}
DECK = Deck(NAMES)
NUM_CARDS = 36
FIRST_FIVE = 32
FIVE_MASK = 0xF << FIRST_FIVE
FAMILY_MASK = tuple(0xFF << (8 * f) for f in range(4))
ALL_CARDS = (1 << NUM_CARDS) - 1
NO_FIVES = ALL_CARDS & ~FIVE_MASK  # the 2-player deck

FAMILY_OF = tuple(c // 8 if c < FIRST_FIVE else -1 for c in range(NUM_CARDS))  # -1: colourless
VALUE_OF = tuple(VALUES[c % 8] if c < FIRST_FIVE else 5 for c in range(NUM_CARDS))

# Bonus kinds.
NONE, FLIP, PEARL, TRUMP = range(4)
BONUS_KINDS = ("none", "flip", "pearl", "trump")
CONFIDENCES = ("high", "medium", "low")
FIELDS = ("name", "family", "value", "pearls", "bonus", "source", "confidence")


class CardTableError(StichkitError):
    """A card table that is malformed; the message names the card and the field."""


@dataclass(frozen=True)
class Card:
    """One card of the table. `family` is a letter O P N B, or None for a colourless 5; `bonus` is
    "flip", "pearl", "none" or "trump:X" / "trump:X/Y" (the families shown on the card)."""

    name: str
    family: str | None
    value: int
    pearls: int
    bonus: str
    source: str
    confidence: str

    @property
    def bonus_kind(self) -> str:
        return self.bonus.partition(":")[0]

    @property
    def trump_families(self) -> tuple[str, ...]:
        """The families a trump-change bonus may name; () for other bonuses."""
        kind, _, fams = self.bonus.partition(":")
        return tuple(fams.split("/")) if kind == "trump" else ()


@dataclass(frozen=True)
class CardTable:
    """The table as the engine reads it: per card index, pearls, bonus kind and trump families."""

    cards: tuple[Card, ...]
    path: str | None
    pearls: tuple[int, ...]
    kind: tuple[int, ...]
    trump_to: tuple[int, ...]  # 4-bit mask of families a trump bonus may name

    def describe(self, card: int) -> str:
        c = self.cards[card]
        kind = self.kind[card]
        what = "trump → " + "/".join(c.trump_families) if kind == TRUMP else BONUS_KINDS[kind]
        return f"{c.name} ({c.pearls} pearl{'s' if c.pearls > 1 else ''}, bonus {what})"


def _expected(name: str) -> tuple[str | None, int]:
    i = NAMES.index(name)
    return (None if i >= FIRST_FIVE else FAMILIES[FAMILY_OF[i]]), VALUE_OF[i]


def _check_bonus(name: str, bonus: Any, family: str | None) -> str:
    where = f"card {name}: field 'bonus'"
    if not isinstance(bonus, str):
        raise CardTableError(f"{where} must be text, not {quote(bonus)}")
    if family is None:
        if bonus != "none":
            raise CardTableError(f'{where} must be "none": the rulebook gives the 5s no bonus, not {quote(bonus)}')
        return bonus
    kind, colon, fams = bonus.partition(":")
    if kind in ("flip", "pearl") and not colon:
        return bonus
    if kind == "trump" and colon:
        shown = fams.split("/")
        if shown and all(f in FAMILIES and len(f) == 1 for f in shown) and len(set(shown)) == len(shown):
            return bonus
    raise CardTableError(
        f'{where} is {quote(bonus)}; allowed: "flip", "pearl", or "trump:X" / "trump:X/Y" with families O P N B'
    )


def _card(i: int, raw: Any) -> Card:
    if not isinstance(raw, dict):
        raise CardTableError(f"card entry {i + 1}: must be a [[card]] table, not {quote(raw)}")
    name = raw.get("name")
    if not isinstance(name, str) or name not in NAMES:
        raise CardTableError(f"card entry {i + 1}: field 'name' is {quote(name)}; cards are {', '.join(NAMES)}")
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise CardTableError(f"card {name}: unknown field {quote(unknown[0])}; fields are {', '.join(FIELDS)}")
    for f in FIELDS:
        if f not in raw:
            raise CardTableError(f"card {name}: field {quote(f)} is missing")
    family, value = _expected(name)
    fam = raw["family"]
    if fam != (family or "none"):
        raise CardTableError(f"card {name}: field 'family' is {quote(fam)}; {name} is family {family or 'none'!r}")
    if raw["value"] != value or type(raw["value"]) is not int:
        raise CardTableError(f"card {name}: field 'value' is {quote(raw['value'])}; {name} has value {value}")
    pearls = raw["pearls"]
    if type(pearls) is not int or not 1 <= pearls <= 3:
        raise CardTableError(f"card {name}: field 'pearls' is {quote(pearls)}; cards show 1, 2 or 3 pearls")
    known = TEXT_PEARLS.get(name, 1 if family is None else None)
    if known is not None and pearls != known:
        raise CardTableError(f"card {name}: field 'pearls' is {pearls}; the rulebook's text fixes it at {known}")
    bonus = _check_bonus(name, raw["bonus"], family)
    for f in ("source", "confidence"):
        if not isinstance(raw[f], str) or not raw[f].strip():
            raise CardTableError(f"card {name}: field {quote(f)} must be non-empty text, not {quote(raw[f])}")
    if raw["confidence"] not in CONFIDENCES:
        raise CardTableError(
            f"card {name}: field 'confidence' is {quote(raw['confidence'])}; allowed: {', '.join(CONFIDENCES)}"
        )
    return Card(name, family, value, pearls, bonus, raw["source"], raw["confidence"])


def parse_table(data: dict[str, Any], path: str | None = None) -> CardTable:
    """A CardTable from parsed TOML: exactly the 36 cards, each once, every field valid."""
    entries = data.get("card")
    extra = sorted(set(data) - {"card"})
    if extra:
        raise CardTableError(f"unknown top-level entry {quote(extra[0])}; the table is a list of [[card]] entries")
    if not isinstance(entries, list):
        raise CardTableError("the table has no [[card]] entries")
    by_name: dict[str, Card] = {}
    for i, raw in enumerate(entries):
        card = _card(i, raw)
        if card.name in by_name:
            raise CardTableError(f"card {card.name}: listed twice (field 'name')")
        by_name[card.name] = card
    missing = [n for n in NAMES if n not in by_name]
    if missing:
        raise CardTableError(f"card {missing[0]}: missing from the table (every one of the 36 cards must be listed)")
    cards = tuple(by_name[n] for n in NAMES)
    kinds = tuple(BONUS_KINDS.index(c.bonus_kind) for c in cards)
    trump_to = tuple(sum(1 << FAMILIES.index(f) for f in c.trump_families) for c in cards)
    return CardTable(cards, path, tuple(c.pearls for c in cards), kinds, trump_to)


_PARSED: dict[str, CardTable] = {}  # by the file's sha256: a game is made many times


def table_from(data: DataFile) -> CardTable:
    """The card table of a table file's text; CardTableError names what is wrong."""
    hit = _PARSED.get(data.sha256)
    if hit is None:
        try:
            parsed = tomllib.loads(data.text)
        except tomllib.TOMLDecodeError as e:
            raise CardTableError(f"the card table {quote(data.name)} is not valid TOML: {e}") from None
        if len(_PARSED) >= 64:
            _PARSED.clear()
        hit = _PARSED[data.sha256] = parse_table(parsed, data.name)
    return hit


def load_table(path: str | None = None) -> CardTable:
    """The shipped table (path None) or a corrected one, read now (a fix takes effect at once);
    CardTableError names what is wrong."""
    if path is None:
        return SHIPPED
    return table_from(DataFile.read(path, "the card table", CardTableError))


SHIPPED = table_from(DataFile("cards.toml", resources.files(__package__).joinpath("cards.toml").read_text("utf-8")))

CARDS: tuple[Card, ...] = SHIPPED.cards
