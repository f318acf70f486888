"""Ausmachen: the points written as they arise, and the end of the game the moment a team
reaches the target ("bedanken"). In the Swiss order "Stöck, Weis, Stich" (option ausmachregel,
docs/jass.md): Stöck that finishes the game is shown at once, even before its second card; at
the first trick a Stöck that can help finish is written before the Weis, the Weis before the
trick; the match bonus after the last trick. Every point counts the deal's multiplier.

`Ausmachen` is a part of the Jass state (state.py) kept in its own file: it reads and writes the
state's fields, declared here for the type checker, and imports nothing of the state.
"""

from __future__ import annotations

from typing import Any

from .actions import OVER
from .cards import MATCH_BONUS, STOECK_PAIR, STOECK_POINTS
from .passe import leader
from .position import Trick
from .profiles import Profile
from .scoring import STOECK, VOIDED, WEIS, DealSummary
from .weis import Weis, scoring_teams


class Ausmachen:
    """Writing the points of a Jass deal, and ending the game at the target. (The state's
    `__slots__` are its own: the fields below are only declared here.)"""

    _profile: Profile
    _target: int
    _deals: int  # a game of fixed deals (passe.py), or 0
    _mults: tuple[int, ...]
    _mult: int  # the deal's multiplier, once trump is chosen
    _ausmachen: bool
    _weis_on: bool
    _stoeck_on: bool
    _scores: list[int]
    _tally: list[int]
    _summaries: list[DealSummary]
    _winner: int
    _phase: int
    _player: int
    _deal_no: int
    _forehand: int
    _chooser: int
    _pushed: bool
    _trump: int
    _match: int
    _start: Any
    _tricks: tuple[Trick, ...]
    _deal_tricks: list[int]
    _weis: tuple[tuple[Weis, ...], ...]
    _weis_teams: tuple[int, ...] | None
    _stoeck_seat: int
    _stoeck_done: bool

    def _start_deal(self) -> None:
        raise NotImplementedError  # the state deals (state.py)

    def _stoeck_holder(self) -> int:
        """The seat dealt both trump King and Queen, or -1."""
        mode = self._trump
        if self._stoeck_on and 0 <= mode < 4:
            pair = STOECK_PAIR[mode]
            for seat in range(4):
                if self._start[seat] & pair == pair:
                    return seat
        return -1

    def _stoeck_now(self) -> bool:
        """The Ausmachregel: Stöck may be shown at any moment once its points finish the game, even
        before the second card of the pair is played. True if that ended the game."""
        seat = self._stoeck_seat
        if seat < 0 or self._stoeck_done or not self._ausmachen:
            return False
        pts = STOECK_POINTS * self._mult
        if self._scores[seat & 1] + pts < self._target:
            return False
        self._stoeck_done = True
        self._tally[STOECK + (seat & 1)] += STOECK_POINTS
        return self._claim(seat & 1, pts)

    def _stoeck_before_weis(self, trick_team: int, pts: int) -> bool:
        """At the end of the first trick, "Stöck, Weis, Stich": a Stöck team whose Stöck, Weis and
        this trick could take it to the target claims its Stöck first. True if that ended the game."""
        seat = self._stoeck_seat
        if self._stoeck_done or not self._ausmachen:
            return False
        team = seat & 1
        mult = self._mult
        more = STOECK_POINTS + (pts if trick_team == team else 0)
        if self._weis_on:
            weis = 0
            for w in self._weis[team] + self._weis[team + 2]:
                weis += w.points
            # Whose Weis count is asked only when the team's Weis could make the difference.
            if (
                weis
                and self._scores[team] + (more + weis) * mult >= self._target
                and team in scoring_teams(self._weis, self._trump, self._forehand, self._profile)
            ):
                more += weis
        if self._scores[team] + more * mult < self._target:
            return False
        self._stoeck_done = True
        self._tally[STOECK + team] += STOECK_POINTS
        return self._claim(team, STOECK_POINTS * mult)

    def _end_deal(self, team: int, pts: int) -> None:
        """After the last trick: the match bonus (voiding the other team's bonus in `seed`),
        then the next deal, unless the points end the game or it was the last of `deals`."""
        tally = self._tally
        mult = self._mult
        if self._deal_tricks[team] == 9:
            self._match = team
            pts += MATCH_BONUS
            if self._profile.match_voids_opponents_bonus:
                other = team ^ 1
                void = tally[WEIS + other] + tally[STOECK + other]
                tally[VOIDED + other] = void
                self._scores[other] -= void * mult
        if self._claim(team, pts * mult):
            return
        if self._deal_no + 1 == self._deals:
            self._game_over(leader(self._scores))  # the last deal of a game of fixed deals
            return
        self._summaries.append(self._summary(True))
        self._start_deal()

    def _show_weis(self) -> bool:
        """Score the Weis after the first trick. True if that ends the game."""
        teams = scoring_teams(self._weis, self._trump, self._forehand, self._profile)
        self._weis_teams = teams
        if len(teams) == 2 and self._forehand & 1:
            teams = (1, 0)  # the forehand's team claims first
        for team in teams:
            pts = 0
            for w in self._weis[team] + self._weis[team + 2]:
                pts += w.points
            self._tally[WEIS + team] += pts
            if self._claim(team, pts * self._mult):
                return True
        return False

    def _claim(self, team: int, pts: int) -> bool:
        """Write points for a team; True (and the game is over) once it reaches the target."""
        self._scores[team] += pts
        if self._scores[team] >= self._target:
            self._game_over(team)
            return True
        return self._stoeck_seat >= 0 and self._stoeck_seat & 1 == team and self._stoeck_now()

    def _game_over(self, team: int) -> None:
        self._winner = team
        self._phase = OVER
        self._player = -1
        self._summaries.append(self._summary(len(self._tricks) == 9))

    def _summary(self, complete: bool) -> DealSummary:
        return DealSummary(
            self._deal_no, self._forehand, self._chooser, self._pushed, self._trump,
            tuple(self._tally), self._match, complete, self._tricks[-1] if self._tricks else None,
            self._mult if self._trump >= 0 else 1,
        )  # fmt: skip
