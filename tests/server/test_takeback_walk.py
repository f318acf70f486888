"""Takebacks in every game, as a property: a player alone with random bots plays and takes moves
back at random; two players with bots ask for takebacks and answer them at random. After each
takeback every player sees exactly what it saw at that version before; at the end the database
holds the game the table shows (the actions stored, replayed from the seed, give the same
position), and the game's record replays to it."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stichkit
from stichkit.server.hub import Hub
from stichkit.server.table import LiveTable

from .harness import run
from .inprocess import Listener, running

GAMES = ["jass", "differenzler", "stichwahl", "stichling", "stichmeister"]


async def database_holds_the_game(hub: Hub, t: LiveTable) -> None:
    """The stored actions, replayed from the seed, give the table's game; so does its record."""
    async with t.lock:
        stored = await hub.db(hub.store.load_table, t.id)
        assert stored is not None and (stored.line, len(stored.actions)) == (t.line, t.version)
        again = t.game.new_state(seed=stored.seed)
        for a in stored.actions:
            again.apply(a.action)
        assert again == t.state
        assert stichkit.replay(t.state.record()) == t.state


async def walk(tmp_path: Path, game: str, seed: int, steps: int = 40) -> None:
    n = stichkit.load_game(game).num_players
    seats = ("human", *["bot:random"] * (n - 1))
    rng = random.Random(seed)
    async with running(tmp_path, game=game, seats=seats, bot_delay=0.0) as (hub, t):
        await hub.join(t, "Ida", 0)
        me = Listener(0)
        seen: list[object] = []  # what seat 0 saw at each version of the line in play
        takebacks = 0
        for _ in range(steps):
            deadline = time.time() + 20
            while True:  # the bots' moves, until it is my turn or the game is over
                async with t.lock:
                    turn, version, legal, over = t.turn, t.version, t.legal_for(0), t.status == "over"
                    view = t.state.view(0)
                if over or (turn == 0 and legal):
                    break
                assert time.time() < deadline, "the bots did not move"
                await asyncio.sleep(0.005)
            del seen[version:]
            seen.extend([None] * (version + 1 - len(seen)))
            seen[version] = view
            if over:
                break
            if rng.random() < 0.3 and t.takeback_to(0) is not None:
                await hub.take_back(t, me, version, t.game_no, None)  # type: ignore[arg-type]
                takebacks += 1
                assert t.line == takebacks and t.last is not None and t.last["by"] == "takeback"
                # back to a turn of mine on this line, whose view was kept then
                assert seen[t.version] is not None
                assert t.state.view(0) == seen[t.version], "a takeback did not restore the earlier position"
            else:
                await hub.act(t, me, rng.choice(legal), version, None, None)  # type: ignore[arg-type]
        assert not [m for m in me.sent if m["type"] == "error"], me.sent
        await database_holds_the_game(hub, t)


async def walk_with_two(tmp_path: Path, game: str, seed: int, steps: int = 40) -> None:
    n = stichkit.load_game(game).num_players
    humans = (0, n // 2)  # partners in Jass, opponents elsewhere
    seats = tuple("human" if i in humans else "bot:random" for i in range(n))
    rng = random.Random(seed)
    async with running(tmp_path, game=game, seats=seats, bot_delay=0.0) as (hub, t):
        players = {h: Listener(h) for h in humans}
        for h in humans:
            await hub.join(t, f"P{h}", h)
        seen: dict[int, list[object]] = {h: [] for h in humans}  # what each saw at each version of the line
        takebacks = 0
        for _ in range(steps):
            deadline = time.time() + 20
            while True:
                async with t.lock:
                    turn, version, over = t.turn, t.version, t.status == "over"
                    views = {h: t.state.view(h) for h in humans}
                if over or turn in humans:
                    break
                assert time.time() < deadline, "the bots did not move"
                await asyncio.sleep(0.005)
            for h in humans:
                del seen[h][version:]
                seen[h].extend([None] * (version + 1 - len(seen[h])))
                seen[h][version] = views[h]
            if over:
                break
            r = t.open_takeback()
            askers = [h for h in humans if t.takeback_to(h) is not None]
            if r is not None and rng.random() < 0.6:
                voter = next(h for h in humans if h != r.seat)
                accept = rng.random() < 0.7
                await hub.answer_takeback(t, players[voter], accept, None)  # type: ignore[arg-type]
                if accept:
                    takebacks += 1
                    assert t.line == takebacks and t.version == r.to and t.open_takeback() is None
                    for h in humans:
                        assert t.state.view(h) == seen[h][t.version], "a takeback did not restore the earlier position"
                else:
                    assert t.version == version and t.takeback_info()["declined"] == voter  # type: ignore[index]
            elif r is None and askers and rng.random() < 0.3:
                asker = rng.choice(askers)
                await hub.take_back(t, players[asker], version, t.game_no, None)  # type: ignore[arg-type]
                assert t.version == version and t.takeback_info()["seat"] == asker  # type: ignore[index]
            else:
                assert turn is not None
                legal = t.legal_for(turn)
                await hub.act(t, players[turn], rng.choice(legal), version, None, None)  # type: ignore[arg-type]
        for p in players.values():
            assert not [m for m in p.sent if m["type"] == "error"], p.sent
        await database_holds_the_game(hub, t)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_takebacks_keep_the_table_and_its_database_in_step(game: str, seed: int, tmp_path: Path) -> None:
    run(walk(tmp_path, game, seed))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_takebacks_two_players_agree_to_keep_the_table_in_step(game: str, seed: int, tmp_path: Path) -> None:
    run(walk_with_two(tmp_path, game, seed))
