"""The store's group commit: many tables' moves in one transaction, and a taken version refused
for its own move only. On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Conflict, Move, Store
from stichkit.server.model import Seat, StoredAction, StoredTable, TakebackRequest

from .harness import postgres_database


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    def made(url: str) -> Store:
        engine = make_engine(parse_db_url(url))
        migrate.upgrade(engine)
        return Store(engine)

    if request.param == "sqlite":
        s = made(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s.engine.dispose()
    else:
        with postgres_database() as url:
            s = made(url)
            yield s
            s.engine.dispose()


def table(store: Store, table_id: str) -> None:
    now = time.time()
    seats = [Seat("human"), Seat("human")]
    store.create_table(StoredTable(id=table_id, name=table_id, game="stichling", options={"players": 2},
                                   private=False, settings={}, status="playing", game_no=1, rev=1, created_at=now,
                                   updated_at=now, seats=seats, seed=5, started_at=now))  # fmt: skip


def move(table_id: str, version: int, **kw: object) -> Move:
    return Move(table_id, 1, StoredAction(version, 0, f"a{version}", "human", time.time()), **kw)  # type: ignore[arg-type]


def test_moves_of_many_tables_commit_together_and_a_taken_version_is_refused_alone(store: Store) -> None:
    for t in ("t1", "t2", "t3"):
        table(store, t)
    assert store.append_moves([move("t1", 1), move("t2", 1), move("t3", 1)]) == [None, None, None]
    out = store.append_moves([move("t1", 2), move("t2", 1), move("t3", 2, result={"scores": [1, 2], "winners": [1]})])
    assert out[0] is None and out[2] is None
    assert isinstance(out[1], Conflict) and "version 1" in str(out[1])
    loaded = {t: store.load_table(t) for t in ("t1", "t2", "t3")}
    assert [a.version for a in loaded["t1"].actions] == [1, 2]  # type: ignore[union-attr]
    assert [a.action for a in loaded["t2"].actions] == ["a1"]  # type: ignore[union-attr]
    assert loaded["t3"].status == "over"  # type: ignore[union-attr]
    assert store.games("t3")[0].result == {"scores": [1, 2], "winners": [1]}
    assert store.revisions() == {"t1": 3, "t2": 2, "t3": 3}


def test_a_move_for_a_game_that_is_no_longer_the_tables_is_refused(store: Store) -> None:
    table(store, "t4")
    (refused,) = store.append_moves([Move("t4", 2, StoredAction(1, 0, "x", "human", time.time()))])
    assert isinstance(refused, Conflict)
    assert store.load_table("t4").actions == []  # type: ignore[union-attr]


def test_takeovers_end_with_the_move_that_ends_them(store: Store) -> None:
    table(store, "t5")
    store.update_seats("t5", 1, {1: {"takeover": "hand", "takeover_hand": 0}}, time.time())
    assert store.append_moves([move("t5", 1, seat_changes={1: {"takeover": None, "takeover_hand": None}})]) == [None]
    assert store.load_table("t5").seats[1].takeover is None  # type: ignore[union-attr]


def test_a_takeback_deletes_the_newer_moves_and_only_the_new_line_goes_on(store: Store) -> None:
    table(store, "t6")
    for v in (1, 2, 3, 4):
        assert store.append_moves([move("t6", v)]) == [None]
    store.take_back("t6", 1, 0, 4, 2, time.time())
    loaded = store.load_table("t6")
    assert loaded is not None and (loaded.line, [a.version for a in loaded.actions]) == (1, [1, 2])
    # A process that has not heard of it cannot go on with the old line, nor take back again there.
    (refused,) = store.append_moves([move("t6", 5)])
    assert isinstance(refused, Conflict)
    (refused,) = store.append_moves([move("t6", 3)])  # the old line's line number
    assert isinstance(refused, Conflict)
    with pytest.raises(Conflict):
        store.take_back("t6", 1, 0, 4, 1, time.time())
    # The new line goes on from version 2; its versions count decisions again.
    assert store.append_moves([move("t6", 3, line=1)]) == [None]
    assert [a.action for a in store.load_table("t6").actions] == ["a1", "a2", "a3"]  # type: ignore[union-attr]
    # An incremental read from the old line gives the whole game again (complete), from the new
    # line only what is new.
    old = store.load_table("t6", (1, 0, 4))
    assert old is not None and old.complete and [a.version for a in old.actions] == [1, 2, 3]
    new = store.load_table("t6", (1, 1, 2))
    assert new is not None and not new.complete and [a.version for a in new.actions] == [3]
    # A finished game is not taken back.
    assert store.append_moves([move("t6", 4, line=1, result={"scores": [1, 2], "winners": [1]})]) == [None]
    with pytest.raises(Conflict):
        store.take_back("t6", 1, 1, 4, 3, time.time())


def test_an_analysis_is_claimed_by_one_process_and_taken_over_only_from_a_silent_one(store: Store) -> None:
    table(store, "t8")
    now = time.time()
    working = {"status": "working", "deals_done": 0}
    assert store.analysis("t8", 1) is None
    assert store.claim_analysis("t8", 1, "a", working, now, None)
    assert not store.claim_analysis("t8", 1, "b", working, now, None)  # a has it
    seen = store.analysis("t8", 1)
    assert seen is not None and (seen.status, seen.owner, seen.claim) == ("working", "a", 0)
    # a's progress; b's claim over what it read is refused once a has been taken over by c
    store.analysis_progress("a", {("t8", 1): {"status": "working", "deals_done": 1}}, now + 5)
    later = store.analysis("t8", 1)
    assert later is not None and later.document["deals_done"] == 1 and later.updated_at > now + 4  # microseconds kept
    assert store.claim_analysis("t8", 1, "c", working, now + 60, later)
    assert not store.claim_analysis("t8", 1, "b", working, now + 60, later)
    store.analysis_progress("a", {("t8", 1): {"status": "working", "deals_done": 9}}, now + 61)  # a is not the owner
    taken = store.analysis("t8", 1)
    assert taken is not None and (taken.owner, taken.claim, taken.document) == ("c", 1, working)
    # giving up: the next asker begins again; finishing: kept for good, by whoever finishes
    store.release_analyses("a")
    assert store.analysis("t8", 1) is not None
    store.release_analyses("c", [("t8", 1)])
    assert store.analysis("t8", 1) is None
    store.save_analysis("t8", 1, {"status": "done"}, now)
    done = store.analysis("t8", 1)
    assert done is not None and (done.status, done.owner, done.document) == ("done", None, {"status": "done"})
    store.release_analyses(None)  # claims only: a kept analysis stays
    assert store.analysis("t8", 1) is not None


def test_a_takeback_request_changes_only_over_the_text_read_and_ends_with_the_takeback(store: Store) -> None:
    table(store, "t7")
    for v in (1, 2, 3):
        assert store.append_moves([move("t7", v)]) == [None]
    now = time.time()
    ask = TakebackRequest(seat=0, game=1, line=0, to=2, at=now)
    with pytest.raises(Conflict):  # another game or line than the table's
        store.set_takeback("t7", 1, 1, None, ask.text(), now)
    store.set_takeback("t7", 1, 0, None, ask.text(), now)
    loaded = store.load_table("t7")
    assert loaded is not None and TakebackRequest.parse(loaded.takeback) == ask
    assert store.load_table("t7", (1, 0, 3)).takeback == ask.text()  # type: ignore[union-attr]
    # Two answers read the same text: the first is stored, the second refused (read again).
    yes = replace(ask, yes=(1,)).text()
    store.set_takeback("t7", 1, 0, ask.text(), yes, now)
    with pytest.raises(Conflict):
        store.set_takeback("t7", 1, 0, ask.text(), replace(ask, no=3).text(), now)
    # The takeback itself only over the text every player agreed to; it clears the request.
    with pytest.raises(Conflict):
        store.take_back("t7", 1, 0, 3, 2, now, request=ask.text())
    store.take_back("t7", 1, 0, 3, 2, now, request=yes)
    loaded = store.load_table("t7")
    assert loaded is not None and (loaded.takeback, loaded.line, loaded.actions[-1].version) == (None, 1, 2)
    # Text this version cannot read is no request.
    assert TakebackRequest.parse('{"seat": 1}') is None and TakebackRequest.parse("[") is None
