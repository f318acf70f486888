"""The rules of Differenzler, each from the source that states it (docs/differenzler.md lists
them): worked examples on explicit deals.

Sources: Swisslos, "Differenzler Jass-Regeln" (swisslos.ch); jasswelt.ch, "Differenzler
Jassregel"; jassverzeichnis.ch, "Wie geht der Differenzler?"; jassonkel.ch, "Differenzler";
jassen.ch, "Differenzler"; differenzler.ch, "Spielregeln".
"""

from __future__ import annotations

import pytest

import stichkit
from stichkit import DealError, IllegalActionError, OptionError

# Seat 0 holds every trump (Käse), the others one suit each: seat 0 leads and takes every trick.
SUITED = {"hands": [[s + r for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")] for s in "DHSC"]}


def game(**options: object) -> stichkit.Game:
    return stichkit.load_game("differenzler", **options)


def play_out(state: stichkit.State) -> None:
    """Play the deal in progress with the first legal card each time."""
    deal = state.view(None)["deal_number"]
    while not state.is_terminal() and state.view(None)["deal_number"] == deal:
        state.apply(state.legal_actions()[0])


def test_swisslos_the_penalty_is_the_difference_and_the_lowest_total_wins() -> None:
    """Swisslos: "Die Differenz zwischen der geschätzten und tatsächlich erzielten Anzahl Punkte
    wird als Differenzpunkte gewertet ... Der Spieler mit der geringsten Anzahl Differenzpunkte
    ... gewinnt." Seat 0 takes all 157; the others take nothing."""
    state = game(deals=1, trump="in-turn").new_state(seed=1, deal=SUITED)
    for points in (150, 10, 0, 5):  # seats 0, 3, 2, 1: forehand first
        state.apply(f"predict:{points}")
    play_out(state)
    summary = state.view(None)["previous_deals"][0]
    assert summary["points"] == [157, 0, 0, 0]
    assert summary["penalties"] == [7, 5, 0, 10]
    assert state.winners() == [2] and state.scores() == [-7, -5, 0, -10]


def test_jasswelt_a_match_is_157_and_no_weis_or_stoeck_counts() -> None:
    """jasswelt.ch: "Es gelten die Kartenpunkte plus 5 Punkte für den letzten Stich, also total 157
    Punkte. Stöck- und Weispunkte können nicht gemeldet werden. Alle Stiche, auch ein Match, sind
    157 Punkte." Seat 0 holds Stöck and a nine-card Weis: still 157, not 257 or more."""
    state = game(deals=1, trump="in-turn").new_state(seed=1, deal=SUITED)
    for _ in range(4):
        state.apply("predict:157")
    play_out(state)
    assert state.view(None)["previous_deals"][0]["points"] == [157, 0, 0, 0]


def test_jasswelt_the_forehand_predicts_first_and_the_dealer_last() -> None:
    """jasswelt.ch: "Vorhand beginnt mit der ersten Ansage, dann meldet der nächstfolgende Spieler
    usw. Der Spielgeber ist der letzte Ansager." Then the forehand leads."""
    state = game(deals=2).new_state(seed=4)
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply("predict:40")
    assert order == [0, 3, 2, 1] and state.view(None)["dealer"] == 1
    assert state.view(None)["phase"] == "play" and state.current_player == 0
    play_out(state)
    view = state.view(None)
    assert (view["forehand"], view["dealer"], state.current_player) == (3, 0, 3)  # the next forehand is right


def test_jasswelt_an_exact_hit_takes_ten_off_but_a_zero_needs_a_trick() -> None:
    """jasswelt.ch: "Wer seine vorausgesagte Punktzahl genau erreicht hat, erhält 10 Bonuspunkte. Um
    bei einer Nullansage diese 10 Bonuspunkte gutgeschrieben zu bekommen, ist ein Stich mit Null
    Punkten erforderlich." (option exact_bonus=10)."""
    state = game(deals=1, trump="in-turn", exact_bonus=10).new_state(seed=1, deal=SUITED)
    for points in (157, 0, 0, 0):
        state.apply(f"predict:{points}")
    play_out(state)
    assert state.view(None)["previous_deals"][0]["penalties"] == [-10, 0, 0, 0]  # zeros without a trick: no bonus


def test_jassen_ch_the_dealers_last_card_is_turned_up_and_sets_trump() -> None:
    """jassen.ch: "die letzte Karte des Gebers ... wird aufgedeckt und bestimmt die Trumpf-Farbe";
    jassonkel.ch: the "Ablupf" lies face up until all have bid. Everybody sees it in the dealer's hand."""
    state = game().new_state(seed=8)
    view = state.view(2)
    card, dealer = view["trump_card"], view["dealer"]
    assert card[0] == view["trump"] and card in state.view(dealer)["hand"]
    assert all(state.view(s)["trump_card"] == card for s in (0, 1, 2, 3, None))


def test_a_turned_up_card_must_be_the_dealers() -> None:
    deal = dict(SUITED, trump_card="DA")  # deal 0's dealer is seat 1, who holds hearts
    with pytest.raises(DealError, match=r"not in the dealer's hand \(seat 1\)"):
        game().new_state(deal=deal)
    state = game().new_state(deal=dict(SUITED, trump_card="HA"))
    assert state.view(None)["trump"] == "H"


def test_differenzler_ch_hidden_predictions_show_at_the_end_open_ones_at_once() -> None:
    """differenzler.ch: "Bei der verdeckten Ansage erfahren die anderen Mitspieler erst nach Ende der
    Runde wie viel jeder angesagt hat. Hingegen wird beim offenen Differenzler die Ansage für die
    anderen Mitspieler bereits am Anfang der Runde angezeigt." """
    hidden = game(deals=1).new_state(seed=2)
    opened = game(deals=1, predictions="open").new_state(seed=2)
    for state in (hidden, opened):
        state.apply("predict:33")
    assert hidden.view(0)["predictions"][0] == 33 and hidden.view(3)["predictions"][0] is None
    assert hidden.view(3)["predicted"][0] is True  # that seat 0 has predicted is seen, not what
    assert opened.view(3)["predictions"][0] == 33 and opened.view(None)["predictions"][0] == 33


def test_jassverzeichnis_twelve_deals_make_a_game() -> None:
    """jassverzeichnis.ch: "Nach 12 Runden ist der Spieler mit dem kleinsten Total der Differenzen
    der Sieger" (jasswelt.ch: "Nach 12 Spielen (3 Umgängen)")."""
    assert game().options["deals"] == 12
    state = game(deals=2).new_state(seed=5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert len(state.view(None)["previous_deals"]) == 2


def test_swisslos_the_trump_jack_need_not_follow_trump() -> None:
    """Swisslos: "Wurde die Trumpffarbe ausgespielt, dann muss ebenfalls eine Trumpfkarte gespielt
    werden. Wer neben dem Trumpf-Bauer ... keine andere Trumpfkarte mehr besitzt, darf statt des
    Trumpf-Bauer ... auch jede andere Karte spielen" (Jass's rule, imported from the Jass rules)."""
    hands = [["D6", "H6", "H7", "H8", "H9", "H10", "HQ", "HK", "HA"],
             ["HJ", "S6", "S7", "S8", "S9", "S10", "SQ", "SK", "SA"],
             ["D7", "D8", "D9", "D10", "DQ", "DK", "DA", "SJ", "CJ"],
             ["DJ", "C6", "C7", "C8", "C9", "C10", "CQ", "CK", "CA"]]  # fmt: skip
    state = game(trump="in-turn").new_state(deal={"hands": hands})  # deal 0: trump D
    for _ in range(4):
        state.apply("predict:20")
    state.apply("D6")  # seat 0 leads trump; seat 3 holds only the Bour as trump
    assert {str(a) for a in state.legal_actions()} == {"DJ", "C6", "C7", "C8", "C9", "C10", "CQ", "CK", "CA"}


def test_refusals_say_what_is_due() -> None:
    state = game().new_state(seed=1)
    card = state.view(0)["hand"][0]
    with pytest.raises(IllegalActionError, match="must first predict") as refused:
        state.apply(card)
    assert refused.value.code == "not_legal_now" and refused.value.params == {"expected": "predict", "seat": 0}
    for _ in range(4):
        state.apply("predict:50")
    with pytest.raises(IllegalActionError, match="predictions are made") as refused:
        state.apply("predict:3")
    assert refused.value.params == {"expected": "play", "seat": 0}
    with pytest.raises(IllegalActionError, match="predict:0 to predict:157"):
        state.apply("predict:158")


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"deals": 0}, "must be positive"),
        ({"deals": 10**6}, "too large"),
        ({"predictions": "secret"}, "'hidden', 'open'"),
        ({"trump": "obe"}, "'turned-up', 'random', 'in-turn'"),
        ({"exact_bonus": 5}, "0, 10"),
    ],
)
def test_options_refuse_what_they_do_not_allow(options: dict[str, object], says: str) -> None:
    with pytest.raises(OptionError, match=says):
        game(**options)


@pytest.mark.parametrize(
    ("deal", "options", "says"),
    [
        (SUITED, {}, 'names its "trump_card"'),
        (dict(SUITED, trump_card="HA", trump="S"), {}, "not the suit of the trump card"),
        (dict(SUITED, trump_card="HA"), {"trump": "random"}, 'no "trump_card"'),
        (SUITED, {"trump": "random"}, 'names its "trump" suit'),
        (dict(SUITED, trump="H"), {"trump": "in-turn"}, "deal 0 has trump D"),
        (dict(SUITED, trump="X"), {"trump": "random"}, "not a suit"),
        ({"hands": SUITED["hands"][:3]}, {"trump": "in-turn"}, "exactly 4 hands"),
        ({"cards": []}, {}, "a Differenzler deal is"),
    ],
)
def test_explicit_deals_refuse_what_cannot_be(deal: object, options: dict[str, object], says: str) -> None:
    with pytest.raises(DealError, match=says):
        game(**options).new_state(deal=deal)
