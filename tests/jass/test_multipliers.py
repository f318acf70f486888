"""Option `multipliers` (docs/jass.md, "Multipliers"): a deal counts once, double or triple by
its trump mode, and the factor applies to all it writes: card points, Weis, Stöck, the match.

Sources: Swisslos' Schieber rules ("Wenn der Schieber auf 2500 Punkte gejasst wird, dann wird mit
Multiplikatoren gespielt ... Rose/Herz oder Eichel/Ecken ... einfach ... Schilten/Schaufel oder
Schellen/Kreuz ... doppelt ... Obenabe oder Undenufe ... dreifach"; on 1000 points or in
tournaments "zählen alle Punkte immer einfach"); urikon.ch's Schiäber ("der «Matsch» somit 514
Punkte" when the points count double); spotlightongames.com's Schieber summary (Acorns and
Flowers single, Shields and Bells double, Obenabe triple, Undenufe quadruple)."""

from __future__ import annotations

import json

import pytest

import stichkit
from stichkit.games.jass.multipliers import SETS, canonical, factors

from .helpers import new_state, play, spectator

MATCH_DEAL = {
    "hands": [
        ["D6", "D8", "D10", "DA", "HQ", "HK", "HA", "SQ", "CQ"],
        ["DK", "DQ", "H6", "H7", "H8", "H9", "H10", "S6", "S7"],
        ["D7", "D9", "DJ", "HJ", "SJ", "SA", "SK", "CA", "CK"],
        ["S8", "S9", "S10", "C6", "C7", "C8", "C9", "C10", "CJ"],
    ]
}
PLAN = {
    0: ["D6", "DA", "HA", "HK", "HQ", "SQ", "CQ", "D8", "D10"],
    2: ["D9", "D7", "HJ", "SJ", "DJ", "SA", "SK", "CA", "CK"],
}


def play_match(**options):
    """Seat 2 names Käse (D) and team 0 takes all nine tricks; team 1 holds Weis and Stöck."""
    s = new_state(MATCH_DEAL, weis="auto", **options)
    s.apply("trump:D")
    plans = {p: iter(cards) for p, cards in PLAN.items()}
    while spectator(s)["deal_number"] == 0:
        p = s.current_player
        s.apply(next(plans[p]) if p in plans else s.legal_actions()[0])
    return s


def test_the_named_sets_by_mode():
    """Factors in the order D H S C obe une. Swisslos by the French names (Herz, Ecken once;
    Schaufel, Kreuz double; Obenabe, Undenufe triple); one-to-four by Swiss names as the letters
    pair them (Schellen D, Rosen H, Schilten S, Eicheln C)."""
    assert factors("none") == (1, 1, 1, 1, 1, 1)
    assert factors("swisslos") == (1, 1, 2, 2, 3, 3)
    assert factors("one-to-four") == (2, 1, 2, 1, 3, 4)
    assert set(SETS) == {"none", "swisslos", "one-to-four"}


def test_the_default_counts_every_deal_once_in_both_profiles():
    """The rule sheet knows no multipliers; a tournament and the Schieber to 1000 count once."""
    for profile in ("seed", "schieber"):
        game = stichkit.load_game("jass", profile=profile)
        assert game.options["multipliers"] == "none"
        assert game.multipliers == (1,) * 6


def test_a_double_match_is_514_and_the_weis_and_stoeck_count_double():
    """urikon.ch: "Beim Trumpf mit «Schallä» ... zählen die Punkte doppelt, der «Matsch» somit 514".
    Swisslos: "zählen alle erzielten Punkte doppelt" — team 1's Weis (270) and Stöck (20) too."""
    once = play_match(profile="schieber")
    double = play_match(profile="schieber", multipliers="D=2")
    assert once.scores()[:2] == [257, 290]
    assert double.scores()[:2] == [514, 580]
    summary = spectator(double)["previous_deals"][0]
    assert summary["multiplier"] == 2
    assert summary["trick_points"] == [157, 0]  # the cards as they stand; the total is doubled
    assert summary["total"] == [514, 580]


def test_seed_a_match_voids_the_doubled_bonus():
    """In `seed` the match takes back team 1's Weis and Stöck: all they had claimed, doubled."""
    s = play_match(profile="seed", multipliers="D=2")
    summary = spectator(s)["previous_deals"][0]
    assert summary["voided"] == [0, 240]
    assert s.scores()[:2] == [514, 0]


def test_stoeck_is_claimed_at_its_multiplied_value():
    """Seat 0 holds the trump King and Queen of Zug (H), taken three times: its King takes the
    first trick, and leading the Queen writes Stöck, 20 x 3, the moment it is played."""
    s = new_state({0: "D7 HK HQ", 3: "H6", 2: "H7", 1: "H8"}, multipliers="D=1,H=3,S=1,C=1")
    play(s, "trump:H", "HK", "H6", "H7", "H8")
    assert spectator(s)["tricks"][0]["winner"] == 0
    assert s.scores()[:2] == [4 * 3, 0]  # the King's 4 points, three times
    s.apply("HQ")
    v = spectator(s)
    assert (v["stoeck"], v["multiplier"]) == (0, 3)
    assert s.scores()[:2] == [12 + 60, 0]
    assert v["deal_points"] == [72, 0]


def test_the_view_shows_the_multiplier_in_force():
    s = new_state({0: "D7"}, profile="schieber", multipliers="swisslos")
    v = spectator(s)
    assert v["multiplier"] is None  # before trump is named
    assert v["multipliers"] == {"D": 1, "H": 1, "S": 2, "C": 2, "obe": 3, "une": 3}
    s.apply("trump:obe")
    assert spectator(s)["multiplier"] == 3
    assert s.view(1)["multiplier"] == 3


def test_deal_points_and_scores_follow_the_multiplier():
    """A trick in a triple deal writes three times its card points, at once."""
    s = new_state({0: "D7 SA", 3: "S10", 2: "SK", 1: "SQ"}, profile="schieber", multipliers="swisslos")
    play(s, "trump:une")
    # Undenufe: the lowest card of the led suit wins; whoever takes it, the trick's card points
    # (A 0, 10 10, K 4, Q 3 under Undenufe) are written three times.
    play(s, "SA", "S10", "SK", "SQ")
    v = spectator(s)
    pts = v["tricks"][0]["points"]
    assert pts == 17
    team = v["tricks"][0]["winner"] % 2
    assert v["deal_points"][team] == 51
    assert v["scores"][team] == 51


def test_text_and_mapping_forms_and_their_canonical_text():
    """A command line gives text, Python may give a mapping; the game keeps one text form."""
    game = stichkit.load_game("jass", multipliers={"obe": 3, "s": "2"})
    assert game.options["multipliers"] == "D=1,H=1,S=2,C=1,obe=3,une=1"
    assert game.multipliers == (1, 1, 2, 1, 3, 1)
    assert stichkit.load_game("jass", multipliers=" SwissLos ").options["multipliers"] == "swisslos"
    assert canonical("D=1, H=1, S=2, C=2, obe=3, une=3") == "D=1,H=1,S=2,C=2,obe=3,une=3"


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("double", "'double' is no named set; allowed: a named set ('none', 'swisslos', 'one-to-four')"),
        ("D=0", "a factor is a whole number from 1 to 20"),
        ("D=21", "a factor is a whole number from 1 to 20"),
        ("obe=2.5", "a factor is a whole number from 1 to 20"),
        ("Q=2", "'Q' is no trump mode; the modes are D, H, S, C, obe, une"),
        ("D=1,d=2", "D is given twice"),
        ("D=1,H", "'H' is not 'mode=factor'"),
        ({"D": True}, "a factor is a whole number"),
        (3, "a value of type int is not a set of multipliers"),
    ],
)
def test_bad_multipliers_say_what_is_wrong_and_what_is_allowed(value, says):
    with pytest.raises(stichkit.OptionError) as err:
        stichkit.load_game("jass", multipliers=value)
    msg = str(err.value)
    assert msg.startswith("option multipliers=")
    assert says in msg


def test_records_replay_with_their_multipliers():
    s = play_match(profile="schieber", multipliers="swisslos")
    record = json.loads(json.dumps(s.record()))
    assert record["options"]["multipliers"] == "swisslos"
    again = stichkit.replay(record)
    assert again == s
    assert again.scores() == s.scores()


def test_a_record_without_the_option_plays_once():
    """Records written before the option existed name no multipliers: every deal counts once."""
    s = play_match(profile="schieber")
    record = json.loads(json.dumps(s.record()))
    del record["options"]["multipliers"]
    assert stichkit.replay(record).scores()[:2] == [257, 290]


def test_undo_after_a_multiplied_trick_restores_the_score():
    s = new_state({0: "D7 SA", 3: "S10", 2: "SK", 1: "SQ"}, profile="schieber", multipliers="swisslos")
    play(s, "trump:obe", "SA", "S10", "SK")
    before = (s.scores(), spectator(s))
    s.apply("SQ")
    assert s.scores() != before[0]
    s.undo()
    assert (s.scores(), spectator(s)) == before


def test_the_race_counts_what_a_team_lacks_in_the_deals_own_points():
    """A triple deal reaches a target of 100 with 34 of its own points (34 x 3 = 102)."""
    from stichkit.analysis.race import needs

    s = new_state({0: "D7 HK HQ", 3: "H6", 2: "H7", 1: "H8"}, target=100, multipliers="H=3")
    assert needs(s) == (100, 100)  # before trump is named, no factor applies
    play(s, "trump:H", "HK", "H6", "H7", "H8")
    assert s.scores()[:2] == [12, 0]
    assert needs(s) == (30, 34)  # 88 and 100 points, in thirds rounded up
