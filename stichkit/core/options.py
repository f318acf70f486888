"""Validated game options: every option is declared once, with its default and what it allows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError


@dataclass(frozen=True)
class Option:
    """A keyword option of a game. `choices` lists the allowed values; else `check` validates."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    kind: type | tuple[type, ...] | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
    # A default that depends on other resolved options (e.g. target by profile).
    default_from: Callable[[Mapping[str, Any]], Any] | None = field(default=None, compare=False)

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
            raise OptionError(f"option {self.name}={value!r} is not allowed; allowed: {self.allowed()}")
        if self.kind is not None:
            value = _coerce(self, value)
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise OptionError(f"option {self.name}={value!r} is not allowed: {problem}")
        return value


def _coerce(opt: Option, value: Any) -> Any:
    kind = opt.kind
    assert kind is not None
    if kind is int and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise OptionError(f"option {opt.name}={value!r} is not a whole number; allowed: {opt.allowed()}") from None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise OptionError(f"option {opt.name}={value!r} is not a whole number; allowed: {opt.allowed()}")
    if kind is not int and not isinstance(value, kind):
        raise OptionError(f"option {opt.name}={value!r} has the wrong type; allowed: {opt.allowed()}")
    return value


def resolve_options(game: str, declared: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check `given` against `declared` and fill in every default, in declaration order."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        names = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"{game} has no option {unknown[0]!r}; its options are: {names}")
    resolved: dict[str, Any] = {}
    for opt in declared:
        if opt.name in given:
            resolved[opt.name] = opt.validate(given[opt.name])
        elif opt.default_from is not None:
            resolved[opt.name] = opt.default_from(resolved)
        else:
            resolved[opt.name] = opt.default
    return resolved
