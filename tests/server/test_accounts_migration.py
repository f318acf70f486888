"""The accounts' migration takes a database of the version before it, with tables and games in
it, to the new schema without losing or changing a row, on SQLite and on PostgreSQL; and
`stich admin` works on the database it made."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, MetaData, insert, select

import stichkit
from stichkit.cli.main import build_parser
from stichkit.server.admin import run as run_admin
from stichkit.server.credentials import hash_password, verify_password
from stichkit.server.db import migrate
from stichkit.server.db.accounts import AccountStore
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store
from stichkit.server.tokens import hash_token
from stichkit.server.usernames import name_key

from .harness import postgres_database

BEFORE = "0007"  # the last revision without accounts


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
    else:
        with postgres_database() as url:
            yield url


def snapshot(engine: Engine, leave_out: set[str]) -> dict[str, list[dict[str, Any]]]:
    md = MetaData()
    md.reflect(engine)
    out = {}
    with engine.connect() as conn:
        for name in ("tables", "seats", "games", "actions", "chat", "analyses", "meta"):
            rows = [
                {k: v for k, v in r._mapping.items() if k not in leave_out}
                for r in conn.execute(select(md.tables[name]))
            ]
            out[name] = sorted(rows, key=repr)
    return out


def fill(engine: Engine) -> None:
    """A table in play with a guest at it, and one whose game is over, as the older server wrote them."""
    now = datetime.now(UTC)
    game = stichkit.load_game("stichling", players=2)
    state = game.new_state(seed=5)
    moves = []
    while not state.is_terminal():
        seat, action = state.current_player, state.legal_actions()[0].text
        state.apply(action)
        moves.append((seat, action))
    md = MetaData()
    md.reflect(engine)
    settings = {"takeover": "hand", "grace": 60, "takeover_bot": "bot:heuristic", "move_time": None}
    rows: dict[str, list[dict[str, Any]]] = {"tables": [], "seats": [], "games": [], "actions": [], "chat": []}
    for table, status, count in (("inplay", "playing", 6), ("over", "over", len(moves))):
        rows["tables"].append(dict(id=table, name=table, game="stichling", options=dict(game.options), private=False,
                                   settings=settings, status=status, game_no=1, version=count, line=0, takeback=None,
                                   rev=count + 2, created_at=now, updated_at=now))  # fmt: skip
        rows["seats"] += [
            dict(table_id=table, seat=0, kind="human", bot=None, name="Olga", token_hash=hash_token(table, "t" * 43),
                 takeover=None, takeover_hand=None, rematch=False),
            dict(table_id=table, seat=1, kind="bot", bot="random", name="random", token_hash=None, takeover=None,
                 takeover_hand=None, rematch=False),
        ]  # fmt: skip
        over = status == "over"
        rows["games"].append(dict(
            table_id=table, game_no=1, seed=5, status=status, started_at=now, finished_at=now if over else None,
            seats=[{"kind": "human", "name": "Olga", "bot": None, "names": ["Olga"]},
                   {"kind": "bot", "name": "random", "bot": "random"}],
            result={"scores": state.scores(), "winners": state.winners()} if over else None,
            takebacks=[1, 0]))  # fmt: skip
        rows["actions"] += [dict(table_id=table, game_no=1, version=v, seat=s, action=a,
                                 by="human" if s == 0 else "bot", created_at=now)
                            for v, (s, a) in enumerate(moves[:count], 1)]  # fmt: skip
        rows["chat"].append(dict(table_id=table, seat=0, name="Olga", text="hoi", created_at=now))
    with engine.begin() as conn:
        for name, values in rows.items():
            conn.execute(insert(md.tables[name]), values)


def test_the_accounts_migration_keeps_every_table_and_game(db: str) -> None:
    engine = make_engine(parse_db_url(db))
    try:
        migrate.upgrade(engine, BEFORE)
        migrate.cluster_id(engine)
        fill(engine)
        before = snapshot(engine, set())
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.HEAD
        assert snapshot(engine, {"account_id", "person", "holders", "opened_by"}) == before  # columns added since
        tables = {t.id: t for t in Store(engine).load_tables()}
        assert [s.account for s in tables["inplay"].seats] == [None, None]
        assert tables["inplay"].opened_by is None  # opened before openers were kept: held to no one's limit
        assert tables["inplay"].seats[0].token_hash == hash_token("inplay", "t" * 43)
        assert Store(engine).finished_game("over", None).state().is_terminal()
        # The new tables work on the migrated database.
        accounts = AccountStore(engine)
        made = accounts.create("Olga", name_key("Olga"), hash_password("a password!"), 1.0)
        assert accounts.find(name_key("0lga")) == made
    finally:
        engine.dispose()


def test_chat_lines_stored_before_their_account_column_get_the_account_that_said_them(db: str) -> None:
    """Migration 0017 gives each stored chat line the account holding its seat under the same
    name; a guest's line, and a line said under another name at that seat, get none."""
    engine = make_engine(parse_db_url(db))
    try:
        migrate.upgrade(engine, BEFORE)
        migrate.cluster_id(engine)
        fill(engine)
        migrate.upgrade(engine, "0016")
        olga = AccountStore(engine).create("Olga", name_key("Olga"), hash_password("a password!"), 1.0)
        md = MetaData()
        md.reflect(engine)
        seats, chat = md.tables["seats"], md.tables["chat"]
        now = datetime.now(UTC)
        with engine.begin() as conn:
            conn.execute(
                seats.update().where(seats.c.table_id == "inplay", seats.c.seat == 0).values(account_id=olga.id)
            )
            lines = [dict(table_id="inplay", seat=0, name="Vorher", text="before Olga", created_at=now),
                     dict(table_id="inplay", seat=1, name="random", text="beep", created_at=now)]  # fmt: skip
            conn.execute(insert(chat), lines)
        migrate.upgrade(engine)
        md = MetaData()
        md.reflect(engine)
        with engine.connect() as conn:
            found = {(r.table_id, r.text): r.account_id for r in conn.execute(select(md.tables["chat"]))}
        assert found == {("inplay", "hoi"): olga.id, ("inplay", "before Olga"): None, ("inplay", "beep"): None,
                         ("over", "hoi"): None}  # fmt: skip  # Olga of "over" was a guest
    finally:
        engine.dispose()


def admin(db: str, *argv: str, stdin: str = "") -> tuple[int, str]:
    """`stich admin --db DB ARGV...`: its exit code and what it printed."""
    out = io.StringIO()
    code = run_admin(build_parser().parse_args(["admin", "--db", db, *argv]), out, io.StringIO(stdin))
    return code, out.getvalue()


def test_stich_admin_lists_resets_and_bans(db: str) -> None:
    engine = make_engine(parse_db_url(db))
    migrate.upgrade(engine)
    accounts = AccountStore(engine)
    olga = accounts.create("Olga", name_key("Olga"), hash_password("a password!"), 1.0)
    accounts.open_session(olga.id, "a" * 64, 1.0, 4e9)
    code, text = admin(db, "users")
    assert code == 0 and "Olga" in text and "1 accounts" in text
    code, text = admin(db, "reset-password", "olga", "--password-stdin", stdin="brand new one\n")
    assert code == 0 and accounts.session("a" * 64, 2.0, 60) is None  # the reset ended the session
    login = accounts.login(name_key("Olga"))
    assert login is not None
    assert verify_password(login.password_hash, "brand new one")
    accounts.open_session(olga.id, "b" * 64, 1.0, 4e9)
    code, text = admin(db, "ban", "Olga", "--reason", "cheating")
    assert code == 0 and "1 session(s) ended" in text
    assert accounts.session("b" * 64, 2.0, 60) is None
    assert accounts.find(name_key("Olga")) == replace(olga, banned=True, ban_reason="cheating")
    code, _ = admin(db, "unban", "Olga")
    assert code == 0 and not accounts.find(name_key("Olga")).banned  # type: ignore[union-attr]
    code, _ = admin(db, "ban", "nobody")
    assert code == 1
    code, _ = admin(db, "reset-password", "Olga", "--password-stdin", stdin="short\n")
    assert code == 2
    engine.dispose()


def test_sessions_end_when_they_expire_and_are_swept(db: str) -> None:
    engine = make_engine(parse_db_url(db))
    migrate.upgrade(engine)
    accounts = AccountStore(engine)
    olga = accounts.create("Olga", name_key("Olga"), hash_password("a password!"), 1.0)
    accounts.open_session(olga.id, "old" + "a" * 61, 100.0, 200.0)
    accounts.open_session(olga.id, "new" + "a" * 61, 100.0, 10_000.0)
    assert accounts.session("new" + "a" * 61, 150.0, 60) == olga
    assert accounts.sweep_sessions(300.0) == 1  # the expired one only
    assert accounts.session("old" + "a" * 61, 150.0, 60) is None
    assert accounts.session("new" + "a" * 61, 300.0, 60) == olga
    assert accounts.session("new" + "a" * 61, 10_000.0, 60) is None  # at its end it opens nothing
    assert accounts.end_sessions(olga.id) == 0  # and it is gone
    engine.dispose()
