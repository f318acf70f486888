"""Chat as stored: a table's lines, the newest kept."""

from __future__ import annotations

from sqlalchemy import delete, select

from ..model import ChatLine
from .models import ChatRow
from .repository import Repository, bump, to_dt, to_ts, value_of


class ChatStore(Repository):
    def add_chat(self, table_id: str, seat: int, name: str, text: str, at: float, keep: int | None = None,
                 account: int | None = None) -> ChatLine:  # fmt: skip
        """Store a chat line (said by `account`, when logged in); with `keep`, the table keeps only
        its newest `keep` lines."""
        with self.sessions.begin() as s:
            row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, created_at=to_dt(at), account_id=account)
            s.add(row)
            s.flush()
            if keep is not None:
                oldest_gone = s.scalar(
                    select(ChatRow.id).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).offset(keep)
                    .limit(1)
                )  # fmt: skip
                if oldest_gone is not None:
                    s.execute(delete(ChatRow).where(ChatRow.table_id == table_id, ChatRow.id <= oldest_gone))
            bump(s, table_id, at)
            return ChatLine(row.id, seat, name, text, at)

    def chat(self, table_id: str, last: int, after_id: int = 0) -> list[ChatLine]:
        """The table's last `last` messages (after `after_id`), oldest first."""
        with self.sessions() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.id > after_id)
                .order_by(ChatRow.id.desc())
                .limit(last)
            ).all()
            return [value_of(ChatLine, r, at=to_ts(r.created_at)) for r in reversed(rows)]
