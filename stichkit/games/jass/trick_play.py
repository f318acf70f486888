"""A trick of Jass's card play for the games that build on Jass without Stöck: Coiffeur and
Differenzler. A card follows Jass's rules (rules.py) in the trick's mode, the best card takes the
trick and leads the next, and what a card reveals (a void) is noted for everybody; the game says
whose the trick's points are (`_take`) and what happens after the ninth (`_end_deal`).

Jass itself plays its tricks in state.py, where the Stöck and the trick's best card are tracked
on the same path, tuned for speed.
"""

from __future__ import annotations

from abc import abstractmethod

from .cards import LAST_TRICK_BONUS, POINTS, STRENGTH
from .position import Trick
from .rules import cannot_hold, next_reference


class TrickPlay:
    """The card play of one trick after another, on the fields a Jass-family state declares."""

    _player: int
    _hands: list[int]
    _trick: list[int]
    _leader: int
    _led: int
    _win_seat: int
    _win_str: int
    _best_trump: int
    _voids: list[int]
    _tricks: tuple[Trick, ...]

    @abstractmethod
    def _trick_mode(self) -> int:
        """The Jass mode (trump suit 0-3, Obenabe, Undenufe) of the trick being played."""

    @abstractmethod
    def _take(self, winner: int, points: int) -> None:
        """The trick's points go to its winner (or the winner's team)."""

    @abstractmethod
    def _end_deal(self) -> None:
        """After the ninth trick."""

    def _play(self, card: int) -> None:
        p = self._player
        self._hands[p] ^= 1 << card
        trick = self._trick
        mode = self._trick_mode()
        if not trick:
            self._leader = p
            led = self._led = card // 9
            self._win_seat = p
            self._win_str = STRENGTH[mode][led][card]
            self._best_trump = card if led == mode else -1
        else:
            led = self._led
            suit = card // 9
            if suit != led:  # what everybody learns about this hand from the card it did not play
                self._voids[p] |= cannot_hold(card, led, mode, self._best_trump)
            st = STRENGTH[mode][led][card]
            if st > self._win_str:
                self._win_seat, self._win_str = p, st
            if suit == mode:
                self._best_trump = next_reference(self._best_trump, card, False)
        trick.append(card)
        if len(trick) == 4:
            self._end_trick(mode)
        else:
            self._player = (p + 3) & 3

    def _end_trick(self, mode: int) -> None:
        trick = self._trick
        pts_table = POINTS[mode]
        pts = pts_table[trick[0]] + pts_table[trick[1]] + pts_table[trick[2]] + pts_table[trick[3]]
        winner = self._win_seat
        number = len(self._tricks)
        if number == 8:
            pts += LAST_TRICK_BONUS
        self._tricks += ((self._leader, tuple(trick), winner, pts),)
        self._trick = []
        self._led = self._win_seat = self._win_str = self._best_trump = -1
        self._take(winner, pts)
        if number == 8:
            self._end_deal()
        else:
            self._player = self._leader = winner
