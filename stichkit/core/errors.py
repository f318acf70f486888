"""The errors users meet. All are ValueErrors, so callers that only care about bad input catch one thing."""

from __future__ import annotations


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
