"""Ratings per account and game, and every finished game of an account (its profile).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from stichkit.server.db.models import UTCDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _account() -> sa.Column[int]:
    return sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        _account(),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "played",
        _account(),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game_no", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("change", sa.Float(), nullable=True),
        sa.Column("finished_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_played_account_time", "played", ["account_id", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_played_account_time", table_name="played")
    op.drop_table("played")
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
