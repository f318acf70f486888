"""Running the server: `stich serve`'s flags and errors, migrations of older databases, sweeping
of empty tables and abandoned games, the table limit, and the page's files."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, insert

import stichkit
from stichkit import State
from stichkit.cli.main import build_parser, main
from stichkit.server import Settings, create_app
from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store
from stichkit.server.tokens import hash_token

from .harness import Client, Server, run, wait_until


def test_the_newest_migration_is_the_one_the_server_knows() -> None:
    assert migrate.head_revision() == migrate.HEAD


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--db", "mysql://u@h/db"], "SQLite or PostgreSQL, not mysql"),
        (["--db", "sqlite://"], "in-memory SQLite database would lose every game"),
        (["--db", "not a url"], "is not a database URL"),
        (["--db", "postgresql://nobody@127.0.0.1:9/none"], "cannot reach the database"),
        (["--port", "70000"], "--port must be between 0 and 65535"),
        (["--bot-workers", "0"], "--bot-workers must be between 1 and 256"),
        (["--max-bot-time", "0"], "--max-bot-time must be between"),
        (["--leaderboard-min-games", "0"], "--leaderboard-min-games must be between 1 and 10000"),
        (["--malloc-trim", "-1"], "--malloc-trim must be between 0 and"),
    ],
)
def test_bad_serve_flags_are_refused_with_a_reason(flags: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert main(["serve", *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_migrate_only_makes_the_schema_and_exits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    assert main(["serve", "--db", f"sqlite:///{db}", "--migrate-only"]) == 0
    assert "schema is up to date" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (migrate.HEAD,)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tables", "seats", "games", "actions", "chat", "meta"} <= names


def first_moves(state: State, count: int | None = None) -> list[tuple[int, str]]:
    """Plays each turn's first legal action, `count` times or to the end: (seat, action) each."""
    moves = []
    while not state.is_terminal() and (count is None or len(moves) < count):
        seat, action = state.current_player, state.legal_actions()[0].text
        state.apply(action)
        moves.append((seat, action))
    return moves


def test_a_database_of_an_older_version_keeps_its_games(tmp_path: Path) -> None:
    """A database at the first schema revision, with a game in play, is migrated at start; the game
    goes on at its version and its player's token still holds the seat."""
    db = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(parse_db_url(db))
    migrate.upgrade(engine, "0001")
    game = stichkit.load_game("stichling", players=2)
    moves = first_moves(game.new_state(seed=99), 7)
    token, now = "an-old-token-" + "x" * 30, datetime.now(UTC)
    md = MetaData()
    md.reflect(engine)
    rows = {
        "tables": [dict(id="oldtable", name="from before", game="stichling", options=dict(game.options), private=False,
                        settings={"takeover": "off", "grace": 60, "takeover_bot": "bot:heuristic", "move_time": None},
                        status="playing", game_no=1, version=7, rev=9, created_at=now, updated_at=now)],
        "seats": [dict(table_id="oldtable", seat=0, kind="human", bot=None, name="Olga",
                       token_hash=hash_token("oldtable", token), takeover=None, takeover_hand=None, rematch=False),
                  dict(table_id="oldtable", seat=1, kind="bot", bot="random", name="random", token_hash=None,
                       takeover=None, takeover_hand=None, rematch=False)],
        "games": [dict(table_id="oldtable", game_no=1, seed=99, seats=[], status="playing", result=None,
                       started_at=now, finished_at=None)],
        "actions": [dict(table_id="oldtable", game_no=1, version=v, seat=s, action=a, by="human" if s == 0 else "bot",
                         created_at=now) for v, (s, a) in enumerate(moves, 1)],
    }  # fmt: skip
    # A game that an older server finished: it stored the seats before the human sat down.
    done = game.new_state(seed=98)
    ended = first_moves(done)
    rows["tables"].append({**rows["tables"][0], "id": "oldover", "status": "over", "version": len(ended)})
    rows["seats"] += [{**x, "table_id": "oldover", "token_hash": None} for x in rows["seats"]]
    rows["games"].append(dict(table_id="oldover", game_no=1, seed=98, status="over", started_at=now, finished_at=now,
                              seats=[{"kind": "human", "name": None, "bot": None},
                                     {"kind": "bot", "name": "random", "bot": "random"}],
                              result={"scores": done.scores(), "winners": done.winners()}))  # fmt: skip
    rows["actions"] += [dict(table_id="oldover", game_no=1, version=v, seat=s, action=a, by="bot", created_at=now)
                        for v, (s, a) in enumerate(ended, 1)]  # fmt: skip
    # A 3-player Stich-Meister table stored before the option prune_trump_rules existed (the deck
    # left four rule cards out): it comes back with the deck its game was dealt from.
    meister = stichkit.load_game("stichmeister", players=3, prune_trump_rules=True)
    steps = first_moves(meister.new_state(seed=97), 12)
    old_options = {k: v for k, v in meister.options.items() if k != "prune_trump_rules"}
    rows["tables"].append({**rows["tables"][0], "id": "oldmeister", "game": "stichmeister", "options": old_options,
                           "version": len(steps)})  # fmt: skip
    rows["seats"] += [dict(table_id="oldmeister", seat=k, kind="bot", bot="random", name="random", token_hash=None,
                           takeover=None, takeover_hand=None, rematch=False) for k in range(3)]  # fmt: skip
    rows["games"].append(dict(table_id="oldmeister", game_no=1, seed=97, seats=[], status="playing", result=None,
                              started_at=now, finished_at=None))  # fmt: skip
    rows["actions"] += [dict(table_id="oldmeister", game_no=1, version=v, seat=s, action=a, by="bot", created_at=now)
                        for v, (s, a) in enumerate(steps, 1)]  # fmt: skip
    with engine.begin() as conn:
        for name, values in rows.items():
            conn.execute(insert(md.tables[name]), values)
    engine.dispose()

    server = Server(db, tmp_path / "server.log", "--bot-delay", "0").start()
    try:
        info = server.get("/api/tables/oldtable").json()
        assert info["version"] >= 7 and info["seats"][0]["name"] == "Olga"

        async def play_on() -> None:
            c = await Client.open(server, "oldtable", token)
            m = await c.state()
            while not m["legal"]:
                m = await c.state()
            await c.send({"type": "act", "action": m["legal"][0], "version": m["version"]})
            await c.send({"type": "chat", "text": "still here"})  # the chat table came with the migration
            await c.until(lambda x: x["type"] == "chat")
            await c.close()

        run(play_on())
        with sqlite3.connect(tmp_path / "old.db") as conn:
            assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (migrate.HEAD,)
            stored = conn.execute(
                "SELECT action FROM actions WHERE table_id = 'oldtable' AND version <= 7 ORDER BY version"
            ).fetchall()
        assert [a for (a,) in stored] == [a for _, a in moves]
        # Its record and replay name the player: the table's seats, while it is still at that game.
        record = server.get("/api/tables/oldover/record").json()
        assert [(s["name"], s.get("names")) for s in record["seats"]] == [("Olga", ["Olga"]), ("random", None)]
        assert server.get("/api/tables/oldover/replay").json()["seats"] == record["seats"]
        assert stichkit.replay(record).is_terminal()
        meister_info = server.get("/api/tables/oldmeister").json()
        assert meister_info["version"] >= len(steps) and meister_info["options"]["prune_trump_rules"] is True
    finally:
        server.stop()


def test_empty_tables_and_abandoned_games_are_swept(tmp_path: Path) -> None:
    db = tmp_path / "sweep.db"
    server = Server(f"sqlite:///{db}", tmp_path / "server.log", "--bot-delay", "0.05", "--sweep-waiting", "1",
                    "--sweep-abandoned", "1", "--sweep-finished", "1").start()  # fmt: skip

    async def scene() -> dict[str, str]:
        watched = server.open_table("stichling", ["human", "human"])["id"]
        c = await Client.open(server, watched)  # someone has it open: never swept
        await c.state()
        tables = {"watched": watched}
        tables["empty"] = server.open_table("stichling", ["human", "human"])["id"]
        tables["abandoned"] = server.open_table("stichling", ["human", "bot:random"])["id"]
        server.join(tables["abandoned"], "Pia")
        tables["finished"] = server.open_table("stichwahl", ["bot:random"] * 2, options={"target": 3})["id"]
        tables["bots"] = server.open_table("jass", ["bot:random"] * 4, options={"target": 2500})["id"]
        await asyncio.sleep(4)  # every sweep limit (1 s) has passed, several sweeps have run
        # The bots' Stichwahl game must have ended before its table can be swept as finished: on a
        # loaded machine that takes longer, so wait for the sweeps to catch up (not for ever; in a
        # thread, so that the open connection's event loop runs meanwhile).
        await asyncio.to_thread(wait_until, lambda: alive_tables(tables) == {"watched", "bots"}, 30)
        await c.close()
        return tables

    def alive_tables(tables: dict[str, str]) -> set[str]:
        return {k for k, t in tables.items() if server.get(f"/api/tables/{t}").status_code == 200}

    try:
        tables = run(scene())
        alive = alive_tables(tables)
        assert alive == {"watched", "bots"}, "bots playing by themselves are not an abandoned game"
        gone = [tables[k] for k in ("empty", "abandoned", "finished")]
        with sqlite3.connect(db) as conn:
            for name in ("tables", "seats", "games", "actions", "chat"):
                key = "id" if name == "tables" else "table_id"
                left = conn.execute(f"SELECT COUNT(*) FROM {name} WHERE {key} IN (?, ?, ?)", gone).fetchone()
                assert left == (0,), f"{name} kept rows of a swept table"
        wait_until(lambda: server.get(f"/api/tables/{tables['watched']}").status_code != 200, 10)
        assert server.get(f"/api/tables/{tables['watched']}").status_code == 404  # nobody has it open now
    finally:
        server.stop()


def test_the_page_is_served_from_the_static_folder(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>stichkit</title>")
    (static / "app.js").write_text("console.log('hi')")
    settings = Settings(db=f"sqlite:///{tmp_path / 'page.db'}", static_dir=static, bot_workers=1, max_tables=2)
    with TestClient(create_app(settings)) as client:
        for path in ("/", "/tables/AbCdEf123456"):
            r = client.get(path)
            assert r.status_code == 200 and "<title>stichkit</title>" in r.text
            assert r.headers["content-type"].startswith("text/html")
        r = client.get("/static/app.js")
        assert r.status_code == 200 and "console.log" in r.text
        assert client.get("/static/nothing.js").status_code == 404
        assert client.get("/docs").status_code == 200  # the OpenAPI reference
        assert "remote" not in {b["name"] for b in client.get("/api/games").json()["bots"]}
        for _ in range(2):
            assert client.post("/api/tables", json={"game": "stichling", "seats": ["human"] * 2}).status_code == 201
        r = client.post("/api/tables", json={"game": "stichling", "seats": ["human"] * 2})
        assert r.status_code == 503 and "holds 2 tables already" in r.json()["error"]
    remote = ["human", "bot:remote:http://127.0.0.1:9/player", "human", "human"]
    remote_db = f"sqlite:///{tmp_path / 'remote.db'}"
    with TestClient(create_app(settings.but(allow_remote_bots=True, db=remote_db))) as client:
        bots = {b["name"]: b for b in client.get("/api/games").json()["bots"]}
        assert bots["remote"]["games"] == ["jass"]
        r = client.post("/api/tables", json={"game": "jass", "seats": remote})
        assert r.status_code == 201 and r.json()["seats"][1]["bot"] == "remote:http://127.0.0.1:9/player"
        r = client.post("/api/tables", json={"game": "stichling", "seats": ["human", remote[1]]})
        assert r.status_code == 400 and "plays only jass" in r.json()["error"]
    (static / "index.html").unlink()
    with TestClient(create_app(settings.but(instance="second"))) as client:
        r = client.get("/")
        assert r.status_code == 404 and "the page is not installed" in r.json()["error"]


def test_the_database_comes_from_the_flag_the_environment_or_the_documented_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from stichkit.server.serve import settings_from
    from stichkit.server.settings import default_db_path

    monkeypatch.delenv("STICHKIT_DB", raising=False)
    monkeypatch.delenv("STICHKIT_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "stichkit" / "server.db"
    assert Settings().db == f"sqlite:///{tmp_path / 'xdg' / 'stichkit' / 'server.db'}"
    monkeypatch.setenv("STICHKIT_HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / "server.db"
    monkeypatch.setenv("STICHKIT_DB", "postgresql://u@h/env")
    monkeypatch.setenv("STICHKIT_REDIS", "redis://r:6379/0")
    args = build_parser().parse_args(["serve"])
    s = settings_from(args)
    assert (s.db, s.redis) == ("postgresql://u@h/env", "redis://r:6379/0")
    s = settings_from(build_parser().parse_args(["serve", "--db", "sqlite:////x/flag.db"]))
    assert s.db == "sqlite:////x/flag.db"
    assert parse_db_url("postgres://u@h/db").drivername == "postgresql+psycopg"


def test_an_analysis_kept_before_claims_existed_is_still_answered(tmp_path: Path) -> None:
    """Revision 0006 adds the claims of analyses in work to the table of kept ones: a row kept
    before it is a finished analysis (status done, nobody's claim), and a game stored before
    0007 counts no takebacks."""
    engine = make_engine(parse_db_url(f"sqlite:///{tmp_path / 'old.db'}"))
    migrate.upgrade(engine, "0004")
    now = datetime.now(UTC)
    md = MetaData()
    md.reflect(engine)
    with engine.begin() as conn:
        conn.execute(insert(md.tables["tables"]).values(
            id="t", name="t", game="jass", options={}, private=False, settings={}, status="over", game_no=1,
            version=0, line=0, rev=1, created_at=now, updated_at=now))  # fmt: skip
        conn.execute(insert(md.tables["games"]).values(
            table_id="t", game_no=1, seed=1, seats=[{"kind": "bot"}] * 4, status="over", result=None,
            started_at=now, finished_at=now))  # fmt: skip
        conn.execute(insert(md.tables["analyses"]).values(
            table_id="t", game_no=1, document={"status": "done", "analysis": {}}, created_at=now))  # fmt: skip
    migrate.upgrade(engine)
    kept = Store(engine).analysis("t", 1)
    assert kept is not None and (kept.status, kept.owner, kept.claim) == ("done", None, 0)
    assert kept.document == {"status": "done", "analysis": {}}
    assert Store(engine).games("t")[0].takebacks is None
    engine.dispose()
