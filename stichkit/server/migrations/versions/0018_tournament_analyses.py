"""A tournament's mark that its finished games still wait for the server's own analyses, kept in
the database so that a restarted server goes on with them (before, each process remembered them
in memory, and after a restart they were queued only once someone opened the tournament).

Jass tournaments stored before this that played a round are marked, so that a game of theirs not
analysed yet is queued at the next start; the rest begin unmarked.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("analyses_pending", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE tournaments SET analyses_pending = :yes WHERE game = 'jass' AND round > 0")
               .bindparams(yes=True))  # fmt: skip


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("analyses_pending")
