"""Every read and write of accounts and their sessions (the tables `accounts` and `sessions`).

Like store.py, synchronous and short: the hub runs these in its database thread(s). Passwords
reach this file already hashed, and sessions by the hash of their secret.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, Text, cast, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from ..model import account_person
from .models import AccountRow, ChatRow, GameRow, SeatRow, SessionRow, TableRow
from .repository import value_of
from .tables import ARCHIVED

# What finished games show where a deleted account sat.
DELETED_NAME = "(deleted)"


class NameTaken(Exception):
    """Another account has this name, or one that looks like it."""


def _dt(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


@dataclass(frozen=True)
class Account:
    """An account as the server works with it (never its password hash)."""

    id: int
    name: str
    created_at: float
    banned: bool = False
    ban_reason: str | None = None


@dataclass(frozen=True)
class Login:
    """What a login checks: the account, and its password hash."""

    account: Account
    password_hash: str


@dataclass(frozen=True)
class AccountSummary:
    """A row of `stich admin users`."""

    account: Account
    sessions: int
    last_seen: float | None
    seats: int


@dataclass(frozen=True)
class SeatHeld:
    """A seat an account holds at a table (its seats follow it to its other devices)."""

    table_id: str
    seat: int
    game: str
    status: str
    name: str


def _account(row: AccountRow) -> Account:
    return value_of(Account, row, banned=row.banned_at is not None)


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # -- accounts ----------------------------------------------------------------------------

    def create(self, name: str, key: str, password_hash: str, at: float) -> Account:
        """A new account; NameTaken when its name (or one like it) is someone's already."""
        try:
            with self.sessions.begin() as s:
                row = AccountRow(name=name, name_key=key, password_hash=password_hash, created_at=_dt(at),
                                 password_changed_at=_dt(at))  # fmt: skip
                s.add(row)
                s.flush()
                return _account(row)
        except IntegrityError:
            raise NameTaken(name) from None

    def login(self, key: str) -> Login | None:
        """The account a login names (by the name's key), with its password hash."""
        with self.sessions() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            return None if row is None else Login(_account(row), row.password_hash)

    def password_hash(self, account_id: int) -> str | None:
        with self.sessions() as s:
            return s.scalar(select(AccountRow.password_hash).where(AccountRow.id == account_id))

    def set_password(self, account_id: int, password_hash: str, at: float, keep: str | None = None) -> bool:
        """A new password; every session of the account ends but `keep` (the one that changed it).
        False: no such account."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(AccountRow).where(AccountRow.id == account_id)
                .values(password_hash=password_hash, password_changed_at=_dt(at))
            )  # fmt: skip
            where = [SessionRow.account_id == account_id]
            if keep is not None:
                where.append(SessionRow.id_hash != keep)
            s.execute(delete(SessionRow).where(*where))
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def rehash(self, account_id: int, old: str, new: str) -> None:
        """The same password under newer hash parameters, unless it changed meanwhile."""
        with self.sessions.begin() as s:
            s.execute(
                update(AccountRow).where(AccountRow.id == account_id, AccountRow.password_hash == old)
                .values(password_hash=new)
            )  # fmt: skip

    def delete(self, account_id: int) -> list[str] | None:
        """The account is gone: its sessions end, the seats it holds stay with their tokens (as a
        guest's), and every game it played and every chat line it said keep their place under
        DELETED_NAME. The tables whose chat lines were renamed (None: there was no such account)."""
        with self.sessions.begin() as s:
            row = s.get(AccountRow, account_id)
            if row is None:
                return None
            name = row.name
            held = s.execute(select(SeatRow.table_id, SeatRow.seat).where(SeatRow.account_id == account_id)).all()
            # The games it played: a text search finds the few candidates, the check is exact.
            # (who began a seat logged in is its "account"; who took it during play is in "joined")
            person = account_person(account_id)
            began = cast(GameRow.seats, Text).contains(f'"account": {account_id}', autoescape=True)
            joined = cast(GameRow.seats, Text).contains(f'"{person}"', autoescape=True)
            for g in s.scalars(select(GameRow).where(began | joined)).all():
                seats = [dict(x) for x in g.seats]
                changed = False
                for entry in seats:
                    renamed = {n for who, n in entry.get("joined") or [] if who == person}
                    if entry.get("account") == account_id:
                        del entry["account"]
                        renamed.add(name)
                        if entry.get("name") == name:
                            entry["name"] = DELETED_NAME
                    if renamed:
                        entry["names"] = [DELETED_NAME if n in renamed else n for n in entry.get("names") or []]
                        still = [x for x in entry.get("joined") or [] if x[0] != person]
                        if still:
                            entry["joined"] = still
                        else:
                            entry.pop("joined", None)
                        changed = True
                if changed:
                    g.seats = seats
            gone = update(SeatRow).where(SeatRow.account_id == account_id)
            s.execute(gone.values(account_id=None, name=DELETED_NAME))
            if held:
                tables = sorted({t for t, _ in held})  # their processes read the renamed seats
                s.execute(update(TableRow).where(TableRow.id.in_(tables)).values(rev=TableRow.rev + 1))
            said = sorted(s.scalars(select(ChatRow.table_id).where(ChatRow.account_id == account_id).distinct()))
            s.execute(
                update(ChatRow).where(ChatRow.account_id == account_id).values(account_id=None, name=DELETED_NAME)
            )
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            s.delete(row)
            return said

    def ban(self, account_id: int, reason: str | None, at: float | None) -> int:
        """Ban (or, with `at` None, lift the ban): a ban ends every session. The sessions ended."""
        with self.sessions.begin() as s:
            s.execute(
                update(AccountRow).where(AccountRow.id == account_id)
                .values(banned_at=None if at is None else _dt(at), ban_reason=reason if at is not None else None)
            )  # fmt: skip
            if at is None:
                return 0
            done = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(done.rowcount)  # type: ignore[attr-defined]

    def find(self, key: str) -> Account | None:
        with self.sessions() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.name_key == key))
            return None if row is None else _account(row)

    def summaries(self, at: float) -> list[AccountSummary]:
        """Every account, by name, with its live sessions and seats held."""
        with self.sessions() as s:
            live = (select(SessionRow.account_id, func.count().label("n"), func.max(SessionRow.seen_at).label("seen"))
                    .where(SessionRow.expires_at > _dt(at)).group_by(SessionRow.account_id).subquery())  # fmt: skip
            seats = (select(SeatRow.account_id, func.count().label("n")).where(SeatRow.token_hash.is_not(None))
                     .group_by(SeatRow.account_id).subquery())  # fmt: skip
            q = (select(AccountRow, live.c.n, live.c.seen, seats.c.n)
                 .outerjoin(live, live.c.account_id == AccountRow.id)
                 .outerjoin(seats, seats.c.account_id == AccountRow.id).order_by(AccountRow.name_key))  # fmt: skip
            out = []
            for row, n, seen, held in s.execute(q):
                if seen is not None and seen.tzinfo is None:
                    seen = seen.replace(tzinfo=UTC)
                out.append(AccountSummary(_account(row), n or 0, None if seen is None else seen.timestamp(), held or 0))
            return out

    def seats(self, account_id: int) -> list[SeatHeld]:
        """The seats the account holds, at every table, newest table first."""
        with self.sessions() as s:
            q = (select(SeatRow.table_id, SeatRow.seat, TableRow.game, TableRow.status, TableRow.name)
                 .join(TableRow, TableRow.id == SeatRow.table_id)
                 .where(SeatRow.account_id == account_id, SeatRow.token_hash.is_not(None),
                        TableRow.status != ARCHIVED)  # an archived table holds no seat any more
                 .order_by(TableRow.created_at.desc()))  # fmt: skip
            return [SeatHeld(*r) for r in s.execute(q)]

    def banned_seats(self) -> list[tuple[str, int, str]]:
        """The seats banned accounts still hold by their tokens (table, seat, the token's hash):
        the server makes each leave (bans.py)."""
        with self.sessions() as s:
            q = (select(SeatRow.table_id, SeatRow.seat, SeatRow.token_hash)
                 .join(AccountRow, AccountRow.id == SeatRow.account_id)
                 .join(TableRow, TableRow.id == SeatRow.table_id)
                 .where(AccountRow.banned_at.is_not(None), SeatRow.token_hash.is_not(None), TableRow.status != ARCHIVED)
                 .order_by(SeatRow.table_id, SeatRow.seat))  # fmt: skip
            return [(t, seat, th) for t, seat, th in s.execute(q) if th is not None]

    def banned_among(self, account_ids: Collection[int]) -> set[int]:
        """Which of these accounts are banned (the server closes their connections: bans.py)."""
        if not account_ids:
            return set()
        with self.sessions() as s:
            q = select(AccountRow.id).where(AccountRow.id.in_(list(account_ids)), AccountRow.banned_at.is_not(None))
            return set(s.scalars(q))

    # -- sessions ----------------------------------------------------------------------------

    def open_session(self, account_id: int, id_hash: str, at: float, expires: float) -> None:
        with self.sessions.begin() as s:
            s.add(SessionRow(id_hash=id_hash, account_id=account_id, created_at=_dt(at), seen_at=_dt(at),
                             expires_at=_dt(expires)))  # fmt: skip

    def session(self, id_hash: str, at: float, touch_after: float) -> Account | None:
        """The account of a live session (not expired, not banned); its `seen_at` is brought up to
        date once more than `touch_after` seconds old. None: no such session any more."""
        with self.sessions.begin() as s:
            found = s.execute(
                select(SessionRow, AccountRow).join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == id_hash)
            ).first()  # fmt: skip
            if found is None:
                return None
            row, account = found
            if row.expires_at <= _dt(at) or account.banned_at is not None:
                s.delete(row)
                return None
            if (_dt(at) - row.seen_at).total_seconds() > touch_after:
                row.seen_at = _dt(at)
            return _account(account)

    def end_session(self, id_hash: str) -> None:
        with self.sessions.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    def end_sessions(self, account_id: int) -> int:
        """Log out everywhere: every session of the account ends. How many there were."""
        with self.sessions.begin() as s:
            done = s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(done.rowcount)  # type: ignore[attr-defined]

    def sweep_sessions(self, at: float) -> int:
        with self.sessions.begin() as s:
            done = s.execute(delete(SessionRow).where(SessionRow.expires_at <= _dt(at)))
            return int(done.rowcount)  # type: ignore[attr-defined]
