"""`stich serve-bot`'s protocol, in process (FastAPI's test client): routes, answers, every kind
of bad observation, and the time limit. The real-network run is test_serve_bot_arena.py."""

from __future__ import annotations

import copy
import random
import time
import warnings
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from jass.game.game_observation import GameObservation

import stichkit
from stichkit.arena import parse_bot
from stichkit.bots import registry
from stichkit.bots.base import Bot, View
from stichkit.interop.jasskit import IMPORT_OPTIONS, observation_from_view, position_from_observation
from stichkit.interop.jasskit.mapping import RANKS
from stichkit.interop.jasskit.server import Players, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette would rather see httpx2 than httpx here
    from fastapi.testclient import TestClient


class SleepyBot(Bot):
    """A bot that ignores every clock: only the server's deadline can save the caller."""

    name = "sleepy"
    PARAMS: ClassVar = ()

    def decide(self, view: View) -> str:
        time.sleep(3)
        return str(view["legal_actions"][0])


@pytest.fixture
def client() -> Iterator[tuple[TestClient, Players]]:
    players = Players({"heuristic": parse_bot("heuristic"), "ismcts": parse_bot("ismcts:iterations=30"),
                       "fast": parse_bot("random:seed=1")}, timeout=3, margin=0.2, seed=5)  # fmt: skip
    with TestClient(create_app(players)) as c:
        yield c, players
    players.close()


def observations(seed: int, deals: int = 3) -> list[dict[str, Any]]:
    """Observations of random deals, one per decision, as stichkit's remote bot would send them."""
    game = stichkit.load_game("jass", **IMPORT_OPTIONS)
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        state = game.new_state(seed=seed * 100 + d)
        while state.view(None)["deal_number"] == 0:
            seat = state.current_player
            out.append(observation_from_view(state.view(seat)))
            state.apply(rng.choice(state.legal_actions()))
    return out


def route(obs: dict[str, Any]) -> str:
    return "action_trump" if obs["trump"] < 0 else "action_play_card"


def test_health_and_index(client: tuple[TestClient, Players]) -> None:
    c, _ = client
    assert c.get("/heuristic").json() == "Player heuristic here"
    r = c.get("/nobody")
    assert r.status_code == 404 and r.json() == "No such player nobody"
    info = c.get("/").json()
    assert info["players"] == {"heuristic": "heuristic", "ismcts": "ismcts:iterations=30", "fast": "random:seed=1"}
    assert info["protocol"] == "jass-kit remote player" and info["timeout"] == 3


def test_every_answer_is_legal_and_jasskit_reads_our_observations(client: tuple[TestClient, Players]) -> None:
    """Each answer is one of the moves the rules allow (jass-kit's reading), and each observation
    stichkit builds is one jass-kit's own parser reads back to the same JSON."""
    c, _ = client
    for i, obs in enumerate(observations(1)):
        assert GameObservation.from_json(obs).to_json() == {k: v for k, v in obs.items() if k != "gameId"}
        position = position_from_observation(obs)
        legal = {str(a) for a in position.state.legal_actions()}
        name = ("heuristic", "ismcts", "fast")[i % 3]
        r = c.post(f"/{name}/{route(obs)}", json=obs)
        assert r.status_code == 200, r.json()
        answer = r.json()
        if obs["trump"] < 0:
            code = answer["trump"]
            text = "push" if code == 10 else "trump:" + ("D", "H", "S", "C", "obe", "une")[code]
            assert text in legal
        else:
            assert answer["card"] in legal


def test_game_info_is_checked_not_answered(client: tuple[TestClient, Players]) -> None:
    c, _ = client
    obs = observations(2, 1)[5]
    r = c.post("/heuristic/game_info", json=obs)
    assert r.status_code == 200 and r.json() == ""
    r = c.post("/heuristic/game_info", json={"dealer": 9})
    assert r.status_code == 400 and "dealer" in r.json()["error"]
    assert c.post("/nobody/game_info", json=obs).status_code == 404


def _bad(obs: dict[str, Any], change: Any) -> dict[str, Any]:
    new = copy.deepcopy(obs)
    change(new)
    return new


def _set(key: str, value: Any) -> Any:
    return lambda o: o.__setitem__(key, value)


def _trick(i: int, key: str, value: Any) -> Any:
    return lambda o: o["tricks"][i].__setitem__(key, value)


def _hand(seat: int, cards: list[str]) -> Any:
    return lambda o: o["player"][seat].__setitem__("hand", cards)


def _mid_deal() -> dict[str, Any]:
    """An observation in the third trick, second card, of a deal with Obenabe."""
    for obs in observations(4, 6):
        if obs["trump"] >= 0 and len(obs["tricks"]) == 3 and len(obs["tricks"][2].get("cards", [])) == 1:
            return obs
    raise AssertionError("no such observation")


MID = _mid_deal()
SEAT = MID["playerView"]
HAND = MID["player"][SEAT]["hand"]
FIRST = MID["tricks"][0]
# (what is wrong, the change, the HTTP status, words the reason must contain)
BAD: list[tuple[str, Any, int, str]] = [
    ("not an object", lambda o: o.clear() or o.__setitem__("x", 1), 400, "playerView"),
    ("version", _set("version", "V0.1"), 400, "version"),
    ("game type", _set("jassTyp", "HEARTS"), 400, "Schieber"),
    ("dealer", _set("dealer", 4), 400, "dealer"),
    ("dealer type", _set("dealer", "0"), 400, "dealer"),
    ("trump code", _set("trump", 7), 400, "trump"),
    ("player view", _set("playerView", 5), 400, "playerView"),
    ("tricks not a list", _set("tricks", {}), 400, "tricks"),
    ("unknown card", _trick(0, "cards", ["DA", "ZZ", "H6", "H7"]), 400, "'ZZ' is not a jass-kit card"),
    ("five cards", _trick(0, "cards", [*FIRST["cards"], "S6"]), 400, "a trick has 4"),
    ("first missing", lambda o: o["tricks"][0].pop("first"), 400, "first"),
    ("hands list", _set("player", [{"hand": []}] * 3), 400, "player"),
    ("current player missing", _set("currentPlayer", -1), 400, "currentPlayer"),
    ("not my turn", _set("currentPlayer", (SEAT + 1) % 4), 422, "turn"),
    ("other hand shown", _hand((SEAT + 1) % 4, ["DA"]), 422, "only its own hand"),
    ("card played twice", _trick(1, "cards", FIRST["cards"]), 422, "twice"),
    ("held and played", _hand(SEAT, [*HAND[:-1], FIRST["cards"][0]]), 422, "played"),
    ("hand too small", _hand(SEAT, HAND[:-1]), 422, "holds"),
    ("wrong winner", _trick(0, "win", (FIRST["win"] + 1) % 4), 422, "the rules give"),
    ("wrong points", _trick(0, "points", FIRST["points"] + 1), 422, "points"),
    ("wrong leader", _trick(1, "first", (MID["tricks"][1]["first"] + 1) % 4), 422, "turn"),
    ("cards before trump", _set("trump", -1) , 400, "no trump"),
]  # fmt: skip


@pytest.mark.parametrize("what, change, status, words", BAD, ids=[b[0] for b in BAD])
def test_bad_observations_get_a_reason(
    client: tuple[TestClient, Players], what: str, change: Any, status: int, words: str
) -> None:
    c, players = client
    refused = players.counters.refused
    r = c.post("/heuristic/action_play_card", json=_bad(MID, change))
    assert r.status_code == status, (what, r.json())
    assert words in r.json()["error"], (what, r.json())
    assert players.counters.refused == refused + 1


def test_no_json_wrong_route_and_unknown_player(client: tuple[TestClient, Players]) -> None:
    c, _ = client
    r = c.post("/heuristic/action_play_card", content=b"not json")
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = c.post("/heuristic/action_trump", json=MID)
    assert r.status_code == 422 and "action_play_card" in r.json()["error"]
    assert c.post("/nobody/action_play_card", json=MID).status_code == 404


def test_a_hand_that_contradicts_its_own_play_is_refused(client: tuple[TestClient, Players]) -> None:
    """The player discarded instead of following suit, yet its hand holds that suit: impossible."""
    c, _ = client
    obs = next(bad for o in observations(9, 8) if (bad := _holds_a_suit_it_did_not_follow(o)) is not None)
    r = c.post(f"/heuristic/{route(obs)}", json=obs)
    assert r.status_code == 422 and "must follow" in r.json()["error"], r.json()


def _holds_a_suit_it_did_not_follow(obs: dict[str, Any]) -> dict[str, Any] | None:
    seat, trump = obs["playerView"], obs["trump"]
    trump_suit = "DHSC"[trump] if 0 <= trump < 4 else ""
    hand = obs["player"][seat]["hand"]
    played = {c for t in obs["tricks"] for c in t.get("cards", [])}
    for t in obs["tricks"]:
        cards = t.get("cards", [])
        k = (t["first"] - seat) % 4
        if len(cards) == 4 and k > 0 and cards[k][0] not in (cards[0][0], trump_suit) and hand:
            unseen = [s + r for s in cards[0][0] for r in RANKS if s + r not in played and s + r not in hand]
            if unseen:
                bad = copy.deepcopy(obs)
                bad["player"][seat]["hand"] = [*hand[:-1], unseen[0]]
                return bad
    return None


def timed_answer(players: Players, name: str, obs: dict[str, Any]) -> tuple[Any, float]:
    with TestClient(create_app(players)) as c:
        start = time.monotonic()
        r = c.post(f"/{name}/{route(obs)}", json=obs)
        took = time.monotonic() - start
    players.close()
    return r, took


def test_the_answer_comes_within_the_timeout() -> None:
    """ismcts asked for 5 s per move: the server cuts its clock to the budget (timeout - margin)."""
    players = Players({"slow": parse_bot("ismcts:time=5")}, timeout=1.0, margin=0.3)
    r, took = timed_answer(players, "slow", observations(3, 1)[8])
    assert r.status_code == 200 and took < 1.0, took
    assert players.counters.late == 0


def test_a_bot_that_misses_the_deadline_is_answered_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot without a clock that takes too long: the heuristic answers at the deadline."""
    monkeypatch.setitem(registry._BOTS, "sleepy", SleepyBot)
    players = Players({"sleepy": parse_bot("sleepy")}, timeout=0.8, margin=0.2)
    obs = observations(3, 1)[8]
    r, took = timed_answer(players, "sleepy", obs)
    assert r.status_code == 200 and took < 0.8, took
    assert players.counters.late == 1
    legal = {str(a) for a in position_from_observation(obs).state.legal_actions()}
    assert r.json()["card"] in legal


def test_same_observation_same_answer() -> None:
    """With --seed, a served search bot answers an observation the same way every time."""
    players = Players({"ismcts": parse_bot("ismcts:iterations=50")}, timeout=5, seed=3)
    obs = observations(6, 1)[12]
    answers = {players.answer("ismcts", route(obs), obs)["card"] for _ in range(3)}
    players.close()
    assert len(answers) == 1


def test_players_reject_bad_settings() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Players({})
    with pytest.raises(ValueError, match="longer than the margin"):
        Players({"h": parse_bot("heuristic")}, timeout=0.2, margin=0.5)


def test_pimc_the_strongest_jass_bot_can_be_served() -> None:
    """pimc solves sampled deals: it plays from the full position serve-bot builds from the
    observation, like every search bot (trump choices and cards alike)."""
    players = Players({"master": parse_bot("pimc:time=0.1")}, timeout=3, margin=0.2, seed=5)
    try:
        with TestClient(create_app(players)) as c:
            obs = observations(4, deals=1)
            for o in [obs[0], *obs[len(obs) // 2 :: 7]]:
                legal = {str(a) for a in position_from_observation(o).state.legal_actions()}
                r = c.post(f"/master/{route(o)}", json=o)
                assert r.status_code == 200, r.json()
                answer = r.json()
                if o["trump"] < 0:
                    code = answer["trump"]
                    assert ("push" if code == 10 else "trump:" + ("D", "H", "S", "C", "obe", "une")[code]) in legal
                else:
                    assert answer["card"] in legal
            assert c.get("/").json()["late"] == 0
    finally:
        players.close()
