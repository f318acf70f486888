"""`remote:URL` seats: jass-kit's own player service (Flask, its random agent) at stichkit tables,
over loopback HTTP; and players that fail, whose seats play a counted fallback instead."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

import stichkit
from stichkit.arena import parse_bot, run_tournament, summarize
from stichkit.interop.jasskit import IMPORT_OPTIONS
from stichkit.interop.jasskit.mapping import CARDS

from .conftest import ThreadServer, run_cli

OPTIONS = ["profile=schieber", "weis=off", "stoeck=false", "undertrump=jass-kit"]


class Misbehaving:
    """A WSGI player service whose players fail on purpose: `late` answers after 1 s, `broken`
    answers 500, `nonsense` answers no card, `illegal` a card it does not hold. `seen` keeps
    every observation received."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        player, _, route = environ["PATH_INFO"].strip("/").partition("/")
        size = int(environ.get("CONTENT_LENGTH") or 0)
        obs = json.loads(environ["wsgi.input"].read(size) or b"{}")
        self.seen.append(obs)
        status, body = "200 OK", {}
        hand = obs["player"][obs["playerView"]]["hand"]
        if player == "late":
            time.sleep(1.0)
            body = {"trump": 0} if route == "action_trump" else {"card": hand[0]}
        elif player == "broken":
            status, body = "500 Internal Server Error", {"error": "no"}
        elif player == "nonsense":
            body = {"trump": 7} if route == "action_trump" else {"card": "joker"}
        elif player == "illegal":  # pushes (allowed only as forehand) and plays cards it does not hold
            body = {"trump": 10} if route == "action_trump" else {"card": sorted(CARDS - set(hand))[0]}
        data = json.dumps(body).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]


@pytest.fixture(scope="module")
def misbehaving() -> Iterator[tuple[ThreadServer, Misbehaving]]:
    app = Misbehaving()
    server = ThreadServer(app)
    try:
        yield server, app
    finally:
        server.stop()


def test_jasskit_agent_at_a_stichkit_tournament(jasskit_player: ThreadServer) -> None:
    """jass-kit's random agent, served by jass-kit's own player service, plays a duplicate
    tournament against stichkit's heuristic: every answer legal, no fallback."""
    remote = f"remote:{jasskit_player.url('random')}"
    seats = f"{remote},heuristic,{remote},heuristic"
    code, out = run_cli("tournament", "jass", *OPTIONS, "target=200", "--seats", seats, "--deals", "2", "--seed", "4",
                        "--json")  # fmt: skip
    assert code == 0, out
    res = json.loads(out)
    rows = {row["bot"]: row for row in res["bots"]}
    assert rows[remote]["fallbacks"] == 0 and rows["heuristic"]["fallbacks"] == 0
    assert rows[remote]["decisions"] > 0 and res["games"] == 4
    assert rows["heuristic"]["win_share"] > rows[remote]["win_share"]


def test_jasskit_agent_in_play_and_simulate(jasskit_player: ThreadServer) -> None:
    remote = f"remote:{jasskit_player.url('random')}:timeout=5"
    code, out = run_cli("simulate", "jass", *OPTIONS, "target=200", "--games", "2", "--seats",
                        f"heuristic,{remote},random,{remote}", "--seed", "1", "--json")  # fmt: skip
    assert code == 0, out
    assert json.loads(out)["seats"][1] == remote
    code, out = run_cli("play", "jass", *OPTIONS, "target=100", "--seats", f"random,{remote},random,heuristic",
                        "--seed", "2", "--delay", "0")  # fmt: skip
    assert code == 0, out
    assert "Game over" in out, out[-500:]


def test_the_remote_player_sees_only_its_seat(misbehaving: tuple[ThreadServer, Misbehaving]) -> None:
    """Every observation sent holds the asking seat's hand and the cards played: nothing else."""
    server, app = misbehaving
    app.seen.clear()
    game = stichkit.load_game("jass", **IMPORT_OPTIONS)
    state = game.new_state(seed=8)
    bot = stichkit.bots.make("remote", url=server.url("nonsense"), seed=1)
    while state.view(None)["deal_number"] == 0:
        seat = state.current_player
        assert seat is not None
        before = len(app.seen)
        action = bot.choose(state, seat) if seat == 1 else state.legal_actions()[0]
        if seat == 1:
            obs = app.seen[before]
            assert obs["playerView"] == seat == obs["currentPlayer"]
            assert [len(p["hand"]) for s, p in enumerate(obs["player"]) if s != seat] == [0, 0, 0]
            assert sorted(obs["player"][seat]["hand"]) == sorted(state.view(seat)["hand"])
            played = {c for t in obs["tricks"] for c in t.get("cards", [])}
            assert played == {c for t in state.view(None)["tricks"] for c in t["cards"]} | {
                e["card"] for e in state.view(None)["trick"]
            }
        state.apply(action)
    assert bot.fallbacks == {"timeout": 0, "error": bot.requests, "illegal": 0}


@pytest.mark.parametrize(
    "player, kind", [("late", "timeout"), ("broken", "error"), ("nonsense", "error"), ("illegal", "illegal")]
)
def test_failing_players_fall_back_and_are_counted(
    misbehaving: tuple[ThreadServer, Misbehaving], player: str, kind: str
) -> None:
    server, _ = misbehaving
    game = stichkit.load_game("jass", **IMPORT_OPTIONS, target=20 if kind == "timeout" else 60)
    spec = parse_bot(f"remote:{server.url(player)}:timeout=0.3")
    specs = [spec, parse_bot("heuristic"), parse_bot("random"), parse_bot("heuristic")]
    results = run_tournament(game, specs, 1, seed=3)
    remote_seats = [r.players.index(spec.label) for r in results]
    falls = [r.fallbacks[s] for r, s in zip(results, remote_seats, strict=True)]
    decisions = [r.decisions[s] for r, s in zip(results, remote_seats, strict=True)]
    if kind == "illegal":  # it names trump legally when it may; its cards are all refused
        assert 0 < sum(falls) <= sum(decisions)
    else:
        assert falls == decisions and sum(falls) > 0
    row = next(r for r in summarize(game, specs, 1, 3, results, with_ratings=False)["bots"] if r["bot"] == spec.label)
    assert row["fallbacks"] == sum(falls)


def test_tournament_prints_the_fallbacks(misbehaving: tuple[ThreadServer, Misbehaving], tmp_path: Any) -> None:
    server, _ = misbehaving
    remote = f"remote:{server.url('broken')}"
    code, out = run_cli("tournament", "jass", *OPTIONS, "target=100", "--seats", f"{remote},random,random,random",
                        "--deals", "1", "--seed", "1", "--records", str(tmp_path))  # fmt: skip
    assert code == 0, out
    assert f"fallback moves (the bot failed to answer; a legal fallback was played): {remote}" in out
    records = [json.loads(f.read_text()) for f in tmp_path.glob("jass-*.json")]
    total = sum(sum(r["arena"]["fallbacks"]) for r in records)
    assert len(records) == 4 and total > 0
    # resumed from the records, the count is read back
    code, again = run_cli("tournament", "jass", *OPTIONS, "target=100", "--seats", f"{remote},random,random,random",
                          "--deals", "1", "--seed", "1", "--records", str(tmp_path), "--resume", "--json")  # fmt: skip
    assert code == 0
    row = next(r for r in json.loads(again)["bots"] if r["bot"] == remote)
    assert row["fallbacks"] == total


def test_play_says_when_a_remote_player_fails(misbehaving: tuple[ThreadServer, Misbehaving]) -> None:
    server, _ = misbehaving
    seats = f"random,remote:{server.url('broken')},random,random"
    code, out = run_cli("play", "jass", *OPTIONS, "target=50", "--seats", seats, "--seed", "2", "--delay", "0")
    assert code == 0, out
    assert f"Seat 1: {server.url('broken')}: HTTPStatusError" in out and "a fallback move is played" in out


def test_remote_spec_errors() -> None:
    code, out = run_cli("simulate", "jass", "--games", "1", "--seats", "remote,random,random,random")
    assert code == 2 and "remote:URL" in out
    code, out = run_cli("simulate", "jass", "--games", "1", "--seats", "remote:ftp://x,random,random,random")
    assert code == 2 and "http://" in out
    code, out = run_cli(
        "simulate", "jass", "--games", "1", "--seats", "remote:http://h:1/p:timeout=-1,random,random,random"
    )
    assert code == 2 and "timeout" in out
    with pytest.raises(stichkit.OptionError, match="needs the player's address"):
        stichkit.bots.make("remote")


def test_a_remote_player_is_refused_at_games_other_than_jass() -> None:
    """jass-kit's protocol knows only Jass: another game refuses the seat before any move."""
    url = "remote:http://127.0.0.1:9/nobody"
    for command in (["simulate", "stichwahl", "--games", "1"], ["tournament", "stichling", "--deals", "1"]):
        code, out = run_cli(*command, "--seats", f"{url},random,random,random")
        assert code == 2 and "plays only jass" in out, out
    code, out = run_cli("play", "stichmeister", "--seats", f"human,{url},random,random", "--delay", "0")
    assert code == 2 and "plays only jass" in out, out
    with pytest.raises(stichkit.OptionError, match="plays only jass"):
        parse_bot(url, "stichwahl")
    assert parse_bot(url, "jass").name == "remote"


def test_an_unreachable_player_is_an_error_fallback() -> None:
    """Nothing listens there: every move is the fallback's, and the game goes on."""
    bot = stichkit.bots.make("remote", url="http://127.0.0.1:9/nobody", timeout=1, fallback="random", seed=2)
    state = stichkit.load_game("jass", **IMPORT_OPTIONS).new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    action = bot.choose(state, seat)
    assert action in state.legal_actions()
    assert bot.fallbacks["error"] == 1 and "127.0.0.1:9" in (bot.last_problem or "")
