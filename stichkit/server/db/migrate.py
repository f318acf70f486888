"""The schema is brought to the newest revision at every start, with Alembic.

Alembic is imported only when there is something to migrate: a server restarting on an
up-to-date database (the usual case, and the one after a crash) starts faster without it.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from .models import Meta

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
HEAD = "0018"  # the newest file in migrations/versions (a test checks)
MIGRATION_LOCK = 0x57C4  # the advisory lock that lets one of several starting processes migrate at a time


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Create or migrate the schema. Safe when several processes start at once on PostgreSQL."""
    if revision == "head" and current_revision(engine) == HEAD:
        return
    from alembic import command

    cfg = alembic_config()
    with engine.connect() as conn:
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            conn.commit()
        try:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
            conn.commit()
        finally:
            if postgres:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
                conn.commit()


def cluster_id(engine: Engine) -> str:
    """A random id made once per database: processes sharing the database share it."""
    return meta_value(engine, "cluster_id", secrets.token_hex(8))


def session_secret(engine: Engine) -> str:
    """The secret that signs session cookies when the operator gives none: made once per
    database, so every process shares it (and a backup of the database holds it)."""
    return meta_value(engine, "session_secret", secrets.token_urlsafe(32))


def meta_value(engine: Engine, key: str, new: str) -> str:
    """The database's value for `key`, stored as `new` by whichever process asks first."""
    with engine.begin() as conn:
        found = conn.execute(select(Meta.value).where(Meta.key == key)).scalar()
        if found is not None:
            return found
    try:
        with engine.begin() as conn:
            conn.execute(insert(Meta).values(key=key, value=new))
    except IntegrityError:  # another process made it first
        pass
    with engine.begin() as conn:
        value: str = conn.execute(select(Meta.value).where(Meta.key == key)).scalar_one()
        return value
