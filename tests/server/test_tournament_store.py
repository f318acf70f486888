"""Tournaments as stored, on SQLite and PostgreSQL: each step is taken once (a step from an old
revision is refused, and its round tables are never stored), registrations are counted under
the tournament's lock, the quotas hold, and a game's result is kept once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect

from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Conflict, Store
from stichkit.server.db.tournaments import GIVEN_UP, TournamentStore
from stichkit.server.model import TABLE_OPENER, Entrant, NewRoundTable, Seat, StoredTable, StoredTournament
from stichkit.server.quotas import LimitReached, TournamentQuota

from .harness import postgres_database


@pytest.fixture(params=["sqlite", "postgresql"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, TournamentStore]]:
    def made(url: str) -> tuple[Store, TournamentStore]:
        engine = make_engine(parse_db_url(url))
        migrate.upgrade(engine)
        store = Store(engine)
        return store, TournamentStore(store.sessions)

    if request.param == "sqlite":
        s = made(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s[0].engine.dispose()
    else:
        with postgres_database() as url:
            s = made(url)
            yield s
            s[0].engine.dispose()


def tournament(tid: str, client: str = "address:1.2.3.4") -> StoredTournament:
    now = time.time()
    return StoredTournament(
        id=tid, name="Cup", game="stichling", options={"players": 2}, format="swiss",
        settings={"rounds": 2, "registration": "anyone"}, status="registering", round=0, seed=7,
        organiser="browser:org", opened_by=client, invitation=None, start_at=None, ended_early=False, rev=1,
        created_at=now, updated_at=now,
    )  # fmt: skip


def bot(name: str) -> Entrant:
    return Entrant(0, "bot", name, bot="random")


def round_table(tid: str, number: int) -> NewRoundTable:
    now = time.time()
    table = StoredTable(id=f"{tid}-r1t{number}", name="", game="stichling", options={"players": 2}, private=False,
                        settings={}, status="playing", game_no=1, rev=1, created_at=now, updated_at=now,
                        seats=[Seat("bot", bot="random"), Seat("bot", bot="random")], seed=3, started_at=now,
                        opened_by=TABLE_OPENER + tid)  # fmt: skip
    return NewRoundTable(number, table, [2 * number + 1, 2 * number + 2], [3], {})


def test_a_step_from_an_old_revision_is_refused_and_stores_nothing(stores: tuple[Store, TournamentStore]) -> None:
    store, ts = stores
    ts.create(tournament("cup"), None, [])
    for name in ("a", "b", "c", "d"):
        ts.register("cup", bot(name), 8, time.time())
    seen = ts.load("cup")
    assert seen is not None and [e.number for e in seen.entrants] == [1, 2, 3, 4] and seen.rev == 5
    rev = ts.advance("cup", seen.rev, time.time(), start=(1, {"tables": 2}, [round_table("cup", 0)]), status="running")
    assert rev == 6
    with pytest.raises(Conflict):  # a second process took the same step from the same revision
        ts.advance("cup", seen.rev, time.time(), start=(1, {"tables": 2}, [round_table("cup", 1)]), status="running")
    assert store.load_table("cup-r1t1") is None  # its round table was never stored
    now = ts.load("cup")
    assert now is not None and now.status == "running" and now.round == 1 and now.started_at is not None
    assert [(t.round, t.number, t.table_id) for t in now.tables] == [(1, 0, "cup-r1t0")]
    assert store.load_table("cup-r1t0") is not None
    assert ts.of_table("cup-r1t0") == ("cup", 1, 0) and ts.of_table("elsewhere") is None
    with pytest.raises(Conflict, match="registration is closed"):
        ts.register("cup", bot("late"), 8, time.time())
    assert ("cup", now.rev) in ts.due(time.time())


def test_registration_limits_people_teams_and_size(stores: tuple[Store, TournamentStore]) -> None:
    _, ts = stores
    ts.create(tournament("reg"), None, [])
    ann = ts.register("reg", Entrant(0, "human", "Ann", person="browser:ann", team="Blue"), 3, time.time())
    assert ann.number == 1
    with pytest.raises(Conflict, match="entered in this tournament already"):
        ts.register("reg", Entrant(0, "human", "Ann again", person="browser:ann"), 3, time.time())
    ts.register("reg", Entrant(0, "human", "Bea", person="browser:bea", team="Blue"), 3, time.time())
    with pytest.raises(Conflict, match="two players already"):
        ts.register("reg", Entrant(0, "human", "Cem", person="browser:cem", team="Blue"), 3, time.time())
    ts.register("reg", bot("bot"), 3, time.time())
    with pytest.raises(Conflict, match="full"):
        ts.register("reg", bot("one more"), 3, time.time())
    ts.unregister("reg", 1, time.time())
    with pytest.raises(Conflict):
        ts.unregister("reg", 1, time.time())
    left = ts.load("reg")
    assert left is not None and [e.name for e in left.entrants] == ["Bea", "bot"]
    assert left.entrant_of("browser:bea") is not None and left.entrant_of("browser:ann") is None


def test_quotas_count_a_clients_tournaments_and_bots(stores: tuple[Store, TournamentStore]) -> None:
    _, ts = stores
    quota = TournamentQuota("address:9.9.9.9", tournaments=2, bots=3)
    ts.create(tournament("q1", quota.client), quota, [bot("a"), bot("b")])
    with pytest.raises(LimitReached) as e:
        ts.create(tournament("q2", quota.client), quota, [bot("c"), bot("d")])
    assert e.value.code == "client_bot_entrants"
    assert ts.load("q2") is None
    ts.create(tournament("q2", quota.client), quota, [])
    with pytest.raises(LimitReached) as e:
        ts.create(tournament("q3", quota.client), quota, [])
    assert e.value.code == "client_tournaments"
    ts.register("q2", bot("c"), 10, time.time(), quota)
    with pytest.raises(LimitReached):
        ts.register("q2", bot("d"), 10, time.time(), quota)
    q1 = ts.load("q1")
    assert q1 is not None
    ts.set_status("q1", q1.rev, "over", time.time(), ended_early=True)  # an ended tournament counts no more
    ts.create(tournament("q3", quota.client), quota, [])
    ended = ts.load("q1")
    assert ended is not None and ended.ended_early and ended.ended_at is not None


def test_a_games_result_is_kept_once_and_the_replacement_is_marked(stores: tuple[Store, TournamentStore]) -> None:
    _, ts = stores
    ts.create(tournament("res"), None, [])
    ts.register("res", Entrant(0, "human", "Ann", person="browser:ann"), 8, time.time())
    ts.register("res", bot("b"), 8, time.time())
    seen = ts.load("res")
    assert seen is not None
    ts.advance("res", seen.rev, time.time(), start=(1, {}, [round_table("res", 0)]), status="running")
    result = {"scores": [3, 1], "winners": [0]}
    assert ts.table_result("res", 1, 0, 1, result, True, time.time())
    assert not ts.table_result("res", 1, 0, 1, result, True, time.time())  # kept already
    assert ts.games_of(["res-r1t0"]) == {"res-r1t0": [(1, "playing", None)]}
    assert ts.takeovers("res-r1t0") == [None, None]
    ts.replace("res", 1, "heuristic", 2, time.time())
    with pytest.raises(Conflict):
        ts.replace("res", 2, "heuristic", 2, time.time())  # a bot is not replaced
    after = ts.load("res")
    assert after is not None
    assert after.tables[0].results == [result] and after.tables[0].status == "over"
    assert (after.entrants[0].replaced_by, after.entrants[0].replaced_round) == ("heuristic", 2)
    rev = ts.advance("res", after.rev, time.time(), finish=1, status="over")
    final = ts.load("res")
    assert final is not None and final.rev == rev and final.status == "over" and final.rounds[0].status == "done"


def test_the_mark_for_the_servers_analyses_is_kept_with_the_step(stores: tuple[Store, TournamentStore]) -> None:
    """The step that ends a round (or the tournament) marks its games for the server's analyses in
    the database, so a restarted process finds them; the mark goes only at the revision read."""
    _, ts = stores
    ts.create(tournament("an"), None, [bot("a"), bot("b")])
    seen = ts.load("an")
    assert seen is not None and ts.analyses_due() == []
    ts.advance("an", seen.rev, time.time(), start=(1, {}, [round_table("an", 0)]), status="running")
    ts.table_result("an", 1, 0, 1, {"scores": [3, 1], "winners": [0]}, True, time.time())
    played = ts.load("an")
    assert played is not None
    rev = ts.advance("an", played.rev, time.time(), finish=1, analyse=True)
    assert ts.analyses_due() == [("an", rev)]
    assert not ts.analyses_settled("an", played.rev)  # read before the round ended: the mark stays
    assert ts.analyses_due() == [("an", rev)]
    assert ts.analyses_settled("an", rev)
    assert ts.analyses_due() == []
    ts.set_status("an", rev, "over", time.time(), ended_early=True, analyse=True)  # ended early: marked again
    assert [tid for tid, _ in ts.analyses_due()] == ["an"]


def test_the_migration_goes_down_and_up_again(tmp_path: Path) -> None:
    engine = make_engine(parse_db_url(f"sqlite:///{tmp_path / 'm.db'}"))
    migrate.upgrade(engine)
    assert "tournament_tables" in inspect(engine).get_table_names()
    _down(engine)
    assert "tournaments" not in inspect(engine).get_table_names()
    migrate.upgrade(engine)
    assert {"tournaments", "tournament_entrants", "tournament_rounds"} <= set(inspect(engine).get_table_names())


def _down(engine: Engine) -> None:
    from alembic import command

    cfg = migrate.alembic_config()
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0014")
        conn.commit()


def test_a_round_table_plays_on_until_archived_deleted_or_left_alone(stores: tuple[Store, TournamentStore]) -> None:
    """`in_play`: the round tables whose game is not over, at a table still here that moved within
    `GIVEN_UP` seconds (what seals a duplicate round after its tournament is over)."""
    store, ts = stores
    ts.create(tournament("ip"), None, [])
    for name in ("a", "b"):
        ts.register("ip", bot(name), 8, time.time())
    seen = ts.load("ip")
    assert seen is not None
    tables = [round_table("ip", n) for n in range(4)]
    ts.advance("ip", seen.rev, time.time(), start=(1, {}, tables), status="running")
    ids = [nt.table.id for nt in tables]
    now = time.time()
    assert ts.in_play(ids, now) == set(ids) and ts.in_play([], now) == set()
    store.archive_table(ids[1])
    store.delete_table(ids[2])
    assert ts.in_play(ids, now) == {ids[0], ids[3]}
    assert ts.in_play(ids, now + GIVEN_UP + 60) == set()  # nothing moved for longer than that
