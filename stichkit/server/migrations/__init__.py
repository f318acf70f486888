"""Alembic migrations of the server's schema, applied at every start (`stichkit.server.db.migrate`)."""
