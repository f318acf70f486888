"""A Jass tournament's analyses are queued by the server itself (tournament_analyses.py): after a
small tournament of bots ends, its games are solved in the background, and its table of points
lost per card holds every entrant, with no game solved twice across two processes. The games
still to analyse are marked in the database: a server started again goes on with them although
nobody opens the tournament."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.store import Store

from .harness import Server, postgres_database, wait_until
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
