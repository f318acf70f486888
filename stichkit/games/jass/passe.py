"""A game of a fixed number of deals (option `deals`), as Swiss clubs and tournaments count a
"Passe": every deal is played out, the points are summed, and after the last deal the higher total
wins. The target is then not played to: no deal ends early, and nobody "bedankt sich".

`deals=0` (the default) plays to the target as the rule sheet does. Equal totals after the last
deal are a draw (both teams are winners), as in Differenzler's shared first place: a tournament
counts the points, not the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_DEALS = 1000
PASSE = 12  # the deals of a club's "Passe"
NO_TARGET = 1 << 62  # the state's target in a game of fixed deals: never reached


def check_deals(value: int) -> str | None:
    if value < 0:
        return f"the number of deals must be 0 (play to the target) or 1-{MAX_DEALS} (12: a Passe)"
    return None


def target_of(options: Mapping[str, Any]) -> int:
    """The points that end the game: the option `target`, or none when a fixed number of deals is played."""
    return NO_TARGET if options.get("deals") else int(options["target"])


def leader(scores: list[int]) -> int:
    """The team with the higher total after the last deal, or -1 on a tie (a draw)."""
    if scores[0] == scores[1]:
        return -1
    return 0 if scores[0] > scores[1] else 1


def progress(deals: int, deal_no: int, over: bool) -> dict[str, int] | None:
    """A view's `deals`, `deals_played` and `deals_to_play` in a game of fixed deals (None otherwise,
    and the view stays as it was): a deal in progress counts as not yet played."""
    if not deals:
        return None
    played = deal_no + 1 if over else deal_no
    return {"deals": deals, "deals_played": played, "deals_to_play": deals - played}
