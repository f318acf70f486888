"""The Stichwahl heuristic bot and terminal play."""

from __future__ import annotations

import io
import random

from rich.console import Console

import stichkit
from stichkit import bots
from stichkit.cli.main import main
from stichkit.cli.render import renderer_for

from .helpers import BEISPIEL, BEISPIEL_BONUS, new, play


def _game(players: int, seats: list[str], seed: int) -> list[int]:
    s = stichkit.load_game("stichwahl", players=players).new_state(seed=seed)
    bs = [bots.make(name, seed=seed * 10 + i) for i, name in enumerate(seats)]
    while not s.is_terminal():
        p = s.current_player
        assert p is not None
        s.apply(bs[p].choose(s, p))
    return s.winners()


def test_heuristic_beats_random_players() -> None:
    for players in (2, 3, 4):
        wins = sum(_game(players, ["heuristic"] + ["random"] * (players - 1), seed) == [0] for seed in range(15))
        assert wins >= 10, (players, wins)


def test_heuristic_picks_the_best_prize_and_uses_a_bonus_to_turn_the_trick() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a")
    bot = bots.make("heuristic")
    assert str(bot.choose(s, 2)) == "prize:N2"  # 3 cards; the 5 gives 1
    s = new(deal=dict(BEISPIEL, draws=["B7"]))  # Blauwal trump, marker 9
    play(s, *BEISPIEL_BONUS, "N2", "N6", "B9")  # Jan (last) cannot beat the trump B9 ...
    assert str(bot.choose(s, 3)) == "use:B1:O"  # ... unless Orca becomes trump: then his N7 wins
    play(s, "use:B1:O")
    assert str(bot.choose(s, 3)) == "N7"  # the cheapest card that wins


def test_renderer_screens_show_marker_trump_bonus_cards_and_prize_choices() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a")
    r = renderer_for(s.game)
    assert type(r).__name__ == "StichwahlRenderer"
    con = Console(file=io.StringIO(), width=120, color_system=None)
    v = s.view(2)
    con.print(r.screen(v, 2, v["legal_actions"], []))
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Blauwal" in out and "marker 9" in out
    assert "O1•→P" in out  # Andreas' bonus card and what it does
    assert "prize N2" in out and "you take 3 cards" in out
    assert r.normalize("N2", v, v["legal_actions"]) == "prize:N2"
    assert r.normalize("1", v, v["legal_actions"]) == "prize:N2"


def test_whole_game_in_the_terminal_against_bots() -> None:
    rng = random.Random(0)
    prompts: list[str] = []

    def human(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Press Enter"):
            return ""
        if len(prompts) == 2:
            return "help"
        return str(rng.randint(1, 2))

    con = Console(file=io.StringIO(), width=120, color_system=None)
    code = main(["play", "stichwahl", "players=3", "target=10", "--seed", "4", "--delay", "0",
                 "--seats", "human,heuristic,heuristic"], console=con, input_fn=human)  # fmt: skip
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert code == 0 and "Game over" in out
    assert any(p.startswith("First bonus card") for p in prompts)
    assert "Marker 9" in out or "marker" in out
