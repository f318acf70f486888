"""Jass in C: one rules core under the solver, the ISMCTS search and the batched environment.

`stichkit.native._jass` is a C extension built by the package's own build (setup.py). It holds
the Jass rules of one game (jass.h: the follow rules with the Bour exception and the undertrump
ban, tricks, points, the last-trick and match bonus, Weis and Stöck, declared or announced by the
players, the multipliers, the target) and what stands
on them: the double-dummy solver (stichkit.analysis), the ISMCTS iterations (stichkit.bots.ismcts)
and many games stepped at once (stichkit.rl). The rule tables are not written in C: `_jass.init`
takes them from the Python engine below, which stays the reference every native path is checked
against (tests/native).

Without a C compiler the package still installs: `load()` is then None and every user falls back
to Python with the same results, slower; `missing()` says so once per process.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

from stichkit.core.errors import OptionError
from stichkit.games.jass.cards import (
    LAST_TRICK_BONUS,
    MATCH_BONUS,
    POINTS,
    STOECK_PAIR,
    STOECK_POINTS,
    STRENGTH,
    SUIT_MASK,
    TRUMP_ORDER,
    TRUMPS_ABOVE,
)
from stichkit.games.jass.multipliers import factors
from stichkit.games.jass.profiles import SCHIEBER, SEED, Profile
from stichkit.games.jass.rules import BOUR_BIT
from stichkit.games.jass.state import START_CARD

PROFILES = (SEED, SCHIEBER)  # the core's profile numbers 0 and 1

try:  # the C extension is optional: a machine without a compiler installs without it
    from stichkit.native import _jass  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _jass = None

ABI = 4  # the calls this Python side makes (module.c: 3, announced Weis and Stöck; 4, value(threads)): older is stale
STALE = ""
if _jass is not None and getattr(_jass, "ABI", 1) != ABI:  # pragma: no cover - depends on the build
    STALE = (
        f"stichkit's C extension (stichkit.native._jass) is stale: built for calls {getattr(_jass, 'ABI', 1)}, "
        f"this code makes calls {ABI}, so Jass runs in Python until it is rebuilt: "
        "python setup.py build_ext --inplace (or pip install -e .)"
    )
    _jass = None


def _profile_tables(p: Profile) -> tuple[object, ...]:
    modes = sum(1 << m for m in p.trump_modes)
    return (p.sequence_points, p.four_points, int(p.weis_tie == "nearer"), int(p.match_voids_opponents_bonus), modes)


if _jass is not None:
    _jass.init(
        STRENGTH, POINTS, TRUMPS_ABOVE, SUIT_MASK, BOUR_BIT, TRUMP_ORDER, LAST_TRICK_BONUS, MATCH_BONUS,
        STOECK_PAIR, STOECK_POINTS, START_CARD, tuple(_profile_tables(p) for p in PROFILES),
    )  # fmt: skip

_told = False

MISSING = STALE or (
    "stichkit's C extension (stichkit.native._jass) is not built, so Jass runs in Python: the same "
    "results, many times slower (the solver, the ismcts bot, the batched environments). Reinstall with a C "
    "compiler: pip install -e . (or pip install stichkit with gcc or clang present)"
)


def load() -> ModuleType | None:
    """The C extension, or None when it is not built."""
    return _jass


def available() -> bool:
    """True when the C extension is built."""
    return _jass is not None


def missing() -> None:
    """Say once per process that the C extension is missing (a RuntimeWarning)."""
    global _told
    if _jass is None and not _told:
        _told = True
        warnings.warn(MISSING, RuntimeWarning, stacklevel=3)


def profile_number(name: str) -> int:
    """The core's number of a rule profile."""
    return next(i for i, p in enumerate(PROFILES) if p.name == name)


def unsupported(options: dict[str, Any]) -> str | None:
    """Why the core cannot play a Jass game with these options (its users then take the Python
    path), or None when it can. The core plays every multiplier (each deal's points, the
    Ausmachregel's end in the middle of a deal included), Weis and Stöck declared by the engine or
    announced by the players (weis="announce", stoeck="announce"), the Swiss Ausmachregel only,
    and plays to the target."""
    if options.get("ausmachregel", "stoeck-weis-stich") != "stoeck-weis-stich":
        return f"the C core plays the Ausmachregel 'stoeck-weis-stich', not ausmachregel={options['ausmachregel']!r}"
    if options.get("deals"):
        return f"the C core plays to the target, not a game of fixed deals (deals={options['deals']!r})"
    return None


WEIS_SETTINGS = ("off", "auto", "announce")  # the core's numbers 0-2 for option weis


def stoeck_setting(value: Any) -> int:
    """Option stoeck as the core's number: 0 off, 1 counted by the engine, 2 announced."""
    return 2 if value == "announce" else int(bool(value))


def core_options(options: dict[str, Any]) -> tuple[int, int, int, int, int, int, tuple[int, ...]]:
    """A Jass game's options (`game.options`, or a view's) as the core takes them: profile, Weis
    (0 off, 1 auto, 2 announce), Stöck (0 off, 1 counted, 2 announce), the jass-kit undertrump rule,
    the first forehand (-1: the start card's holder), the target, each trump mode's multiplier.
    OptionError when the core cannot play them (`unsupported`)."""
    why = unsupported(options)
    if why is not None:
        raise OptionError(why)
    first = options["first_forehand"]
    return (
        profile_number(options["profile"]), WEIS_SETTINGS.index(options["weis"]), stoeck_setting(options["stoeck"]),
        int(options["undertrump"] == "jass-kit"), -1 if first == "start-card" else int(first), int(options["target"]),
        factors(options.get("multipliers", "none")),
    )  # fmt: skip
