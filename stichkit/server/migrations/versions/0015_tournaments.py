"""Tournaments: the tournament, its entrants, its rounds and the tables of each round
(db/tournaments.py). The round tables themselves are ordinary tables.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from stichkit.server.db.models import UTCDateTime

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _of_tournament() -> sa.Column[str]:
    return sa.Column(
        "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("organiser", sa.String(64), nullable=False),
        sa.Column("opened_by", sa.String(80), nullable=False),
        sa.Column("invitation", sa.String(64), nullable=True),
        sa.Column("start_at", UTCDateTime(), nullable=True),
        sa.Column("ended_early", sa.Boolean(), nullable=False),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=True),
        sa.Column("ended_at", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_opened_by", "tournaments", ["opened_by"])
    op.create_table(
        "tournament_entrants",
        _of_tournament(),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("person", sa.String(64), nullable=True),
        sa.Column("team", sa.String(80), nullable=True),
        sa.Column("replaced_by", sa.String(200), nullable=True),
        sa.Column("replaced_round", sa.Integer(), nullable=True),
        sa.Column("registered_at", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("tournament_id", "person", name="uq_tournament_entrants_person"),
    )
    op.create_table(
        "tournament_rounds",
        _of_tournament(),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("plan", sa.JSON(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("ended_at", UTCDateTime(), nullable=True),
    )
    op.create_table(
        "tournament_tables",
        _of_tournament(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seeds", sa.JSON(), nullable=False),
        sa.Column("tokens", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_tournament_tables_table_id", "tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_table_id", table_name="tournament_tables")
    for name in ("tournament_tables", "tournament_rounds", "tournament_entrants"):
        op.drop_table(name)
    op.drop_index("ix_tournaments_opened_by", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
