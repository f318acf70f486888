"""A finished game as its players' accounts keep it: one `played` row per account that began a
seat, and at a rated table the new ratings, all written in the transaction that stores the game's
last move (Store._insert). That transaction commits once per game: the last move's version can
be stored only once, and `played`'s key (account, table, game) refuses a second row. So each game
is rated exactly once, whichever process stores its end.

Ratings rows are locked (PostgreSQL: SELECT ... FOR UPDATE, in account order) before they are
read, so two games that end at once for the same account change its rating one after the other.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .. import ratings
from ..ratings import Finisher, Rating
from .models import AccountRow, GameRow, PlayedRow, RatingRow, SeatRow, TableRow


def record_result(conn: Connection, table_id: str, game_no: int, result: dict[str, Any], at: datetime) -> None:
    table = conn.execute(select(TableRow.game, TableRow.settings).where(TableRow.id == table_id)).one_or_none()
    game_seats = conn.execute(
        select(GameRow.seats).where(GameRow.table_id == table_id, GameRow.game_no == game_no)
    ).scalar_one_or_none()
    if table is None or not game_seats:
        return
    game, settings = table
    began = {i: s.get("account") for i, s in enumerate(game_seats) if s.get("kind") == "human" and s.get("account")}
    if not began:
        return
    known = set(conn.execute(select(AccountRow.id).where(AccountRow.id.in_(began.values()))).scalars())
    now = dict(conn.execute(select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == table_id)).all())
    finishers = [Finisher(seat, acc, now.get(seat) != acc) for seat, acc in sorted(began.items()) if acc in known]
    if not finishers:
        return
    placed = ratings.placings(game, result, len(game_seats), finishers)
    after: dict[int, Rating] = {}
    changes: dict[int, float] = {}
    if settings.get("rated"):
        before = _locked_ratings(conn, game, sorted({p.account for p in placed}), at)
        after = ratings.rate(game, placed, before)
        for p in placed:
            if p.account in after:
                changes[p.account] = after[p.account].shown - before[p.account].shown
                conn.execute(
                    update(RatingRow).where(RatingRow.account_id == p.account, RatingRow.game == game)
                    .values(mu=after[p.account].mu, sigma=after[p.account].sigma, games=RatingRow.games + 1,
                            wins=RatingRow.wins + int(p.won), updated_at=at)
                )  # fmt: skip
    conn.execute(
        insert(PlayedRow),
        [{"account_id": p.account, "table_id": table_id, "game_no": game_no, "game": game, "seat": p.seat,
          "place": p.place, "players": len(game_seats), "won": p.won, "left": p.left, "rated": p.account in after,
          "mu": after[p.account].mu if p.account in after else None,
          "sigma": after[p.account].sigma if p.account in after else None,
          "change": changes.get(p.account), "finished_at": at} for p in placed],
    )  # fmt: skip


def _locked_ratings(conn: Connection, game: str, accounts: list[int], at: datetime) -> dict[int, Rating]:
    """The accounts' ratings in `game`, locked until the transaction ends; a first rated game
    begins at openskill's initial rating."""
    start = ratings.initial()
    rows = [{"account_id": a, "game": game, "mu": start.mu, "sigma": start.sigma, "games": 0, "wins": 0,
             "updated_at": at} for a in accounts]  # fmt: skip
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(RatingRow).values(rows).on_conflict_do_nothing())
    q = (select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma)
         .where(RatingRow.game == game, RatingRow.account_id.in_(accounts)).order_by(RatingRow.account_id))  # fmt: skip
    if conn.dialect.name == "postgresql":
        q = q.with_for_update()
    return {a: Rating(mu, sigma) for a, mu, sigma in conn.execute(q)}
