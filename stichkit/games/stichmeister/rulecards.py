"""The 60 rule cards as data: loaded from rule_cards.toml (or a corrected copy) and validated.

Every card carries a machine-readable `effect`: a table with a `kind` and that kind's parameters.
The kinds are the vocabulary of the composable engine (trump.py, trick.py, phases.py, scoring.py);
`EFFECT_PARAMS` lists each kind with its parameters and the card kind it belongs to.
A malformed file raises RuleCardError naming the card and the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from stichkit.core.errors import QUOTE_LIMIT, OptionError, quote
from stichkit.core.files import DataFile

from .cards import SUITS

KINDS = ("trump", "basic", "scoring")
CONFIDENCES = ("seed", "known", "reconstructed")
FIELDS = ("number", "kind", "text_de", "text_en", "source", "confidence", "effect")
MATCH_KEYS = {"suit": str, "value": int, "trump": bool, "max_value": int, "lead": bool}

# effect kind -> (card kind, {parameter: type})
EFFECT_PARAMS: dict[str, tuple[str, dict[str, type]]] = {
    "trump_value": ("trump", {"value": int}),
    "trump_suit": ("trump", {"suit": str}),
    "trump_second_trick_lead": ("trump", {}),
    "pass": ("basic", {"count": int, "to": str}),
    "face_down_last": ("basic", {"count": int}),
    "show": ("basic", {"count": int}),
    "discard": ("basic", {"count": int}),
    "face_down_followers": ("basic", {}),
    "follow_last_card": ("basic", {}),
    "must_trump": ("basic", {}),
    "must_beat": ("basic", {}),
    "no_trump_lead_until_broken": ("basic", {}),
    "lead_cannot_win": ("basic", {}),
    "second_highest_wins": ("basic", {}),
    "reverse_ranks": ("basic", {}),
    "anti_trump": ("basic", {}),
    "suits_equal": ("basic", {}),
    "remove_from_trick": ("basic", {}),
    "trick_to_left": ("basic", {}),
    "right_of_winner_leads": ("basic", {}),
    "reverse_direction": ("basic", {}),
    "trick_positions": ("scoring", {"last_factor": int, "zero_first": int}),
    "negate_tricks": ("scoring", {}),
    "per_card": ("scoring", {"match": dict, "points": int}),
    "count_cards": ("scoring", {"match": dict}),
    "won_with": ("scoring", {"match": dict, "factor": int, "add": int}),
    "zero_odd_tricks": ("scoring", {}),
    "equal_values_bonus": ("scoring", {"points": int}),
    "tricks_after": ("scoring", {"after": int, "value": int}),
    "no_trick_bonus": ("scoring", {"points": int}),
    "exact_tricks_bonus": ("scoring", {"tricks": int, "points": int}),
    "most_tricks": ("scoring", {"points": int}),
    "fewest_tricks": ("scoring", {"points": int}),
    "halve_leader": ("scoring", {}),
    "double_if_no_trump": ("scoring", {}),
}
# Setup phases need hand cards: at most this many per phase (5 players hold 12 cards).
MAX_PHASE_COUNT = 3


class RuleCardError(OptionError):
    """A rule-card file that is missing, not TOML, or has a card with a bad field."""


@dataclass(frozen=True)
class RuleCard:
    number: int
    kind: str
    text_de: str
    text_en: str
    source: str
    confidence: str
    effect: dict[str, Any]

    @property
    def effect_kind(self) -> str:
        return str(self.effect["kind"])

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "text_en": self.text_en, "text_de": self.text_de}


def _check_match(where: str, match: dict[str, Any]) -> None:
    if not match:
        raise RuleCardError(f"{where}: effect.match must name at least one of {', '.join(MATCH_KEYS)}")
    for key, value in match.items():
        want = MATCH_KEYS.get(key)
        if want is None:
            raise RuleCardError(f"{where}: effect.match has unknown key {quote(key)}; keys: {', '.join(MATCH_KEYS)}")
        if type(value) is not want:
            raise RuleCardError(f"{where}: effect.match.{key} must be {want.__name__}, not {quote(value)}")
        if key == "suit" and str(value) not in SUITS:
            raise RuleCardError(f"{where}: effect.match.suit {quote(value)} is not one of {', '.join(SUITS)}")
        if key in ("value", "max_value") and isinstance(value, int) and not 1 <= value <= 15:
            raise RuleCardError(f"{where}: effect.match.{key} {quote(value)} is not a card value 1-15")


def _check_effect(where: str, kind: str, effect: Any) -> None:
    if not isinstance(effect, dict):
        raise RuleCardError(f"{where}: field 'effect' must be a table with a 'kind'")
    ek = effect.get("kind")
    if not isinstance(ek, str) or ek not in EFFECT_PARAMS:
        raise RuleCardError(f"{where}: effect.kind {quote(ek)} is unknown; kinds: {', '.join(EFFECT_PARAMS)}")
    card_kind, params = EFFECT_PARAMS[ek]
    if card_kind != kind:
        raise RuleCardError(f"{where}: effect.kind {quote(ek)} belongs to a {card_kind} card, not a {quote(kind)} one")
    extra = set(effect) - set(params) - {"kind"}
    if extra:
        raise RuleCardError(f"{where}: effect has unknown field {quote(sorted(extra)[0])} for kind {quote(ek)}")
    for name, typ in params.items():
        if name not in effect:
            raise RuleCardError(f"{where}: effect.{name} is missing (kind {quote(ek)} needs {', '.join(params)})")
        value = effect[name]
        if type(value) is not typ:
            raise RuleCardError(f"{where}: effect.{name} must be {typ.__name__}, not {quote(value)}")
    if ek == "trump_value" and not 1 <= effect["value"] <= 15:
        raise RuleCardError(f"{where}: effect.value {quote(effect['value'])} is not a card value 1-15")
    if ek == "trump_suit" and effect["suit"] not in SUITS:
        raise RuleCardError(f"{where}: effect.suit {quote(effect['suit'])} is not one of {', '.join(SUITS)}")
    if ek == "pass" and effect["to"] not in ("left", "right"):
        raise RuleCardError(f"{where}: effect.to must be 'left' or 'right', not {quote(effect['to'])}")
    count = effect.get("count")
    if isinstance(count, int) and not 1 <= count <= MAX_PHASE_COUNT:
        raise RuleCardError(f"{where}: effect.count must be 1..{MAX_PHASE_COUNT}, not {quote(effect['count'])}")
    if "match" in effect:
        _check_match(where, effect["match"])


def parse_cards(data: Any, origin: str) -> tuple[RuleCard, ...]:
    """Validate parsed TOML: exactly the cards 1-60, each with every field well-formed."""
    cards = data.get("card") if isinstance(data, dict) else None
    if not isinstance(cards, list):
        raise RuleCardError(f"{origin}: expected [[card]] tables")
    out: dict[int, RuleCard] = {}
    for i, raw in enumerate(cards):
        where = f"{origin}: card #{i + 1}"
        if not isinstance(raw, dict):
            raise RuleCardError(f"{where}: not a table")
        number = raw.get("number")
        if type(number) is not int or not 1 <= number <= 60:
            raise RuleCardError(f"{where}: field 'number' must be a whole number 1-60, not {quote(number)}")
        where = f"{origin}: rule card {number}"
        if number in out:
            raise RuleCardError(f"{where}: field 'number' {number} appears twice")
        for name in FIELDS:
            if name not in raw:
                raise RuleCardError(f"{where}: field {quote(name)} is missing")
        extra = set(raw) - set(FIELDS)
        if extra:
            raise RuleCardError(f"{where}: unknown field {quote(sorted(extra)[0])}")
        for name in ("text_de", "text_en", "source"):
            if not isinstance(raw[name], str) or not raw[name].strip():
                raise RuleCardError(f"{where}: field {quote(name)} must be a non-empty string")
        kind = raw["kind"]
        if kind not in KINDS:
            raise RuleCardError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}, not {quote(kind)}")
        want_kind = "trump" if number <= 21 else "basic" if number <= 40 else "scoring"
        if kind != want_kind:
            raise RuleCardError(
                f"{where}: field 'kind' is {quote(kind)}, but cards 1-21 are trump, 22-40 basic, 41-60 scoring"
            )
        if raw["confidence"] not in CONFIDENCES:
            raise RuleCardError(f"{where}: field 'confidence' must be one of {', '.join(CONFIDENCES)}")
        _check_effect(where, kind, raw["effect"])
        out[number] = RuleCard(
            number, kind, raw["text_de"], raw["text_en"], raw["source"], raw["confidence"], dict(raw["effect"])
        )
    missing = [n for n in range(1, 61) if n not in out]
    if missing:
        raise RuleCardError(f"{origin}: rule card {missing[0]} is missing (a file lists all 60 cards)")
    return tuple(out[n] for n in range(1, 61))


_PARSED: dict[str, tuple[RuleCard, ...]] = {}  # by the file's sha256: a game is made many times


def rule_cards_from(data: DataFile) -> tuple[RuleCard, ...]:
    """The 60 rule cards of a rule-card file's text (RuleCardError naming the card and field)."""
    hit = _PARSED.get(data.sha256)
    if hit is None:
        origin = data.name if len(data.name) <= QUOTE_LIMIT else data.name[: QUOTE_LIMIT - 3] + "..."
        try:
            parsed = tomllib.loads(data.text)
        except tomllib.TOMLDecodeError as e:
            raise RuleCardError(f"{origin}: not valid TOML: {e}") from None
        if len(_PARSED) >= 64:
            _PARSED.clear()
        hit = _PARSED[data.sha256] = parse_cards(parsed, origin)
    return hit


def load_rule_cards(path: str | None = None) -> tuple[RuleCard, ...]:
    """The 60 rule cards from `path`, or the shipped rule_cards.toml when None."""
    if path is None:
        text = resources.files(__package__).joinpath("rule_cards.toml").read_text(encoding="utf-8")
        return rule_cards_from(DataFile("rule_cards.toml", text))
    return rule_cards_from(DataFile.read(path, "the rule card file", RuleCardError))


RULE_CARDS = load_rule_cards()
