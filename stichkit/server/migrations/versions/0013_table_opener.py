"""Who opened each table (the client: an address, later an account), so that what one client
may hold is counted across server processes.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("opened_by", sa.String(80), nullable=True))
        batch.create_index("ix_tables_opened_by", ["opened_by"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_opened_by")
        batch.drop_column("opened_by")
