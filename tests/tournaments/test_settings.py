"""Tournament settings: checked once, refused with what is wrong and what is allowed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from stichkit.arena.tournaments import Entrant, Settings, check_entrants, plan_round
from stichkit.core import OptionError


def test_settings_fill_in_the_game_options_and_round_trip_json() -> None:
    s = Settings(game="differenzler", format="free", options={"deals": 4}, rounds=5, games_per_round=2,
                 rated=True, registration="invitation", starts_at=datetime(2026, 12, 1, 19, tzinfo=UTC),
                 move_time=30)  # fmt: skip
    assert s.options["deals"] == 4 and s.options["predictions"] == "hidden"
    assert s.move_time == 30.0 and s.seats == 4 and s.scoring == "total"
    assert Settings.from_json(s.to_json()) == s
    assert s.to_json()["starts_at"] == "2026-12-01T19:00:00+00:00"


def test_a_passe_is_a_round_of_twelve_deals() -> None:
    s = Settings(game="jass", format="passe", deals_per_round=12, options={"weis": "off", "stoeck": False})
    assert s.options["deals"] == 12 and s.games_per_round == 1
    assert Settings.from_json(s.to_json()) == s
    d = Settings(game="differenzler", format="free", deals_per_round=4)
    assert d.options["deals"] == 4
    assert "deals" not in Settings(game="jass", format="passe").options  # played to the target


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (
            {"game": "skat", "format": "swiss"},
            "tournament setting game='skat' is not allowed; allowed: one of 'coiffeur'",
        ),
        ({"game": "jass", "format": "knockout"}, "format='knockout' is not allowed; allowed: one of 'swiss', 'passe'"),
        ({"game": "jass", "format": "free"}, "jass is played in teams: 'swiss', 'passe' or 'duplicate'"),
        ({"game": "differenzler", "format": "passe"}, "Passe rotates partners, in a team game"),
        ({"game": "stichling", "format": "swiss"}, "stichling with 4 players is played as 'free' or 'duplicate'"),
        (
            {"game": "jass", "format": "swiss", "rounds": 0},
            "rounds=0 is not allowed; allowed: a whole number from 1 to 50",
        ),
        ({"game": "jass", "format": "swiss", "rounds": True}, "rounds=True is not allowed"),
        ({"game": "jass", "format": "swiss", "games_per_round": 21}, "from 1 to 20"),
        ({"game": "jass", "format": "swiss", "registration": "friends"}, "allowed: one of 'anyone', 'accounts'"),
        (
            {"game": "jass", "format": "swiss", "move_time": 0.5},
            "move_time=0.5 is not allowed; allowed: seconds from 1",
        ),
        ({"game": "jass", "format": "swiss", "starts_at": "tomorrow"}, "starts_at='tomorrow' is not allowed"),
        ({"game": "jass", "format": "swiss", "starts_at": "2026-12-01T19:00:00"}, "a time with its zone"),
        ({"game": "jass", "format": "swiss", "fill_bot": "nobody"}, "fill_bot='nobody' is not allowed"),
        ({"game": "jass", "format": "swiss", "options": {"target": -5}}, "option target=-5 is not allowed"),
        ({"game": "jass", "format": "swiss", "options": {"colour": 1}}, "jass has no option 'colour'"),
        ({"game": "jass", "format": "swiss", "prize": 5}, "a tournament has no setting 'prize'; its settings are:"),
        ({"format": "swiss"}, "a tournament needs the setting 'game'"),
        ({"game": "coiffeur", "format": "swiss", "deals_per_round": 12}, "a number of deals in differenzler, jass"),
        ({"game": "jass", "format": "passe", "deals_per_round": 0}, "deals_per_round=0 is not allowed"),
        (
            {"game": "jass", "format": "passe", "deals_per_round": 12, "games_per_round": 2},
            "games_per_round=2 is not allowed; allowed: 1 when deals_per_round is set",
        ),
        (
            {"game": "jass", "format": "passe", "deals_per_round": 12, "options": {"deals": 8}},
            "allowed: the game's option deals=8, or leave that out",
        ),
    ],
)
def test_bad_settings_say_what_is_wrong_and_allowed(given: dict, says: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(OptionError, match=None) as info:
        Settings.from_json(given)
    assert says in str(info.value)


def test_entrants_must_fit_the_format() -> None:
    swiss = Settings(game="jass", format="swiss")
    with pytest.raises(OptionError, match="entrant 'a' has 1 players; jass swiss is played by fixed teams of two"):
        check_entrants(swiss, [Entrant("a"), Entrant("b")])
    passe = Settings(game="jass", format="passe")
    with pytest.raises(OptionError, match="single players"):
        check_entrants(passe, [Entrant("t", members=("a", "b"))])
    with pytest.raises(OptionError, match="entrant 'a' is entered twice"):
        check_entrants(passe, [Entrant("a"), Entrant("a")])
    with pytest.raises(OptionError, match="player 'x' plays for two entrants"):
        check_entrants(swiss, [Entrant("t", members=("x", "y")), Entrant("u", members=("x", "z"))])
    with pytest.raises(OptionError, match="at least 4 players"):
        plan_round(passe, [Entrant(x) for x in "abc"], 1, seed=1)
    with pytest.raises(OptionError, match="round 4 is not a round of this tournament: 1 to 3"):
        plan_round(passe, [Entrant(x) for x in "abcd"], 4, seed=1)
    with pytest.raises(OptionError, match="round 2 follows the plans of rounds 1 to 1"):
        plan_round(passe, [Entrant(x) for x in "abcd"], 2, seed=1)
