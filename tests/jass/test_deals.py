"""Option deals (games/jass/passe.py): a game of a fixed number of deals, as a club's Passe."""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit.bots import make
from stichkit.core.errors import OptionError
from stichkit.games.jass.passe import leader


def played_out(**options: object) -> stichkit.State:
    s = stichkit.load_game("jass", **options).new_state(seed=7)
    rng = random.Random(7)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_every_deal_is_played_and_the_higher_total_wins() -> None:
    s = played_out(profile="schieber", deals=3, target=100, weis="off", stoeck=False)
    v = s.view(None)
    assert [d["complete"] for d in v["previous_deals"]] == [True, True, True]  # the target 100 ended nothing
    assert (v["target"], v["deals"], v["deals_played"], v["deals_to_play"]) == (None, 3, 3, 0)
    a, b = s.scores()[:2]
    assert s.winners() == ([0, 2] if a > b else [1, 3] if b > a else [0, 1, 2, 3])


def test_a_tie_is_a_draw() -> None:
    assert (leader([500, 400]), leader([400, 500]), leader([450, 450])) == (0, 1, -1)


def test_the_view_counts_deals_as_they_are_played() -> None:
    s = stichkit.load_game("jass", deals=12).new_state(seed=1)
    v = s.view(0)
    assert (v["deals"], v["deals_played"], v["deals_to_play"]) == (12, 0, 12)
    assert "deals_played" not in stichkit.load_game("jass").new_state(seed=1).view(0)


def test_the_option_is_left_out_when_playing_to_the_target() -> None:
    assert "deals" not in stichkit.load_game("jass").options
    assert stichkit.load_game("jass", deals="12").options["deals"] == 12


@pytest.mark.parametrize(
    ("value", "says"), [(-1, "0 (play to the target) or 1-1000"), (1001, "at most 1,000"), ("x", "not a whole number")]
)
def test_bad_numbers_of_deals_are_refused(value: object, says: str) -> None:
    with pytest.raises(OptionError, match=says.replace("(", r"\(").replace(")", r"\)")):
        stichkit.load_game("jass", deals=value)


def test_the_c_core_leaves_fixed_deals_to_python() -> None:
    from stichkit import native

    assert "deals=12" in (native.unsupported({"deals": 12, "multipliers": "none"}) or "")
    assert native.unsupported({"deals": 0, "multipliers": "none"}) is None
    s = stichkit.load_game("jass", deals=2, profile="schieber").new_state(seed=3)
    if native.available():
        with pytest.raises(ValueError, match="deals=2"):
            make("ismcts", iterations=10, engine="c").choose(s, s.current_player)
    bot = make("ismcts", iterations=20, seed=2)
    assert bot.choose(s, s.current_player) in s.legal_actions()


def test_the_terminal_names_the_deal_of_the_passe() -> None:
    from stichkit.cli.render_jass import _goal

    s = stichkit.load_game("jass", deals=12).new_state(seed=1)
    assert _goal(s.view(0)) == "deal 1 of 12"
    assert _goal(stichkit.load_game("jass").new_state(seed=1).view(0)) == "first to 1000"
