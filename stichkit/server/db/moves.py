"""Decisions as stored: the hot path. Moves of many tables share one commit, each only where its
table is still at the game, line and version it was made at; a game's last move stores its end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, bindparam, insert, update
from sqlalchemy.exc import IntegrityError

from ..model import StoredAction
from .models import ActionRow, GameRow, SeatRow, TableRow
from .repository import Conflict, Repository, to_dt
from .results import record_result


@dataclass(frozen=True)
class Move:
    """A decision to store: with `result` the game ends with it; `seat_changes` end takeovers. It
    is stored only if the table is still at `line` and one decision short of the action's version."""

    table_id: str
    game_no: int
    action: StoredAction
    line: int = 0
    result: dict[str, Any] | None = None
    seat_changes: dict[int, dict[str, Any]] = field(default_factory=dict)


class MoveStore(Repository):
    def append_moves(self, moves: list[Move]) -> list[Conflict | None]:
        """Store decisions of different tables in one transaction (group commit: under load one
        commit serves many moves). Each move's outcome: None (committed) or the Conflict that
        refused it because another process stored a decision at that version first."""
        if len(moves) > 1:
            try:
                with self.engine.begin() as conn:
                    self._insert(conn, moves)
                return [None] * len(moves)
            except (IntegrityError, Conflict):
                pass  # someone's version was taken: store them one by one, to know whose
        out: list[Conflict | None] = []
        for m in moves:
            try:
                with self.engine.begin() as conn:
                    self._insert(conn, [m])
                out.append(None)
            except IntegrityError:
                a = m.action
                out.append(Conflict(f"version {a.version} of game {m.game_no} at table {m.table_id} is taken"))
            except Conflict as e:
                out.append(e)
        return out

    def _insert(self, conn: Connection, moves: list[Move]) -> None:
        """The hot path: Core statements, several rows per statement, no ORM unit of work."""
        conn.execute(
            insert(ActionRow),
            [{"table_id": m.table_id, "game_no": m.game_no, "version": m.action.version, "seat": m.action.seat,
              "action": m.action.action, "by": m.action.by, "created_at": to_dt(m.action.at)} for m in moves],
        )  # fmt: skip
        plain = [m for m in moves if m.result is None and not m.seat_changes]
        if plain and conn.dialect.supports_sane_multi_rowcount:
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == bindparam("b_id"), TableRow.game_no == bindparam("b_game"),
                       TableRow.line == bindparam("b_line"), TableRow.version == bindparam("b_prev"))
                .values(rev=TableRow.rev + 1, updated_at=bindparam("b_at"), version=bindparam("b_version")),
                [{"b_id": m.table_id, "b_game": m.game_no, "b_line": m.line, "b_prev": m.action.version - 1,
                  "b_at": to_dt(m.action.at), "b_version": m.action.version} for m in plain],
            )  # fmt: skip
            if done.rowcount != len(plain):
                raise Conflict("a table is no longer at the game, line or version of its move")
            special = [m for m in moves if m not in plain]
        else:
            special = moves
        for m in special:
            at = to_dt(m.action.at)
            values: dict[str, Any] = {"version": m.action.version}
            if m.result is not None:
                values["status"] = "over"
                conn.execute(
                    update(GameRow)
                    .where(GameRow.table_id == m.table_id, GameRow.game_no == m.game_no)
                    .values(status="over", result=m.result, finished_at=at)
                )
            for seat, changes in m.seat_changes.items():
                conn.execute(
                    update(SeatRow).where(SeatRow.table_id == m.table_id, SeatRow.seat == seat).values(**changes)
                )
            done = conn.execute(
                update(TableRow)
                .where(TableRow.id == m.table_id, TableRow.game_no == m.game_no, TableRow.line == m.line,
                       TableRow.version == m.action.version - 1)
                .values(rev=TableRow.rev + 1, updated_at=at, **values)
            )  # fmt: skip
            if done.rowcount != 1:
                raise Conflict(f"table {m.table_id} is no longer at game {m.game_no}, line {m.line}, "
                               f"version {m.action.version - 1}")  # fmt: skip
            if m.result is not None:  # the game's end: its accounts' results and ratings, in this transaction
                record_result(conn, m.table_id, m.game_no, m.result, at)
