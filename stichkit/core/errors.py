"""The errors users meet. All are ValueErrors, so callers that only care about bad input catch one thing."""

from __future__ import annotations

import reprlib

QUOTE_LIMIT = 80  # characters of a user's input that an error message repeats


class StichkitError(ValueError):
    """Base of every error stichkit raises on purpose."""


class OptionError(StichkitError):
    """An unknown game, an unknown option, or a value the option does not allow."""


class IllegalActionError(StichkitError):
    """An action that the rules do not allow now; the message says why. The state is unchanged."""


class UndoError(StichkitError):
    """`undo()` with no action to take back. The state is unchanged."""


class RecordError(StichkitError):
    """A game record that is malformed, from another version, or that does not replay."""


class DealError(StichkitError):
    """An explicit deal that is malformed or impossible (wrong size, duplicate or unknown cards)."""


class _Short(reprlib.Repr):
    """reprlib with a bounded cost for any value: long strings, big containers, deep nesting and
    integers too long to print (Python refuses more than 4300 digits) are shortened."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = QUOTE_LIMIT - 4
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 1000:
            return f"<a whole number of about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)


_SHORT = _Short()


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)` cut to about `limit` characters: an error message never echoes a huge input."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # a value whose repr fails: say what it is, not what it holds
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
