"""No message holds what its reader may not see, checked over the wire.

Whole games of every game at every player count, with a client on every seat (each played by a
bot choosing from the view it was sent) and a spectator. Afterwards the public record is
replayed, and every message is compared with the engine: each `state` carries exactly
`view(seat)` (spectators `view(None)`) and the right legal actions, every version arrives in
order, and nothing the server adds beside the view (table info, chat, errors) holds a card from
another seat's hand or any action's text.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

import stichkit
from stichkit import bots

from .harness import Client, Server, run

CONFIGS = [
    ("jass", {"target": 400}),
    ("differenzler", {"deals": 1}),  # hidden predictions: no message shows one before the deal ends
    *[("stichwahl", {"players": p, "target": 15}) for p in (2, 3, 4)],
    *[("stichling", {"players": p}) for p in (2, 3, 4, 5)],
    *[("stichmeister", {"players": p}) for p in (3, 4, 5)],
]
CHAT = "gut gespielt"
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil"]


async def play_seat(c: Client, seat: int, bot: bots.Bot, rng: random.Random) -> None:
    """Play every turn of `seat` with `bot`; now and then try something illegal, or chat."""
    while True:
        m = await c.recv(60)
        if m["type"] != "state":
            continue
        if m["table"]["status"] == "over":
            return
        if not m["legal"]:
            continue
        assert m["seat"] == seat and m["view"]["current_player"] == seat
        if rng.random() < 0.05:  # a card of the hand that may not be played now, else no action at all
            wrong = sorted(set(m["view"]["hand"]) - set(m["legal"])) or ["nonsense"]
            attempt = rng.choice(wrong)
            await c.send({"type": "act", "action": attempt, "version": m["version"], "id": "bad"})
            err = await c.until(lambda x: x["type"] == "error")
            assert err["code"] == "illegal" and err["ref"] == "bad"
            err["attempt"] = (m["version"], attempt)
        if rng.random() < 0.02:
            await c.send({"type": "chat", "text": CHAT})
        action = bot.choose(m["view"], seat).text
        await c.send({"type": "act", "action": action, "version": m["version"]})


async def watch(c: Client) -> None:
    await c.until(lambda m: m["type"] == "state" and m["table"]["status"] == "over", 120)


async def play_game(
    server: Server, game: str, options: dict[str, Any], seed: int
) -> tuple[list[Client], dict[str, Any]]:
    n = options.get("players", 4)
    t = server.open_table(game, ["human"] * n, options=options, name=f"views {game} {n}")
    tokens = [server.join(t["id"], NAMES[i])["token"] for i in range(n)]
    rng = random.Random(seed)
    spectator = await Client.open(server, t["id"])
    players = [await Client.open(server, t["id"], tok, label=f"seat {i}") for i, tok in enumerate(tokens)]
    kinds = ["heuristic" if rng.random() < 0.5 else "random" for _ in range(n)]
    await asyncio.gather(
        watch(spectator),
        *[
            play_seat(c, i, bots.make(kinds[i], seed=seed + i), random.Random(seed * 7 + i))
            for i, c in enumerate(players)
        ],
    )
    await asyncio.sleep(0.2)  # the last table messages
    clients = [*players, spectator]
    for c in clients:
        await c.close()
    r = server.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 200, r.text
    return clients, r.json()


def strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in (*strings(k), *strings(v))]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def engine_refusal(record: dict[str, Any], version: int, action: str) -> str:
    state = stichkit.load_game(record["game"], **record["options"]).new_state(seed=record["seed"])
    for m in [m for m in record["moves"] if "action" in m][:version]:
        state.apply(m["action"])
    with pytest.raises(stichkit.IllegalActionError) as e:
        state.apply(action)
    return str(e.value)


def check_client(c: Client, seat: int | None, frames: list[dict[str | int | None, Any]], actions: set[str],
                 record: dict[str, Any]) -> None:  # fmt: skip
    states = c.states()
    assert states, c.label
    first = states[0]["version"]
    assert [m["version"] for m in states] == list(range(first, first + len(states))), f"{c.label}: versions skipped"
    assert states[-1]["version"] == len(frames) - 1
    version = first
    for m in c.msgs:
        if m["type"] == "state":
            version = m["version"]
            frame = frames[version]
            assert m["seat"] == seat
            assert m["view"] == frame[seat], f"{c.label} at version {version}: the view is not the engine's"
            assert sorted(m["legal"]) == sorted(frame["legal"] if frame["turn"] == seat else [])
            extra = {k: v for k, v in m.items() if k not in ("view", "legal")}  # both checked above
        else:
            extra = m
        if m["type"] == "error":  # exactly the engine's words for the client's own action
            v, attempt = m.pop("attempt")
            assert m["reason"] == engine_refusal(record, v, attempt), m
            continue
        hidden = frames[version]["hidden"][seat]
        if version + 1 < len(frames):  # a message between versions may already belong to the next one
            hidden = hidden | frames[version + 1]["hidden"][seat]
        for text in strings(extra):
            if m["type"] == "chat" and text == CHAT:
                continue
            words = set(re.findall(r"[A-Za-z0-9]+", text))
            assert not words & hidden, f"{c.label} at version {version}: {text!r} shows a hidden card"
            assert text not in actions, f"{c.label} at version {version}: {text!r} is an action's text"


def engine_frames(record: dict[str, Any]) -> tuple[list[dict[str | int | None, Any]], set[str]]:
    """For every version: each seat's and the spectator's view, the legal actions, and per seat
    the cards it may not see (those in other hands that its own view does not show)."""
    game = stichkit.load_game(record["game"], **record["options"])
    state = game.new_state(seed=record["seed"])
    n = game.num_players
    decisions = [m for m in record["moves"] if "action" in m]
    frames: list[dict[str | int | None, Any]] = []

    def frame() -> dict[str | int | None, Any]:
        views: dict[str | int | None, Any] = {s: state.view(s) for s in (None, *range(n))}
        hands = [views[s]["hand"] for s in range(n)]
        hidden: dict[int | None, set[str]] = {}
        for s in (None, *range(n)):
            seen = json.dumps(views[s])
            hidden[s] = {card for o in range(n) if o != s for card in hands[o] if f'"{card}"' not in seen}
        return {**views, "legal": [a.text for a in state.legal_actions()], "turn": state.current_player,
                "hidden": hidden}  # fmt: skip

    frames.append(frame())
    for m in decisions:
        state.apply(m["action"])
        frames.append(frame())
    assert state.is_terminal()
    return frames, {a.text for a in game.actions}


Played = dict[int, tuple[list[Client], dict[str, Any]]]


@pytest.fixture(scope="module")
def played(server: Server) -> Played:
    """Every configuration's game, all at once (each table waits mostly on the network)."""

    async def all_games() -> list[tuple[list[Client], dict[str, Any]]]:
        return await asyncio.gather(*[play_game(server, g, o, 1000 + i) for i, (g, o) in enumerate(CONFIGS)])

    return dict(enumerate(run(all_games())))


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=[f"{g}-{o.get('players', 4)}" for g, o in CONFIGS])
def test_every_message_is_built_from_the_readers_view(played: Played, config: int) -> None:
    clients, record = played[config]
    assert stichkit.replay(record).is_terminal()
    frames, actions = engine_frames(record)
    n = len(clients) - 1
    for seat, c in enumerate(clients):
        check_client(c, None if seat == n else seat, frames, actions, record)
    errors = [m for c in clients for m in c.msgs if m["type"] == "error"]
    assert all(m["code"] == "illegal" and m["reason"] for m in errors)
