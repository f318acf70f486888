"""Every game can be played to the end in the terminal by a human seat (scripted here): bad
input is refused with a reason and asked again, and the game ends with its winners."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import stichkit
from stichkit.cli.main import main

GAMES = [("stichwahl", 3), ("stichling", 3), ("stichmeister", 3), ("jass", 4), ("differenzler", 4), ("coiffeur", 4)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_human_plays_a_whole_game(game: str, players: int) -> None:
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    prompts: list[str] = []
    refused_once = False

    def answer(prompt: str) -> str:
        nonlocal refused_once
        prompts.append(prompt)
        if not refused_once:
            refused_once = True
            return "no-such-action"
        if "Press Enter" in prompt:
            return ""
        found = re.search(r"\[(.*?)\]\s*>\s*$", prompt)
        return found.group(1).split()[0] if found else "1"  # the legal list, or the first numbered choice

    seats = ",".join(["human"] + ["heuristic"] * (players - 1))
    own = {"jass": [], "differenzler": ["deals=2"], "coiffeur": ["rows=slalom1 D2"]}
    options = own.get(game, [f"players={players}"])
    code = main(["play", game, "--seats", seats, "--delay", "0", "--seed", "3", *options], console=con, input_fn=answer)
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert code == 0, out[-2000:]
    assert len(prompts) > 5
    assert "no-such-action" in out and "✗" in out  # refused with a reason, then asked again
    assert re.search(r"game over|wins|winners", out, re.IGNORECASE), out[-1000:]
    assert game in stichkit.game_names()


def test_the_terminal_never_shows_a_hidden_prediction_before_the_deal_ends() -> None:
    """Differenzler, hidden predictions: the bots' predictions show as "has predicted", and their
    numbers only in the deal's summary; the player's own is repeated to them."""
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)

    def answer(prompt: str) -> str:
        if "prediction" in prompt:
            return "33"
        found = re.search(r"\[(.*?)\]\s*>\s*$", prompt)
        return found.group(1).split()[0] if found else ""

    seats = "human,heuristic,heuristic,heuristic"
    code = main(["play", "differenzler", "deals=1", "--seats", seats, "--delay", "0", "--seed", "4"], console=con,
                input_fn=answer)  # fmt: skip
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert code == 0, out[-2000:]
    assert "You predict 33" in out
    assert "Left (1) has predicted (hidden until the deal ends)" in out
    assert not re.search(r"(Left|Across|Right)\S* predicts \d", out)


def test_the_terminal_plays_coiffeur_pushed_around_the_table() -> None:
    """push=around (Swisslos): the player pushes whenever asked; the others are asked in turn and
    the screen names who pushed; when the choice comes back the player must announce."""
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if "or push" in prompt:
            return "push"
        found = re.search(r"\[(.*?)\]\s*>\s*$", prompt)
        return found.group(1).split()[0] if found else "1"

    seats = "human,random,random,random"
    code = main(["play", "coiffeur", "rows=D1 obe2", "push=around", "--seats", seats, "--delay", "0", "--seed", "5"],
                console=con, input_fn=answer)  # fmt: skip
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert code == 0, out[-2000:]
    assert "You (0) pushes" in out and "Right (3) pushes" in out, out[-2000:]  # on round the table


def test_the_terminal_says_who_pushed_and_that_the_first_must_announce() -> None:
    from stichkit.cli.render_coiffeur import CoiffeurRenderer

    state = stichkit.load_game("coiffeur", push="around").new_state(seed=1)
    for _ in range(4):
        state.apply("push")
    view = state.view(0)
    legal = view["legal_actions"]
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    renderer = CoiffeurRenderer(state.game)
    con.print(renderer.screen(view, 0, legal, []))
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "You (0) announces (pushed by You (0), Right (3), Partner (2), Left (1))" in out, out
    assert renderer.prompt(view, legal) == "Announce a mode (a number, or trump:NAME) > "
