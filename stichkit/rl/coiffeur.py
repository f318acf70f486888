"""Coiffeur's observation: one seat's view as a float32 vector, seats and teams counted from the
observer.

Seats are relative: 0 is the observer, 1 plays next (play runs counter-clockwise), 2 the partner,
3 the other opponent; team 0 is the observer's. Cards are indexed as the action ids 0-35 (suit
D H S C × rank 6 … A). Both sheets are public and encoded in full: per row, whether it is played
and what was written there.
"""

from __future__ import annotations

from stichkit.core import Game

from .encoder import View, unit
from .jass_family import JassFamilyEncoder

PLAY_MODES = ("D", "H", "S", "C", "obe", "une", "slalom-obe", "slalom-une", "guschti-obe", "guschti-une")
TRICK_MODES = ("D", "H", "S", "C", "obe", "une")
MAX_WRITTEN = 257  # 157 and the match bonus


class CoiffeurEncoder(JassFamilyEncoder):
    PHASES = ("trump", "pushed", "play", "over")

    def __init__(self, game: Game) -> None:
        self.around = game.options.get("push") == "around"
        self.rows = len(game.new_state(seed=0).view(None)["sheets"][0]["rows"])
        super().__init__(game)

    def _layout(self) -> None:
        add = self._add
        r = self.rows
        self._add_hand()
        self._add_phase("one-hot: trump, pushed, play, over")
        self._add_seats()
        self.o_pushed = add("pushed", 1, "1 if the forehand pushed this deal")
        self.o_chooser = add("chooser", 4, "one-hot relative seat that announced this deal's mode")
        self.o_mode = add("mode", 10, "one-hot play mode, as the trump: actions are ordered")
        self.o_trick_mode = add("trick_mode", 6, "one-hot mode of the trick in progress: D H S C obe une")
        self._add_trick()
        self._add_played()
        self._add_trick_number()
        self.o_points = add("points", 2, "points each relative team has taken this deal / 157")
        self._add_cannot_hold()
        self._add_hand_sizes()
        self.o_filled = add("row_played", 2 * r, "per relative team and sheet row: 1 if played")
        self.o_written = add("row_points", 2 * r, "per relative team and sheet row: the points written / 257")
        self.o_open = add("open_modes", 2 * 10, "per relative team: 1 for each play mode it may still announce")
        self.o_totals = add("totals", 2, "each relative team's sheet total / (257 × the sum of the multipliers)")
        self.o_deal = add("deals_left", 1, "deals still to play, this one included / deals")
        if self.around:  # push="around": who pushed matters (only then; the plain layout stays)
            self.o_pushed_by = add("pushed_by", 4, "1 for each relative seat that pushed this deal (push='around')")

    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        me = view["seat"]
        ap = hot.append
        self._write_play(view, base, hot, at, values)
        if view["pushed"]:
            ap(base + self.o_pushed)
        if view["chooser"] is not None:
            ap(base + self.o_chooser + (me - view["chooser"]) % 4)
            ap(base + self.o_mode + PLAY_MODES.index(view["mode"]))
        if view["trick_mode"] is not None:
            ap(base + self.o_trick_mode + TRICK_MODES.index(view["trick_mode"]))
        r = self.rows
        for team in range(2):
            rel = (me - team) % 2
            at.append(base + self.o_points + rel)
            values.append(unit(view["points"][team], 157))
            sheet = view["sheets"][team]
            top = MAX_WRITTEN * sum(row["multiplier"] for row in sheet["rows"])
            for k, row in enumerate(sheet["rows"]):
                if row["points"] is not None:
                    ap(base + self.o_filled + rel * r + k)
                    at.append(base + self.o_written + rel * r + k)
                    values.append(unit(row["points"], MAX_WRITTEN))
            for m in sheet["open"]:
                ap(base + self.o_open + rel * 10 + PLAY_MODES.index(m))
            at.append(base + self.o_totals + rel)
            values.append(unit(sheet["total"], top))
        deals = view["deals"]
        at.append(base + self.o_deal)
        values.append(unit(deals - view["deal_number"], deals))
        if self.around:
            for s in view["pushed_by"]:
                ap(base + self.o_pushed_by + (me - s) % 4)
