"""What a round is to play, and what its games gave: plain data, to and from JSON dicts, so a
server stores it as it is and a test builds it by hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlannedGame:
    """One game at a table. `seats`: the player id at each seat, None where the fill bot sits.
    `seed`: the game seed, which fixes every deal of the game; in a duplicate round it is the same
    at every table for the same `deal`, and `rotation` says how the line-up is turned round it."""

    index: int  # the game's number at its table, from 0
    seats: tuple[str | None, ...]
    seed: int
    deal: int = 0
    rotation: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seats": list(self.seats), "seed": self.seed, "deal": self.deal,
                "rotation": self.rotation}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlannedGame:
        return cls(int(data["index"]), tuple(None if s is None else str(s) for s in data["seats"]), int(data["seed"]),
                   int(data.get("deal", 0)), int(data.get("rotation", 0)))  # fmt: skip


@dataclass(frozen=True)
class TablePlan:
    """One table of a round: the entrants who meet there (sides, in seat order of the first game)
    and its games in the order they are played."""

    number: int  # from 1, the strongest table first
    entrants: tuple[str, ...]
    games: tuple[PlannedGame, ...]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "entrants": list(self.entrants), "games": [g.to_json() for g in self.games]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TablePlan:
        return cls(int(data["number"]), tuple(str(e) for e in data["entrants"]),
                   tuple(PlannedGame.from_json(g) for g in data["games"]))  # fmt: skip


@dataclass(frozen=True)
class RoundPlan:
    """A round: its tables, and the entrants who sit it out with a bye (Swiss, for an odd field)."""

    round: int  # from 1
    tables: tuple[TablePlan, ...]
    byes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "tables": [t.to_json() for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundPlan:
        return cls(int(data["round"]), tuple(TablePlan.from_json(t) for t in data["tables"]),
                   tuple(str(b) for b in data.get("byes", ())))  # fmt: skip

    def meetings(self) -> list[tuple[str, ...]]:
        """The entrants of each table: who met whom this round."""
        return [t.entrants for t in self.tables]


@dataclass(frozen=True)
class GamePlayed:
    """A finished game of a round: the seats as planned, each seat's final score (the game's
    `scores()`, more is better) and the winning seats. `replaced`: seats whose player was gone and
    a bot played for them (the results are marked, "wenn der Computer übernimmt"). `ref`: the
    server's name for the game, for its replay."""

    round: int
    table: int
    index: int
    seats: tuple[str | None, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    replaced: tuple[int, ...] = ()
    deal: int = 0
    rotation: int = 0
    ref: str = ""

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.seats):
            raise ValueError(f"a game of {len(self.seats)} seats has {len(self.scores)} scores")
        if any(not 0 <= s < len(self.seats) for s in (*self.winners, *self.replaced)):
            raise ValueError(f"winners and replaced seats are seats 0..{len(self.seats) - 1}")

    @classmethod
    def of(cls, round: int, table: int, game: PlannedGame, scores: Sequence[int], winners: Sequence[int],
           replaced: Sequence[int] = (), ref: str = "") -> GamePlayed:  # fmt: skip
        """The result of a planned game."""
        return cls(round, table, game.index, game.seats, tuple(scores), tuple(winners), tuple(replaced),
                   game.deal, game.rotation, ref)  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "index": self.index, "seats": list(self.seats),
                "scores": list(self.scores), "winners": list(self.winners), "replaced": list(self.replaced),
                "deal": self.deal, "rotation": self.rotation, "ref": self.ref}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GamePlayed:
        return cls(int(data["round"]), int(data["table"]), int(data["index"]),
                   tuple(None if s is None else str(s) for s in data["seats"]),
                   tuple(int(x) for x in data["scores"]), tuple(int(x) for x in data["winners"]),
                   tuple(int(x) for x in data.get("replaced", ())), int(data.get("deal", 0)),
                   int(data.get("rotation", 0)), str(data.get("ref", "")))  # fmt: skip
