"""A game played deal by deal, as the Jass family plays (Jass, Coiffeur, Differenzler): what every
such state keeps alike, written once.

The game, its log, the seed and the deals given for a replay, the deal count, the deals summed up
(one summary a finished deal), the undo stack and the cached mask of legal actions; how a deal
begins (the given deal, or the next one from the seed, written in the log as a chance outcome);
what undo drops after restoring a snapshot; and the protocol's questions that only read these.
Each game keeps its own snapshots and undo scheme (they are tuned for speed) and its own deal.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .game import Entry, Game, State


class DealByDealState(State):
    """The part of a deal-by-deal game's state that every such game keeps alike."""

    game: Any  # the game's own class (its options, profile, multipliers...)
    _log: list[Entry]
    _seed: int
    _given: dict[int, Any]  # deal number -> the deal given (replays, explicit deals)
    _summaries: list[Any]  # one a finished deal
    _undo: list[Any]  # the game's own snapshots
    _deal_no: int
    _legal: int  # the legal actions' mask, or -1 until asked
    _phase: int
    _player: int  # the seat to move; -1 once the game is over, and only then

    def _begin(self, game: Game, seed: int, given: dict[int, Any]) -> None:
        """The fields every deal-by-deal game starts with, before its first deal."""
        self.game = game
        self._log = []
        self._seed = seed
        self._given = given
        self._summaries = []
        self._undo = []
        self._deal_no = -1
        self._legal = -1

    def _next_deal(self) -> Any:
        """The next deal: the one given for it, or the one the seed deals; written in the log."""
        self._deal_no += 1
        n = self._deal_no
        deal = self._given.get(n) or self._deal_from_seed(self._seed, n)
        self._log.append(("chance", deal))
        self._legal = -1
        return deal

    @abstractmethod
    def _deal_from_seed(self, seed: int, n: int) -> Any:
        """Deal number `n` of the game with this seed (the game's stored deal format)."""

    def _forget_after(self, summaries: int, log: int) -> None:
        """Undo's last step: the summaries and log entries written after a snapshot are dropped."""
        del self._summaries[summaries:]
        del self._log[log:]
        self._legal = -1

    @property
    def current_player(self) -> int | None:
        p = self._player
        return None if p < 0 else p

    @property
    def deals_played(self) -> int:
        """Deals begun so far (the one in progress included)."""
        return self._deal_no + 1

    def is_terminal(self) -> bool:
        return self._player < 0  # asked before every move: one field, no phase table

    @abstractmethod
    def _legal_mask(self) -> int:
        """The legal action ids as a bitmask."""

    def legal_action_mask(self) -> list[int]:
        m = self._legal_mask()
        return [(m >> i) & 1 for i in range(self.game.num_actions)]
