"""Games as stored: every game of a table, and a finished game with its actions, read the one way
the record, the replay and the analysis all take."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, select

from ..model import FinishedGame, StoredGame
from .models import GameRow, TableRow
from .repository import Missing, NotOver, Repository, actions_of, value_of


class GameStore(Repository):
    def games(self, table_id: str) -> list[StoredGame]:
        """Every game of the table, finished or not, in order."""
        with self.sessions() as s:
            if s.get(TableRow, table_id) is None:
                raise Missing(f"no table {table_id!r} here (it may have been swept)")
            return [_game(g) for g in s.scalars(_games_of(table_id).order_by(GameRow.game_no))]

    def finished_game(self, table_id: str, game_no: int | None = None) -> FinishedGame:
        """Game `game_no` of the table (None: its latest finished one) with its actions, once it
        is over (NotOver before; Missing: no such table or game)."""
        with self.sessions() as s:
            table = s.get(TableRow, table_id)
            if table is None:
                raise Missing(f"no table {table_id!r} here (it may have been swept)")
            if game_no is None:
                over = _games_of(table_id).where(GameRow.status == "over")
                game = s.scalars(over.order_by(GameRow.game_no.desc())).first()
                if game is None:
                    raise NotOver("no game at this table is over yet: records are public once a game ends")
            else:
                game = s.get(GameRow, (table_id, game_no))
                if game is None:
                    raise Missing(f"table {table_id} has no game {game_no}")
                if game.status != "over":
                    raise NotOver(f"game {game_no} is not over: its record is public once it ends")
            return FinishedGame(table.id, table.game, dict(table.options), game.seed, _game(game),
                                _seats_played(table, game), actions_of(s, table_id, game.game_no))  # fmt: skip


def _games_of(table_id: str) -> Select[GameRow]:
    return select(GameRow).where(GameRow.table_id == table_id)


def _game(row: GameRow) -> StoredGame:
    return value_of(StoredGame, row)


def _seats_played(table: TableRow, game: GameRow) -> list[dict[str, Any]]:
    """The game's seats, each with its number. A game finished by an older server kept no human
    names (it stored the seats before anyone sat): while the table is still at that game, they
    come from its seats."""
    out = [{"seat": i, **s} for i, s in enumerate(game.seats)]
    if table.game_no == game.game_no:
        for s, now in zip(out, table.seats, strict=False):
            if s["kind"] == "human" and s.get("name") is None and now.name is not None:
                s["name"], s["names"] = now.name, [now.name]
    return out
