"""Friends, muted names and chat reports as stored.

Friendship is mutual: an account adds another (a request, as the other sees it), and the two are
friends once each has added the other. Only friends see whether the other is online and at which
tables they sit; a request alone shows nothing of the other's whereabouts.

An account's mutes are names whose chat lines its pages fold away, wherever it logs in; a guest's
stay in the browser. A name, not an account, because a guest's lines are muted too.

A report copies the chat line it is about, so the operator reads it even after the table has
dropped the line or been swept. Each line is reported once per reporter (an account, or a seat
of the table for a guest).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, and_, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, sessionmaker

from .models import AccountRow, ChatRow, FriendRow, MuteRow, ReportRow, SeatRow, SessionRow, TableRow
from .repository import to_dt, to_ts, value_of
from .tables import ARCHIVED

MUTES_MAX = 200  # names an account may mute at once


class AlreadyReported(Exception):
    pass


class TooManyMutes(Exception):
    pass


@dataclass(frozen=True)
class FriendTable:
    table_id: str
    seat: int
    game: str
    status: str
    private: bool


@dataclass(frozen=True)
class Friend:
    account_id: int
    name: str
    last_seen: float | None  # the newest sign of life of any of its sessions
    tables: list[FriendTable]  # where the friend sits at tables not over, newest first


@dataclass(frozen=True)
class Friends:
    friends: list[Friend]
    asked: list[str]  # added by this account, not (yet) back
    asking: list[str]  # who added this account, not added back


@dataclass(frozen=True)
class Report:
    id: int
    table_id: str
    chat_id: int
    said_by: str
    seat: int
    text: str
    said_at: float
    reporter: str
    reason: str | None
    created_at: float
    resolved_at: float | None


class SocialStore:
    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- friends -----------------------------------------------------------------------------

    def add_friend(self, account_id: int, friend_id: int, at: float) -> None:
        """Add (or ask) a friend; adding again changes nothing."""
        with self.sessions.begin() as s:
            if s.get(FriendRow, (account_id, friend_id)) is None:
                s.add(FriendRow(account_id=account_id, friend_id=friend_id, created_at=to_dt(at)))

    def remove_friend(self, account_id: int, friend_id: int) -> bool:
        """No longer friends (or no longer asking): False when there was nothing to remove."""
        with self.sessions.begin() as s:
            done = s.execute(
                delete(FriendRow).where(FriendRow.account_id == account_id, FriendRow.friend_id == friend_id)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def friends(self, account_id: int) -> Friends:
        back = aliased(FriendRow)
        with self.sessions() as s:
            mine = (
                select(FriendRow.friend_id, back.account_id)
                .outerjoin(back, and_(back.account_id == FriendRow.friend_id, back.friend_id == FriendRow.account_id))
                .where(FriendRow.account_id == account_id)
            )
            mutual: list[int] = []
            asked: list[int] = []
            for friend_id, returned in s.execute(mine):
                (mutual if returned is not None else asked).append(friend_id)
            mine_ids = select(FriendRow.friend_id).where(FriendRow.account_id == account_id)
            asking_ids = list(s.scalars(select(FriendRow.account_id).where(
                FriendRow.friend_id == account_id, FriendRow.account_id.not_in(mine_ids))))  # fmt: skip
            names = dict(s.execute(select(AccountRow.id, AccountRow.name).where(
                AccountRow.id.in_(mutual + asked + asking_ids), AccountRow.banned_at.is_(None))).all())  # fmt: skip
            last = (select(SessionRow.account_id, func.max(SessionRow.seen_at))
                    .where(SessionRow.account_id.in_(mutual)).group_by(SessionRow.account_id))  # fmt: skip
            seen = dict(s.execute(last).all())
            at: dict[int, list[FriendTable]] = {i: [] for i in mutual}
            q = (select(SeatRow.account_id, SeatRow.table_id, SeatRow.seat, TableRow.game, TableRow.status,
                        TableRow.private)
                 .join(TableRow, TableRow.id == SeatRow.table_id)
                 .where(SeatRow.account_id.in_(mutual), SeatRow.token_hash.is_not(None),
                        TableRow.status.not_in(("over", ARCHIVED)))
                 .order_by(TableRow.created_at.desc()))  # fmt: skip
            for acc, table_id, seat, game, status, private in s.execute(q):
                if acc is not None:
                    at[acc].append(FriendTable(table_id, seat, game, status, private))
        found = [
            Friend(i, names[i], None if seen.get(i) is None else to_ts(seen[i]), at[i]) for i in mutual if i in names
        ]
        return Friends(
            sorted(found, key=lambda f: f.name.casefold()),
            sorted((names[i] for i in asked if i in names), key=str.casefold),
            sorted((names[i] for i in asking_ids if i in names), key=str.casefold),
        )

    # -- mutes -------------------------------------------------------------------------------

    def mutes(self, account_id: int) -> list[str]:
        """The names the account mutes, in the order it muted them."""
        with self.sessions() as s:
            q = select(MuteRow.name).where(MuteRow.account_id == account_id)
            return list(s.scalars(q.order_by(MuteRow.created_at, MuteRow.name)))

    def mute(self, account_id: int, name: str, at: float) -> None:
        """Mute a name; muting it again changes nothing. TooManyMutes: MUTES_MAX are muted already."""
        try:
            with self.sessions.begin() as s:
                if s.get(MuteRow, (account_id, name)) is not None:
                    return
                count = s.scalar(select(func.count()).select_from(MuteRow).where(MuteRow.account_id == account_id))
                if (count or 0) >= MUTES_MAX:
                    raise TooManyMutes(name)
                s.add(MuteRow(account_id=account_id, name=name, created_at=to_dt(at)))
        except IntegrityError:
            pass  # muted at the same moment by another request of the account: muted, as asked

    def unmute(self, account_id: int, name: str) -> bool:
        """Show a name's lines again: False when it was not muted."""
        with self.sessions.begin() as s:
            done = s.execute(delete(MuteRow).where(MuteRow.account_id == account_id, MuteRow.name == name))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    # -- reports -----------------------------------------------------------------------------

    def chat_line(self, table_id: str, chat_id: int) -> tuple[str, int, str, datetime] | None:
        """The line (name, seat, text, when) if the table still has it."""
        with self.sessions() as s:
            row = s.get(ChatRow, chat_id)
            if row is None or row.table_id != table_id:
                return None
            return row.name, row.seat, row.text, row.created_at

    def report(self, table_id: str, chat_id: int, reporter: str, reporter_key: str, reason: str | None,
               at: float) -> int:  # fmt: skip
        """Report a chat line of the table: the report's number. LookupError: no such line here;
        AlreadyReported: this reporter reported it before."""
        line = self.chat_line(table_id, chat_id)
        if line is None:
            raise LookupError(chat_id)
        name, seat, text, said_at = line
        try:
            with self.sessions.begin() as s:
                row = ReportRow(table_id=table_id, chat_id=chat_id, said_by=name, seat=seat, text=text,
                                said_at=said_at, reporter=reporter, reporter_key=reporter_key, reason=reason,
                                created_at=to_dt(at))  # fmt: skip
                s.add(row)
                s.flush()
                return int(row.id)
        except IntegrityError:
            raise AlreadyReported(chat_id) from None

    def reports(self, include_resolved: bool = False) -> list[Report]:
        q = select(ReportRow).order_by(ReportRow.id)
        if not include_resolved:
            q = q.where(ReportRow.resolved_at.is_(None))
        with self.sessions() as s:
            return [value_of(Report, r) for r in s.scalars(q)]

    def resolve(self, report_id: int, at: float) -> bool:
        """Mark a report dealt with: False when there is no such open report."""
        with self.sessions.begin() as s:
            done = s.execute(update(ReportRow).where(ReportRow.id == report_id, ReportRow.resolved_at.is_(None))
                             .values(resolved_at=to_dt(at)))  # fmt: skip
            return bool(done.rowcount)  # type: ignore[attr-defined]
