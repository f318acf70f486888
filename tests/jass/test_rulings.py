"""The Jass rulings of RULINGS.md (General + Jass), one test each, citing the ruling.

Weis, Stöck, Match and the claiming order are in test_weis.py.
"""

from __future__ import annotations

import itertools
import random

import pytest

import stichkit

from .helpers import (
    BASIC,
    DS_BUT_7,
    RANKS,
    complete_deal,
    deal_of,
    finish_deal,
    first_legal,
    legal,
    new_state,
    play,
    play_deal_checked,
    spectator,
)

TRUMP_ORDER = ("6", "7", "8", "10", "Q", "K", "A", "9", "J")  # low to high, as ruled
PLAIN_ORDER = RANKS  # 6 low .. A high


def duel(mode, lead, over, profile="seed"):
    """Seat 0 leads `lead`, seat 3 plays `over` (same suit), seats 2 and 1 cannot take the trick
    (they hold neither that suit nor trump). Returns the trick's winner (0 or 3)."""
    s = lead[0]
    same = [s + r for r in RANKS if s + r not in (lead, over)]
    seat0 = ["D7", lead, *same]  # every other card of the suit, so seats 2 and 1 are void
    seat3 = [over]
    if mode in "DHSC" and mode != s:  # seats 2 and 1 must not hold trumps either
        seat3 += [mode + r for r in RANKS if mode + r != "D7"]
    state = new_state(complete_deal({0: seat0, 3: seat3}), profile=profile, stoeck=False)
    play(state, f"trump:{mode}", lead, over, None, None)
    return spectator(state)["tricks"][0]["winner"]


# -- General -------------------------------------------------------------------------------------


def test_general_seats_counter_clockwise():
    """RULINGS.md General: "Seats are numbered 0..n-1 ... Jass plays counter-clockwise: decreasing
    seat number." RULINGS.md Jass: "Play and deal go counter-clockwise"."""
    for forehand in range(4):
        hands = [list(h) for h in BASIC["hands"]]
        hands[0], hands[forehand] = hands[forehand], hands[0]
        state = new_state({"hands": hands})
        state.apply("trump:C")
        seen = []
        for _ in range(4):
            seen.append(state.current_player)
            first_legal(state)
        assert seen == [forehand, (forehand - 1) % 4, (forehand - 2) % 4, (forehand - 3) % 4]


def test_general_seed_reproducible_and_explicit_deal():
    """RULINGS.md General: "Every game is reproducible: `seed` fixes every shuffle and draw; an
    explicit deal can be given instead"."""
    game = stichkit.load_game("jass")
    a, b = game.new_state(seed=7), game.new_state(seed=7)
    for _ in range(60):
        assert a.view(None) == b.view(None)
        assert [a.view(s)["hand"] for s in range(4)] == [b.view(s)["hand"] for s in range(4)]
        first_legal(a)
        first_legal(b)
    state = game.new_state(deal=BASIC)
    assert [sorted(state.view(s)["hand"]) for s in range(4)] == [sorted(h) for h in BASIC["hands"]]


def test_general_state_covers_whole_game():
    """RULINGS.md General: "A State covers a whole game (all deals until the game's end condition),
    not one deal." """
    state = stichkit.load_game("jass", target=400).new_state(seed=3)
    while not state.is_terminal():
        first_legal(state)
    v = spectator(state)
    assert len(v["previous_deals"]) >= 2
    assert max(v["scores"]) >= 400


# -- Jass, both profiles ---------------------------------------------------------------------------


def test_jass_suits_and_notation():
    """RULINGS.md Jass: "canonical notation uses the French letters ...: Käse = D ..., Zug = H,
    Schokolade = S, Berg = C. Ranks 6 7 8 9 10 J Q K A." """
    state = new_state(BASIC)
    assert sorted(state.view(0)["hand"]) == sorted(BASIC["hands"][0])
    for text in ("trump:D", "trump:H", "trump:S", "trump:C"):
        assert str(state.game.parse_action(text)) == text
    state.apply("trump:D")
    assert spectator(state)["trump"] == "D"


def test_jass_nine_cards_each_teams_0_2_and_1_3():
    """RULINGS.md Jass: "9 cards each (the sheet's "sieben Karten" is a misprint: 36 / 4 = 9).
    Teams: seats 0+2 and 1+3." """
    state = new_state(BASIC)
    assert spectator(state)["hand_sizes"] == [9] * 4
    play(state, "trump:H S6 H9 D6 SA")  # seat 3 takes the trick with the Nell (14 + 11)
    assert spectator(state)["deal_points"] == [0, 25]
    assert state.scores() == [0, 25, 0, 25]  # tricks are written at once: partners share the score


def test_jass_first_deal_d7_holder_chooses_and_leads():
    """RULINGS.md Jass: "First deal: the holder of Käse-7 (D7) chooses trump and leads." """
    for holder in range(4):
        state = new_state(complete_deal({holder: "D7"}, seed=holder))
        assert state.current_player == holder
        state.apply("trump:S")
        assert state.current_player == holder
        v = spectator(state)
        assert v["trump_chosen_by"] == holder and v["forehand"] == holder


def test_jass_later_deals_next_player_chooses_and_leads():
    """RULINGS.md Jass: "Later deals: the previous trump chooser deals, and the player to the
    dealer's right (next in playing order) chooses trump and leads the first trick." """
    state = new_state(complete_deal({2: "D7"}), target=5000)
    for deal, chooser in enumerate([2, 1, 0, 3]):
        v = spectator(state)
        assert (v["deal_number"], v["forehand"], v["current_player"]) == (deal, chooser, chooser)
        state.apply("trump:H")
        assert state.current_player == chooser
        finish_deal(state)
    prev = spectator(state)["previous_deals"]
    assert [d["forehand"] for d in prev] == [2, 1, 0, 3]
    assert [d["chooser"] for d in prev] == [2, 1, 0, 3]


def test_jass_push_partner_must_choose_original_chooser_leads():
    """RULINGS.md Jass: "Pushing ...: the player who is to choose trump may pass the choice to their
    partner, who must then choose. ... The original chooser still leads." """
    state = new_state(BASIC)
    assert "push" in legal(state)
    state.apply("push")
    assert state.current_player == 2
    assert legal(state) == {"trump:D", "trump:H", "trump:S", "trump:C"}  # no pushing back
    before = state.record(), [state.view(s) for s in (None, 0, 1, 2, 3)]
    with pytest.raises(stichkit.IllegalActionError, match="push"):
        state.apply("push")
    assert (state.record(), [state.view(s) for s in (None, 0, 1, 2, 3)]) == before
    state.apply("trump:C")
    v = spectator(state)
    assert (v["trump"], v["trump_chosen_by"], v["pushed"], v["forehand"], v["current_player"]) == ("C", 2, True, 0, 0)
    finish_deal(state)
    d = spectator(state)["previous_deals"][0]
    assert (d["chooser"], d["pushed"], d["forehand"]) == (2, True, 0)


def test_jass_push_does_not_change_the_rotation():
    """RULINGS.md Jass: "Later deals: ... the player to the dealer's right (next in playing order)
    chooses" — after a pushed deal the next forehand is still the previous forehand's right-hand
    neighbour (forehand - 1), who may push again in their turn."""
    state = new_state(BASIC)
    play(state, "push trump:D")
    finish_deal(state)
    v = spectator(state)
    assert (v["forehand"], v["current_player"], v["pushed"], v["trump_chosen_by"]) == (3, 3, False, None)
    state.apply("push")
    assert state.current_player == 1
    state.apply("trump:S")
    assert state.current_player == 3
    assert spectator(state)["trump_chosen_by"] == 1


def test_jass_leading_any_card():
    """RULINGS.md Jass: "Leading: any card ("wenn möglich eine Trumpfkarte" is advice, not a rule)."
    Also for later tricks: the trick winner may lead any card."""
    state = new_state(BASIC)
    state.apply("trump:D")
    assert legal(state) == set(BASIC["hands"][0])
    play(state, "S6 S9 D6 SA")  # seat 2 trumps with D6, wins
    assert state.current_player == 2
    assert legal(state) == set(state.view(2)["hand"])


def test_jass_may_always_trump_instead_of_following():
    """RULINGS.md Jass: "Following: follow the led suit if you can; you may always play a trump
    instead ("abschneiden", "überstechen")." """
    state = new_state(BASIC)
    play(state, "trump:H S6")
    assert legal(state) == {"S9", "S10", "SJ", "SQ", "SK", "HJ", "H9", "HA", "HK"}
    state.apply("HK")


def test_jass_without_led_suit_any_card():
    """RULINGS.md Jass: "Without the led suit, any card." """
    state = new_state(BASIC)
    play(state, "trump:S DA")
    assert legal(state) == set(BASIC["hands"][3])


def test_jass_trump_led_must_follow_trump():
    """RULINGS.md Jass: "If trump is led you must follow trump"."""
    state = new_state(BASIC)
    play(state, "trump:D DA")
    assert state.current_player == 3
    assert legal(state) == set(BASIC["hands"][3])  # no trump at all: any card
    play(state, "S9")
    assert legal(state) == {"D6", "D8", "D9", "D10"}
    with pytest.raises(stichkit.IllegalActionError, match="must follow trump"):
        state.apply("H6")


def test_jass_bour_only_trump_may_play_any_card():
    """RULINGS.md Jass: "except that the Bour (trump Jack) never has to be played: if it is your only
    trump you may play any card." """
    state = new_state(deal_of(
        "D7 C6 S6 S7 S8 H6 D8 D9 D10",
        "SA C7 C8 C9 C10 HJ CQ CK CA",
        "D6 DJ DQ DK DA H7 H8 H10 HQ",
        "CJ H9 HA HK S9 S10 SJ SQ SK",
    ))  # fmt: skip
    play(state, "trump:C C6")
    assert legal(state) == set(state.view(3)["hand"])  # CJ is seat 3's only trump
    play(state, "H9")
    assert legal(state) == {"D6", "DJ", "DQ", "DK", "DA", "H7", "H8", "H10", "HQ"}
    play(state, "D6")
    assert legal(state) == {"C7", "C8", "C9", "C10", "CQ", "CK", "CA"}


def test_jass_bour_with_other_trump_must_follow_but_may_play_bour():
    """RULINGS.md Jass: "If trump is led you must follow trump, except that the Bour ... never has
    to be played" — holding the Bour and another trump, trump must be followed, the Bour is one of
    the allowed trumps."""
    state = new_state(deal_of(
        "D7 C6 S6 S7 S8 H6 D8 D9 D10",
        "SA C8 C9 C10 HJ CQ CK CA SQ",
        "D6 DJ DQ DK DA H7 H8 H10 HQ",
        "CJ C7 H9 HA HK S9 S10 SJ SK",
    ))  # fmt: skip
    play(state, "trump:C C6")
    assert legal(state) == {"CJ", "C7"}
    state.apply("CJ")


def test_jass_undertrump_ban_when_void():
    """RULINGS.md Jass: "Undertrumping is forbidden ...: when a non-trump suit was led and the trick
    already holds a trump, you may not play a lower trump than the highest one in the trick, unless
    your hand holds nothing but trumps." Overtrumping stays legal."""
    fixed = {0: "D7 S6 HJ H9 HA", 3: "HQ D6 D8 D9 C6 CQ CA CK C7", 2: "HK H7 D10 DJ C8 C9 C10 CJ DQ"}
    state = new_state(fixed)
    play(state, "trump:H S6 HQ")
    assert legal(state) == {"HK", "D10", "DJ", "DQ", "C8", "C9", "C10", "CJ"}
    before = state.record(), [state.view(s) for s in (None, 0, 1, 2, 3)], legal(state)
    with pytest.raises(stichkit.IllegalActionError, match="undertrump") as err:
        state.apply("H7")
    assert "H7" in str(err.value) and "HQ" in str(err.value)
    assert (state.record(), [state.view(s) for s in (None, 0, 1, 2, 3)], legal(state)) == before
    state.apply("HK")  # overtrumping


def test_jass_undertrump_ban_when_holding_led_suit():
    """RULINGS.md Jass: "you may not play a lower trump than the highest one in the trick" — also
    when the led suit could be followed: follow, or overtrump."""
    fixed = {0: "D7 S6 HJ H9 HA", 3: "HQ D6 D8 D9 C6 CQ CA CK C7", 2: "HK H7 S7 S8 C8 C9 C10 CJ DQ"}
    state = new_state(fixed)
    play(state, "trump:H S6 HQ")
    assert legal(state) == {"HK", "S7", "S8"}
    with pytest.raises(stichkit.IllegalActionError, match="undertrump"):
        state.apply("H7")


def test_jass_undertrump_ban_against_the_highest_trump():
    """RULINGS.md Jass: "you may not play a lower trump than the highest one in the trick" — the
    highest, not the first: after H10 and HA, seat 1's HK (above H10, below HA) is an undertrump; H9
    (above HA) is fine. Also when the highest trump is the partner's."""
    fixed = {0: "D7 S6", 3: "H10", 2: "HA", 1: "HK H6 H9 D6 D8 C6 C7 C8 C9"}
    state = new_state(fixed)
    play(state, "trump:H S6 H10 HA")
    assert legal(state) == {"H9", "D6", "D8", "C6", "C7", "C8", "C9"}
    with pytest.raises(stichkit.IllegalActionError, match="HA"):
        state.apply("HK")


def test_jass_undertrump_allowed_with_nothing_but_trumps():
    """RULINGS.md Jass: "... unless your hand holds nothing but trumps." Seat 2 keeps only trumps
    (H6 H7 H8 H10 HQ) after four D tricks; seat 3 trumps a spade with HA; seat 2 may undertrump."""
    state = new_state(BASIC)
    play(state, "trump:H", "DA S9 D6 C7", "DK S10 D8 C8", "DQ SJ D9 C9", "DJ SQ D10 C10")
    assert [t["winner"] for t in spectator(state)["tricks"]] == [0, 0, 0, 0]
    assert sorted(state.view(2)["hand"]) == sorted(["H6", "H7", "H8", "H10", "HQ"])
    play(state, "S6 HA")
    assert legal(state) == {"H6", "H7", "H8", "H10", "HQ"}
    state.apply("H6")


def test_jass_no_trump_no_undertrump_in_obenabe_undenufe():
    """RULINGS.md Jass: "The same applies when trump is named Obenabe/Undenufe: there is no trump, so
    there is no undertrumping." Following the led suit is all that is asked; void, any card."""
    for mode in ("obe", "une"):
        state = new_state(BASIC, profile="schieber")
        play(state, f"trump:{mode} S6")
        assert legal(state) == {"S9", "S10", "SJ", "SQ", "SK"}  # hearts are no trumps
        with pytest.raises(stichkit.IllegalActionError, match="no trump"):
            state.apply("HJ")
        play(state, "S9")
        assert legal(state) == set(BASIC["hands"][2])  # void in spades: any card, H included
        play(state, "H6")
        assert legal(state) == {"SA"}


@pytest.mark.parametrize("lo,hi", list(itertools.pairwise(TRUMP_ORDER)))
def test_jass_trump_order(lo, hi):
    """RULINGS.md Jass: "Trump order: J (Bour) > 9 (Nell) > A > K > Q > 10 > 8 > 7 > 6." (each
    neighbouring pair, both ways round)."""
    assert duel("H", "H" + lo, "H" + hi) == 3
    assert duel("H", "H" + hi, "H" + lo) == 0


@pytest.mark.parametrize("other", TRUMP_ORDER[:-1])
def test_jass_bour_is_the_highest_trump(other):
    """RULINGS.md Jass: "Trump order: J (Bour) > ..." / the sheet: "der Bube wird zur Hauptkarte"."""
    assert duel("S", "S" + other, "SJ") == 3


@pytest.mark.parametrize("lo,hi", list(itertools.pairwise(PLAIN_ORDER)))
def test_jass_plain_order(lo, hi):
    """RULINGS.md Jass: "Plain order: A K Q J 10 9 8 7 6." """
    assert duel("D", "S" + lo, "S" + hi) == 3
    assert duel("D", "S" + hi, "S" + lo) == 0


def test_jass_trump_beats_any_plain_card():
    """The sheet: "Um die Scholle zu gewinnen, kann man sie "abschneiden", indem man einen Trumpf
    ablegt." — the lowest trump beats the plain Ace."""
    state = new_state(complete_deal({0: "D7 SA", 3: "H6 D6 D8 D9 C6 CQ CA CK C7", 2: "HJ H9 HA HK HQ H10 H8 H7 D10"}))
    play(state, "trump:H SA H6")
    play(state, "D10", None)
    assert spectator(state)["tricks"][0]["winner"] == 3


@pytest.mark.parametrize("mode", ["D", "H", "S", "C", "obe", "une"])
def test_jass_card_points_deal_totals_157(mode):
    """RULINGS.md Jass: "Card points: plain A 11, 10 10, K 4, Q 3, J 2, others 0; trump J 20, 9 14.
    Last trick +5. A deal totals 157." and (schieber) "Obenabe (no trump, A high, 8 worth 8) and
    Undenufe (no trump, 6 high, 6 worth 11, 8 worth 8, A worth 0)": also 157."""
    game = stichkit.load_game("jass", profile="schieber", weis="off", stoeck=False)
    for seed in range(10):
        state = game.new_state(seed=seed)
        state.apply(f"trump:{mode}")
        play_deal_checked(state, random.Random(seed), check_winner=mode in ("obe", "une"))
        d = spectator(state)["previous_deals"][0]
        assert sum(d["trick_points"]) == 157
        assert d["total"] == [d["trick_points"][t] + (100 if d["match"] == t else 0) for t in (0, 1)]


OBE_POINTS = {"6": 0, "7": 0, "8": 8, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
UNE_POINTS = {"6": 11, "7": 0, "8": 8, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 0}


@pytest.mark.parametrize(
    "mode,rank,points",
    [("obe", r, p) for r, p in OBE_POINTS.items()] + [("une", r, p) for r, p in UNE_POINTS.items()],
)
def test_jass_obenabe_undenufe_card_points(mode, rank, points):
    """RULINGS.md Jass (schieber): "Obenabe (no trump, A high, 8 worth 8) and Undenufe (no trump, 6
    high, 6 worth 11, 8 worth 8, A worth 0)". Seat 3 plays the card onto three zero cards."""
    zeros = ["C6", "C7", "C9"] if mode == "obe" else ["C7", "C9", "CA"]
    seat3 = ["S" + rank, *DS_BUT_7]
    state = new_state({0: ["D7", zeros[0]], 3: seat3, 2: [zeros[1]], 1: [zeros[2]]}, profile="schieber")
    play(state, f"trump:{mode}", zeros[0], "S" + rank, zeros[1], zeros[2])
    assert spectator(state)["tricks"][0]["points"] == points


@pytest.mark.parametrize("lo,hi", list(itertools.pairwise(PLAIN_ORDER)))
def test_jass_obenabe_ace_high_undenufe_six_high(lo, hi):
    """RULINGS.md Jass (schieber): "Obenabe (no trump, A high ...)" and "Undenufe (no trump, 6 high ...)"."""
    assert duel("obe", "S" + lo, "S" + hi, profile="schieber") == 3
    assert duel("obe", "S" + hi, "S" + lo, profile="schieber") == 0
    assert duel("une", "S" + hi, "S" + lo, profile="schieber") == 3
    assert duel("une", "S" + lo, "S" + hi, profile="schieber") == 0


def test_jass_obenabe_undenufe_only_in_schieber():
    """RULINGS.md Jass: "`schieber` profile: Trump modes also Obenabe ... and Undenufe"."""
    seed_state = new_state(BASIC)
    assert legal(seed_state) == {"trump:D", "trump:H", "trump:S", "trump:C", "push"}
    with pytest.raises(stichkit.IllegalActionError, match="not played in the seed profile"):
        seed_state.apply("trump:une")
    state = new_state(BASIC, profile="schieber")
    assert legal(state) == {"trump:D", "trump:H", "trump:S", "trump:C", "trump:obe", "trump:une", "push"}
    state.apply("trump:obe")
    assert spectator(state)["trump"] == "obe"


def test_jass_match_257():
    """RULINGS.md Jass: "Match (all 9 tricks): +100, i.e. 257 (the sheet's "256" is an arithmetic
    slip)." Seat 0 holds all nine trumps."""
    state = new_state(complete_deal({0: [f"D{r}" for r in RANKS]}), stoeck=False)
    play(state, "trump:D")
    finish_deal(state)
    d = spectator(state)["previous_deals"][0]
    assert (d["match"], d["trick_points"], d["total"]) == (0, [157, 0], [257, 0])
    assert state.scores() == [257, 0, 257, 0]


@pytest.mark.parametrize(
    "profile,target", [("seed", None), ("seed", 1500), ("seed", 2000), ("seed", 1), ("schieber", None)]
)
def test_jass_target_option(profile, target):
    """RULINGS.md Jass: "option `target`: 1000 default, 1500, 2000; any positive number allowed" and
    (schieber) "Default target 2500"."""
    opts = {"profile": profile} if target is None else {"profile": profile, "target": target}
    game = stichkit.load_game("jass", **opts)
    expected = target if target is not None else (1000 if profile == "seed" else 2500)
    assert game.options["target"] == expected
    assert game.new_state(seed=0).view(None)["target"] == expected


def test_jass_game_ends_when_target_reached_mid_deal():
    """RULINGS.md Jass: "the game ends the moment a team reaches the target" — not at the end of the
    deal. With target 20, the first trick worth 20 ends the game."""
    state = new_state(BASIC, target=20)
    play(state, "trump:H S6 H9 D6 SA")  # 25 points for seats 1+3
    assert state.is_terminal()
    assert state.current_player is None and state.legal_actions() == []
    assert state.winners() == [1, 3]
    assert state.scores() == [0, 25, 0, 25]
    v = spectator(state)
    assert v["winners"] == [1, 3]
    assert v["previous_deals"][-1]["complete"] is False
    with pytest.raises(stichkit.IllegalActionError, match="over"):
        state.apply("D7")


def test_jass_winners_are_both_partners():
    """RULINGS.md Jass: "first team to reach the target ... wins" — both partners are winners and
    carry the team's score."""
    for seed in range(3):
        state = stichkit.load_game("jass", target=300).new_state(seed=seed)
        while not state.is_terminal():
            first_legal(state)
        w = state.winners()
        s = state.scores()
        assert sorted(w) in ([0, 2], [1, 3])
        assert s[w[0]] == s[w[1]] >= 300
        assert s[(w[0] + 1) % 4] < 300


def test_jass_match_bonus_can_reach_the_target():
    """RULINGS.md Jass: "Match (all 9 tricks): +100" and "the game ends the moment a team reaches the
    target": with target 200 only the match bonus takes team 0 (157 trick points) over the target."""
    state = new_state(complete_deal({0: [f"D{r}" for r in RANKS]}), stoeck=False, target=200)
    play(state, "trump:D")
    while not state.is_terminal():
        assert spectator(state)["deal_number"] == 0
        first_legal(state)
    assert state.winners() == [0, 2] and state.scores() == [257, 0, 257, 0]


def test_jass_refusal_offers_a_trump_only_to_a_player_who_may_play_one():
    """A refusal says "or play a trump" only when the player holds a trump they may play now (the
    case with a trump to offer is in docs/jass.md: "... or play a trump (HJ)")."""
    state = new_state(BASIC)
    play(state, "trump:C S6")  # seat 3 holds spades but no Berg (C) at all
    with pytest.raises(stichkit.IllegalActionError) as refused:
        state.apply("HJ")
    assert str(refused.value) == "HJ: you must follow Schokolade (S) (S9, S10, SJ, SQ, SK)"
    state = new_state(BASIC)
    play(state, "trump:D S6 S9 D6")  # seat 2 trumps in; seat 1 holds SA and no Käse (D)
    with pytest.raises(stichkit.IllegalActionError) as refused:
        state.apply("C7")
    assert str(refused.value) == "C7: you must follow Schokolade (S) (SA)"
