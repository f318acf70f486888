"""Weis ("Ankündigungen"), Stöck, Match and the claiming order: the sheet's statements and the
RULINGS.md Jass rulings about them, one test each."""

from __future__ import annotations

import pytest

import stichkit

from .helpers import (
    RANKS,
    SUITS,
    complete_deal,
    finish_deal,
    first_legal,
    lead_all,
    new_state,
    play,
    spectator,
)

SEED_RUN = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100, 9: 100}
SCHIEBER_RUN = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}
SEED_FOUR = {"10": 100, "Q": 100, "K": 100, "9": 150, "J": 200, "A": 0, "6": 0, "7": 0, "8": 0}
SCHIEBER_FOUR = {**SEED_FOUR, "A": 100}


def weis_state(fixed, *, profile="seed", trump="C", stoeck=False, **kw):
    """A state after the first trick (trump chosen by the forehand, first legal cards)."""
    state = new_state(complete_deal(fixed), profile=profile, weis="auto", stoeck=stoeck, **kw)
    state.apply(f"trump:{trump}")
    for _ in range(4):
        first_legal(state)
    return state


def shown(state):
    """The Weis in the spectator view as (seat, kind, cards, points)."""
    return sorted((w["seat"], w["kind"], w["cards"], w["points"]) for w in spectator(state)["weis"])


def run(suit, first, n):
    i = RANKS.index(first)
    return [suit + r for r in RANKS[i : i + n]]


def four(rank):
    return [s + rank for s in SUITS]


def deal_weis(state):
    """Finish the deal; its Weis per team."""
    finish_deal(state)
    return spectator(state)["previous_deals"][0]["weis"]


# -- values ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 10))
@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_sequence_values(profile, n):
    """Sheet: "3 Karten derselben Farbe, die aufeinander folgen: 20 Punkte / 4 ...: 50 Punkte / 5 oder
    mehr aufeinanderfolgende Karten der gleichen Farbe: 100 Punkte." RULINGS.md Jass (schieber):
    "sequences 3/4/5/6/7/8/9 = 20/50/100/150/200/250/300". A run is one Weis, never split."""
    cards = run("H", "6", n)
    state = weis_state({0: cards}, profile=profile)
    points = (SEED_RUN if profile == "seed" else SCHIEBER_RUN)[n]
    assert shown(state) == [(0, "sequence", cards, points)]
    assert spectator(state)["weis_scored_by"] == [0]
    assert deal_weis(state) == [points, 0]


@pytest.mark.parametrize("rank", ["6", "7", "8", "9", "10", "J", "Q", "K", "A"])
@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_four_of_a_kind_values(profile, rank):
    """Sheet: "4 gleiche Karten (4x die 10, 4x die Dame, 4x der König): 100 Punkte", "Die vier Neunen:
    150 Punkte", "Die vier Valets: 200 Punkte"; four Aces are not listed (RULINGS.md Jass seed: "four
    Aces are not listed and do not count"; schieber: "four 10s/Qs/Ks/As 100, four 9s 150, four Jacks
    200"). Fours of 6, 7, 8 are no Weis."""
    state = weis_state({0: four(rank)}, profile=profile)
    points = (SEED_FOUR if profile == "seed" else SCHIEBER_FOUR)[rank]
    if points:
        assert shown(state) == [(0, "four", four(rank), points)]
        assert spectator(state)["weis_scored_by"] == [0]
    else:
        assert shown(state) == []
        assert spectator(state)["weis_scored_by"] == []
    assert deal_weis(state) == [points, 0]


def test_several_weis_in_one_hand():
    """Sheet: "Es ist möglich, mehrere Ansagen zu machen" — a hand with two runs declares both."""
    state = weis_state({0: [*run("H", "6", 3), *run("S", "Q", 3), "D7"]})
    assert shown(state) == [(0, "sequence", run("H", "6", 3), 20), (0, "sequence", run("S", "Q", 3), 20)]
    assert deal_weis(state) == [40, 0]


def test_one_card_not_in_two_weis():
    """Sheet: "es ist nicht erlaubt, eine Karte für zwei verschiedene Ansagen zu verwenden." Four Kings
    and the run HJ HQ HK HA share HK: only the better Weis (four Kings, 100) is declared."""
    for profile in ("seed", "schieber"):
        state = weis_state({0: [*four("K"), "HJ", "HQ", "HA"]}, profile=profile)
        assert shown(state) == [(0, "four", four("K"), 100)]
        assert deal_weis(state) == [100, 0]


@pytest.mark.parametrize(
    "profile,expected",
    [
        ("seed", [(0, "four", four("10"), 100), (0, "sequence", ["HJ", "HQ", "HK"], 20)]),
        ("schieber", [(0, "sequence", run("H", "8", 6), 150)]),
    ],
)
def test_four_and_overlapping_run_best_set(profile, expected):
    """RULINGS.md Jass: "the engine declares each player's best non-overlapping set automatically".
    Hand H8..HK + D10 S10 C10: four 10s + HJ-HK (100 + 20) against the six-card run (seed 100,
    schieber 150): seed takes the four and the rest of the run, schieber the whole run."""
    state = weis_state({0: [*run("H", "8", 6), "D10", "S10", "C10"]}, profile=profile)
    assert shown(state) == sorted(expected)
    assert deal_weis(state) == [sum(p for *_, p in expected), 0]


def test_four_jacks_and_overlapping_run():
    """Sheet: "Die vier Valets: 200 Punkte" and "nicht erlaubt, eine Karte für zwei verschiedene
    Ansagen zu verwenden": four Jacks + H9..HK (5-run through HJ) — the four (200) is declared."""
    state = weis_state({0: [*four("J"), "H9", "H10", "HQ", "HK"]})
    assert shown(state) == [(0, "four", four("J"), 200)]


def test_weis_off():
    """RULINGS.md Jass: "option `weis`: `auto` | `off`" — off: no Weis is shown or scored."""
    state = new_state(complete_deal({0: [*run("H", "6", 5), "D7"], 1: four("J")}), weis="off", stoeck=False)
    play(state, "trump:C", None, None, None, None)
    v = spectator(state)
    assert v["weis"] == [] and v["weis_scored_by"] is None
    finish_deal(state)
    assert spectator(state)["previous_deals"][0]["weis"] == [0, 0]


def test_weis_default_auto():
    """Sheet: "Zu Beginn einer Runde hat jede/r die Möglichkeit, eine Ansage zu machen ... Die
    Spieler/innen müssen ihre Ansage machen, wenn sie an der Reihe sind und bevor der/die nächste
    Spieler/in seine/ihre Karte ablegt." RULINGS.md Jass: "Weis (announcements) are declared with the
    player's first card; the engine declares each player's best non-overlapping set automatically
    (option `weis`: `auto` | `off`)". Nobody has to act: the default is `auto`."""
    assert stichkit.load_game("jass").options["weis"] == "auto"
    state = stichkit.load_game("jass", stoeck=False).new_state(seed=0, deal=complete_deal({0: run("S", "10", 5)}))
    play(state, "trump:C", None, None, None, None)
    assert shown(state) == [(0, "sequence", run("S", "10", 5), 100)]


# -- shown after the first trick ------------------------------------------------------------------


def test_weis_shown_only_after_the_first_trick():
    """RULINGS.md Jass: "Weis are shown after the first trick." (sheet: "Je nach Sitte und Region wird
    verlangt, dass die Ansagen gezeigt werden."). Before the first trick is complete no view, not even
    the holder's, shows a Weis or counts its points."""
    state = new_state(complete_deal({0: ["D7", *run("H", "6", 4)], 3: four("Q")}), weis="auto", stoeck=False)
    state.apply("trump:C")
    for _ in range(4):
        for seat in (None, 0, 1, 2, 3):
            v = state.view(seat)
            assert v["weis"] == [] and v["weis_scored_by"] is None
            assert v["deal_points"] == [0, 0]
        first_legal(state)
    for seat in (None, 0, 1, 2, 3):
        v = state.view(seat)
        assert [(w["seat"], w["kind"], w["cards"], w["points"]) for w in v["weis"]] == [(3, "four", four("Q"), 100)]
        assert v["weis_scored_by"] == [1]


def test_only_best_team_scores_all_its_weis():
    """Sheet: "Das Team mit der/den höchsten Anzeige(n) validiert seine Punkte. Das andere Team kann die
    Punkte der Anzeige nicht validieren." RULINGS.md Jass: "Only the team with the single best Weis
    scores, and it scores all of its Weis." Seat 0: 3-run, seat 2: 5-run (team 0: 20 + 100); seat 1:
    4-run, seat 3: 3-run (team 1: nothing)."""
    fixed = {0: ["D7", *run("S", "6", 3)], 2: run("H", "6", 5), 1: run("C", "6", 4), 3: run("D", "J", 3)}
    state = weis_state(fixed)
    assert shown(state) == [(0, "sequence", run("S", "6", 3), 20), (2, "sequence", run("H", "6", 5), 100)]
    assert spectator(state)["weis_scored_by"] == [0]
    assert deal_weis(state) == [120, 0]


def test_best_single_weis_not_sum_decides():
    """RULINGS.md Jass: "Only the team with the single best Weis scores" — team 0 holds two 4-runs
    (100 in all), team 1 one four of Queens (100): the single best (100 > 50) wins."""
    fixed = {0: ["D7", *run("S", "6", 4), *run("H", "6", 4)], 1: four("Q")}
    state = weis_state(fixed)
    assert spectator(state)["weis_scored_by"] == [1]
    assert deal_weis(state) == [0, 100]


# -- ties between teams ---------------------------------------------------------------------------


def _winner_team(fixed, profile, trump="C"):
    state = weis_state(fixed, profile=profile, trump=trump)
    return spectator(state)["weis_scored_by"]


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_tie_more_cards(profile):
    """Sheet: "In diesem Fall hat die Ansage mit den meisten Karten Vorrang" (schieber: "then
    longer"): a 5-run (100, 5 cards) beats four Kings (100, 4 cards)."""
    assert _winner_team({0: ["D7", *four("K")], 1: run("S", "6", 5)}, profile) == [1]
    assert _winner_team({0: ["D7", *run("S", "6", 5)], 1: four("K")}, profile) == [0]


def test_seed_tie_six_run_beats_five_run():
    """Sheet (seed: 5 or more = 100): "hat die Ansage mit den meisten Karten Vorrang" — a 6-run beats a
    5-run although both are worth 100."""
    assert _winner_team({0: ["D7", *run("H", "6", 5)], 1: run("S", "6", 6)}, "seed") == [1]


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_tie_higher_top_card(profile):
    """Sheet: "gefolgt von der Ansage mit der Karte mit dem höchsten Wert" (schieber: "then higher top
    card"): HQ-HA beats S6-S8; four Queens beat four 10s."""
    assert _winner_team({0: ["D7", *run("S", "6", 3)], 1: run("H", "Q", 3)}, profile) == [1]
    assert _winner_team({0: ["D7", *four("Q")], 1: four("10")}, profile) == [0]


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_tie_trump(profile):
    """Sheet: "... und der Ansage mit Trumpfkarte(n)" (schieber: "then trump"): equal runs, the one in
    trump wins."""
    fixed = {0: ["D7", *run("S", "8", 3)], 1: run("H", "8", 3)}
    assert _winner_team(fixed, profile, trump="H") == [1]
    assert _winner_team(fixed, profile, trump="S") == [0]


def test_seed_tie_undecided_both_score():
    """Sheet: "Ist eine Entscheidung nicht möglich, notieren beide Teams die Punkte, die sie gewonnen
    haben." (RULINGS.md Jass seed: "if still equal, both teams score their Weis")."""
    state = weis_state({0: ["D7", *run("S", "8", 3)], 1: run("H", "8", 3)}, trump="C")
    assert spectator(state)["weis_scored_by"] == [0, 1]
    assert deal_weis(state) == [20, 20]


def _equal_runs(a, b):
    """Seat a holds S8-S10, seat b H8-H10 (no trump: Berg is trump); seat 0 holds D7 and leads."""
    fixed = {a: run("S", "8", 3), b: run("H", "8", 3)}
    fixed[0] = [*fixed.get(0, []), "D7"]
    return fixed


@pytest.mark.parametrize(
    "a,b,expected",
    [(0, 1, [0]), (1, 0, [0]), (0, 3, [0]), (3, 0, [0]), (3, 2, [1]), (2, 3, [1]), (2, 1, [0]), (1, 2, [0])],
)
def test_schieber_tie_nearer_to_first_leader(a, b, expected):
    """RULINGS.md Jass (schieber): "Tie: higher points, then longer, then higher top card, then trump,
    then the player nearer the leader of the first trick." Seat 0 leads; play order 0, 3, 2, 1."""
    assert _winner_team(_equal_runs(a, b), "schieber") == expected


@pytest.mark.parametrize("a,b", [(0, 1), (0, 3), (2, 3), (2, 1)])
def test_seed_tie_no_nearer_rule(a, b):
    """Sheet: "Ist eine Entscheidung nicht möglich, notieren beide Teams die Punkte" — seating does not
    break a seed tie."""
    assert _winner_team(_equal_runs(a, b), "seed") == [0, 1]


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_points_before_card_count(profile):
    """Sheet: "Das Team mit der/den höchsten Anzeige(n) validiert seine Punkte" — the highest Weis by
    points; the card count only breaks a tie (RULINGS.md Jass schieber: "Tie: higher points, then
    longer"): four 9s (150, 4 cards) beat the 5-run S10-SA (100), four Jacks (200) the 5-run S6-S10."""
    assert _winner_team({0: ["D7", *four("9")], 1: run("S", "10", 5)}, profile) == [0]
    assert _winner_team({0: ["D7", *run("S", "10", 5)], 1: four("9")}, profile) == [1]
    assert _winner_team({0: ["D7", *four("J")], 1: run("S", "6", 5)}, profile) == [0]


# -- Stöck ----------------------------------------------------------------------------------------

# Seat 1 holds the trump K+Q of H; seat 0 leads and holds the higher trumps.
STOECK_FIXED = {0: ["D7", "S6", "HJ", "H9", "HA"], 3: ["HQ", "HK", "SA"]}


def test_stoeck_when_second_card_played():
    """Sheet: "Er besteht aus dem König und der Trumpfdame in einer Hand. Wenn man die zweite der beiden
    Karten legt, sagt man "Schteukr!" und erhält 20 Punkte." RULINGS.md Jass: "Stöck: trump K + Q in
    one hand, 20 points, scored when the second of the two is played." """
    state = new_state(STOECK_FIXED, stoeck=True)
    play(state, "trump:H S6 HQ")  # seat 3 trumps with the Queen
    play(state, None, None)
    v = spectator(state)
    assert v["tricks"][0]["winner"] == 3 and v["stoeck"] is None
    before = v["deal_points"]
    play(state, "HK")  # the second Stöck card, leading trick 2
    v = spectator(state)
    assert v["stoeck"] == 3
    assert v["deal_points"] == [before[0], before[1] + 20]
    assert len(v["trick"]) == 1  # written at once, not with the trick
    finish_deal(state)
    assert spectator(state)["previous_deals"][0]["stoeck"] == [0, 20]


def test_stoeck_needs_trump_king_and_queen():
    """Sheet: "Er besteht aus dem König und der Trumpfdame": K+Q of a non-trump suit are no Stöck."""
    state = new_state(STOECK_FIXED, stoeck=True)
    play(state, "trump:S")
    finish_deal(state)
    assert spectator(state)["previous_deals"][0]["stoeck"] == [0, 0]


def test_stoeck_option_off():
    """RULINGS.md Jass / API: option `stoeck` — False: the trump K+Q score nothing."""
    state = new_state(STOECK_FIXED, stoeck=False)
    play(state, "trump:H")
    finish_deal(state)
    d = spectator(state)["previous_deals"][0]
    assert d["stoeck"] == [0, 0]
    assert stichkit.load_game("jass").options["stoeck"] is True


def test_stoeck_needs_one_hand():
    """Sheet: "Er besteht aus dem König und der Trumpfdame in einer Hand." — K with seat 0 and Q with its
    partner (seat 2) are no Stöck."""
    state = new_state({0: ["D7", "HK"], 2: ["HQ"]}, stoeck=True)
    play(state, "trump:H")
    finish_deal(state)
    assert spectator(state)["previous_deals"][0]["stoeck"] == [0, 0]


@pytest.mark.parametrize("mode", ["obe", "une"])
def test_no_stoeck_in_obenabe_undenufe(mode):
    """RULINGS.md Jass (schieber): Obenabe/Undenufe have "no trump", so there is no trump K+Q: no Stöck."""
    state = new_state(STOECK_FIXED, profile="schieber", stoeck=True)
    play(state, f"trump:{mode}")
    finish_deal(state)
    assert spectator(state)["previous_deals"][0]["stoeck"] == [0, 0]


def test_stoeck_may_be_part_of_a_sequence():
    """Sheet: "Ausnahme: Die Stöck-Karten dürfen in anderen Ansagen vorkommen." and "Das Stöck kann auch
    mit einer Ansage von drei, vier, fünf Karten usw. kumuliert werden." Seat 0: HJ HQ HK (trump H):
    the run (20) and the Stöck (20) both count."""
    state = new_state(complete_deal({0: ["D7", "HJ", "HQ", "HK"]}), weis="auto", stoeck=True)
    play(state, "trump:H")
    finish_deal(state)
    d = spectator(state)["previous_deals"][0]
    assert (d["weis"], d["stoeck"]) == ([20, 0], [20, 0])


def test_stoeck_counts_although_opponents_have_better_weis():
    """Sheet: "Auch die Punkte des Stöcks werden gewertet, selbst wenn das gegnerische Team mehr Punkte
    gemeldet hat." Team 0 has the better Weis (5-run), seat 3 the Stöck."""
    for profile in ("seed", "schieber"):
        fixed = {0: ["D7", *run("S", "6", 5)], 3: ["HQ", "HK"]}
        state = new_state(complete_deal(fixed), profile=profile, weis="auto", stoeck=True)
        play(state, "trump:H")
        finish_deal(state)
        d = spectator(state)["previous_deals"][0]
        assert d["match"] is None
        assert (d["weis"], d["stoeck"]) == ([100, 0], [0, 20])
        assert d["total"][1] == d["trick_points"][1] + 20


# -- Match ----------------------------------------------------------------------------------------

# Seat 0 holds eight trumps (all D but D10) and HA; seat 1 holds four 10s (the best Weis).
MATCH_WEIS = {0: ["D6", "D7", "D8", "D9", "DJ", "DQ", "DK", "DA", "HA"], 1: four("10")}
# Seat 0 holds seven trumps and HA, SA; seat 1 holds the trump K+Q (Stöck).
MATCH_STOECK = {0: ["D6", "D7", "D8", "D9", "D10", "DJ", "DA", "HA", "SA"], 1: ["DK", "DQ"]}


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_match_voids_opponents_weis_in_seed_only(profile):
    """Sheet: "Wenn eine Mannschaft in einer Runde alle Schollen gewinnt, macht sie "Match" und erhält
    100 zusätzliche Punkte ... Die Ansagen des gegnerischen Teams sind dann ungültig." RULINGS.md Jass
    (seed): "A match voids the other team's Weis and Stöck." (schieber: not voided). Seat 1's four 10s
    (100) beat team 0's two 4-runs (50 each); team 0 takes all nine tricks (+ its Stöck)."""
    state = new_state(complete_deal(MATCH_WEIS), profile=profile, weis="auto", stoeck=True, target=5000)
    play(state, "trump:D")
    lead_all(state, "DJ")
    assert spectator(state)["weis_scored_by"] == [1]
    assert state.scores()[1] == 100  # written after the first trick
    lead_all(state, "D9 DA DK DQ D8 D7 D6 HA")
    d = spectator(state)["previous_deals"][0]
    assert d["match"] == 0
    assert d["trick_points"] == [157, 0]
    assert d["stoeck"] == [20, 0]
    assert d["weis"] == [0, 100]
    if profile == "seed":
        assert d["voided"] == [0, 100]
        assert d["total"] == [277, 0]
        assert state.scores() == [277, 0, 277, 0]
    else:
        assert d["voided"] == [0, 0]
        assert d["total"] == [277, 100]
        assert state.scores() == [277, 100, 277, 100]


@pytest.mark.parametrize("profile", ["seed", "schieber"])
def test_match_voids_opponents_stoeck_in_seed_only(profile):
    """Sheet: "Wenn die gegnerische Mannschaft jedoch ein Match macht, werden die Punkte [des Stöcks]
    nicht gewertet." RULINGS.md Jass (schieber): "Stöck always counts." """
    state = new_state(complete_deal(MATCH_STOECK), profile=profile, stoeck=True, target=5000)
    play(state, "trump:D")
    lead_all(state, "DA D9")
    assert spectator(state)["stoeck"] == 1 and state.scores()[1] == 20
    lead_all(state, "DJ D10 D8 D7 D6 HA SA")
    d = spectator(state)["previous_deals"][0]
    assert (d["match"], d["trick_points"], d["stoeck"]) == (0, [157, 0], [0, 20])
    if profile == "seed":
        assert (d["voided"], d["total"], state.scores()[:2]) == ([0, 20], [257, 0], [257, 0])
    else:
        assert (d["voided"], d["total"], state.scores()[:2]) == ([0, 0], [257, 20], [257, 20])


def test_match_bonus_257():
    """Sheet: "erhält 100 zusätzliche Punkte, sammelt also 256 Punkte" — RULINGS.md Jass: "+100, i.e.
    257 (the sheet's "256" is an arithmetic slip)"."""
    state = new_state(complete_deal(MATCH_STOECK), stoeck=False)
    play(state, "trump:D")
    lead_all(state, "DA D9 DJ D10 D8 D7 D6 HA SA")
    d = spectator(state)["previous_deals"][0]
    assert d["total"] == [257, 0] and d["match"] == 0


# -- claiming order and game end ------------------------------------------------------------------


def test_weis_claimed_before_tricks():
    """RULINGS.md Jass: "Points are written in the Swiss claiming order Stöck → Weis → tricks, and the
    game ends the moment a team reaches the target." Target 20: team 1's Weis (20) after the first
    trick wins, although team 0 took that trick with 21 points."""
    fixed = {0: ["D7", "SA"], 3: ["S10"], 2: ["S6"], 1: ["C6", "C7", "C8", "S7"]}
    state = new_state(complete_deal(fixed), weis="auto", stoeck=False, target=20)
    play(state, "trump:D SA S10 S6 S7")
    assert state.is_terminal()
    assert state.winners() == [1, 3]
    assert state.scores() == [0, 20, 0, 20]
    v = spectator(state)
    assert v["tricks"][0]["points"] == 21 and v["tricks"][0]["winner"] == 0


# Trump H. Seat 0 leads HJ then H9; seat 1 holds the Stöck (HQ HK) and the only Weis (C6 C7 C8).
ORDER_FIXED = {0: ["D7", "HJ", "H9"], 3: ["H6", "H7"], 2: ["H8", "H10", "HA"], 1: ["HQ", "HK", "C6", "C7", "C8"]}


def test_stoeck_claimed_before_tricks():
    """RULINGS.md Jass: "claiming order Stöck → Weis → tricks", and the Ausmachregel (Swisslos:
    «Stöck, Wys, Stich» when both teams reach the target in the first trick): team 1's Stöck
    (20, its second card still in hand) and Weis (20) reach 40 when the first trick is complete,
    before team 0's trick (23) is written."""
    state = new_state(complete_deal(ORDER_FIXED), weis="auto", stoeck=True, target=40)
    play(state, "trump:H HJ H6 H8 HQ")
    assert state.is_terminal()
    assert state.winners() == [1, 3]
    assert state.scores()[:2] == [0, 40]
    assert spectator(state)["stoeck"] == 1


def test_stoeck_with_its_second_card_when_it_does_not_finish():
    """The same deal to 60: Stöck and Weis (40) do not finish, so Stöck waits for its second card;
    in trick 2 seat 1 plays it last and team 1 reaches 60 before team 0's trick is written."""
    state = new_state(complete_deal(ORDER_FIXED), weis="auto", stoeck=True, target=60)
    play(state, "trump:H HJ H6 H8 HQ")
    assert state.scores()[:2] == [23, 20]
    play(state, "H9 H7 H10 HK")  # "Stöck!" with the King, then team 0's Nell takes the trick
    assert state.scores()[:2] == [23 + 28, 40]
    assert not state.is_terminal()


def test_tricks_after_stoeck_when_stoeck_not_enough():
    """RULINGS.md Jass: "the game ends the moment a team reaches the target" — the same deal with target
    45: the Stöck leaves team 1 at 40, the trick then takes team 0 to 51."""
    state = new_state(complete_deal(ORDER_FIXED), weis="auto", stoeck=True, target=45)
    play(state, "trump:H HJ H6 H8 HQ H9 H7 H10 HK")
    assert state.is_terminal()
    assert state.winners() == [0, 2]
    assert state.scores()[:2] == [51, 40]


def test_game_end_by_stoeck_mid_trick():
    """RULINGS.md Jass: "the game ends the moment a team reaches the target" — Stöck points are written
    when the second card is played, so the game can end with one card of a trick on the table."""
    probe = new_state(STOECK_FIXED, stoeck=True, target=5000)
    play(probe, "trump:H S6 HQ", None, None)  # seat 3 takes trick 1
    s1 = probe.scores()[1]
    state = new_state(STOECK_FIXED, stoeck=True, target=s1 + 20, ausmachregel="in-order")
    play(state, "trump:H S6 HQ", None, None)
    assert not state.is_terminal()
    play(state, "HK")
    assert state.is_terminal() and state.winners() == [1, 3]
    assert state.scores()[:2] == [0, s1 + 20]
    v = spectator(state)
    assert len(v["trick"]) == 1 and v["previous_deals"][-1]["complete"] is False
    # The Swiss Ausmachregel (the default): the Stöck is shown as soon as trick 1 makes it enough.
    swiss = new_state(STOECK_FIXED, stoeck=True, target=s1 + 20)
    play(swiss, "trump:H S6 HQ", None, None)
    assert swiss.is_terminal() and swiss.winners() == [1, 3]
    assert swiss.scores()[:2] == [0, s1 + 20] and spectator(swiss)["stoeck"] == 3
