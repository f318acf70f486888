"""Analyses of finished games as stored: claimed by one process at a time, its progress its sign
of life, kept for good once done."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError

from .models import AnalysisRow
from .repository import Repository, to_dt, to_ts, value_of


@dataclass(frozen=True)
class StoredAnalysis:
    """A game's analysis as stored: `status` "done" (kept for good) or "working" (claimed by
    process `owner`, whose last sign of life was `updated_at`; `document` is its progress)."""

    document: dict[str, Any]
    status: str
    owner: str | None
    claim: int
    updated_at: float


class AnalysisStore(Repository):
    def analysis(self, table_id: str, game_no: int) -> StoredAnalysis | None:
        """A game's analysis as stored: done, or in work somewhere (None: never begun)."""
        with self.sessions() as s:
            row = s.get(AnalysisRow, (table_id, game_no))
            if row is None:
                return None
            return value_of(StoredAnalysis, row, updated_at=to_ts(row.updated_at or row.created_at))

    def claim_analysis(self, table_id: str, game_no: int, owner: str, document: dict[str, Any], at: float,
                       seen: StoredAnalysis | None) -> bool:  # fmt: skip
        """Claim a game's analysis for `owner` to solve: new (`seen` None), or taken over from a
        process that has gone silent (`seen`, as read). False: another process claimed it first."""
        try:
            with self.sessions.begin() as s:
                if seen is None:
                    s.add(AnalysisRow(table_id=table_id, game_no=game_no, document=document, created_at=to_dt(at),
                                      status="working", owner=owner, claim=0, updated_at=to_dt(at)))  # fmt: skip
                    return True
                done = s.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no,
                           AnalysisRow.status == "working", AnalysisRow.claim == seen.claim)
                    .values(owner=owner, claim=seen.claim + 1, document=document, updated_at=to_dt(at))
                )  # fmt: skip
                return bool(done.rowcount == 1)  # type: ignore[attr-defined]
        except IntegrityError:
            return False

    def analysis_progress(self, owner: str, progress: dict[tuple[str, int], dict[str, Any] | None], at: float) -> None:
        """The owner's sign of life for the analyses it has in work, with the new answer of each
        that came further (None: as it was)."""
        with self.sessions.begin() as s:
            for (table_id, game_no), document in progress.items():
                values: dict[str, Any] = {"updated_at": to_dt(at)}
                if document is not None:
                    values["document"] = document
                s.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no,
                           AnalysisRow.status == "working", AnalysisRow.owner == owner)
                    .values(**values)
                )  # fmt: skip

    def save_analysis(self, table_id: str, game_no: int, document: dict[str, Any], at: float) -> None:
        """Keep a finished analysis (whoever finishes first: every process finds the same)."""
        with self.sessions.begin() as s:
            done = s.execute(
                update(AnalysisRow)
                .where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no)
                .values(document=document, status="done", owner=None, updated_at=to_dt(at))
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                return
        try:
            with self.sessions.begin() as s:
                s.add(AnalysisRow(table_id=table_id, game_no=game_no, document=document, created_at=to_dt(at),
                                  status="done", updated_at=to_dt(at)))  # fmt: skip
        except IntegrityError:
            pass  # kept meanwhile by another process

    def release_analyses(self, owner: str | None, keys: list[tuple[str, int]] | None = None) -> None:
        """Give up `owner`'s claims (`keys`, or all of them; every owner's with None): a failed
        analysis, a server stopping. Whoever asks next begins the analysis again."""
        with self.sessions.begin() as s:
            q = delete(AnalysisRow).where(AnalysisRow.status == "working")
            if owner is not None:
                q = q.where(AnalysisRow.owner == owner)
            if keys is None:
                s.execute(q)
            for table_id, game_no in keys or []:
                s.execute(q.where(AnalysisRow.table_id == table_id, AnalysisRow.game_no == game_no))
