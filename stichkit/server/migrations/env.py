"""Alembic's environment: the server passes its open connection in `config.attributes`."""

from __future__ import annotations

from alembic import context

from stichkit.server.db.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
