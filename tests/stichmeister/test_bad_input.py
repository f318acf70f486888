"""Bad input: options, deals, rule-card files, illegal actions and undo."""

from __future__ import annotations

from pathlib import Path

import pytest

import stichkit
from stichkit import DealError, IllegalActionError, OptionError, UndoError
from stichkit.games.stichmeister import RuleCardError, load_rule_cards
from stichkit.games.stichmeister.rulecards import RULE_CARDS

from .helpers import with_rules

SHIPPED = Path(stichkit.games.stichmeister.__file__).parent / "rule_cards.toml"  # type: ignore[attr-defined]


@pytest.mark.parametrize("opts", [{"players": 2}, {"players": 6}, {"first_player": 4}, {"colour": 1}])
def test_bad_options(opts: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        stichkit.load_game("stichmeister", **opts)


def test_a_corrected_card_file_loads(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        'text_en = "The second highest card wins the trick."', 'text_en = "The second highest card wins (checked)."'
    )
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    game = stichkit.load_game("stichmeister", rule_cards=str(path))
    assert game.rule_cards[29].text_en.endswith("(checked).")
    assert RULE_CARDS[29].text_en == "The second highest card wins the trick."


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('kind = "trump_suit", suit = "F"', 'kind = "trump_suit", suit = "X"', "rule card 16: effect.suit"),
        ("number = 30\n", "number = 29\n", "rule card 29: field 'number' 29 appears twice"),
        ('kind = "pass", count = 3, to = "right"', 'kind = "pass", count = 3', "rule card 22: effect.to is missing"),
        ('confidence = "seed"', 'confidence = "sure"', "rule card 5: field 'confidence'"),
        ('kind = "negate_tricks"', 'kind = "nothing"', "rule card 42: effect.kind 'nothing' is unknown"),
    ],
)
def test_a_malformed_card_file_names_card_and_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RuleCardError, match=message.replace("(", r"\(")):
        load_rule_cards(str(path))
    with pytest.raises(OptionError):
        stichkit.load_game("stichmeister", rule_cards=str(path))


def test_missing_file() -> None:
    with pytest.raises(RuleCardError, match="cannot read"):
        load_rule_cards("/nonexistent/cards.toml")


@pytest.mark.parametrize(
    "deal",
    [
        {"hands": [["F1"] * 15] * 4},
        {"hands": [[]]},
        {"cards": []},
        {"hands": [[f"F{v}" for v in range(1, 16)]] * 4},
    ],
)
def test_bad_deals(deal: object) -> None:
    with pytest.raises(DealError):
        stichkit.load_game("stichmeister").new_state(deal=deal)


def test_three_player_deck_has_no_1_10_13() -> None:
    game = stichkit.load_game("stichmeister", players=3)
    hands = [[f"{s}{v}" for s in "FMKT" for v in range(1, 16) if v not in (1, 10, 13)][i::3] for i in range(3)]
    game.new_state(deal={"hands": hands})
    hands[0][0] = "F1"
    with pytest.raises(DealError, match="not in the 3-player deck"):
        game.new_state(deal={"hands": hands})
    assert {9, 12, 18, 19} <= set(game.rule_deck)  # the rule deck keeps all 60 (see test_review.py)


def test_illegal_action_says_why_and_changes_nothing() -> None:
    state = with_rules([3, 41, 42, 43], hands=None)
    # Find a trump 4 that a follower holds while the lead is a plain suit of it.
    before = state.clone()
    with pytest.raises(IllegalActionError, match="rule:"):
        state.apply("rule:5")
    with pytest.raises(IllegalActionError, match="not a stichmeister action"):
        state.apply("Z9")
    assert state == before


def test_undo_at_start() -> None:
    state = stichkit.load_game("stichmeister").new_state(seed=1)
    with pytest.raises(UndoError):
        state.undo()
