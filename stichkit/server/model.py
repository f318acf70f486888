"""The server's data as plain values: a table and its seats as stored, a takeback asked for, a
game as it was played, a chat line, a tournament with its entrants, rounds and round tables. The
stores read and write them (db/store.py, db/tournaments.py), the live table (table.py), the hub
and its rooms work with them; none of them knows how they are stored.

A stored game is its game name, its options as written, its seed and its actions: `stored_game`
turns the first two into the engine's game, the one way every part of the server (a table
restored or caught up, a record, a replay, an analysis) does it; `replayed` and `rebuilt` deal
it from its seed and apply the actions.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import stichkit
from stichkit.core import Game, State


def stored_game(name: str, options: dict[str, Any]) -> Game:
    """The game a table stored, from its options as written then: an option added since takes
    the value that plays as the game was dealt (a 3-player Stich-Meister table from before
    `prune_trump_rules` goes on with the pruned deck)."""
    return stichkit.load_written_game(name, options)


def replayed(game: Game, seed: int, actions: Iterable[str]) -> Iterator[State]:
    """A stored game rebuilt through the engine: the deal from its seed (version 0), then the
    state after each stored action, one version at a time (the same state object, changed)."""
    state = game.new_state(seed=seed)
    yield state
    for action in actions:
        state.apply(action)
        yield state


def rebuilt(game: Game, seed: int, actions: Iterable[str]) -> State:
    """A stored game after its `actions` (see `replayed`)."""
    return deque(replayed(game, seed, actions), maxlen=1)[0]


@dataclass
class Seat:
    """A seat as stored: a bot's spec, or a human's name and token hash (None: free)."""

    kind: str  # human | bot
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    takeover: str | None = None  # None | hand | game
    takeover_hand: int | None = None
    rematch: bool = False
    account: int | None = None  # the account of whoever sits here logged in (None: a guest)
    person: str | None = None  # who sits here (identity.person); never shown
    holders: list[str] | None = None  # who held the seat since the game began (see barred_seats)

    def public(self) -> dict[str, Any]:
        """Who sat here, as a game's seat list keeps it (no token). A human seat also lists in
        `names` everyone who held it during the game, in order (see `Store.claim_seat`), and in
        `account` the account id of whoever began it logged in (None: a guest)."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "bot": self.bot}
        if self.kind == "human":
            out["names"] = [self.name] if self.name else []
            if self.account is not None:
                out["account"] = self.account
        return out


def account_person(account: int) -> str:
    """A logged-in player as a person (identity.person): the same on every device."""
    return f"account:{account}"


def barred_seats(seats: list[Seat], person: str | None, playing: bool) -> dict[int, str]:
    """The seats `person` may not take now, each with the reason: while they hold one seat of the
    table, every other; during a game, every seat but those they held in it (knowing one hand,
    they would know two). A person nobody has seen yet (None) is someone new."""
    if person is None:
        return {}
    barred: dict[int, str] = {}
    for i, s in enumerate(seats):
        if s.person == person:
            barred.update({j: f"you hold seat {i} at this table already" for j in range(len(seats)) if j != i})
    if playing:
        held = [i for i, s in enumerate(seats) if person in (s.holders or ())]
        for j in range(len(seats)):
            if held and j not in held and j not in barred:
                barred[j] = (f"you held seat {held[0]} in this game: a seat given up during play goes to the "
                             "takeover bot or to someone new (unless the table allows shared screens)")  # fmt: skip
    return barred


def began(seats: list[Seat]) -> None:
    """Play begins: each seat's holders are the person sitting there now."""
    for s in seats:
        s.holders = [s.person] if s.person else None


def sat_down(seat: Seat, person: str | None, playing: bool) -> None:
    """`person` takes `seat` (during play, they join its holders)."""
    seat.person = person
    if playing and person and person not in (seat.holders or ()):
        seat.holders = [*(seat.holders or ()), person]


@dataclass(frozen=True)
class TakebackRequest:
    """A takeback `seat` asked for at a table with other players: back to `to` decisions of game
    `game` on line `line`, once every other player agrees. `yes` lists who agreed so far; `no`
    who declined (or the asker, who withdrew): the request then stays closed, to be shown so.
    `at`, when it was asked, tells one request from the next."""

    seat: int
    game: int
    line: int
    to: int
    at: float
    yes: tuple[int, ...] = ()
    no: int | None = None

    def text(self) -> str:
        return json.dumps({"seat": self.seat, "game": self.game, "line": self.line, "to": self.to, "at": self.at,
                           "yes": list(self.yes), "no": self.no}, separators=(",", ":"))  # fmt: skip

    @classmethod
    def parse(cls, text: str | None) -> TakebackRequest | None:
        """The request stored as `text` (None: none, or text this version cannot read)."""
        if text is None:
            return None
        try:
            d = json.loads(text)
            no = d["no"]
            return cls(int(d["seat"]), int(d["game"]), int(d["line"]), int(d["to"]), float(d["at"]),
                       tuple(int(x) for x in d["yes"]), None if no is None else int(no))  # fmt: skip
        except (ValueError, KeyError, TypeError):
            return None


@dataclass(frozen=True)
class StoredAction:
    version: int
    seat: int
    action: str
    by: str
    at: float


@dataclass
class StoredTable:
    id: str
    name: str
    game: str
    options: dict[str, Any]
    private: bool
    settings: dict[str, Any]
    status: str
    game_no: int
    rev: int
    created_at: float
    updated_at: float
    seats: list[Seat]
    seed: int
    started_at: float
    actions: list[StoredAction] = field(default_factory=list)
    complete: bool = True  # False: `actions` holds only those after the version asked for
    line: int = 0  # one more with each takeback in this game (see models.TableRow.line)
    last_chat: int = 0  # the id of the table's newest chat line when it was read in full (0: none)
    takeback: str | None = None  # a TakebackRequest's text, as stored (see Store.set_takeback)
    opened_by: str | None = None  # the client that opened it (clients.client_key)


@dataclass(frozen=True)
class StoredGame:
    """One game of a table as stored: who sat where (see `Store.claim_seat`), how it ended, and
    how many times each seat took moves back (None: stored before takebacks were counted)."""

    game_no: int
    status: str  # playing | over
    seats: list[dict[str, Any]]
    result: dict[str, Any] | None
    takebacks: list[int] | None
    started_at: float
    finished_at: float | None

    def takeback_counts(self) -> list[int]:
        """Takebacks per seat (a game stored before they were counted: none)."""
        return [int(x) for x in self.takebacks] if self.takebacks else [0] * len(self.seats)

    def summary(self) -> dict[str, Any]:
        return {"game_no": self.game_no, "status": self.status, "seats": self.seats, "result": self.result,
                "started_at": self.started_at, "finished_at": self.finished_at,
                "takebacks": self.takeback_counts()}  # fmt: skip


@dataclass(frozen=True)
class FinishedGame:
    """A finished game with all a record, a replay or an analysis needs: the table's game and
    options as written, the seed, the actions that stand, and `seats`, each with its number, as
    the game was played (see `Store.finished_game` for games older servers finished)."""

    table_id: str
    game: str
    options: dict[str, Any]
    seed: int
    played: StoredGame
    seats: list[dict[str, Any]]
    actions: list[StoredAction]

    @property
    def game_no(self) -> int:
        return self.played.game_no

    def states(self) -> Iterator[State]:
        """The game version by version, from the deal (see `replayed`)."""
        return replayed(stored_game(self.game, self.options), self.seed, [a.action for a in self.actions])

    def state(self) -> State:
        """The game at its end."""
        return rebuilt(stored_game(self.game, self.options), self.seed, [a.action for a in self.actions])


@dataclass(frozen=True)
class ChatLine:
    id: int
    seat: int
    name: str
    text: str
    at: float

    def message(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text, "time": self.at}


TABLE_OPENER = "tournament:"  # a round table's `opened_by`: the tournament's, not a visitor's


@dataclass(frozen=True)
class Entrant:
    """A person (an account or a browser), or a bot, entered in a tournament; in team formats with
    the team's name. `replaced_by` is the bot that plays for a player who has gone, from round
    `replaced_round` on."""

    number: int
    kind: str  # human | bot
    name: str
    bot: str | None = None
    account: int | None = None
    person: str | None = None
    team: str | None = None
    replaced_by: str | None = None
    replaced_round: int | None = None
    registered_at: float = 0.0


@dataclass(frozen=True)
class RoundTable:
    """One table of a round: the ordinary table that plays it, the entrant at each seat, its
    games' seeds and the results kept so far; `tokens` the seat tokens of the people seated."""

    round: int
    number: int
    table_id: str
    seats: list[int]
    seeds: list[int]
    tokens: dict[str, str]
    results: list[dict[str, Any]]
    status: str  # playing | over


@dataclass(frozen=True)
class Round:
    number: int
    status: str  # playing | done
    plan: dict[str, Any]
    started_at: float
    ended_at: float | None


@dataclass(frozen=True)
class StoredTournament:
    id: str
    name: str
    game: str
    options: dict[str, Any]
    format: str
    settings: dict[str, Any]
    status: str  # registering | running | paused | over
    round: int
    seed: int
    organiser: str
    opened_by: str
    invitation: str | None
    start_at: float | None
    ended_early: bool
    rev: int
    created_at: float
    updated_at: float
    started_at: float | None = None
    ended_at: float | None = None
    entrants: list[Entrant] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    tables: list[RoundTable] = field(default_factory=list)

    def entrant_of(self, person: str | None) -> Entrant | None:
        if person is None:
            return None
        return next((e for e in self.entrants if e.person == person), None)


@dataclass(frozen=True)
class NewRoundTable:
    """A table of a round to open: the ordinary table, and what the tournament keeps of it."""

    number: int
    table: StoredTable
    seats: list[int]
    seeds: list[int]
    tokens: dict[str, str]
