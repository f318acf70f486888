"""A database as the server of 2026-11-25 left it (revision 0007), with a finished game, a game in
play and chat, is migrated to the newest schema on SQLite and on PostgreSQL: every row it had is
there afterwards, unchanged, and the new tables begin empty."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, insert, inspect, select

from stichkit.core import State
from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store

from .harness import postgres_database
from .stored_games import played

TODAY = "0007"
OLD_TABLES = ("tables", "seats", "games", "actions", "chat", "analyses", "meta")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'today.db'}"
    else:
        with postgres_database() as url:
            yield url


def rows(engine: Any, columns: dict[str, list[str]] | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of today's tables, in today's columns (`columns`, default: all there are now)."""
    md = MetaData()
    md.reflect(engine, only=list(OLD_TABLES))
    cols = columns or {name: [c.name for c in md.tables[name].columns] for name in OLD_TABLES}
    with engine.connect() as conn:
        return {
            name: sorted(tuple(r) for r in conn.execute(select(*(md.tables[name].c[c] for c in cols[name]))))
            for name in OLD_TABLES
        }  # fmt: skip


def columns_of(engine: Any) -> dict[str, list[str]]:
    md = MetaData()
    md.reflect(engine, only=list(OLD_TABLES))
    return {name: [c.name for c in md.tables[name].columns] for name in OLD_TABLES}


def test_todays_database_is_migrated_without_loss(db: str) -> None:
    engine = make_engine(parse_db_url(db))
    migrate.upgrade(engine, TODAY)
    write_today(engine, "done", played("jass", {"target": 300}, seed=5), 5)
    write_today(engine, "going", played("stichling", {"players": 2}, seed=6, moves=9), 6)
    today = columns_of(engine)
    before = rows(engine, today)
    assert before["games"] and before["actions"] and before["chat"]
    migrate.upgrade(engine)
    assert migrate.current_revision(engine) == migrate.HEAD
    assert rows(engine, today) == before  # new columns may come; no row and no value of today's goes
    store = Store(engine)
    assert store.finished_game("done").state().is_terminal()
    assert [x.text for x in store.chat("going", 10)] == ["hoi zäme"]
    new = set(inspect(engine).get_table_names()) - set(OLD_TABLES) - {"alembic_version"}
    assert "quick_queue" in new
    md = MetaData()
    md.reflect(engine, only=sorted(new))
    with engine.connect() as conn:
        for name in sorted(new):
            assert conn.execute(select(md.tables[name])).first() is None, f"{name} should begin empty"
    engine.dispose()


def write_today(engine: Any, table_id: str, state: State, seed: int) -> None:
    """A table with one game as today's server wrote it (by hand: the ORM knows the newest schema),
    a person in seat 0 who said something, bots elsewhere."""
    md = MetaData()
    md.reflect(engine)
    now = datetime.now(UTC)
    n = state.game.num_players
    over = state.is_terminal()
    history = state.history()
    seats = [{"kind": "human", "name": "Olga", "bot": None}] + [{"kind": "bot", "name": "random", "bot": "random"}] * (
        n - 1
    )
    with engine.begin() as conn:
        conn.execute(insert(md.tables["tables"]).values(
            id=table_id, name=table_id, game=state.game.name, options=dict(state.game.options), private=False,
            settings={"takeover": "hand", "grace": 60, "takeover_bot": "bot:heuristic", "move_time": None},
            status="over" if over else "playing", game_no=1, version=len(history), line=0, takeback=None, rev=3,
            created_at=now, updated_at=now))  # fmt: skip
        conn.execute(insert(md.tables["seats"]), [
            dict(table_id=table_id, seat=i, kind=x["kind"], bot=x["bot"], name=x["name"],
                 token_hash="ab" * 32 if i == 0 else None, takeover=None, takeover_hand=None, rematch=False)
            for i, x in enumerate(seats)])  # fmt: skip
        conn.execute(insert(md.tables["games"]).values(
            table_id=table_id, game_no=1, seed=seed, seats=seats, status="over" if over else "playing",
            result={"scores": state.scores(), "winners": state.winners()} if over else None,
            started_at=now, finished_at=now if over else None, takebacks=[0] * n))  # fmt: skip
        conn.execute(insert(md.tables["actions"]), [
            dict(table_id=table_id, game_no=1, version=v, seat=seat, action=a.text, by="bot", created_at=now)
            for v, (seat, a) in enumerate(history, 1)])  # fmt: skip
        conn.execute(insert(md.tables["chat"]).values(table_id=table_id, seat=0, name="Olga", text="hoi zäme",
                                                      created_at=now))  # fmt: skip
