"""What `stich analyse` reports: every card decision of a Jass game solved with all hands known.

For each card played: the double-dummy best card(s), the value of the card played and the points
it lost against the best (`Solution.loss`); then, per deal and per seat, the points lost in total
and the number of errors (cards that lost points). Values are points of the deal still to be won
from that decision, counted as the solver counts them (trick points, last trick, match; not Weis
or Stöck, see solver.py). The JSON form is documented in docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stichkit.core.errors import UndoError
from stichkit.games.jass.cards import MODES
from stichkit.games.jass.state import JassState

from .solver import SolveError, c_available, solve

SCHEMA = "stichkit-analysis"
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Decision:
    """One card played, and what the solver says of it."""

    deal: int  # deal number, from 0
    trick: int  # trick of the deal, from 1
    seat: int
    played: str
    value: int  # points the seat's team takes from here after the card played
    best: tuple[str, ...]  # the cards with the best value
    best_value: int
    values: dict[str, int]  # every legal card

    @property
    def loss(self) -> int:
        return self.best_value - self.value

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "played": self.played,
            "value": self.value,
            "best": list(self.best),
            "best_value": self.best_value,
            "loss": self.loss,
            "values": dict(self.values),
        }


@dataclass(frozen=True)
class SeatTotal:
    seat: int
    decisions: int = 0
    errors: int = 0
    lost: int = 0

    def plus(self, d: Decision) -> SeatTotal:
        return SeatTotal(self.seat, self.decisions + 1, self.errors + (d.loss > 0), self.lost + d.loss)

    def to_json(self) -> dict[str, int]:
        return {"seat": self.seat, "decisions": self.decisions, "errors": self.errors, "lost": self.lost}


@dataclass(frozen=True)
class Analysis:
    """A game's card decisions, solved. `deals` maps a deal number to its trump mode text."""

    options: dict[str, Any]
    engine: str
    decisions: tuple[Decision, ...]
    deals: dict[int, str] = field(default_factory=dict)

    def totals(self, deal: int | None = None) -> list[SeatTotal]:
        """Per seat: decisions, errors and points lost, over one deal or (None) the whole game."""
        out = [SeatTotal(s) for s in range(4)]
        for d in self.decisions:
            if deal is None or d.deal == deal:
                out[d.seat] = out[d.seat].plus(d)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SCHEMA,
            "version": SCHEMA_VERSION,
            "game": "jass",
            "options": dict(self.options),
            "engine": self.engine,
            "decisions": [d.to_json() for d in self.decisions],
            "deals": [
                {"deal": n, "trump": trump, "seats": [t.to_json() for t in self.totals(n)]}
                for n, trump in sorted(self.deals.items())
            ],
            "seats": [t.to_json() for t in self.totals()],
        }


def analyse(state: Any, engine: str = "auto", progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Solve every card decision in the history of a Jass `state` (a replayed record), from its
    first deal on. `state` is left as it was. `progress(done, total)` is called after each one."""
    if not isinstance(state, JassState):
        what = getattr(getattr(state, "game", None), "name", type(state).__name__)
        raise SolveError(f"analysis needs a Jass game, not {what}")
    history = state.history()
    work = state.clone()
    for _ in history:  # back to the first deal; the record's deals stay in the state
        try:
            work.undo()
        except UndoError:
            break
    cards = sum(1 for _, a in history if a.id < 36)
    decisions: list[Decision] = []
    deals: dict[int, str] = {}
    for seat, action in history:
        pos = work.play_position()
        if action.id < 36 and pos is not None:
            sol = solve(work, engine=engine)
            deal = work.deals_played - 1
            deals[deal] = MODES[pos.trump]
            decisions.append(
                Decision(
                    deal,
                    pos.tricks_done + 1,
                    seat,
                    action.text,
                    sol.values[action],
                    tuple(a.text for a in sol.best),
                    sol.value,
                    {a.text: v for a, v in sol.values.items()},
                )
            )
            if progress is not None:
                progress(len(decisions), cards)
        work.apply(action)
    used = "python" if engine == "python" or not c_available() else "c"
    return Analysis(dict(state.game.options), used, tuple(decisions), deals)
