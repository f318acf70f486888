"""Every Stichwahl ruling (RULINGS.md "Stichwahl", cited as R1..R13 in its order) and bad input."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import stichkit
from stichkit import DealError, IllegalActionError, OptionError, UndoError
from stichkit.games.stichwahl import CARDS, CardTableError, load_table
from stichkit.games.stichwahl.cards import FAMILY_OF, NAMES, VALUE_OF
from stichkit.games.stichwahl.rules import trick_winner

from .helpers import BEISPIEL, BEISPIEL_BONUS, legal, new, play

C = {n: i for i, n in enumerate(NAMES)}
SHIPPED = Path(stichkit.games.stichwahl.__file__).parent / "cards.toml"  # type: ignore[attr-defined]


def cards(*names: str) -> list[int]:
    return [C[n] for n in names]


# -- R1: 36 cards, the card table ----------------------------------------------------------------


def test_r1_thirty_six_cards_with_the_known_facts() -> None:
    """R1: families O P N B, values 1-4 and 6-9, four colourless 5s; Narwal-2 has 3 pearls; the 5s
    1 pearl and no bonus; pearls 1-3; every entry has a source and a confidence."""
    assert len(CARDS) == 36 and len({c.name for c in CARDS}) == 36
    by = {c.name: c for c in CARDS}
    assert by["N2"].pearls == 3 and by["N2"].bonus_kind != "pearl"  # seed line 55: kept as a usable bonus
    for five in ("5a", "5b", "5c", "5d"):
        assert (by[five].family, by[five].value, by[five].pearls, by[five].bonus) == (None, 5, 1, "none")
    assert all(1 <= c.pearls <= 3 and c.source and c.confidence in ("high", "medium", "low") for c in CARDS)
    assert sum(c.source.startswith("reconstructed") for c in CARDS) == 31  # shipped as reconstructed


def test_r1_the_reconstruction_is_balanced_across_families() -> None:
    for fam in "OPNB":
        mine = [c for c in CARDS if c.family == fam]
        assert sum(c.pearls for c in mine) == 16
        kinds = sorted(c.bonus_kind for c in mine)
        assert kinds == ["flip", "flip", "pearl", "pearl", "trump", "trump", "trump", "trump"]


def test_r1_a_corrected_table_is_loaded_with_the_cards_option(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        'name = "O1"  # Orca 1\nfamily = "O"\nvalue = 1\npearls = 1', 'name = "O1"\nfamily = "O"\nvalue = 1\npearls = 3'
    )
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    game = stichkit.load_game("stichwahl", cards=str(path))
    assert game.table.pearls[C["O1"]] == 3  # type: ignore[attr-defined]
    assert load_table(None).pearls[C["O1"]] == 1


@pytest.mark.parametrize(
    ("old", "new_text", "message"),
    [
        ("pearls = 3\nbonus = \"flip\"", "pearls = 4\nbonus = \"flip\"", "card O2: field 'pearls'"),
        ('bonus = "trump:P"', 'bonus = "trump:X"', "card O1: field 'bonus'"),
        ('family = "O"\nvalue = 1', 'family = "P"\nvalue = 1', "card O1: field 'family'"),
        ('confidence = "low"', 'confidence = "sure"', "card O1: field 'confidence'"),
        ('name = "5a"\nfamily = "none"\nvalue = 5\npearls = 1\nbonus = "none"',
         'name = "5a"\nfamily = "none"\nvalue = 5\npearls = 1\nbonus = "flip"', "card 5a: field 'bonus'"),
        ('name = "B9"', 'name = "B8"', "card B8: field 'value'"),
    ],
)  # fmt: skip
def test_r1_a_malformed_table_names_the_card_and_field(tmp_path: Path, old: str, new_text: str, message: str) -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new_text, 1), encoding="utf-8")
    with pytest.raises(CardTableError, match=message):
        load_table(str(path))
    with pytest.raises(OptionError, match=message):
        stichkit.load_game("stichwahl", cards=str(path))


def test_r1_a_card_listed_twice(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8")
    first = text[text.index("[[card]]") : text.index("[[card]]", text.index("[[card]]") + 1)]
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n" + first, encoding="utf-8")
    with pytest.raises(CardTableError, match="card O1: listed twice"):
        load_table(str(path))


def test_r1_missing_field_and_unreadable_file(tmp_path: Path) -> None:
    text = SHIPPED.read_text(encoding="utf-8").replace(
        'source = "rulebook: the 5s are colourless, 1 pearl, no bonus"\n', "", 1
    )
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardTableError, match="card 5a: field 'source' is missing"):
        load_table(str(path))
    with pytest.raises(OptionError, match="cannot read"):
        stichkit.load_game("stichwahl", cards=str(tmp_path / "nope.toml"))


# -- R2: players, dealing, the draw pile --------------------------------------------------------


@pytest.mark.parametrize(("players", "pile"), [(2, 14), (3, 9), (4, 0)])
def test_r2_nine_cards_each_the_rest_is_the_draw_pile(players: int, pile: int) -> None:
    s = stichkit.load_game("stichwahl", players=players).new_state(seed=5)
    v = s.view(None)
    assert v["hand_sizes"] == [9] * players and v["draw_pile"] == pile
    every = [c for p in range(players) for c in s.view(p)["hand"]]
    if players == 2:  # the 2-player variant removes the 5s (seed line 59)
        assert not any(c.startswith("5") for c in every)
        assert not any(d.startswith("5") for d in v["draws"])


def test_r2_a_bad_option_is_refused() -> None:
    with pytest.raises(OptionError, match="players"):
        stichkit.load_game("stichwahl", players=5)
    with pytest.raises(OptionError, match="first_player"):
        stichkit.load_game("stichwahl", players=3, first_player=3)
    with pytest.raises(OptionError, match="target"):
        stichkit.load_game("stichwahl", target=0)


# -- R3: the trump draw and the marker ----------------------------------------------------------


@pytest.mark.parametrize(
    ("draws", "trump", "marker"), [(["N4"], "N", 1), (["O6"], "O", 9), (["5c", "5a", "P1"], "P", 1)]
)
def test_r3_trump_and_marker_from_the_drawn_card(draws: list[str], trump: str, marker: int) -> None:
    """Seed lines 122-126: 1-4 lowest wins, 6-9 highest wins, a 5 is drawn again."""
    deal = dict(BEISPIEL, draws=draws)
    v = new(deal=deal).view(None)
    assert (v["trump"], v["marker"], v["draws"]) == (trump, marker, draws)


def test_r3_redraws_are_in_the_record() -> None:
    game = stichkit.load_game("stichwahl", players=3)
    for seed in range(200):
        rec = game.new_state(seed=seed).record()
        draws = rec["moves"][0]["chance"]["draws"]
        if len(draws) > 1:
            assert all(d.startswith("5") for d in draws[:-1])
            assert stichkit.replay(rec).view(None)["draws"] == draws
            break
    else:
        pytest.fail("no redraw in 200 seeds")


# -- R4: the first bonus card --------------------------------------------------------------------


def test_r4_first_bonus_cards_are_hidden_until_everyone_has_chosen() -> None:
    s = new(deal=BEISPIEL)
    assert legal(s) == ["bonus:" + c for c in s.view(0)["hand"]]
    play(s, "bonus:O1")
    assert s.view(0)["my_first_bonus"] == "O1"
    for seat in (1, 2, 3, None):
        assert "O1" not in str({k: v for k, v in s.view(seat).items() if k != "hand"})
    assert s.view(None)["first_bonus_chosen"] == [True, False, False, False]
    play(s, *BEISPIEL_BONUS[1:])
    assert s.view(None)["first_bonus"] == ["O1", "O8", "P1", "B1"]
    assert s.view(None)["hand_sizes"] == [8] * 4  # so 8 tricks are played ("die nächsten 7 Runden")


def test_r4_a_pearl_first_bonus_scores_at_once() -> None:
    """Seed line 154: a first bonus card with the pearl symbol scores 1 at once (to the point pile)."""
    s = new(deal=BEISPIEL)
    play(s, "bonus:O4", "bonus:O8", "bonus:P1", "bonus:B1")  # O4: pearl bonus
    v = s.view(None)
    assert v["point_piles"] == [1, 0, 0, 0] and v["bonus_cards"][0] == []


# -- R5: the next deal's starter ---------------------------------------------------------------


def _finish_deal(s: stichkit.State, rng: random.Random) -> None:
    deal = s.view(None)["deal_number"]
    while not s.is_terminal() and s.view(None)["deal_number"] == deal:
        s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("next_deal", "want"), [("left", [2, 3, 0]), ("same", [2, 2, 2])])
def test_r5_later_deals_start_left_of_the_previous_starter(next_deal: str, want: list[int]) -> None:
    s = stichkit.load_game("stichwahl", first_player=2, next_deal=next_deal, target=200).new_state(seed=3)
    rng = random.Random(0)
    got = []
    for _ in range(3):
        got.append(s.view(None)["starter"])
        assert s.current_player == got[-1]
        _finish_deal(s, rng)
    assert got == want


# -- R6: using bonus cards ------------------------------------------------------------------------


def test_r6_any_number_of_bonus_cards_with_immediate_effect() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a", "prize:N2", "lead:0")
    # Andreas now holds O1 (trump -> P) and N2 (flip): he may use both, then play.
    assert legal(s)[-2:] == ["use:N2", "use:O1:P"]
    play(s, "use:O1:P")
    assert s.view(None)["trump"] == "P"
    play(s, "use:N2")
    assert s.view(None)["marker"] == 1
    assert s.view(None)["bonus_cards"][0] == []
    # The trump stays changed for the rest of the deal (the marker is moved on the Wa(h)lkarte).
    play(s, "P3", "P6", "P2", "B7", "prize:P6")  # marker 1, trump P: lowest trump P2 (Lina) wins
    assert s.view(None)["tricks"][-1]["winner"] == 2


def test_r6_a_bonus_takes_effect_on_the_trick_in_progress() -> None:
    """Seed line 156: "Der ausgespielte Bonus gilt immer SOFORT während der laufenden Runde"."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "N6", "O2")  # marker 1, Blauwal trump, no trump played yet
    plain = play(s.clone(), "N7", "prize:N6")
    assert plain.view(None)["tricks"][0]["winner"] == 0  # the lowest Narwal, N2
    changed = play(s.clone(), "use:B1:O", "N7")  # Jan makes Orca trump: Lina's O2 is now the lowest trump
    assert changed.view(None)["trick_winner"] == 2


def test_r6_bonus_use_is_refused_when_not_allowed() -> None:
    s = new(deal=BEISPIEL)
    with pytest.raises(IllegalActionError, match="first bonus"):
        s.apply("use:O8")
    play(s, *BEISPIEL_BONUS, "N2")
    with pytest.raises(IllegalActionError, match="not one of seat 1's bonus cards"):
        s.apply("use:O1:P")
    with pytest.raises(IllegalActionError, match="does not change trump"):
        s.apply("use:O8:P")
    play(s, "N6", "B9", "5a")
    with pytest.raises(IllegalActionError, match="used only on your turn"):
        s.apply("use:P1:N")


def test_r6_a_trump_bonus_names_another_family_than_trump() -> None:
    """Our ruling: a trump bonus *changes* trump, so it cannot name the family that is trump now."""
    deal = dict(BEISPIEL, draws=["N3"])
    s = new(deal=deal)
    play(s, *BEISPIEL_BONUS, "N2", "N6")
    assert "use:P1:N" not in legal(s)  # Lina's P1 shows only Narwal, which is trump already
    with pytest.raises(IllegalActionError, match="Narwal is trump already"):
        s.apply("use:P1:N")


# -- R7: following and the 5s ----------------------------------------------------------------------


def test_r7_a_5_may_always_be_played_and_follows_the_first_family_card() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "5b")
    assert [a for a in legal(s) if not a.startswith("use")] == s.view(1)["hand"]
    play(s, "5c")
    assert s.view(None)["led_family"] is None
    play(s, "O2")
    assert s.view(None)["led_family"] == "O"
    assert [a for a in legal(s) if not a.startswith("use")] == s.view(3)["hand"]  # Jan has no Orca


def test_r7_not_following_is_public_knowledge() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "N6", "B9")
    assert s.view(None)["void_families"] == [[], [], ["N"], []]


# -- R8: the trick winner ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("played", "trump", "high", "winner"),
    [
        (("N2", "N6", "B9", "5a"), 3, True, 2),  # marker 9: highest trump
        (("N2", "N6", "B9", "B4"), 3, False, 3),  # marker 1: lowest trump
        (("N2", "N6", "O9", "5a"), 3, True, 1),  # no trump: highest of the led family
        (("N2", "N6", "O9", "N1"), 3, False, 3),  # marker 1, no trump: lowest of the led family
        (("N6", "5a", "5b"), 0, True, 0),  # N6 beats the 5s (Narwal 5) with marker 9
        (("N6", "5a", "5b"), 0, False, 1),  # marker 1: the 5s are lower; equal 5s: the earlier wins
        (("5a", "5b", "5c"), 0, True, 0),  # only 5s: the first 5 wins
        (("5a", "O6", "5b"), 0, True, 1),  # led 5 takes Orca (trump): O6 beats the 5s
        (("5a", "O6", "5b"), 0, False, 0),  # marker 1: the first 5 (a trump 5) wins
    ],
)
def test_r8_winner(played: tuple[str, ...], trump: int, high: bool, winner: int) -> None:
    assert trick_winner(cards(*played), trump, high) == winner


def test_r8_values_and_families() -> None:
    assert [VALUE_OF[C[n]] for n in ("O1", "O9", "5a")] == [1, 9, 5]
    assert FAMILY_OF[C["5d"]] == -1


# -- R9/R10: the prize -------------------------------------------------------------------------------

THREE = {
    "draws": ["B7"],
    "hands": [
        ["O1", "N2", "N3", "O3", "O4", "P3", "P4", "B2", "5b"],
        ["O8", "N6", "N4", "O6", "O7", "P6", "P7", "B3", "5c"],
        ["P1", "B9", "O2", "O9", "P2", "P8", "P9", "B4", "B6"],
    ],
    "pile": ["B1", "5a", "N7", "N1", "N8", "N9", "B7", "B8", "5d"],
}


def test_r9_three_players_top_up_from_the_draw_pile() -> None:
    """Seed line 180: not enough cards (e.g. with three): the winner tops up from the draw pile."""
    s = new(3, THREE)
    play(s, "bonus:O1", "bonus:O8", "bonus:P1", "N2", "N6", "B9", "prize:N2")
    v = s.view(None)
    t = v["tricks"][0]
    assert (t["taken"], t["from_draw_pile"], v["draw_pile"], v["point_piles"]) == (2, 1, 8, [0, 0, 3])
    assert v["from_draw_pile"] == [0, 0, 1]
    assert "B1" not in str(s.view(2))  # the drawn card stays face down


def test_r9_two_players_top_up_while_the_pile_lasts() -> None:
    deal = {"draws": ["B7"], "hands": [[*THREE["hands"][0][:8], "O2"], [*THREE["hands"][1][:8], "O9"]]}
    s = new(2, deal)
    assert s.view(None)["draw_pile"] == 14
    play(s, "bonus:O1", "bonus:O8", "N2", "N6", "prize:N2")  # N6 (marker 9) wins; N2 has 3 pearls
    t = s.view(None)["tricks"][0]
    assert (t["winner"], t["taken"], t["from_draw_pile"]) == (1, 1, 2)


def test_r9_top_up_one_card_reads_noch_eine_karte_literally() -> None:
    """Seed line 282, "nimmst du dir vom Nachziehstapel noch eine Karte": read literally, one card
    whatever is missing (option top_up="one"); only 2 players can miss more than one."""
    deal = {"draws": ["B7"], "hands": [[*THREE["hands"][0][:8], "O2"], [*THREE["hands"][1][:8], "O9"]]}
    assert stichkit.load_game("stichwahl").options["top_up"] == "missing"
    s = new(2, deal, top_up="one")
    play(s, "bonus:O1", "bonus:O8", "N2", "N6", "prize:N2")
    v = s.view(None)
    assert (v["tricks"][0]["taken"], v["tricks"][0]["from_draw_pile"], v["point_piles"], v["draw_pile"]) == (
        1, 1, [0, 2], 13,
    )  # fmt: skip
    s3 = new(3, THREE, top_up="one")
    play(s3, "bonus:O1", "bonus:O8", "bonus:P1", "N2", "N6", "B9", "prize:N2")
    assert s3.view(None)["tricks"][0]["from_draw_pile"] == 1  # one missing: both readings agree


def test_r9_a_pearl_prize_scores_its_player_at_once() -> None:
    """Seed line 154 / R9: a prize with the pearl bonus scores its player 1 at once (to the point pile)."""
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "O4", "O6", "O9", "N1")  # marker 1, no trump: the lowest Orca, O4, wins
    assert s.current_player == 0
    play(s, "prize:O6")  # O6: 2 pearls, pearl bonus
    v = s.view(None)
    t = v["tricks"][0]
    assert (t["taken"], t["pearl_to"], t["bonus_to"]) == (2, 1, None)
    assert v["point_piles"] == [2, 1, 0, 0] and v["bonus_cards"][1] == ["O8"]


def test_r10_the_5_as_prize_gives_one_point_and_no_bonus() -> None:
    s = new(deal=BEISPIEL)
    play(s, *BEISPIEL_BONUS, "N2", "use:O8", "N6", "B9", "5a", "prize:5a")
    v = s.view(None)
    t = v["tricks"][0]
    assert (t["taken"], t["bonus_to"], v["point_piles"][2]) == (1, None, 1)
    assert v["bonus_cards"] == [["O1"], [], ["P1"], ["B1"]]
    assert v["phase"] == "play" and s.current_player == 2  # the 5 was chosen: the winner leads


# -- R11: the next leader -------------------------------------------------------------------------


def test_r11_the_first_unchosen_5_chooses() -> None:
    """Seed line 11: several unchosen 5s: the player of the first of them chooses."""
    s = new(deal=dict(BEISPIEL, draws=["B7"]))  # Blauwal trump, marker 9
    play(s, *BEISPIEL_BONUS, "5b", "5c", "B9", "5a")  # led 5s take Blauwal; B9 is the highest trump
    assert s.current_player == 2
    play(s, "prize:5c")
    assert s.current_player == 0 and s.view(None)["phase"] == "lead"
    s.undo()
    play(s, "prize:5b")
    assert s.current_player == 1  # Tim's 5c is now the first unchosen 5


def test_r11_the_winners_own_5_does_not_count() -> None:
    """Seed line 186: a 5 played by one of the *other* players."""
    s = new(deal=dict(BEISPIEL, draws=["O9"]))  # Orca trump, marker 9
    play(s, *BEISPIEL_BONUS, "5b", "5c", "O2", "N1")  # led Orca (trump): the 5s beat O2, the first 5 wins
    assert s.current_player == 0
    play(s, "prize:O2")
    assert s.current_player == 1 and s.view(None)["phase"] == "lead"  # Tim's 5c, not Andreas' own 5b


def test_r11_after_a_deals_last_trick_nobody_chooses() -> None:
    game = stichkit.load_game("stichwahl", target=500)
    for seed in range(40):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while s.view(None)["deal_number"] == 0:
            v = s.view(None)
            if v["phase"] == "lead":
                assert len(v["tricks"]) < 8
            s.apply(rng.choice(s.legal_actions()))


# -- R12/R13: scoring and the game end --------------------------------------------------------------


def test_r12_deal_scoring_from_a_whole_deal() -> None:
    s = stichkit.load_game("stichwahl", target=500).new_state(seed=11)
    rng = random.Random(1)
    _finish_deal(s, rng)
    d = s.view(None)["previous_deals"][0]
    assert d["points"] == [p + b // 2 for p, b in zip(d["point_piles"], d["unused_bonus"], strict=True)]
    assert s.scores() == d["points"]


def test_r13_the_game_ends_after_the_deal_with_30_and_a_tie_plays_on() -> None:
    """Seed line 17: play until someone has 30 or more; on a tie, play on."""
    found_tie = False
    for seed in range(60):
        game = stichkit.load_game("stichwahl", players=2, target=10)
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            before = s.scores()
            s.apply(rng.choice(s.legal_actions()))
            after = s.scores()
            if after != before and not s.is_terminal():
                assert max(after) < 10 or after.count(max(after)) > 1
                found_tie |= max(after) >= 10
        sc = s.scores()
        assert max(sc) >= 10 and sc.count(max(sc)) == 1 and s.winners() == [sc.index(max(sc))]
    assert found_tie


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": []}, "a Stichwahl deal is"),
        (dict(BEISPIEL, draws=["5a"]), "the last a family card"),
        (dict(BEISPIEL, draws=["N2", "O3"]), "every draw but the last must be a 5"),
        (dict(BEISPIEL, hands=BEISPIEL["hands"][:3]), "exactly 4 hands"),
        (dict(BEISPIEL, hands=[["O1"], *BEISPIEL["hands"][1:]]), "seat 0's hand has 1 cards"),
        (dict(BEISPIEL, hands=[["X9", *BEISPIEL["hands"][0][1:]], *BEISPIEL["hands"][1:]]), "'X9' is not a Stichwahl"),
        (dict(BEISPIEL, hands=[["O8", *BEISPIEL["hands"][0][1:]], *BEISPIEL["hands"][1:]]), "O8 is dealt twice"),
    ],
)  # fmt: skip
def test_bad_deals(deal: dict[str, object], message: str) -> None:
    with pytest.raises(DealError, match=message):
        new(deal=deal)  # type: ignore[arg-type]


def test_bad_deals_for_fewer_players() -> None:
    with pytest.raises(DealError, match="not in the 2-player deck"):
        new(2, {"draws": ["O9"], "hands": [BEISPIEL["hands"][0], BEISPIEL["hands"][1]]})
    with pytest.raises(DealError, match="missing"):
        new(3, dict(THREE, pile=THREE["pile"][:-1]))


def test_bad_actions_say_why_and_change_nothing() -> None:
    s = new(deal=BEISPIEL)
    with pytest.raises(UndoError):
        s.undo()
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply("bonus:O8")
    with pytest.raises(IllegalActionError, match="not a stichwahl action"):
        s.apply("N5")
    play(s, *BEISPIEL_BONUS)
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply("N6")
    with pytest.raises(IllegalActionError, match="no trick waits"):
        s.apply("prize:N2")
    with pytest.raises(IllegalActionError, match=r"must choose who leads|is to play"):
        s.apply("lead:1")
    before = s.clone()
    with pytest.raises(IllegalActionError):
        s.apply("use:O8")
    assert s == before
