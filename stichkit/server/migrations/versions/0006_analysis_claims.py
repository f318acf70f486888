"""Analyses in work are claimed in the database: one server process solves a game, and every
process answers with its progress.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from stichkit.server.db.models import UTCDateTime

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("status", sa.String(16), nullable=False, server_default="done"))
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("claim", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("updated_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    op.execute("DELETE FROM analyses WHERE status <> 'done'")
    with op.batch_alter_table("analyses") as batch:
        for name in ("updated_at", "claim", "owner", "status"):
            batch.drop_column(name)
