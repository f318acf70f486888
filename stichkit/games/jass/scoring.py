"""What a deal gave each team. Points are claimed as they happen, in the Swiss order
Stöck → Weis → tricks (see state.py); a finished deal is summed up here for views and docs.

The tally keeps the points as they stand (157 card points a deal); the deal's multiplier
(option `multipliers`) applies to its total, as it does to every point the deal writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import MATCH_BONUS, MODES

# The running tally of a deal, one flat list so that undo snapshots stay cheap:
TRICKS, WEIS, STOECK, VOIDED = 0, 2, 4, 6  # offsets; team t's entry is at offset + t
EMPTY_TALLY = (0, 0, 0, 0, 0, 0, 0, 0)


def tally_total(tally: list[int] | tuple[int, ...], match: int, team: int, multiplier: int = 1) -> int:
    bonus = MATCH_BONUS if match == team else 0
    points = tally[TRICKS + team] + tally[WEIS + team] + tally[STOECK + team] + bonus - tally[VOIDED + team]
    return points * multiplier


@dataclass(frozen=True)
class DealSummary:
    number: int
    forehand: int
    chooser: int
    pushed: bool
    trump: int
    tally: tuple[int, ...]
    match: int  # team that took all nine tricks, or -1
    complete: bool  # False when the game ended during the deal
    last_trick: tuple[int, tuple[int, ...], int, int] | None = None  # (leader, cards, winner, points)
    multiplier: int = 1  # what the deal's points count (option `multipliers`)

    def total(self, team: int) -> int:
        return tally_total(self.tally, self.match, team, self.multiplier)

    def to_json(self) -> dict[str, Any]:
        t = self.tally
        return {
            "deal": self.number,
            "forehand": self.forehand,
            "chooser": self.chooser,
            "pushed": self.pushed,
            "trump": MODES[self.trump] if self.trump >= 0 else None,
            "trick_points": [t[TRICKS], t[TRICKS + 1]],
            "weis": [t[WEIS], t[WEIS + 1]],
            "stoeck": [t[STOECK], t[STOECK + 1]],
            "match": None if self.match < 0 else self.match,
            "voided": [t[VOIDED], t[VOIDED + 1]],
            "multiplier": self.multiplier,
            "total": [self.total(0), self.total(1)],
            "complete": self.complete,
        }
