"""A Jass tournament's analyses are queued by the server itself (tournament_analyses.py): after a
small tournament of bots ends, its games are solved in the background, and its table of points
lost per card holds every entrant, with no game solved twice across two processes. The games
still to analyse are marked in the database: a server started again goes on with them although
nobody opens the tournament."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from sqlalchemy import delete, update

from stichkit.core import State
from stichkit.server import analysis
from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.models import AnalysisRow, GameRow, TableRow
from stichkit.server.db.repository import to_dt
from stichkit.server.db.store import Move, Store
from stichkit.server.db.tournaments import GIVEN_UP, TournamentStore
from stichkit.server.model import (
    TABLE_OPENER,
    Entrant,
    NewRoundTable,
    Seat,
    StoredAction,
    StoredTable,
    StoredTournament,
)
from stichkit.server.tournament_analyses import LOOK, TournamentAnalyses

from .harness import Server, postgres_database, run, wait_until
from .stored_games import played
from .test_tournament_two_processes import load

FLAGS = ("--bot-delay", "0", "--bot-workers", "1", "--client-tournaments", "0", "--client-bot-entrants", "0")
NAMES = ("Anna", "Beat", "Carla", "Dario")


def test_a_finished_jass_tournament_is_analysed_once_by_the_server(tmp_path: Path) -> None:
    with postgres_database() as db:
        a = Server(db, tmp_path / "a.log", *FLAGS, log_level="info").start()
        b = Server(db, tmp_path / "b.log", *FLAGS, log_level="info").start()
        try:
            org = httpx.Client(base_url=a.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})
            # one round of one deal: a short game, solved in seconds
            body = {"name": "Cup", "game": "jass", "format": "passe", "rounds": 1, "deals_per_round": 1,
                    "options": {"weis": "off", "stoeck": False}, "fill_bot": "random"}  # fmt: skip
            tid = org.post("/api/tournaments", json=body).json()["id"]
            for name in NAMES:
                org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).raise_for_status()
            org.post(f"/api/tournaments/{tid}/start").raise_for_status()
            doc: dict[str, Any] = {}

            def analysed() -> bool:
                nonlocal doc
                for s in (a, b):  # both processes show it, and so both would queue what is missing
                    doc = httpx.get(f"{s.http}/api/tournaments/{tid}", timeout=30).json()
                return doc["status"] == "over" and len(doc["jass_errors"]) == len(NAMES)

            assert wait_until(analysed, 300, every=1.0), (doc, a.log.read_text()[-2000:], b.log.read_text()[-2000:])
            t = load(db, tid)
            games = [(x.table_id, n) for x in t.tables for n in range(1, len(x.results) + 1)]
            assert len(games) == 1
            rows = {r["name"]: r for r in doc["jass_errors"]}
            assert set(rows) == set(NAMES)
            assert all(r["games"] == 1 and r["cards"] == 9 and r["per_card"] == round(r["lost"] / 9, 3)
                       for r in rows.values())  # fmt: skip
            engine = make_engine(parse_db_url(db))
            try:
                kept = Store(engine).analysis(*games[0])
            finally:
                engine.dispose()
            assert kept is not None and kept.status == "done"
            begun = [len(re.findall(r"analysing game 1 of table " + games[0][0], s.log.read_text())) for s in (a, b)]
            assert sum(begun) == 1, begun  # claimed in the database: one process solved it
        finally:
            a.stop()
            b.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.db'}"
    else:
        with postgres_database() as url:
            yield url


def test_a_restarted_server_goes_on_with_the_analyses_left(db: str, tmp_path: Path) -> None:
    s = Server(db, tmp_path / "s.log", *FLAGS, "--background-analyses", "0", log_level="info").start()
    try:
        org = httpx.Client(base_url=s.http, timeout=30, headers={"Sec-Fetch-Site": "same-origin"})
        body = {"name": "Cup", "game": "jass", "format": "passe", "rounds": 1, "deals_per_round": 1,
                "options": {"weis": "off", "stoeck": False}, "fill_bot": "random"}  # fmt: skip
        tid = org.post("/api/tournaments", json=body).json()["id"]
        for name in NAMES:
            org.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "name": name}).raise_for_status()
        org.post(f"/api/tournaments/{tid}/start").raise_for_status()
        assert wait_until(lambda: load(db, tid).status == "over", 120, every=0.5), s.log.read_text()[-2000:]
        s.stop()  # it analyses nothing of its own: the game is left for the next start
        t = load(db, tid)
        key = next((x.table_id, n) for x in t.tables for n in range(1, len(x.results) + 1))
        engine = make_engine(parse_db_url(db))
        try:
            assert Store(engine).analysis(*key) is None
            s.flags = [*FLAGS, "--background-analyses", "1"]
            s.start()  # nobody opens the tournament from now on: the mark in the database is enough

            def solved() -> bool:
                kept = Store(engine).analysis(*key)
                return kept is not None and kept.status == "done"

            assert wait_until(solved, 300, every=1.0), s.log.read_text()[-3000:]
        finally:
            engine.dispose()
    finally:
        s.stop()


# -- the looks, in one process against the database (the solve held until the test lets it go) ----

JASS_ONE_DEAL = {"deals": 1, "weis": "off", "stoeck": False}


class Looks:
    """What TournamentAnalyses reads of the hub, with this process's analysis queue (its worker a
    thread here, each deal's solve held until `go` is set)."""

    def __init__(self, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.engine = make_engine(parse_db_url(url))
        migrate.upgrade(self.engine)
        self.store = Store(self.engine)
        self.tournament_store = TournamentStore(self.store.sessions)
        self.go = threading.Event()
        self.pool = ThreadPoolExecutor(1)
        real = analysis.analyse_part

        def held(part: Any) -> Any:
            self.go.wait(60)
            return real(part)

        monkeypatch.setattr(analysis, "analyse_part", held)
        monkeypatch.setattr(analysis.Analyses, "_executor", lambda _: self.pool)
        self.analyses = analysis.Analyses(keeper=analysis.DbKeeper(self.db, self.store, "here"), background=1)
        self.looks = TournamentAnalyses(cast(Any, self))
        self.now = 0.0

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args)

    async def look(self) -> None:
        """The next look (as the tick makes it once its pause is over)."""
        self.now += LOOK
        await self.looks.look(self.now)

    def close(self) -> None:
        self.go.set()
        self.analyses.close()
        self.pool.shutdown()
        self.engine.dispose()


@pytest.fixture
def looks(db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Looks]:
    made = Looks(db, monkeypatch)
    try:
        yield made
    finally:
        made.close()


def _jass_tournament(x: Looks, tid: str, fmt: str, tables: int) -> tuple[State, list[str]]:
    """A Jass tournament of one deal per game, its round 1 begun at `tables` tables (one seed for
    all, as a duplicate round deals them): the game every table plays, and the tables."""
    now = time.time()
    x.tournament_store.create(StoredTournament(
        id=tid, name="Cup", game="jass", options=JASS_ONE_DEAL, format=fmt, settings={"rounds": 1},
        status="registering", round=0, seed=7, organiser="browser:org", opened_by="address:1.2.3.4", invitation=None,
        start_at=None, ended_early=False, rev=1, created_at=now, updated_at=now,
    ), None, [Entrant(0, "bot", n, bot="random") for n in NAMES])  # fmt: skip
    state = played("jass", JASS_ONE_DEAL, 11, ("trump:obe",))
    new = []
    for number in range(tables):
        table = StoredTable(
            id=f"{tid}-r1t{number}", name="", game="jass", options=dict(state.game.options), private=True,
            settings={}, status="playing", game_no=1, rev=1, created_at=now, updated_at=now,
            seats=[Seat("bot", bot="random", name="random") for _ in range(4)], seed=11, started_at=now,
            opened_by=TABLE_OPENER + tid,
        )  # fmt: skip
        new.append(NewRoundTable(number, table, [1, 2, 3, 4], [11], {}))
    seen = x.tournament_store.load(tid)
    assert seen is not None
    x.tournament_store.advance(tid, seen.rev, now, start=(1, {}, new), status="running")
    return state, [nt.table.id for nt in new]


def _play(x: Looks, table_id: str, state: State, first: int = 1, last: int | None = None) -> None:
    """The table's moves `first` to `last` (None: to the end, the game then over)."""
    history = state.history()
    last = len(history) if last is None else last
    moves = [Move(table_id, 1, StoredAction(v, seat, action.text, "bot", time.time()), 0,
                  {"scores": state.scores(), "winners": state.winners()} if v == len(history) else None)
             for v, (seat, action) in enumerate(history[first - 1 : last], first)]  # fmt: skip
    assert x.store.append_moves(moves) == [None] * len(moves)


def _kept(x: Looks, tid: str, number: int) -> None:
    """The tournament keeps the result of table `number`'s game, as the round's step does."""
    assert x.tournament_store.table_result(tid, 1, number, 1, {"scores": [1, 0], "winners": [0]}, True, time.time())


async def _solved(x: Looks, key: tuple[str, int]) -> None:
    deadline = time.monotonic() + 120
    while (kept := x.store.analysis(*key)) is None or kept.status != "done":
        assert time.monotonic() < deadline, kept
        await asyncio.sleep(0.05)


def test_a_silent_claim_is_taken_over_by_the_next_look_and_the_mark_stays_until_solved(looks: Looks) -> None:
    """A claim whose process died goes silent and the next look takes it over (no asker needed);
    the tournament stays marked while its game is claimed elsewhere or in work here, and the mark
    goes at the first look after the game is solved."""
    x = looks
    state, (table,) = _jass_tournament(x, "cup", "passe", 1)
    _play(x, table, state)
    _kept(x, "cup", 0)
    seen = x.tournament_store.load("cup")
    assert seen is not None
    x.tournament_store.advance("cup", seen.rev, time.time(), finish=1, status="over", analyse=True)
    key = (table, 1)
    assert x.store.claim_analysis(*key, "elsewhere", {"status": "working"}, time.time(), None)

    async def go() -> None:
        await x.look()  # claimed by a process alive a moment ago: left to it, the mark stays
        assert x.analyses.get(key) is None
        assert [tid for tid, _ in x.tournament_store.analyses_due()] == ["cup"]
        with x.store.sessions.begin() as s:  # that process died: no sign of life since
            s.execute(update(AnalysisRow).values(updated_at=to_dt(time.time() - analysis.CLAIM_TIMEOUT - 1)))
        await x.look()
        job = x.analyses.get(key)
        assert job is not None and job.priority == analysis.BACKGROUND
        taken = x.store.analysis(*key)
        assert taken is not None and (taken.owner, taken.claim, taken.status) == ("here", 1, "working")
        await x.look()  # in work here: still marked
        assert [tid for tid, _ in x.tournament_store.analyses_due()] == ["cup"]
        x.go.set()
        await _solved(x, key)
        await x.look()
        assert x.tournament_store.analyses_due() == []

    run(go())


def _ended_early_duplicate(x: Looks) -> tuple[State, str, str]:
    """A duplicate of two Jass tables ended early: one table's game over and kept, the other's
    played to its tenth move; the tournament over and marked for its analyses."""
    x.go.set()
    state, (done, playing) = _jass_tournament(x, "dup", "duplicate", 2)
    _play(x, done, state)
    _kept(x, "dup", 0)
    _play(x, playing, state, last=10)
    seen = x.tournament_store.load("dup")
    assert seen is not None
    x.tournament_store.set_status("dup", seen.rev, "over", time.time(), ended_early=True, analyse=True)
    return state, done, playing


def test_an_early_ended_duplicate_is_analysed_once_its_last_tables_finish(looks: Looks) -> None:
    """A duplicate tournament ended while a round's table still plays: the round's kept games are
    sealed (the other table plays the same cards) and nothing is queued, but the tournament stays
    marked; once that table's game is over the kept games are solved, and then the mark goes, so
    no look at it every few seconds remains."""
    x = looks
    state, done, playing = _ended_early_duplicate(x)

    async def go() -> None:
        for _ in range(3):  # the other table plays on: sealed, and looked at again
            await x.look()
            assert x.analyses.jobs == {} and x.store.analysis(done, 1) is None
            assert [tid for tid, _ in x.tournament_store.analyses_due()] == ["dup"]
        _play(x, playing, state, first=11)  # its game is over (and counts no more: not kept)
        await x.look()
        assert list(x.analyses.jobs) == [(done, 1)]
        await _solved(x, (done, 1))
        await x.look()
        assert x.tournament_store.analyses_due() == []
        looked = []
        x.tournament_store.load = lambda tid: looked.append(tid)  # type: ignore[method-assign]
        for _ in range(3):
            await x.look()
        assert looked == []

    run(go())


@pytest.mark.parametrize("left", ["archived", "left alone"])
def test_an_early_ended_duplicate_whose_last_table_never_finishes_is_unmarked(looks: Looks, left: str) -> None:
    """A duplicate tournament ended while a round's table still plays, and then nobody plays it:
    once that table is archived, or its game has not moved for `GIVEN_UP` seconds, it seals the
    round no more: the kept games are solved, the unfinished one never, and the mark goes (no look
    at the tournament every few seconds for good)."""
    x = looks
    _, done, playing = _ended_early_duplicate(x)

    async def go() -> None:
        await x.look()  # moved a moment ago: sealed, and looked at again
        assert x.analyses.jobs == {} and [tid for tid, _ in x.tournament_store.analyses_due()] == ["dup"]
        if left == "archived":
            x.store.archive_table(playing)
        else:
            with x.store.sessions.begin() as s:
                s.execute(update(TableRow).where(TableRow.id == playing)
                          .values(updated_at=to_dt(time.time() - GIVEN_UP - 1)))  # fmt: skip
        await x.look()
        assert list(x.analyses.jobs) == [(done, 1)]  # the kept game only: the other never ended
        await _solved(x, (done, 1))
        await x.look()
        assert x.tournament_store.analyses_due() == []

    run(go())


def test_games_deleted_since_are_passed_over_and_the_mark_goes(looks: Looks, caplog: pytest.LogCaptureFixture) -> None:
    """A kept game whose table was deleted, or whose game row is gone, cannot be analysed: a look
    passes it over with one warning (no error at every look), queues the others, and the mark goes
    once what is left is solved."""
    x = looks
    state, tables = _jass_tournament(x, "cup", "passe", 3)
    for number, table in enumerate(tables):
        _play(x, table, state)
        _kept(x, "cup", number)
    seen = x.tournament_store.load("cup")
    assert seen is not None
    x.tournament_store.advance("cup", seen.rev, time.time(), finish=1, status="over", analyse=True)
    deleted, no_game, kept = tables
    x.store.delete_table(deleted)
    with x.store.sessions.begin() as s:
        s.execute(delete(GameRow).where(GameRow.table_id == no_game))

    async def go() -> None:
        with caplog.at_level("INFO", logger="stichkit.server"):
            await x.look()
            assert list(x.analyses.jobs) == [(kept, 1)]
            assert [tid for tid, _ in x.tournament_store.analyses_due()] == ["cup"]
            x.go.set()
            await _solved(x, (kept, 1))
            await x.look()
            assert x.tournament_store.analyses_due() == []
        errors = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
        warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert errors == [] and len(warned) == 2, (errors, warned)
        assert any(deleted in w for w in warned) and any(no_game in w for w in warned)

    run(go())


def test_a_tournament_of_only_deleted_games_is_unmarked_with_one_warning(
    looks: Looks, caplog: pytest.LogCaptureFixture
) -> None:
    """Every kept game's table deleted: nothing is left to analyse, so the first look takes the
    mark away, warned about once, and later looks do not read the tournament again."""
    x = looks
    state, (table,) = _jass_tournament(x, "cup", "passe", 1)
    _play(x, table, state)
    _kept(x, "cup", 0)
    seen = x.tournament_store.load("cup")
    assert seen is not None
    x.tournament_store.advance("cup", seen.rev, time.time(), finish=1, status="over", analyse=True)
    x.store.delete_table(table)

    async def go() -> None:
        with caplog.at_level("INFO", logger="stichkit.server"):
            for _ in range(3):
                await x.look()
        assert x.tournament_store.analyses_due() == [] and x.analyses.jobs == {}
        assert [r.levelname for r in caplog.records] == ["WARNING"], [r.getMessage() for r in caplog.records]

    run(go())
