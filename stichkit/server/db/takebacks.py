"""Takebacks as stored: moves taken back (a new line of the game), and the request the other
players answer."""

from __future__ import annotations

from sqlalchemy import delete, update

from .models import ActionRow, GameRow, TableRow
from .repository import Conflict, Repository, to_dt


class TakebackStore(Repository):
    def take_back(self, table_id: str, game_no: int, line: int, version: int, to_version: int, at: float,
                  request: str | None = None, seat: int | None = None) -> None:  # fmt: skip
        """Take the current game back from `version` to `to_version` decisions: the later actions
        are deleted, the line grows by one, any takeback request is done with, and the game counts
        one more takeback for `seat` (its record says how many each seat made). Refused
        (Conflict) unless the table is still playing that game at that line and version (another
        process moved or took back first), and, given `request`, still holds that request's text
        (nobody declined or withdrew it meanwhile)."""
        with self.sessions.begin() as s:
            where = [TableRow.id == table_id, TableRow.game_no == game_no, TableRow.line == line,
                     TableRow.version == version, TableRow.status == "playing"]  # fmt: skip
            if request is not None:
                where.append(TableRow.takeback == request)
            done = s.execute(
                update(TableRow)
                .where(*where)
                .values(version=to_version, line=line + 1, takeback=None, rev=TableRow.rev + 1, updated_at=to_dt(at))
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id} is not playing game {game_no} at line {line}, version {version}")
            s.execute(
                delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.game_no == game_no,
                                        ActionRow.version > to_version)
            )  # fmt: skip
            g = s.get(GameRow, (table_id, game_no))
            if seat is not None and g is not None and 0 <= seat < len(g.seats):
                counts = list(g.takebacks or [0] * len(g.seats))
                counts[seat] += 1
                g.takebacks = counts

    def set_takeback(self, table_id: str, game_no: int, line: int, old: str | None, new: str | None,
                     at: float) -> None:  # fmt: skip
        """Ask for, answer or withdraw a takeback: the request's text `old` becomes `new`. Refused
        (Conflict) unless the table still plays that game on that line and holds `old` (an answer
        or a takeback elsewhere came first)."""
        with self.sessions.begin() as s:
            held = TableRow.takeback.is_(None) if old is None else TableRow.takeback == old
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.game_no == game_no, TableRow.line == line,
                       TableRow.status == "playing", held)
                .values(takeback=new, rev=TableRow.rev + 1, updated_at=to_dt(at))
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id}'s takeback request changed, or it left game {game_no} line {line}")
