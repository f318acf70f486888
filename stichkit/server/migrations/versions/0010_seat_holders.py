"""Who holds each seat, as a person (a browser or an account), and who held it during the game:
a person who held one seat of a game may not take another seat of it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("person", sa.String(64), nullable=True))
        batch.add_column(sa.Column("holders", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("holders")
        batch.drop_column("person")
