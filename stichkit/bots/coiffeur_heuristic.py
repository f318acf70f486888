"""The Coiffeur heuristic: announce the open mode where the hand is better than an average hand
by the most, weighed by the multiplier of the row it goes in; play the cards as the Jass heuristic
does, trick by trick in the trick's own mode. From one seat's view only.

- Announcing: the Jass heuristic's hand scores (trump_suit_score for a suit, notrump_score for
  Obenabe and Undenufe; Slalom and Guschti mix the two by their tricks) less what an average hand
  scores in that mode (measured over 20,000 random hands: some 36 for a given suit, 33 without
  trump), times the multiplier. A strong fit goes in a row that counts much, a hand that suits
  nothing spends a row that counts little. The forehand pushes when no open mode fits better than
  an average hand.
- Pushing around the table (push="around", Swisslos): a push hands the choice to an opponent,
  who may write the deal on the other sheet, and every deal the other team takes leaves this team
  more rows for later deals, when it may be forced to fill them with poor hands. So the bar to
  push is lower by AROUND_MARGIN, and lower still by BEHIND for each row this team has open
  beyond the other team's.
- Playing: stichkit.bots.jass_heuristic on the view as Jass writes it, with the trick's mode as
  trump (under Slalom and Guschti the earlier tricks are read in the current mode: a rule of thumb).
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.games.coiffeur.rules import row_for

from . import jass_heuristic
from .jass_heuristic import mask_of, notrump_score, trump_suit_score

PLAY_MODES = ("D", "H", "S", "C", "obe", "une", "slalom-obe", "slalom-une", "guschti-obe", "guschti-une")
TYPICAL_SUIT, TYPICAL_NOTRUMP = 36.0, 33.0
PUSH_BELOW = 0.0  # push when the best fit is no better than an average hand's
AROUND_MARGIN = 4.0  # push="around": push only when the best fit is this far below an average hand's
BEHIND = 3.0  # push="around": and this much further for each row more open on this team's sheet


def fit(hand: int, mode: str) -> float:
    """How much better than an average hand `hand` suits `mode` (hand-score units)."""
    if mode in ("D", "H", "S", "C"):
        return trump_suit_score(hand, "DHSC".index(mode)) - TYPICAL_SUIT
    obe, une = notrump_score(hand, 4) - TYPICAL_NOTRUMP, notrump_score(hand, 5) - TYPICAL_NOTRUMP
    if mode == "obe":
        return obe
    if mode == "une":
        return une
    first, second = (obe, une) if mode.endswith("-obe") else (une, obe)
    share = 5 / 9  # Slalom plays 5 tricks of the first mode and 4 of the other, as Guschti does
    return share * first + (1 - share) * second


def choose_mode(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal_actions"]
    hand = mask_of(view["hand"])
    rows = view["sheets"][view["seat"] & 1]["rows"]
    sheet = tuple((r["kind"], r["multiplier"]) for r in rows)
    filled = sum(1 << i for i, r in enumerate(rows) if r["points"] is not None)
    best, best_value, best_fit = "", float("-inf"), 0.0
    for text in legal:
        if not text.startswith("trump:"):
            continue
        mode = text[6:]
        f = fit(hand, mode)
        multiplier = sheet[row_for(sheet, filled, PLAY_MODES.index(mode))][1]
        value = multiplier * f
        if value > best_value:
            best, best_value, best_fit = text, value, f
    if "push" in legal and best_fit <= push_bar(view):
        return "push"
    return best


def push_bar(view: dict[str, Any]) -> float:
    """The fit at or below which the seat pushes (see the module)."""
    if view["options"].get("push") != "around":
        return PUSH_BELOW
    team = view["seat"] & 1
    mine, theirs = (sum(r["points"] is None for r in view["sheets"][t]["rows"]) for t in (team, 1 - team))
    return PUSH_BELOW - AROUND_MARGIN - BEHIND * max(0, mine - theirs)


def jass_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the Jass heuristic reads it: the trick's mode as trump, no Weis."""
    return {**view, "trump": view["trick_mode"], "trump_chosen_by": view["chooser"], "weis": []}


def decide(view: dict[str, Any], rng: random.Random | None = None) -> str:
    legal: list[str] = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] in ("trump", "pushed"):
        return choose_mode(view)
    return jass_heuristic.decide(jass_view(view), rng)
