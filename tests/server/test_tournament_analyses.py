"""A Jass tournament's analyses are queued by the server itself (tournament_analyses.py): after a
small tournament of bots ends, its games are solved in the background, and its table of points
lost per card holds every entrant, with no game solved twice across two processes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

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
