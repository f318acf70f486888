"""A game played deal by deal (Jass, Coiffeur, Differenzler, Stichling): what every such state
keeps alike, written once.

`DealByDealFields` declares the fields every such game keeps: the game, its log, the seed and
the deals given for a replay, the deal count, the deals summed up (one summary a finished deal),
the undo stack, the phase and the seat to move; a game names its own types of deal, summary and
snapshot as the class's parameters (`DealByDealFields[Hands, DealSummary, Snapshot]`), and its
own `<Game>Fields` declares only what is its own. `SHARED` and `COPIED` list these fields as
clone() treats them, and begin a game's SHARED_FIELDS and COPIED_FIELDS.

`DealByDealState` adds what the Jass family shares beyond the fields (Stichling plays its own):
the cached mask of legal actions; how a deal begins (the given deal, or the next one from the
seed, written in the log as a chance outcome); what undo drops after restoring a snapshot; and
the protocol's questions that only read these. Each game keeps its own snapshots and undo scheme
(they are tuned for speed) and its own deal.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Generic, TypeVar

from .game import Entry, Game, State

D = TypeVar("D")  # a deal as given (the game's stored deal format)
S = TypeVar("S")  # a finished deal's summary
U = TypeVar("U")  # an entry of the undo stack (the game's own snapshots)

# The fields below as clone() treats them (State.SHARED_FIELDS): values shared by a clone, then
# the lists and dicts that play changes in place, copied. `_legal` is DealByDealState's.
SHARED = ("game", "_seed", "_deal_no", "_phase", "_player")
COPIED = ("_log", "_given", "_undo", "_summaries")
STATE_SHARED = (*SHARED, "_legal")


class DealByDealFields(State, Generic[D, S, U]):
    """The fields of every game played deal by deal, declared once."""

    game: Any  # the game's own class (its options, profile, multipliers...)
    _log: list[Entry]
    _seed: int
    _given: dict[int, D]  # deal number -> the deal given (replays, explicit deals)
    _summaries: list[S]  # one a finished deal
    _undo: list[U]
    _deal_no: int
    _phase: int
    _player: int  # the seat to move; -1 once the game is over, and only then


class DealByDealState(DealByDealFields[D, S, U]):
    """The part of a Jass-family state that every such game keeps alike."""

    _legal: int  # the legal actions' mask, or -1 until asked

    def _begin(self, game: Game, seed: int, given: dict[int, D]) -> None:
        """The fields every deal-by-deal game starts with, before its first deal."""
        self.game = game
        self._log = []
        self._seed = seed
        self._given = given
        self._summaries = []
        self._undo = []
        self._deal_no = -1
        self._legal = -1

    def _next_deal(self) -> D:
        """The next deal: the one given for it, or the one the seed deals; written in the log."""
        self._deal_no += 1
        n = self._deal_no
        deal = self._given.get(n) or self._deal_from_seed(self._seed, n)
        self._log.append(("chance", deal))
        self._legal = -1
        return deal

    @abstractmethod
    def _deal_from_seed(self, seed: int, n: int) -> D:
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
