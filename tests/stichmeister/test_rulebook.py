"""The rulebook's examples (seed 003), each citing its section."""

from __future__ import annotations

from stichkit.games.stichmeister.scoring import score_round

from .helpers import legal, names, reason, rules_of, taken, trumps_of, winner, with_rules


def test_trump_order_koi_4_above_other_4s_above_koi() -> None:
    """2. Trumpf ermitteln: Koi-4 is highest (two rules name it), then the other 4s (the rule
    with the lower number), then the other Koi from 15 to 1."""
    r = rules_of(3, 17)  # 3: all 4s; 17: all Koi
    groups = [names(m) for m in trumps_of(r).groups]
    assert groups[0] == ["K4"]
    assert groups[1] == ["F4", "M4", "T4"]
    assert groups[2:] == [[f"K{v}"] for v in (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 2, 1)]


def test_trump_order_in_the_view_as_one_line() -> None:
    state = with_rules([3, 17, 41, 42])
    assert state.view(0)["trump_line"].startswith("K4 > F4=M4=T4 > K15 > K14")


def test_fächer_4_cannot_follow_fächer_when_the_4s_are_trump() -> None:
    """3. Stichspiel, example: all 4s are trump; Anna leads Fächer-6; Bernd's Fächer-4 is a trump
    and cannot follow Fächer."""
    assert legal([3], ["F4", "F9", "K2"], ["F6"]) == ["F9"]
    assert reason([3], "F4", ["F4", "F9", "K2"], ["F6"]).startswith("F4 is a trump and cannot follow Fächer")
    # Without another Fächer, Bernd cannot follow: any card, the Fächer-4 too.
    assert legal([3], ["F4", "K2"], ["F6"]) == ["F4", "K2"]


def test_dirk_wins_with_fächer_11_under_rule_15() -> None:
    """Wer gewinnt den Stich, example 1: Münze trump, none played: the highest Fächer wins."""
    assert winner([15], "F7", "K14", "F3", "F11") == "F11"


def test_claudia_koi_6_beats_anna_fächer_6_under_rules_5_and_20() -> None:
    """Example 2: the 6s (rule 5) are above the Torii (rule 20); Anna's Fächer-6 and Claudia's
    Koi-6 are equal, and the later card wins."""
    assert winner([5, 20], "T12", "F6", "T15", "K6") == "K6"
    assert winner([5, 20], "T12", "K6", "T15", "F6") == "F6"


def test_last_trick_tripled_first_two_worth_0() -> None:
    """The scoring card printed in the rulebook (our No. 41)."""
    tricks = [taken(["F1", "F2", "F3", "F4"], s % 4, "F4") for s in range(5)]
    points, values = score_round(tricks, rules_of(41), trumps_of(rules_of(41)), 4)
    assert values == [0, 0, 1, 1, 3]
    assert points == [3, 0, 1, 1]  # seat 0 took the first (0) and the last (3)
