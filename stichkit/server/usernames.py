"""User names: which are allowed, and when two are the same name.

A user name is read in Unicode's NFKC form (the full-width `Ｈａｎｓ` is `Hans`), 3 to 20
characters: letters and digits of any script, with `_`, `-` and `.` between them. A name that
mixes scripts with letters that look alike (a Cyrillic `Н` in `Нans`) is refused.

Two names are the same when their skeletons are (after Unicode's confusables, UTS #39): the
letters are folded to one case, and each character that looks like another is taken as that one
(`0` as `O`, `1`, `I` and `l` as one). The skeleton is kept in a unique column, so nobody can
register a name that passes for someone else's. The table of look-alikes comes from
confusable_homoglyphs, which ships Unicode's confusables.txt.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

NAME_MIN = 3
NAME_MAX = 20
PUNCTUATION = "_-."
ALLOWED = f"{NAME_MIN} to {NAME_MAX} letters or digits, with _ - . between them"


class BadName(ValueError):
    """A user name that is not allowed; the message says why and what is allowed."""


def check_name(raw: str) -> str:
    """The user name as it will be kept and shown (NFKC), or BadName saying what is wrong."""
    name = unicodedata.normalize("NFKC", raw)
    if not name.strip():
        raise BadName(f"a user name must not be empty: {ALLOWED}")
    if len(name) < NAME_MIN or len(name) > NAME_MAX:
        raise BadName(f"a user name has {ALLOWED}, not {len(name)} characters")
    for ch in name:
        cat = unicodedata.category(ch)
        if not (cat.startswith("L") or cat == "Nd" or cat.startswith("M") or ch in PUNCTUATION):
            what = "a space" if ch.isspace() else unicodedata.name(ch, f"U+{ord(ch):04X}")
            raise BadName(f"a user name may not hold {what}: {ALLOWED}")
    if name[0] in PUNCTUATION or name[-1] in PUNCTUATION or unicodedata.category(name[0]).startswith("M"):
        raise BadName(f"a user name begins and ends with a letter or digit: {ALLOWED}")
    if confusables.is_dangerous(name):
        raise BadName("a user name may not mix scripts with letters that look alike (such as a Cyrillic "
                         "letter among Latin ones)")  # fmt: skip
    return name


@cache
def _prototypes() -> dict[str, str]:
    """Each look-alike character to the prototype it passes for. The data lists a prototype with
    all its look-alikes, and a look-alike with its prototype alone."""
    found: dict[str, str] = {}
    for proto, alikes in confusables.confusables_data.items():
        if len(alikes) > 1:
            for alike in alikes:
                found.setdefault(alike["c"].replace("\u200e", ""), proto)
    for ch, alikes in confusables.confusables_data.items():
        if len(alikes) == 1 and ch not in found:
            other = alikes[0]["c"].replace("\u200e", "")
            # A pair that lists only each other: both are read as the smaller, so the key is one.
            found[ch] = min(ch, other) if len(other) == 1 and other not in found else found.get(other, other)
    return found


def name_key(name: str) -> str:
    """The skeleton of a name: equal for names that look alike (see the module's docstring)."""
    table = _prototypes()
    key = unicodedata.normalize("NFKC", name)
    for _ in range(4):  # map, fold, and again, until nothing changes (a folded letter may map on)
        mapped = unicodedata.normalize("NFKC", "".join(table.get(ch, ch) for ch in key).casefold())
        if mapped == key:
            break
        key = mapped
    return key
