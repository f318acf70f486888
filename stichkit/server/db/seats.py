"""Seats as stored: claimed, given up, moved before play, taken over, and the seats of the next
game (a rematch). A game's own seat list keeps who sat where for its record and replay."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from ..model import Seat, account_person, barred_seats, began, sat_down
from .models import GameRow, SeatRow, TableRow
from .repository import Conflict, Repository, bump, seat_of, to_dt


class SeatStore(Repository):
    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str, at: float,
                   account: int | None = None, person: str | None = None, one_seat: bool = False) -> str:  # fmt: skip
        """Claim a free human seat (for `account`, when its holder is logged in; by `person`,
        identity.person): the table's status after it. Refused (Conflict) when the seat is not
        free (another process seated someone there first), or, with `one_seat`, when `person`
        holds another seat of the table or held one in the game being played (model.barred_seats)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id, with_for_update=True)  # claims at one table, one at a time
            if row is None:
                raise Conflict(f"table {table_id} is gone")
            if one_seat:
                seats = [seat_of(r) for r in s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                                       .order_by(SeatRow.seat))]  # fmt: skip
                if seat in barred_seats(seats, person, row.status == "playing"):
                    raise Conflict(f"seat {seat} of table {table_id} is barred to this person")
            done = s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human",
                       SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, takeover=None, takeover_hand=None, rematch=False,
                        account_id=account, person=person)
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"seat {seat} of table {table_id} is not a free human seat")
            free = s.scalar(
                select(func.count()).where(SeatRow.table_id == table_id, SeatRow.kind == "human",
                                           SeatRow.token_hash.is_(None))
            )  # fmt: skip
            status = "playing" if row.status == "waiting" and not free else row.status
            if status == "playing":  # who held which seat of this game (model.began, model.sat_down)
                rows = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)))
                seats = [seat_of(r) for r in rows]
                if row.status == "waiting":
                    began(seats)
                else:
                    sat_down(seats[seat], person, True)
                for r, x in zip(rows, seats, strict=True):
                    r.holders = x.holders
            if row.status != "over":
                self._seat_in_game(s, table_id, row.game_no, seat, name, row.status == "waiting", account)
            bump(s, table_id, at, status=status)
            return status

    def _seat_in_game(self, s: Session, table_id: str, game_no: int, seat: int, name: str | None,
                      before_play: bool, account: int | None = None) -> None:  # fmt: skip
        """Keep the game's seat list (its record's and replay's names) with who sits there. Before
        play the seat's name is simply who holds it now; a seat that changes hands during play
        keeps the name of who began the game and adds each newcomer to `names`."""
        game = s.get(GameRow, (table_id, game_no), with_for_update=True)
        if game is None or not 0 <= seat < len(game.seats):
            return
        seats = [dict(x) for x in game.seats]
        entry = seats[seat]
        names = list(entry.get("names") or ([entry["name"]] if entry.get("name") else []))
        # `joined`: the accounts among those who took the seat during play, with the name each sat
        # under, so that deleting one of them renames it here too (Accounts.delete)
        joined = [list(x) for x in entry.get("joined") or []]
        if before_play:
            names, joined = ([name] if name else []), []
        elif name:
            names.append(name)
            if account is not None:
                joined.append([account_person(account), name])
        entry["names"] = names
        entry["name"] = names[0] if names else None
        if joined:
            entry["joined"] = joined
        else:
            entry.pop("joined", None)
        if before_play:  # the account of whoever begins the game here
            entry.pop("account", None)
            if account is not None:
                entry["account"] = account
        game.seats = seats  # a new list: the JSON column is written again

    def release_seat(self, table_id: str, seat: int, token_hash: str, takeover: str | None, at: float) -> None:
        """Give a seat up (its token stops working); during play `takeover` says who plays on.
        Refused (Conflict) when the token no longer holds the seat."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == token_hash)
                .values(
                    token_hash=None, takeover=takeover, takeover_hand=None, rematch=False, account_id=None, person=None
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"the token holds seat {seat} of table {table_id} no longer")
            row = s.get(TableRow, table_id)
            if row is not None and row.status == "waiting":  # nobody has played from this seat yet
                self._seat_in_game(s, table_id, row.game_no, seat, None, True)
            bump(s, table_id, at)

    def move_seat(self, table_id: str, seat: int, to: int, token_hash: str, at: float) -> None:
        """Before play: the player holding `seat` (by its token) moves to the free human seat `to`,
        keeping the token. Refused (Conflict) when the table has begun, the token is not there or
        `to` is no longer free (another process changed the seats first)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id, with_for_update=True)
            src, dst = s.get(SeatRow, (table_id, seat)), s.get(SeatRow, (table_id, to))
            if row is None or row.status != "waiting" or src is None or dst is None:
                raise Conflict(f"table {table_id} waits for players no longer")
            if src.token_hash != token_hash or dst.kind != "human" or dst.token_hash is not None:
                raise Conflict(f"the seats of table {table_id} changed")
            name, account, person = src.name, src.account_id, src.person
            src.name, src.token_hash, src.account_id, src.person = None, None, None, None
            s.flush()
            dst.name, dst.token_hash, dst.account_id, dst.person = name, token_hash, account, person
            self._seat_in_game(s, table_id, row.game_no, seat, None, True)
            self._seat_in_game(s, table_id, row.game_no, to, name, True, account)
            bump(s, table_id, at)

    def update_seats(self, table_id: str, game_no: int, changes: dict[int, dict[str, Any]], at: float) -> None:
        """Takeovers, reclaims and rematch votes; refused (Conflict) when the game has changed."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, table_id)
            if row is None or row.game_no != game_no:
                raise Conflict(f"table {table_id} is no longer at game {game_no}")
            self._seat_updates(s, table_id, changes)
            bump(s, table_id, at)

    def start_game(self, table_id: str, game_no: int, seed: int, seats: list[Seat], status: str, at: float) -> None:
        """The next game at the table (a rematch): new seats, a new seed, version 0."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.game_no == game_no - 1, TableRow.status == "over")
                .values(
                    game_no=game_no,
                    version=0,
                    line=0,
                    takeback=None,
                    status=status,
                    rev=TableRow.rev + 1,
                    updated_at=to_dt(at),
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"table {table_id} already went on to another game")
            for i, x in enumerate(seats):
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == i)
                    .values(kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash, takeover=None,
                            takeover_hand=None, rematch=False, account_id=x.account, person=x.person,
                            holders=x.holders)
                )  # fmt: skip
            s.add(GameRow(table_id=table_id, game_no=game_no, seed=seed, seats=[x.public() for x in seats],
                          status="playing", result=None, started_at=to_dt(at), finished_at=None))  # fmt: skip

    def _seat_updates(self, s: Session, table_id: str, changes: dict[int, dict[str, Any]]) -> None:
        for seat, values in changes.items():
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat).values(**values))
