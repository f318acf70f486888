"""Who waits in quick play, as a person (a browser or an account): a person waits in one queue
at a time and never gets two seats at one table.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("quick_queue") as batch:
        batch.add_column(sa.Column("person", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quick_queue") as batch:
        batch.drop_column("person")
