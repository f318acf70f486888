"""The migrations form one line: engineers who add a migration at the same time must not leave
two heads, or a server refuses to start ("multiple heads"), and each file's number is its
revision, so a reader finds the order in the file names."""

from __future__ import annotations

import itertools
from pathlib import Path

from alembic.script import ScriptDirectory

from stichkit.server.db.migrate import MIGRATIONS, alembic_config


def test_the_migrations_have_one_head_and_one_line() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    assert len(scripts.get_heads()) == 1, f"several heads: {scripts.get_heads()}"
    line = list(scripts.walk_revisions())  # head first, down to the base
    assert line[-1].down_revision is None
    for newer, older in itertools.pairwise(line):
        assert newer.down_revision == older.revision


def test_each_file_is_named_by_its_revision() -> None:
    for script in ScriptDirectory.from_config(alembic_config()).walk_revisions():
        assert script.path is not None
        assert Path(script.path).name.startswith(f"{script.revision}_"), script.path
    assert Path(MIGRATIONS).is_dir()
