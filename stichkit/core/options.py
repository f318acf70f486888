"""Validated game options: every option is declared once, with its default and what it allows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError, quote
from .files import DataFile


@dataclass(frozen=True)
class Option:
    """A keyword option of a game. `choices` lists the allowed values; else `check` validates.

    `data_file` names what a data-file option's file is ("a rule-card file"): its value is a path,
    read once (files.read_file) into a `DataFile` that the game keeps and its records carry."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    kind: type | tuple[type, ...] | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    # A default that depends on other resolved options (e.g. target by profile).
    default_from: Callable[[Mapping[str, Any]], Any] | None = field(default=None, compare=False)
    data_file: str = ""
    maximum: int | None = None  # for whole numbers: the largest allowed
    # Named values a menu offers when `check` allows others too (a custom mapping written as text).
    suggested: tuple[Any, ...] = ()
    # For an option added after records were written without it: from the options such a record
    # names, the value that plays as it was played (None: the default does).
    before: Callable[[Mapping[str, Any]], Any] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return self.doc

    def validate(self, value: Any) -> Any:
        if self.choices:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return choice
            # Accept the text form from command lines: "true", "1000", ...
            for choice in self.choices:
                if isinstance(value, str) and str(choice).lower() == value.lower():
                    return choice
            raise OptionError(f"option {self.name}={quote(value)} is not allowed; allowed: {self.allowed()}")
        if self.data_file:
            value = self._read(value)
        if self.kind is not None:
            value = _coerce(self, value)
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}={quote(value)} is too large: at most {self.maximum:,}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise OptionError(f"option {self.name}={quote(value)} is not allowed: {problem}")
        return value

    def _read(self, value: Any) -> DataFile | None:
        if value is None or isinstance(value, DataFile):
            return value
        if not isinstance(value, str):
            raise OptionError(f"option {self.name}={quote(value)} is not allowed: {self.allowed()}")
        try:
            return DataFile.read(value, self.data_file, OptionError)
        except OptionError as e:
            raise OptionError(f"option {self.name}={quote(value)} is not allowed: {e}") from None


def _coerce(opt: Option, value: Any) -> Any:
    kind = opt.kind
    assert kind is not None
    if kind is int and isinstance(value, str):
        try:
            return int(value)
        except ValueError:  # not a number, or more digits than Python converts
            raise OptionError(
                f"option {opt.name}={quote(value)} is not a whole number; allowed: {opt.allowed()}"
            ) from None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise OptionError(f"option {opt.name}={quote(value)} is not a whole number; allowed: {opt.allowed()}")
    if kind is not int and not isinstance(value, kind):
        raise OptionError(f"option {opt.name}={quote(value)} has the wrong type; allowed: {opt.allowed()}")
    return value


def resolve_options(game: str, declared: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check `given` against `declared` and fill in every default, in declaration order."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        names = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"{game} has no option {quote(unknown[0])}; its options are: {names}")
    resolved: dict[str, Any] = {}
    for opt in declared:
        if opt.name in given:
            resolved[opt.name] = opt.validate(given[opt.name])
        elif opt.default_from is not None:
            resolved[opt.name] = opt.default_from(resolved)
        else:
            resolved[opt.name] = opt.default
    return resolved


def as_written_before(defs: Sequence[Option], options: Mapping[str, Any]) -> dict[str, Any]:
    """Options written down by an earlier stichkit (a record, a stored table): each option they do
    not name that has a `before` gets the value it gives, so the game plays as it was played then."""
    out = dict(options)
    for opt in defs:
        if opt.name not in options and opt.before is not None:
            out[opt.name] = opt.before(options)
    return out
