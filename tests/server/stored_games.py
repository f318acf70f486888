"""Finished games written straight into a server's database, with a deal the test chooses: a
real server then serves them (records, replays, analyses) as games it played itself."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import update

import stichkit
from stichkit.core import State
from stichkit.server.db import migrate
from stichkit.server.db.engine import make_engine, parse_db_url
from stichkit.server.db.models import GameRow
from stichkit.server.db.store import Move, Store
from stichkit.server.model import Seat, StoredAction, StoredTable

SETTINGS = {"takeover": "hand", "grace": 60.0, "takeover_bot": "bot:heuristic", "move_time": None, "hints": True}


def played(
    game: str, options: dict[str, Any], seed: int, prefer: tuple[str, ...] = (), moves: int | None = None
) -> State:
    """The game from `seed`, each decision the first of `prefer` that is legal, else the first legal
    action, until the end (or `moves` decisions)."""
    state = stichkit.load_game(game, **options).new_state(seed=seed)
    while not state.is_terminal() and (moves is None or len(state.history()) < moves):
        legal = state.legal_actions()
        state.apply(next((a for a in legal if a.text in prefer), legal[0]))
    return state


def store_game(db: str, table_id: str, state: State, seed: int, takebacks: list[int] | None = None,
               options: dict[str, Any] | None = None) -> None:  # fmt: skip
    """Write the table and its game as `stich serve` would have: bots in every seat, each action
    a stored move, the game over when `state` is; `takebacks` counted per seat as given;
    `options` as an older server wrote them (default: the game's)."""
    engine = make_engine(parse_db_url(db))
    try:
        migrate.upgrade(engine)
        store = Store(engine)
        now = time.time()
        n = state.game.num_players
        written = dict(state.game.options if options is None else options)
        store.create_table(StoredTable(
            id=table_id, name=table_id, game=state.game.name, options=written, private=False,
            settings=SETTINGS, status="playing", game_no=1, rev=1, created_at=now, updated_at=now,
            seats=[Seat("bot", bot="random", name="random") for _ in range(n)], seed=seed, started_at=now,
        ))  # fmt: skip
        history = state.history()
        for v, (seat, action) in enumerate(history, 1):
            result = None
            if v == len(history) and state.is_terminal():
                result = {"scores": state.scores(), "winners": state.winners()}
            move = Move(table_id, 1, StoredAction(v, seat, action.text, "bot", now), 0, result)
            assert store.append_moves([move]) == [None]
        if takebacks is not None:
            with store.sessions.begin() as s:
                s.execute(update(GameRow).where(GameRow.table_id == table_id).values(takebacks=takebacks))
    finally:
        engine.dispose()


def store_copies(db: str, table_ids: list[str], state: State, seed: int) -> None:
    """The same finished game at each of `table_ids`, as store_game writes it, each table's moves in
    one transaction (many long games, quickly)."""
    engine = make_engine(parse_db_url(db))
    try:
        migrate.upgrade(engine)
        store = Store(engine)
        now = time.time()
        n = state.game.num_players
        history = state.history()
        result = {"scores": state.scores(), "winners": state.winners()}
        for table_id in table_ids:
            store.create_table(StoredTable(
                id=table_id, name=table_id, game=state.game.name, options=dict(state.game.options), private=False,
                settings=SETTINGS, status="playing", game_no=1, rev=1, created_at=now, updated_at=now,
                seats=[Seat("bot", bot="random", name="random") for _ in range(n)], seed=seed, started_at=now,
            ))  # fmt: skip
            moves = [Move(table_id, 1, StoredAction(v, seat, action.text, "bot", now), 0,
                          result if v == len(history) else None)
                     for v, (seat, action) in enumerate(history, 1)]  # fmt: skip
            assert store.append_moves(moves) == [None] * len(moves)
    finally:
        engine.dispose()
