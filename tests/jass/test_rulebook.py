"""Every rule statement of the Jass rule sheet (seeds/004), one test each, quoting the sheet.

Weis, Stöck and Match are in test_weis.py; the rulings that go beyond the sheet in test_rulings.py.
"""

from __future__ import annotations

import json
import random

import pytest

import stichkit

from .helpers import (
    ALL_CARDS,
    BASIC,
    DS_BUT_7,
    complete_deal,
    finish_deal,
    first_legal,
    legal,
    new_state,
    play,
    play_deal_checked,
    ref_points,
    ref_winner,
    spectator,
)


def started(fixed, trump="H", **kw):
    """A state of `fixed` (seat -> cards, seat 0 must hold D7) with trump chosen by seat 0."""
    state = new_state(fixed, **kw)
    assert state.current_player == 0
    state.apply(f"trump:{trump}")
    return state


# -- "Regel 36 Karten, von 6 bis AS" ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_regel_36_karten_von_6_bis_as(seed):
    """ "Regel 36 Karten, von 6 bis AS" and "In jeder Farbe gibt es die Karten 6, 7, 8, 9, 10, den
    Buben, die Dame, den König und das AS." (suits Käse D, Zug H, Schokolade S, Berg C)."""
    state = stichkit.load_game("jass").new_state(seed=seed)
    hands = [state.view(s)["hand"] for s in range(4)]
    assert sorted(c for h in hands for c in h) == sorted(ALL_CARDS)
    assert len(ALL_CARDS) == 36


def test_each_player_gets_nine_cards_not_sieben():
    """ "Danach teilt er oder sie sieben Karten ... aus": a misprint, 36 cards / 4 players = 9 each
    (RULINGS.md Jass: "9 cards each (the sheet's "sieben Karten" is a misprint")."""
    for seed in range(3):
        state = stichkit.load_game("jass").new_state(seed=seed)
        assert spectator(state)["hand_sizes"] == [9, 9, 9, 9]
        assert all(len(state.view(s)["hand"]) == 9 for s in range(4))
    # a deal of seven cards a hand is refused
    with pytest.raises(stichkit.DealError):
        stichkit.load_game("jass").new_state(deal={"hands": [ALL_CARDS[i * 7 : i * 7 + 7] for i in range(4)]})


def test_every_card_is_an_action():
    """ "In jeder Farbe gibt es die Karten 6, 7, 8, 9, 10, den Buben, die Dame, den König und das AS." """
    game = stichkit.load_game("jass")
    for card in ALL_CARDS:
        assert str(game.parse_action(card)) == card
    for bad in ("D5", "H1", "X7", "DB"):
        with pytest.raises(stichkit.NotationError):
            game.parse_action(bad)


# -- "Vier Spieler/innen teilen sich in Teams zu je zwei ..." ------------------------------------


def test_vier_spieler_in_teams_zu_je_zwei():
    """ "Vier Spieler/innen teilen sich in Teams zu je zwei Spieler/innen auf und stehen ihren
    Spielpartner/innen gegenüber." Seats 0+2 against 1+3: partners share one score."""
    game = stichkit.load_game("jass", weis="off")
    assert game.num_players == 4
    state = game.new_state(deal=BASIC)
    play(state, "trump:H DA S9 D6 C7")  # seat 0 takes the trick
    assert spectator(state)["tricks"][0]["winner"] == 0
    assert spectator(state)["deal_points"] == [11, 0]
    finish_deal(state)
    s = state.scores()
    assert s[0] == s[2] and s[1] == s[3]


# -- "Wert der Karten" --------------------------------------------------------------------------

SHEET_PLAIN = {"6": 0, "7": 0, "8": 0, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
SHEET_TRUMP = {**SHEET_PLAIN, "9": 14, "J": 20}


def _one_card_trick(card, mode, zeros, profile="seed"):
    """Seat 0 leads zeros[0] (clubs), seat 3 (no clubs) plays `card`, seats 2 and 1 follow with
    zeros[1], zeros[2]: the trick is worth exactly the points of `card`."""
    seat3 = [card, *DS_BUT_7]
    state = new_state({0: ["D7", zeros[0]], 3: seat3, 2: [zeros[1]], 1: [zeros[2]]}, profile=profile, stoeck=False)
    play(state, f"trump:{mode}", zeros[0], card, zeros[1], zeros[2])
    return spectator(state)["tricks"][0]["points"]


@pytest.mark.parametrize("rank", list(SHEET_PLAIN))
def test_wert_der_karten_plain(rank):
    """ "Die Karten 6, 7, 8 und 9 sind 0 Punkte wert, aber die 10 ist 10 Punkte wert; der Bube ist 2
    Punkte wert; die Dame ist 3 Punkte wert; der König ist 4 Punkte wert; das Ass ist 11 Punkte wert." """
    assert _one_card_trick("S" + rank, "H", ["C6", "C7", "C8"]) == SHEET_PLAIN[rank]


@pytest.mark.parametrize("rank", list(SHEET_TRUMP))
def test_wert_der_karten_trumpf_nell_bour(rank):
    """ "In der Trumpffarbe ändert sich der Wert der Karten: 6, 7, 8, 10, Dame und König behalten ihre
    Punktzahl, aber die 9, die jetzt "Nell" genannt wird, ist 14 Punkte wert, und der Bube wird zur
    Hauptkarte, die "Bour" genannt wird und 20 Punkte wert ist." """
    assert _one_card_trick("H" + rank, "H", ["C6", "C7", "C8"]) == SHEET_TRUMP[rank]


@pytest.mark.parametrize("mode", ["D", "H", "S", "C"])
def test_gesamtpunktzahl_157_und_fuenf_von_der_spitze(mode):
    """ "Die Gesamtpunktzahl eines Kartenspiels beträgt 157 Punkte. Beachten Sie, dass dem Team, das
    die letzte Scholle ... aufgesammelt hat, 5 Punkte hinzugefügt werden." Every trick's points are
    checked against the sheet's card values, over random deals."""
    for seed in range(12):
        state = stichkit.load_game("jass", weis="off", stoeck=False).new_state(seed=seed)
        state.apply(f"trump:{mode}")
        play_deal_checked(state, random.Random(seed), check_winner=False)
        assert sum(spectator(state)["previous_deals"][0]["trick_points"]) == 157


@pytest.mark.parametrize("mode", ["D", "H", "S", "C"])
def test_trick_winners_follow_the_sheet(mode):
    """ "Die Person, die die höchste Karte gelegt hat, nimmt die Scholle mit." Every trick of random
    deals is checked against an independent reference (trump order J > 9 > A > K > Q > 10 > 8 > 7 > 6,
    plain order A K Q J 10 9 8 7 6, RULINGS.md Jass), and each deal's trick points per team."""
    for seed in range(12):
        state = stichkit.load_game("jass", weis="off", stoeck=False).new_state(seed=seed)
        state.apply(f"trump:{mode}")
        expected = play_deal_checked(state, random.Random(seed), check_winner=True)
        assert spectator(state)["previous_deals"][0]["trick_points"] == expected


def test_fuenf_von_der_spitze_last_trick():
    """ "Die Spieler/innen, die den letzten Stich gewinnen, erhalten die "Fünf von der Spitze" (5 Punkte)." """
    for seed in range(4):
        state = stichkit.load_game("jass", weis="off", stoeck=False).new_state(seed=seed)
        state.apply("trump:S")
        for _ in range(32):
            first_legal(state)
        v = spectator(state)
        assert len(v["tricks"]) == 8 and v["hand_sizes"] == [1, 1, 1, 1]
        before = v["deal_points"]
        leader = state.current_player
        cards = []
        for _ in range(4):
            cards.append(state.view(state.current_player)["hand"][0])
            first_legal(state)
        winner = ref_winner(cards, leader, "S")
        after = spectator(state)["previous_deals"][0]["trick_points"]
        gained = [after[t] - before[t] for t in (0, 1)]
        assert gained[winner % 2] == sum(ref_points(c, "S") for c in cards) + 5
        assert gained[1 - winner % 2] == 0


# -- "Ablauf des Spiels" ------------------------------------------------------------------------


@pytest.mark.parametrize("holder", range(4))
def test_kaese_sieben_waehlt_trumpf_und_beginnt(holder):
    """ "In der allerersten Runde darf der Spieler oder die Spielerin mit der Käse-Sieben die
    Trumpfkarte wählen und die Runde beginnen." / "Der Spieler ... mit der Karo-7 beginnt"."""
    hands = [list(h) for h in BASIC["hands"]]
    hands[0], hands[holder] = hands[holder], hands[0]
    state = new_state({"hands": hands})
    v = spectator(state)
    assert (v["phase"], v["current_player"], v["forehand"]) == ("trump", holder, holder)
    assert legal(state) == {"trump:D", "trump:H", "trump:S", "trump:C", "push"}
    state.apply("trump:S")
    v = spectator(state)
    assert (v["phase"], v["current_player"], v["trump"], v["trump_chosen_by"]) == ("play", holder, "S", holder)


def test_erste_karte_seiner_wahl_wenn_moeglich_trumpf_ist_nur_ein_rat():
    """ "legt eine Karte seiner oder ihrer Wahl vor sich ab, wenn möglich eine Trumpfkarte": any card
    may be led, trumps or not (RULINGS.md Jass: "Leading: any card ... advice, not a rule")."""
    state = started({0: "D7 DJ S6 C6 H6"}, trump="H")
    assert legal(state) == set(state.view(0)["hand"])
    state.apply("S6")  # a plain card although trumps are held
    assert spectator(state)["trick"] == [{"seat": 0, "card": "S6"}]


def test_die_person_zu_seiner_rechten_folgt():
    """ "Die Person zu seiner/ihrer Rechten folgt": play goes counter-clockwise, 0 → 3 → 2 → 1."""
    state = new_state(BASIC)
    play(state, "trump:H")
    order = []
    for _ in range(4):
        order.append(state.current_player)
        first_legal(state)
    assert order == [0, 3, 2, 1]
    assert spectator(state)["tricks"][0]["leader"] == 0


def test_must_follow_the_led_suit():
    """ "Die Person zu seiner/ihrer Rechten folgt und fährt mit der gleichen Farbe fort" — with the
    led suit in hand you play that suit (or a trump, "abschneiden")."""
    state = started({0: "D7 SA", 3: "S6 S9 H7 HJ D6 D8 C6 CQ CA"}, trump="H")
    state.apply("SA")
    assert legal(state) == {"S6", "S9", "H7", "HJ"}
    with pytest.raises(stichkit.IllegalActionError, match="must follow"):
        state.apply("D6")


def test_without_the_led_suit_any_card():
    """ "wenn diese Person keine Karte mit der gleichen Farbe legen kann, darf sie mit einer anderen
    Karte ihrer Wahl fortfahren." """
    hand3 = "H7 HJ D6 D8 D9 C6 CQ CA CK"
    state = started({0: "D7 SA", 3: hand3}, trump="H")
    state.apply("SA")
    assert legal(state) == set(hand3.split())
    state.apply("C6")  # neither the led suit nor a trump


def test_trumpf_ausgespielt_alle_muessen_trumpf_legen():
    """ "Wenn der erste Spieler einen Trumpf ablegt, müssen alle Spieler unabhängig von der Scholle
    eine Karte in der Farbe des Trumpfes ablegen." """
    state = started({0: "D7 H6", 3: "H7 H8 S6 S9 D6 D8 C6 CQ CA"}, trump="H")
    state.apply("H6")
    assert legal(state) == {"H7", "H8"}
    with pytest.raises(stichkit.IllegalActionError, match="trump"):
        state.apply("S6")


def test_bour_muss_nicht_ausgespielt_werden():
    """ "Wenn die Trumpffarbe ausgespielt wird und einer der Spieler den "Bour" hat, muss er ihn nicht
    ausspielen, auch wenn er nur noch diese eine Karte in dieser Farbe hat." """
    hand3 = "HJ S6 S9 D6 D8 C6 CQ CA CK"
    state = started({0: "D7 H6", 3: hand3}, trump="H")
    state.apply("H6")
    assert legal(state) == set(hand3.split())  # Bour as only trump: any card
    state.apply("S6")


def test_bour_mit_anderem_trumpf_muss_trumpf_folgen():
    """ "Wenn die Trumpffarbe ausgespielt wird ... muss er ihn nicht ausspielen": with the Bour and
    another trump, trump must be followed — by either trump, the Bour included."""
    state = started({0: "D7 H6", 3: "HJ H7 S6 S9 D6 D8 C6 CQ CA"}, trump="H")
    state.apply("H6")
    assert legal(state) == {"HJ", "H7"}


def test_abschneiden_mit_trumpf():
    """ "Um die Scholle zu gewinnen, kann man sie "abschneiden", indem man einen Trumpf ablegt." Also
    while still holding the led suit."""
    state = started({0: "D7 SA H6 H7 H8 H9 H10 HQ HK", 3: "S6 HJ HA D6 D8 D9 C6 CQ CA"}, trump="H")
    state.apply("SA")
    assert "HA" in legal(state)  # a trump although S6 could follow
    state.apply("HA")  # seats 2 and 1 hold no trump
    play(state, None, None)
    assert spectator(state)["tricks"][0]["winner"] == 3


def test_ueberstechen_mit_hoeherem_trumpf():
    """ "Man kann auch "überstechen", indem man eine Trumpfkarte mit einem höheren Wert ablegt." """
    state = started(
        {0: "D7 S6 HJ H9 HA", 3: "HQ D6 D8 D9 C6 CQ CA CK C7", 2: "HK H7 D10 DJ C8 C9 C10 CJ DQ"}, trump="H"
    )
    play(state, "S6 HQ")
    assert "HK" in legal(state)
    play(state, "HK", None)
    assert spectator(state)["tricks"][0]["winner"] == 2


def test_hoechste_karte_nimmt_die_scholle_und_spielt_aus():
    """ "Die Person, die die höchste Karte gelegt hat, nimmt die Scholle mit. Sie legt nun eine Karte
    ihrer Wahl ab, um den nächsten Stich zu beginnen." """
    state = new_state(BASIC)
    play(state, "trump:H S6 H9 D6 SA")  # seat 3 trumps with the Nell
    v = spectator(state)
    assert v["tricks"][0]["winner"] == 3
    assert state.current_player == 3
    assert legal(state) == set(state.view(3)["hand"])  # "eine Karte ihrer Wahl"


def test_runde_beendet_wenn_niemand_mehr_karten_hat():
    """ "Die Runde ist beendet, wenn niemand mehr eine Karte auf der Hand hat." After nine tricks a
    new deal of nine cards each begins."""
    state = new_state(BASIC)
    state.apply("trump:H")
    for trick in range(9):
        assert spectator(state)["hand_sizes"] == [9 - trick] * 4
        for _ in range(4):
            first_legal(state)
    v = spectator(state)
    assert v["deal_number"] == 1 and v["hand_sizes"] == [9, 9, 9, 9]
    assert len(v["previous_deals"]) == 1


def test_folgende_blaetter_rechts_vom_geber_waehlt_trumpf():
    """ "In den folgenden Blättern bestimmt der Spieler oder die Spielerin rechts vom Geber den
    "Trumpf"." and "Der Spieler ..., der/die Trumpf gespielt hat, wird zum Dealer und der Spieler ...
    zu seiner/ihrer Rechten muss den Trumpf auswählen." Deal 1: seat 0 chose; deal 2: seat 3 (the
    next in playing order) chooses and leads; deal 3: seat 2."""
    state = new_state(BASIC)
    expected = [0, 3, 2, 1, 0]
    for deal, chooser in enumerate(expected):
        v = spectator(state)
        assert (v["deal_number"], v["phase"], v["current_player"], v["forehand"]) == (deal, "trump", chooser, chooser)
        state.apply("trump:C")
        assert state.current_player == chooser  # the chooser leads the first trick
        finish_deal(state)
        if state.is_terminal():
            break


def test_chibrieren_partner_benennt_trumpf():
    """ "Der/die Geber/in kann, wenn seine/ihre Karten ihm/ihr nicht erlauben, ein gutes Spiel zu
    machen, "chibrieren" - also die Hand an seinen/ihren Partner/in weitergeben - damit dieser/diese
    den Trumpf benennt." """
    state = new_state(BASIC)
    state.apply("push")
    v = spectator(state)
    assert (v["phase"], v["current_player"], v["pushed"]) == ("pushed", 2, True)
    state.apply("trump:S")
    v = spectator(state)
    assert (v["trump"], v["trump_chosen_by"], v["pushed"], v["current_player"]) == ("S", 2, True, 0)


# -- "Ziel des Spiels" / "Das Spiel endet ..." ---------------------------------------------------


@pytest.mark.parametrize("target", [1000, 1500, 2000])
def test_ziel_1000_1500_2000_punkte(target):
    """ "Das erste Team, das 1000 Punkte, 1500 Punkte oder 2000 Punkte erreicht, gewinnt das Spiel."
    and "Das Spiel endet, wenn ein Team 1000 Punkte, 1500 Punkte usw. erreicht hat." """
    game = stichkit.load_game("jass", target=target)
    assert game.options["target"] == target
    state = game.new_state(seed=target)
    while not state.is_terminal():
        first_legal(state)
    s = state.scores()
    win = state.winners()
    assert len(win) == 2 and win[1] == win[0] + 2
    assert s[win[0]] >= target and s[1 - win[0]] < target
    assert state.current_player is None and state.legal_actions() == []
    assert spectator(state)["winners"] == win
    json.dumps(state.view(None))


def test_punkte_durch_ansagen_oder_karten():
    """ "Die Punkte werden durch die Ansagen oder die Punkte auf den Karten der erhaltenen Schollen
    gesammelt." A deal's total is its trick points plus its Weis and Stöck."""
    for seed in range(6):
        state = stichkit.load_game("jass").new_state(seed=seed)
        finish_deal(state)
        d = spectator(state)["previous_deals"][0]
        for t in (0, 1):
            bonus = 100 if d["match"] == t else 0
            assert d["total"][t] == d["trick_points"][t] + d["weis"][t] + d["stoeck"][t] + bonus - d["voided"][t]
        assert spectator(state)["scores"] == d["total"]


def test_unknown_trump_modes_not_in_seed_profile():
    """ "Zu Beginn jedes Spiels bestimmt ein Spieler oder eine Spielerin eine Farbe als "Trumpf"." In
    the seed profile trump is one of the four suits; Obenabe/Undenufe are schieber only."""
    state = new_state(BASIC)
    assert legal(state) == {"trump:D", "trump:H", "trump:S", "trump:C", "push"}
    with pytest.raises(stichkit.IllegalActionError):
        state.apply("trump:obe")


def test_complete_deal_helper_is_sound():
    d = complete_deal({0: "D7"})
    assert sorted(c for h in d["hands"] for c in h) == sorted(ALL_CARDS)
