"""Announced Weis (Jass, weis="announce"): the decision every bot takes the same way.

At their first card a player holding a Weis may announce it or stay silent. Announcing pays
unless the other team has already announced more than this team can show: then the Weis cannot
score, and announcing would only tell the others about the hand. Every bot asks `announces`
before choosing its card, and chooses among the cards alone when it stays silent. A Stöck that
must be called (stoeck="announce") is always called: its cards are seen anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stichkit.games.jass import DECK, best_weis
from stichkit.games.jass.profiles import PROFILES

ANNOUNCE = "weis"
CALL_STOECK = "stoeck"  # stoeck="announce": said before the second of trump King and Queen
SAYINGS = (ANNOUNCE, CALL_STOECK)


def may_announce(view: Mapping[str, Any]) -> bool:
    """Whether the seat to move may announce a Weis now."""
    return view.get("game") == "jass" and ANNOUNCE in (view.get("legal_actions") or ())


def pays(view: Mapping[str, Any]) -> bool:
    """Whether announcing this hand's Weis can score: the best announced by the other team is no
    higher than this hand's best Weis or the partner's announced one (equal points may still win
    on length, height or trump)."""
    me = view["seat"] % 2
    held = best_weis(DECK.parse_set(view["hand"]), PROFILES[view["profile"]])
    ours = max((w.points for w in held), default=0)
    theirs = 0
    for a in view.get("announced") or ():
        best = max(a["points"])
        if a["seat"] % 2 == me:
            ours = max(ours, best)
        else:
            theirs = max(theirs, best)
    return ours >= theirs


def announces(view: Mapping[str, Any]) -> str | None:
    """What to say now: "weis" or "stoeck"; "" to stay silent and play a card; None when there is
    nothing to say. Stöck is always called: its two cards are seen anyway, silence only loses it."""
    if view.get("game") != "jass":
        return None
    legal = view.get("legal_actions") or ()
    if CALL_STOECK in legal:
        return CALL_STOECK
    if ANNOUNCE not in legal:
        return None
    return ANNOUNCE if pays(view) else ""


def cards_only(view: Mapping[str, Any]) -> dict[str, Any]:
    """The view with the announcements left out of the legal actions (the seat stays silent)."""
    return {**view, "legal_actions": [a for a in view["legal_actions"] if a not in SAYINGS]}
