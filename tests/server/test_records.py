"""A finished game comes out of the database one way, whoever asks: the table's restore, its
record, its replay. A game stored before one of its options existed is rebuilt as it was dealt,
by the record and the replay as by the table itself."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import stichkit

from .harness import Server, postgres_database
from .stored_games import store_game

# A 3-player Stich-Meister game written by stichkit before 2026-11-22, when the 3-player deck
# always left four trump rules out and no option named it (tests/stichmeister/test_review.py).
PINNED = Path(__file__).parents[1] / "stichmeister" / "record_3p_2026-11-22.json"


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'records.db'}"
    else:
        with postgres_database() as url:
            yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_stored_before_an_option_existed_has_its_record_and_replay(kind: str, tmp_path: Path) -> None:
    pinned = json.loads(PINNED.read_text())
    assert "prune_trump_rules" not in pinned["options"]
    game = stichkit.replay(pinned)  # dealt from the pruned deck, as it was played
    assert game.is_terminal()
    with database(kind, tmp_path) as db:
        store_game(db, "oldmeister", game, pinned["seed"], options=pinned["options"])
        server = Server(db, tmp_path / "server.log", "--bot-delay", "0").start()
        try:
            info = server.get("/api/tables/oldmeister").json()  # the table, restored
            assert info["status"] == "over" and info["options"]["prune_trump_rules"] is True
            record = server.get("/api/tables/oldmeister/record")
            assert record.status_code == 200, record.text
            assert record.json()["options"]["prune_trump_rules"] is True
            assert record.json()["moves"] == pinned["moves"]
            assert stichkit.replay(record.json()).record() == game.record()
            replay = server.get("/api/tables/oldmeister/replay")
            assert replay.status_code == 200, replay.text
            frames = replay.json()["frames"]
            assert len(frames) == len(game.history()) + 1
            assert frames[-1]["view"] == game.view(None)
            assert frames[-1]["hands"] == [game.view(s)["hand"] for s in range(game.game.num_players)]
            games = server.get("/api/tables/oldmeister/games").json()["games"]
            assert [(g["game_no"], g["status"], g["result"]) for g in games] == [
                (1, "over", {"scores": game.scores(), "winners": game.winners()})
            ]
        finally:
            server.stop()
