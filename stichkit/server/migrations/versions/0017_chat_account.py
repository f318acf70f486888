"""The account a chat line was said by, so that deleting the account renames its lines at once
(as its games) instead of leaving its name there until the table is swept.

Lines stored before this are given the account that holds their seat under the same name, the
one who most likely said them.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.create_index("ix_chat_account_id", ["account_id"])
    op.execute(
        "UPDATE chat SET account_id = (SELECT accounts.id FROM seats JOIN accounts ON accounts.id = seats.account_id"
        " WHERE seats.table_id = chat.table_id AND seats.seat = chat.seat AND accounts.name = chat.name)"
    )


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_index("ix_chat_account_id")
        batch.drop_column("account_id")
