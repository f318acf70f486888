"""A tournament opened and its entrants as stored: registering (one at a time, under the
tournament's lock), withdrawing before the start, a gone player replaced by a bot, each within
the client's quota where it claims something (tournaments not over, bot entrants)."""

from __future__ import annotations

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from ..model import Entrant, StoredTournament
from ..quotas import TournamentQuota
from .repository import Conflict, to_dt
from .tournament_rows import EntrantRow, TournamentRow, bump, entrant_row


class EntrantStore:
    sessions: sessionmaker[Session]

    def create(self, t: StoredTournament, quota: TournamentQuota | None, bots: list[Entrant]) -> None:
        """Store a new tournament (with the bots it enters at once), within the client's quota:
        else the quota's LimitReached, and nothing stored."""
        with self.sessions.begin() as s:
            if quota is not None:
                self._hold(s, quota, len(bots))
            s.add(TournamentRow(
                id=t.id, name=t.name, game=t.game, options=t.options, format=t.format, settings=t.settings,
                status=t.status, round=0, seed=t.seed, organiser=t.organiser, opened_by=t.opened_by,
                invitation=t.invitation, start_at=None if t.start_at is None else to_dt(t.start_at),
                ended_early=False, rev=1, created_at=to_dt(t.created_at), updated_at=to_dt(t.updated_at),
            ))  # fmt: skip
            s.flush()
            for number, e in enumerate(bots, 1):
                s.add(entrant_row(t.id, Entrant(**{**vars(e), "number": number, "registered_at": t.created_at})))

    def _hold(self, s: Session, quota: TournamentQuota, new_bots: int) -> None:
        """Refuse (LimitReached) what would take the client past its quota; on PostgreSQL under a
        lock per client, held to the commit, so two processes count one after the other."""
        if s.get_bind().dialect.name == "postgresql":
            s.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "tournaments " + quota.client})
        live = select(TournamentRow.id).where(TournamentRow.opened_by == quota.client, TournamentRow.status != "over")
        held = s.scalar(select(func.count()).select_from(live.subquery())) or 0
        bots = s.scalar(select(func.count()).select_from(EntrantRow)
                        .where(EntrantRow.tournament_id.in_(live), EntrantRow.kind == "bot")) or 0  # fmt: skip
        refusal = quota.refuse(held, bots, new_bots)
        if refusal is not None:
            raise refusal

    def register(self, tournament_id: str, e: Entrant, largest: int, at: float,
                 quota: TournamentQuota | None = None) -> Entrant:  # fmt: skip
        """Enter `e` (its number is given here) while the tournament takes registrations and has
        fewer than `largest` entrants. Conflict when it no longer registers, is full, or the person
        is entered already (the message says which); a bot within the client's `quota`."""
        with self.sessions.begin() as s:
            row = s.get(TournamentRow, tournament_id, with_for_update=True)  # one registration at a time
            if row is None or row.status != "registering":
                raise Conflict("registration is closed: the tournament has begun or ended")
            if e.person is not None and s.scalar(select(EntrantRow.number).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.person == e.person)) is not None:  # fmt: skip
                raise Conflict("you are entered in this tournament already")
            n = s.scalar(select(func.count()).where(EntrantRow.tournament_id == tournament_id)) or 0
            if n >= largest:
                raise Conflict(f"the tournament is full: it has {n} entrants, the most it takes")
            if e.team is not None:
                mates = s.scalar(select(func.count()).where(EntrantRow.tournament_id == tournament_id,
                                                            EntrantRow.team == e.team)) or 0  # fmt: skip
                if mates >= 2:
                    raise Conflict(f"team {e.team!r} has two players already")
            if quota is not None and e.kind == "bot":
                self._hold(s, quota, 1)
            last = s.scalar(select(func.max(EntrantRow.number)).where(EntrantRow.tournament_id == tournament_id))
            entered = Entrant(**{**vars(e), "number": (last or 0) + 1, "registered_at": at})
            s.add(entrant_row(tournament_id, entered))
            bump(s, tournament_id, None, at)
            return entered

    def unregister(self, tournament_id: str, number: int, at: float) -> None:
        """Take entrant `number` out while the tournament registers; Conflict once it has begun."""
        with self.sessions.begin() as s:
            bump(s, tournament_id, None, at, TournamentRow.status == "registering")
            done = s.execute(delete(EntrantRow).where(EntrantRow.tournament_id == tournament_id,
                                                      EntrantRow.number == number))  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"entrant {number} is not entered")

    def replace(self, tournament_id: str, number: int, bot: str, from_round: int, at: float) -> None:
        """A bot plays for entrant `number` from round `from_round` on (their results marked)."""
        with self.sessions.begin() as s:
            bump(s, tournament_id, None, at, TournamentRow.status.in_(("running", "paused")))
            done = s.execute(
                update(EntrantRow).where(EntrantRow.tournament_id == tournament_id, EntrantRow.number == number,
                                         EntrantRow.kind == "human", EntrantRow.replaced_by.is_(None))
                .values(replaced_by=bot, replaced_round=from_round)
            )  # fmt: skip
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(f"entrant {number} is not a player a bot could replace")
