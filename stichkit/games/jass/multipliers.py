"""Multipliers: how many times a deal counts, by the trump mode named for it.

Played to 2500, the Schieber counts some trumps double and Obenabe/Undenufe triple; played to
1000, in tournaments and on the rule sheet, everything counts once. A multiplier applies to all
that a deal writes: card points, Weis, Stöck and the match bonus (docs/jass.md, "Multipliers").

The option `multipliers` names a set (`SETS`) or gives one factor per mode as text,
"D=1,H=1,S=2,C=2,obe=3,une=3" (a mode not named counts once); a mapping {"D": 1, ...} is taken
too. The game keeps it in the text form, so records and tables carry plain strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import MODES

# The named sets, factors in MODES order (D H S C obe une). docs/jass.md gives each one's source.
SETS: dict[str, tuple[int, ...]] = {
    "none": (1, 1, 1, 1, 1, 1),  # the rule sheet; tournament Jass; the Schieber to 1000
    "swisslos": (1, 1, 2, 2, 3, 3),  # Swisslos' Schieber to 2500: Herz/Ecken once, Schaufel/Kreuz double
    "one-to-four": (2, 1, 2, 1, 3, 4),  # Eicheln/Rosen once, Schilten/Schellen double, obe x3, une x4
}
MAX_FACTOR = 20
MODE_OF = {m.lower(): i for i, m in enumerate(MODES)}


class MultiplierError(ValueError):
    """A `multipliers` value that is neither a named set nor a valid mapping."""


def _allowed() -> str:
    names = ", ".join(repr(n) for n in SETS)
    return (
        f"a named set ({names}) or one whole factor 1-{MAX_FACTOR} per trump mode, "
        f"as 'D=1,H=1,S=2,C=2,obe=3,une=3' (modes {', '.join(MODES)}; a mode not named counts once)"
    )


def factors(value: Any) -> tuple[int, ...]:
    """The factor of each mode (MODES order) that `value` gives; MultiplierError says what is wrong."""
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in SETS:
            return SETS[text.lower()]
        if "=" not in text:
            raise MultiplierError(f"{text!r} is no named set; allowed: {_allowed()}")
        pairs: list[tuple[Any, Any]] = []
        for part in text.split(","):
            if part.count("=") != 1:
                raise MultiplierError(f"{part.strip()!r} is not 'mode=factor'; allowed: {_allowed()}")
            mode, factor = part.split("=")
            pairs.append((mode.strip(), factor.strip()))
    elif isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        kind = type(value).__name__
        raise MultiplierError(f"a value of type {kind} is not a set of multipliers; allowed: {_allowed()}")
    out = [1] * len(MODES)
    seen: set[int] = set()
    for mode, factor in pairs:
        i = MODE_OF.get(str(mode).lower())
        if i is None:
            raise MultiplierError(f"{mode!r} is no trump mode; the modes are {', '.join(MODES)}")
        if i in seen:
            raise MultiplierError(f"{MODES[i]} is given twice")
        seen.add(i)
        n = _whole(factor)
        if n is None or not 1 <= n <= MAX_FACTOR:
            raise MultiplierError(f"{MODES[i]}={factor!r}: a factor is a whole number from 1 to {MAX_FACTOR}")
        out[i] = n
    return tuple(out)


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def canonical(value: Any) -> str:
    """The text the game keeps: a named set's name as written in SETS, else every mode's factor."""
    if isinstance(value, str) and value.strip().lower() in SETS:
        return value.strip().lower()
    return ",".join(f"{m}={f}" for m, f in zip(MODES, factors(value), strict=True))


def problem(value: Any) -> str | None:
    """What is wrong with a `multipliers` value, or None (the option's check)."""
    try:
        factors(value)
    except MultiplierError as e:
        return str(e)
    return None


def by_mode(value: Any) -> dict[str, int]:
    """{mode: factor} for views and pages."""
    return dict(zip(MODES, factors(value), strict=True))
