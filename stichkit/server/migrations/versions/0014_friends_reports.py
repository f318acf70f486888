"""Friends between accounts, and chat lines reported to the operator.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from stichkit.server.db.models import UTCDateTime

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friends",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("friend_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("said_by", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("said_at", UTCDateTime(), nullable=False),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reporter_key", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(300), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("resolved_at", UTCDateTime(), nullable=True),
        sa.UniqueConstraint("chat_id", "reporter_key", name="uq_reports_line_reporter"),
    )


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_index("ix_friends_friend_id", table_name="friends")
    op.drop_table("friends")
