"""Differenzler's observation: one seat's view as a float32 vector, seats counted from the observer.

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 and 3 the
others in turn; everybody plays for themselves. Cards are indexed as the action ids 0-35 (suit
D H S C × rank 6 … A). A prediction is encoded only as the view shows it: the observer's own at
once, the others' once revealed (the open game), so a hidden one never reaches the vector.
"""

from __future__ import annotations

from .encoder import View, unit
from .jass_family import JassFamilyEncoder

TRUMPS = "DHSC"
DEAL_TOTAL = 157
MAX_PENALTY_PER_DEAL = 157


class DifferenzlerEncoder(JassFamilyEncoder):
    PHASES = ("predict", "play", "over")

    def _layout(self) -> None:
        add = self._add
        self._add_hand()
        self._add_phase("one-hot: predict, play, over")
        self._add_seats()
        self.o_trump = add("trump", 4, "one-hot trump suit D H S C")
        self.o_trump_card = add("trump_card", 36, "the turned-up trump card (trump='turned-up'), held by the dealer")
        self.o_predicted = add("predicted", 4, "1 for each relative seat that has predicted this deal")
        self.o_known = add("prediction_known", 4, "1 for each relative seat whose prediction the observer sees")
        self.o_pred = add("predictions", 4, "each seen prediction / 157 (0 when not seen)")
        self._add_trick()
        self._add_played()
        self._add_trick_number()
        self._add_tricks_won()
        self.o_points = add("points", 4, "points each relative seat has taken this deal / 157")
        self._add_cannot_hold()
        self._add_hand_sizes()
        self.o_penalties = add("penalties", 4, "each relative seat's total penalty / (157 × deals), clipped to [0, 1]")
        self.o_deal = add("deals_left", 1, "deals still to play, this one included / deals")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        me = view["seat"]
        ap = hot.append
        self._write_play(view, base, hot, at, values)
        ap(base + self.o_trump + TRUMPS.index(view["trump"]))
        if view["trump_card"] is not None:
            ap(base + self.o_trump_card + self.cards[view["trump_card"]])
        for s in range(4):
            rel = (me - s) % 4
            if view["predicted"][s]:
                ap(base + self.o_predicted + rel)
            seen = view["predictions"][s]
            if seen is not None:
                ap(base + self.o_known + rel)
                at.append(base + self.o_pred + rel)
                values.append(seen / DEAL_TOTAL)
        deals = view["deals"]
        for s in range(4):
            rel = (me - s) % 4
            at += (base + self.o_points + rel, base + self.o_penalties + rel)
            values += (
                unit(view["points"][s], DEAL_TOTAL),
                unit(max(0, view["penalties"][s]), MAX_PENALTY_PER_DEAL * deals),
            )
        at.append(base + self.o_deal)
        values.append(unit(deals - view["deal_number"], deals))
