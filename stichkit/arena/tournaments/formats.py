"""A tournament's settings, checked once: the game, the format, the rounds, who may register.

Every setting is refused the way a game option is (core.options): a clear `OptionError` naming
the setting, the value given and what is allowed, and nothing is made. See docs/tournaments.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import stichkit
from stichkit import bots
from stichkit.core import OptionError
from stichkit.core.errors import quote

FORMATS = ("swiss", "passe", "duplicate", "free")
REGISTRATIONS = ("anyone", "accounts", "invitation")
MAX_ROUNDS = 50
MAX_GAMES_PER_ROUND = 20
MAX_DEALS_PER_ROUND = 100
PASSE_DEALS = 12  # a club's Passe: twelve deals with one partner
# The games whose length is a number of deals (their option `deals`): a round of them can be
# that many deals. (Coiffeur's deals are its rows.)
DEALT_GAMES = frozenset({"jass", "differenzler"})
MOVE_TIME = (1.0, 3600.0)  # seconds a player has for a move, as a table's move_time

# The partnership games: seats 0+2 against 1+3. Their entrants in Swiss and duplicate are fixed
# teams of two; in Passe the partners rotate. (A rule of each game: jass.md, coiffeur.md.)
TEAM_GAMES = frozenset({"jass", "coiffeur"})
# How a free-for-all table is scored, as the game's rules rank its players: Differenzler by the
# total penalty (Swisslos adds it up over the tournament); the games played to a target by the
# place at the table, since points at tables that stop at different times do not compare.
TOTAL_SCORED = frozenset({"differenzler"})


@dataclass(frozen=True)
class Entrant:
    """One who plays in the tournament: a player, or a fixed team (its `members`, player ids, in
    seat order). A bot entrant is a player whose id the server gives to a bot; here ids are strings."""

    id: str
    name: str = ""
    members: tuple[str, ...] = ()
    withdrawn: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return self.members or (self.id,)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "members": list(self.members), "withdrawn": self.withdrawn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(str(data["id"]), str(data.get("name", "")), tuple(str(m) for m in data.get("members", ())),
                   bool(data.get("withdrawn", False)))  # fmt: skip


def _refuse(name: str, value: Any, allowed: str) -> OptionError:
    return OptionError(f"tournament setting {name}={quote(value)} is not allowed; allowed: {allowed}")


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _refuse(name, value, f"a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class Settings:
    """What an organiser chooses. `options` are the game's, resolved (every default filled in).

    `games_per_round`: the games each table plays in a round (a game's own length is its option:
    Jass's `target` or `deals`, Differenzler's `deals`). `deals_per_round`: a round is one game of
    that many deals (Jass, Differenzler: the game's option `deals`; a Passe is 12). `starts_at`
    None: started by hand. `move_time`: seconds per move at the tables (None: no clock).
    `fill_bot`: the bot that takes a seat no entrant fills (Passe and free tables of a field that
    does not divide into tables)."""

    game: str
    format: str
    options: dict[str, Any] = field(default_factory=dict)
    rounds: int = 3
    games_per_round: int = 1
    deals_per_round: int | None = None
    rated: bool = False
    registration: str = "anyone"
    starts_at: datetime | None = None
    move_time: float | None = None
    fill_bot: str = "heuristic"

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in stichkit.game_names():
            raise _refuse("game", self.game, "one of " + ", ".join(repr(g) for g in stichkit.game_names()))
        if not isinstance(self.options, Mapping):
            raise _refuse("options", self.options, "the game's options as names and values")
        if self.deals_per_round is not None:
            object.__setattr__(self, "options", self._with_deals(self.deals_per_round))
        game = stichkit.load_game(self.game, **self.options)  # OptionError names the option
        if game.files:
            raise OptionError(f"a tournament plays the shipped card tables: leave out {', '.join(sorted(game.files))}")
        object.__setattr__(self, "options", dict(game.options))
        if self.format not in FORMATS:
            raise _refuse("format", self.format, "one of " + ", ".join(repr(f) for f in FORMATS))
        problem = format_problem(self.game, self.format, game.num_players)
        if problem:
            raise _refuse("format", self.format, problem)
        _whole("rounds", self.rounds, 1, MAX_ROUNDS)
        _whole("games_per_round", self.games_per_round, 1, MAX_GAMES_PER_ROUND)
        if type(self.rated) is not bool:
            raise _refuse("rated", self.rated, "true or false")
        if self.registration not in REGISTRATIONS:
            raise _refuse("registration", self.registration, "one of " + ", ".join(repr(r) for r in REGISTRATIONS))
        if self.starts_at is not None and (
            not isinstance(self.starts_at, datetime) or self.starts_at.utcoffset() is None
        ):
            raise _refuse("starts_at", self.starts_at, "a time with its zone (2026-12-01T19:00:00+00:00), or none")
        if self.move_time is not None:
            low, high = MOVE_TIME
            if isinstance(self.move_time, bool) or not isinstance(self.move_time, int | float):
                raise _refuse("move_time", self.move_time, f"seconds from {low:g} to {high:g}, or none")
            if not low <= self.move_time <= high:
                raise _refuse("move_time", self.move_time, f"seconds from {low:g} to {high:g}, or none")
            object.__setattr__(self, "move_time", float(self.move_time))
        if not isinstance(self.fill_bot, str):
            raise _refuse("fill_bot", self.fill_bot, "a bot's name: " + ", ".join(bots.bot_names()))
        from stichkit.arena.duplicate import parse_bot  # the bot must exist and play the game

        try:
            parse_bot(self.fill_bot, self.game)
        except OptionError as e:
            raise _refuse("fill_bot", self.fill_bot, f"a bot that plays {self.game} ({e})") from None

    def _with_deals(self, deals: Any) -> dict[str, Any]:
        """The game's options with a round of `deals` deals (setting deals_per_round): one game of them."""
        if self.game not in DEALT_GAMES:
            raise _refuse("deals_per_round", deals, f"a number of deals in {', '.join(sorted(DEALT_GAMES))}; "
                          f"{self.game} sets its length by its options")  # fmt: skip
        _whole("deals_per_round", deals, 1, MAX_DEALS_PER_ROUND)
        if self.games_per_round != 1:
            raise _refuse("games_per_round", self.games_per_round, "1 when deals_per_round is set (a round is one "
                          "game of those deals)")  # fmt: skip
        given = self.options.get("deals")
        if given is not None and str(given) != str(deals):
            raise _refuse("deals_per_round", deals, f"the game's option deals={quote(given)}, or leave that out")
        return {**self.options, "deals": deals}

    @property
    def seats(self) -> int:
        """The seats of one table."""
        return stichkit.load_game(self.game, **self.options).num_players

    @property
    def team_game(self) -> bool:
        return self.game in TEAM_GAMES

    @property
    def team_size(self) -> int:
        """Players in one entrant: a fixed team of two in Swiss and duplicate Jass, else one."""
        return 2 if self.team_game and self.format in ("swiss", "duplicate") else 1

    @property
    def scoring(self) -> str:
        """How a free table ranks its players: 'total' (the game's points) or 'placement'."""
        return "total" if self.game in TOTAL_SCORED else "placement"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "format": self.format, "options": dict(self.options), "rounds": self.rounds,
            "games_per_round": self.games_per_round, "deals_per_round": self.deals_per_round, "rated": self.rated,
            "registration": self.registration,
            "starts_at": None if self.starts_at is None else self.starts_at.astimezone(UTC).isoformat(),
            "move_time": self.move_time, "fill_bot": self.fill_bot,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from JSON (a stored tournament, or an organiser's request): checked as above."""
        if not isinstance(data, Mapping):
            raise OptionError(f"tournament settings are a JSON object, not {type(data).__name__}")
        known = set(cls.__dataclass_fields__)
        unknown = [k for k in data if k not in known]
        if unknown:
            raise OptionError(
                f"a tournament has no setting {quote(unknown[0])}; its settings are: {', '.join(sorted(known))}"
            )
        for needed in ("game", "format"):
            if needed not in data:
                raise OptionError(f"a tournament needs the setting {needed!r}")
        values = dict(data)
        start = values.get("starts_at")
        if isinstance(start, str):
            try:
                values["starts_at"] = datetime.fromisoformat(start)
            except ValueError:
                raise _refuse("starts_at", start, "a time with its zone (2026-12-01T19:00:00+00:00), or none") from None
        return cls(**values)


def format_problem(game: str, fmt: str, seats: int) -> str | None:
    """Why `fmt` cannot run `game` at tables of `seats` (None: it can)."""
    team = game in TEAM_GAMES
    if fmt == "swiss" and not team and seats != 2:
        return (f"Swiss pairs two sides at a table: a team game ({', '.join(sorted(TEAM_GAMES))}) or a game "
                f"of two players; {game} with {seats} players is played as 'free' or 'duplicate'")  # fmt: skip
    if fmt == "passe" and not team:
        return f"Passe rotates partners, in a team game ({', '.join(sorted(TEAM_GAMES))}); {game} has none"
    if fmt == "free" and team:
        return f"{game} is played in teams: 'swiss', 'passe' or 'duplicate'"
    return None
