"""The rulebook's own examples, step by step (seed 000_2c7951698b413616.txt, cited by line)."""

from __future__ import annotations

import pytest

from stichkit import IllegalActionError
from stichkit.games.stichwahl import CARDS, deal_points

from .helpers import ANDREAS, BEISPIEL, BEISPIEL_BONUS, JAN, LINA, TIM, legal, new, play


def test_beispielrunde_step_by_step() -> None:
    """Seed lines 19-55: the flip bonus, Lina trumping with Blauwal-9 after the flip, Jan's 5, Lina
    choosing Andreas' Narwal-2 for 3 points, Andreas keeping it as a bonus, Jan choosing the leader."""
    s = new(deal=BEISPIEL)
    v = s.view(None)
    # Line 23: "der Trumpfmarker mit der 1 nach oben auf dem Blauwal": Blauwal trump, lowest wins.
    assert (v["trump"], v["marker"]) == ("B", 1)
    play(s, *BEISPIEL_BONUS)  # seed line 134-135 (Spielvorbereitung 4): everyone lays a first bonus card
    # Line 35: "Andreas beginnt in dieser Runde. Er spielt den 2er-Narwal."
    assert s.current_player == ANDREAS
    play(s, "N2")
    # Line 27-31: Tim uses his bonus card with the arrows: the marker turns to 9, the highest card wins.
    assert s.current_player == TIM
    assert "use:O8" in legal(s)
    play(s, "use:O8")
    v = s.view(None)
    assert (v["trump"], v["marker"]) == ("B", 9)
    assert v["used_bonus"] == [{"seat": TIM, "card": "O8", "effect": "flip", "trick": 0}]
    assert v["bonus_cards"][TIM] == []  # line 150: the used card goes to the discard pile
    # Line 31: "Er muss – sofern er kann – auch einen Narwal spielen": N4, N6 or a 5, nothing else.
    assert [a for a in legal(s) if not a.startswith("use:")] == ["N4", "N6", "5c"]
    with pytest.raises(IllegalActionError, match="must follow Narwal"):
        s.apply("O6")
    play(s, "N6")
    # Line 39: Lina has no Narwal: any card; she plays Blauwal-9, trump, and holds the trick for now.
    assert s.current_player == LINA
    assert set(legal(s)) >= set(s.view(LINA)["hand"])
    play(s, "B9")
    # Line 43: Jan has a Narwal but plays a 5 (a 5 may always be played).
    assert s.current_player == JAN and "N7" in s.view(JAN)["hand"]
    play(s, "5a")
    # Line 47: Lina wins and must choose a prize, not her own card.
    assert s.current_player == LINA
    assert s.view(None)["phase"] == "prize"
    assert legal(s) == ["prize:N2", "prize:N6", "prize:5a"]
    with pytest.raises(IllegalActionError, match="own card"):
        s.apply("prize:B9")
    play(s, "prize:N2")
    v = s.view(None)
    trick = v["tricks"][0]
    # Lines 47-51: Narwal-2 has 3 pearls: Lina takes her own card, Tim's and Jan's: 3 points.
    assert CARDS[[c.name for c in CARDS].index("N2")].pearls == 3
    assert (trick["winner"], trick["prize"], trick["taken"], trick["from_draw_pile"]) == (LINA, "N2", 3, 0)
    assert v["point_piles"] == [0, 0, 3, 0]
    # Line 55: Andreas keeps his card as a bonus card and may use it from now on.
    assert trick["bonus_to"] == ANDREAS
    assert v["bonus_cards"][ANDREAS] == ["O1", "N2"]
    # Line 55: Jan played a 5 that was not chosen: he decides at once who begins the next round.
    assert v["phase"] == "lead" and s.current_player == JAN
    assert legal(s) == ["lead:0", "lead:1", "lead:2", "lead:3"]
    play(s, "lead:1")
    assert s.current_player == TIM and s.view(None)["tricks"][0]["leader_chosen_by"] == JAN
    # Andreas may now use Narwal-2 on his turn.
    play(s, "O6", "O9", "N7")
    assert s.current_player == ANDREAS
    assert legal(s) == ["O3", "O4", "5b", "use:N2", "use:O1:P"]


def test_jan_seven_cards_and_three_unused_bonus_cards_make_eight() -> None:
    """Seed line 15: "Jan hat 7 Karten gesammelt ... 3 Karten vor sich ... 7 + 1 = 8 Punkte"."""
    assert deal_points(7, 3) == 8
    assert [deal_points(7, k) for k in range(6)] == [7, 7, 8, 8, 9, 9]


FIVES_DEAL = {
    "draws": ["O9"],
    "hands": [
        ["P7", "5a", "O1", "O2", "O3", "O4", "N1", "N2", "N3"],
        ["P6", "5b", "B1", "B2", "B3", "O6", "O7", "N4", "N6"],
        ["P1", "P2", "P3", "P4", "B4", "B6", "O8", "O9", "N7"],
        ["P8", "P9", "5c", "5d", "B7", "B8", "B9", "N8", "N9"],
    ],
}


def test_andreas_leads_pottwal_tim_plays_a_5_that_counts_as_pottwal() -> None:
    """Seed line 162: Andreas leads Pottwal-7; Tim holds a Pottwal but may play a 5, which then
    counts as a Pottwal."""
    s = new(deal=FIVES_DEAL)
    play(s, "bonus:O1", "bonus:B1", "bonus:B4", "bonus:B7", "P7")
    assert [a for a in legal(s) if not a.startswith("use:")] == ["P6", "5b"]
    play(s, "5b")
    assert s.view(None)["led_family"] == "P"
    # Marker 9, trump Orca: with no Orca played, the highest Pottwal wins; the 5 counts as Pottwal 5.
    play(s, "P1", "P8")
    assert s.view(None)["trick_winner"] == 3


def test_andreas_leads_a_5_and_tim_may_play_any_card() -> None:
    """Seed line 160/162: had Andreas led a 5, Tim could have played any card, and the 5 takes its family."""
    s = new(deal=FIVES_DEAL)
    play(s, "bonus:O1", "bonus:B1", "bonus:B4", "bonus:B7", "5a")
    assert s.view(None)["led_family"] is None
    hand = s.view(TIM)["hand"]
    assert [a for a in legal(s) if not a.startswith("use:")] == hand
    play(s, "O6")  # Tim chooses an Orca (trump): Andreas' 5 is now an Orca too
    assert s.view(None)["led_family"] == "O"
    # Lina must follow Orca now (she has O8, O9).
    assert [a for a in legal(s) if not a.startswith("use:")] == ["O8", "O9"]
