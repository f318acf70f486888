"""The Stichling heuristic bot and terminal play."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest
from rich.console import Console

import stichkit
from stichkit.bots import make
from stichkit.bots.stichling_heuristic import choose_order, expected_tricks, wanted_tricks
from stichkit.cli.main import main
from stichkit.cli.render import renderer_for

from .helpers import new


def play(players: int, bots: list[str], seed: int) -> list[int]:
    state = stichkit.load_game("stichling", players=players).new_state(seed=seed)
    seats = [make(b, seed=seed * 10 + i) for i, b in enumerate(bots)]
    while not state.is_terminal():
        p = state.current_player
        assert p is not None
        action = seats[p].choose(state, p)
        assert action in state.legal_actions()
        state.apply(action)
    return state.scores()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_plays_legal_whole_games(players: int) -> None:
    for seed in range(2):
        assert len(play(players, ["heuristic"] * players, seed)) == players


def test_heuristic_beats_random() -> None:
    totals = [0, 0]
    for seed in range(16):
        scores = play(4, ["heuristic", "random", "random", "random"], seed)
        totals[0] += scores[0]
        totals[1] += sum(scores[1:]) / 3
    assert totals[0] > totals[1] * 1.15


def test_heuristic_sees_nothing_hidden() -> None:
    """Redealing the hidden hands and tile orders never changes the heuristic's choice."""
    state = stichkit.load_game("stichling", players=4).new_state(seed=5)
    rng = random.Random(2)
    bot = make("heuristic")
    for step in range(60):
        seat = state.current_player
        assert seat is not None
        if step % 7 == 0:
            want = bot.choose(state, seat)
            for r in range(3):
                assert bot.choose(state.sample_hidden(seat, random.Random(r)), seat) == want
        state.apply(rng.choice(state.legal_actions()))


def view_with(hand: list[str], players: int = 4, **extra: Any) -> dict[str, Any]:
    return {"hand": hand, "players": players, "seat": 0, **extra}


def test_tile_order_follows_hand_strength() -> None:
    """The heuristic's tile order: the largest tile goes where the expected number of tricks lands."""
    weak = [c + str(v) for c in "GYPB" for v in (1, 2, 3)]
    assert expected_tricks(weak, 4) < 0.5
    assert choose_order(view_with(weak)).startswith("order:3")  # one trick (or none) expected
    middling = ["G12", "Y11", "P10", "B3", "G5", "Y4", "P2", "B1", "G3", "Y2", "P4", "B6"]
    assert 1.5 <= expected_tricks(middling, 4) < 2.5
    assert choose_order(view_with(middling))[7] == "3"  # the largest tile after the 2nd trick


def test_wanted_tricks_aims_at_the_largest_tile() -> None:
    view = view_with(["G1", "G2"], tile_order=[1, 3, 2], taken=[1, 0, 0, 0])
    assert wanted_tricks(view) == 1  # one more trick turns up the 3
    view["taken"] = [2, 0, 0, 0]
    assert wanted_tricks(view) == 0  # the 3 is face up: take no more


@pytest.mark.parametrize(("order", "want"), [("order:312", "Y1>2"), ("order:132", "Y12>2")])
def test_heuristic_takes_or_dodges_on_purpose(order: str, want: str) -> None:
    """After one trick: with the 3 face up (order 3-1-2) it fills another player's trick with its
    low yellow instead of taking it; wanting the 3 (order 1-3-2) it takes the trick with Y12."""
    fixed = {0: ["G12", "P1", "Y12", "Y1"], 1: ["G1", "Y5"], 2: ["G2", "Y6"], 3: ["G3", "Y7"]}
    state = new(4, fixed, orders=[order, "order:123", "order:123", "order:123"])
    for action in ["G12>new", "G1>1", "G2>1", "G3>1", "P1>new", "Y5>new", "Y6>2", "Y7>2"]:
        state.apply(action)
    assert state.view(0)["taken"][0] == 1
    assert str(make("heuristic").choose(state, 0)) == want


def run_cli(answer: Any, *args: str) -> tuple[int, str]:
    con = Console(file=io.StringIO(), width=110, color_system=None, force_terminal=False)
    code = main(["play", "stichling", "--delay", "0", *args], console=con, input_fn=answer)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    return code, out


def test_terminal_game_against_bots(tmp_path: Any) -> None:
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        m = re.search(r"\[(.*?)\]", prompt)
        if prompt.startswith("Tiles"):
            return "231"
        if not prompt.startswith("Your card") or m is None:
            return ""
        legal = m.group(1).split()
        cards = [a.split(">")[0] for a in legal]
        multi = [c for c in cards if cards.count(c) > 1]
        if multi and not any("may go onto" in a for a in asked):
            asked.append("may go onto")
            return multi[0]  # just the card: the screen tells where it may go
        if len([a for a in asked if a.startswith("Your card")]) == 1:
            return "Z9"
        return legal[-1]

    save = tmp_path / "game.json"
    code, out = run_cli(answer, "--seed", "4", "--seats", "human,heuristic,heuristic,random", "--save", str(save))
    assert code == 0
    assert "Game over" in out
    assert "Place 1" in out and "Place 4" in out and "owner:" in out
    assert "Your tiles" in out and "after 1/4 tricks" in out
    assert "lays out their tiles face down" in out
    assert re.search(r"may go onto .*; type one of", " ".join(out.split()))
    assert "open a new trick" in out
    assert "Deal 3 is over" in out
    record = json.loads(save.read_text())
    assert stichkit.replay(record).is_terminal()


def test_renderer_is_found_and_normalizes() -> None:
    game = stichkit.load_game("stichling")
    r = renderer_for(game)
    assert type(r).__name__ == "StichlingRenderer"
    state = game.new_state(seed=1)
    view = state.view(0)
    legal = view["legal_actions"]
    assert r.normalize("312", view, legal) == "order:312"
    assert r.normalize("1", view, legal) == "order:123"
    for a in ["order:123", "order:123", "order:123", "order:123"]:
        state.apply(a)
    view = state.view(0)
    legal = view["legal_actions"]
    card = view["hand"][0]
    assert r.normalize(card, view, legal) == f"{card}>new"
    assert r.normalize("1", view, legal) == f"{card}>new"
    assert r.normalize(f"{card.lower()} n", view, legal) == f"{card.lower()}>new"
    with pytest.raises(ValueError, match="you do not hold"):
        r.normalize(next(c for c in ("G1", "G2", "G3") if c not in view["hand"]), view, legal)
