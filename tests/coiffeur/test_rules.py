"""The rules of Coiffeur, each from the source that states it (docs/coiffeur.md lists them):
worked examples on explicit deals.

Sources: Swisslos, "Coiffeur Jass-Regeln" (swisslos.ch); jassverzeichnis.ch, "Anleitung für den
Coiffeur-Jass"; jassen.ch, "Jassarten Schweiz" (Der Coiffeurjass); quoi-faire.ch, "Coiffeur-Regeln".
"""

from __future__ import annotations

import pytest

import stichkit
from stichkit import IllegalActionError, OptionError

# Seat 0 holds every Käse (D), seat 1 every Zug (H), seat 2 every S, seat 3 every C.
SUITED = {"hands": [[s + r for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")] for s in "DHSC"]}


def game(**options: object) -> stichkit.Game:
    return stichkit.load_game("coiffeur", **options)


def play_out(state: stichkit.State) -> None:
    """Play the deal in progress with the first legal card each time."""
    deal = state.view(None)["deal_number"]
    while not state.is_terminal() and state.view(None)["deal_number"] == deal:
        state.apply(state.legal_actions()[0])


def test_swisslos_only_the_announcing_team_writes_its_points_times_the_multiplier() -> None:
    """Swisslos: "Es werden jeweils nur die Punkte des ansagenden Teams geschrieben ... Jedem
    Trumpf ist ein Multiplikator zugeteilt." Seat 0 announces Käse, D×3 on the 8-rows sheet
    (jassverzeichnis.ch: "Schilten oder Ecken (dreifach)"), and takes all nine tricks: the
    match, 257, times 3."""
    state = game().new_state(seed=1, deal=SUITED)
    state.apply("trump:D")
    play_out(state)
    v = state.view(None)
    d = v["previous_deals"][0]
    assert (d["points"], d["tricks"], d["written"], d["score"]) == ([157, 0], [9, 0], 257, 771)
    assert v["sheets"][0]["rows"][2] == {"kind": "D", "multiplier": 3, "mode": "D", "points": 257, "score": 771}
    assert v["sheets"][1]["total"] == 0 and all(r["points"] is None for r in v["sheets"][1]["rows"])
    assert v["scores"] == [771, 0]


def test_swisslos_no_weis_and_no_stoeck() -> None:
    """Swisslos: "Der Coiffeur wird ohne Weisen gespielt." Seat 0 holds nine Käse in a row and
    the trump King and Queen: still 257 for the match, not more."""
    state = game(rows="D1").new_state(seed=1, deal=SUITED)
    state.apply("trump:D")
    play_out(state)
    assert state.view(None)["previous_deals"][0]["written"] == 257


def test_jassverzeichnis_each_row_once_and_a_joker_takes_a_suit_obenabe_or_undenufe() -> None:
    """jassverzeichnis.ch: each team plays every row once; "Als Joker können nur eine Farbe oder
    Undeufe oder Obenaben gewählt werden." With Käse's row played, team 0's next Käse goes to its
    first joker row (×7); once both jokers are used too, Käse is refused."""
    state = game(rows="D1 joker7 slalom2").new_state(seed=1)
    state.apply("trump:D")
    play_out(state)
    state.apply("trump:obe")  # team 1: no Obenabe row, so its joker row
    play_out(state)
    assert state.view(None)["sheets"][1]["rows"][1]["mode"] == "obe"
    assert "trump:D" in [a.text for a in state.legal_actions()]
    state.apply("trump:D")
    play_out(state)
    assert state.view(None)["previous_deals"][2]["row"] == 1
    state.apply("trump:D")  # team 1
    play_out(state)
    assert [a.text for a in state.legal_actions()] == ["trump:slalom-obe", "trump:slalom-une", "push"]
    with pytest.raises(IllegalActionError) as e:
        state.apply("trump:D")
    assert e.value.code == "mode_played" and e.value.params == {"mode": "D", "team": 0}


def test_jassen_the_partner_may_be_pushed_to_and_must_then_announce() -> None:
    """jassen.ch: "2 Spieler ein Team bilden und sich gegenseitig schieben können"; Swisslos:
    "Derjenige Spieler, welcher die Trumpfart bestimmt hat, startet mit dem Ablegen der ersten
    Karte." Seat 0 pushes, its partner seat 2 announces, for team 0's sheet, and leads."""
    state = game().new_state(seed=1, deal=SUITED)
    state.apply("push")
    assert state.current_player == 2
    with pytest.raises(IllegalActionError) as e:
        state.apply("push")
    assert e.value.code == "already_pushed"
    state.apply("trump:S")
    assert state.current_player == 2 and state.view(2)["legal_actions"][0] == "S6"
    play_out(state)
    d = state.view(None)["previous_deals"][0]
    assert (d["chooser"], d["pushed"], d["team"], d["written"]) == (2, True, 0, 257)
    assert state.view(None)["sheets"][0]["rows"][0]["score"] == 257  # S×1


def test_swisslos_push_around_goes_counter_clockwise_and_back_to_the_first_who_must_announce() -> None:
    """Swisslos, "Coiffeur Jass-Regeln" (push="around"): "Das Schieben erfolgt nicht wie beim
    Schieber zum Partner, sondern im Gegenuhrzeigersinn zum nächsten Mitspieler. Schieben alle
    Spieler weiter, kommt die Aufforderung zum Trumpfen wieder zum ersten Spieler zurück. Dieser
    kann nicht mehr weiterschieben und muss einen Trumpf wählen." Seats 0, 3, 2, 1 push in turn;
    seat 0 must announce."""
    state = game(push="around").new_state(seed=1, deal=SUITED)
    order = []
    for _ in range(4):
        order.append(state.current_player)
        assert "push" in state.view(state.current_player)["legal_actions"]
        state.apply("push")
    assert order == [0, 3, 2, 1] and state.current_player == 0
    assert state.view(None)["pushed_by"] == [0, 3, 2, 1]
    assert "push" not in state.view(0)["legal_actions"]
    with pytest.raises(IllegalActionError) as e:
        state.apply("push")
    assert e.value.code == "must_announce" and "trump:D" in str(e.value)
    state.apply("trump:D")
    play_out(state)
    d = state.view(None)["previous_deals"][0]
    assert (d["chooser"], d["pushes"], d["team"], d["written"]) == (0, 4, 0, 257)


def test_swisslos_push_around_the_announcer_s_team_writes_and_leads() -> None:
    """Swisslos: "Es werden jeweils nur die Punkte des ansagenden Teams geschrieben" and "Derjenige
    Spieler, welcher die Trumpfart bestimmt hat, startet mit dem Ablegen der ersten Karte." Seat 0
    pushes to seat 3, an opponent, who announces Herz (its own nine): the deal goes on team 1's
    sheet, and the next deal's forehand (seat 3, to the right) is asked first."""
    state = game(push="around").new_state(seed=1, deal=SUITED)
    state.apply("push")
    assert state.current_player == 3
    state.apply("trump:H")
    assert state.current_player == 3  # the announcer leads
    play_out(state)
    v = state.view(None)
    d = v["previous_deals"][0]
    assert (d["chooser"], d["team"], d["pushes"]) == (3, 1, 1)
    assert v["sheets"][1]["rows"][3]["score"] == 257 * 4 and v["sheets"][0]["total"] == 0  # H×4 on team 1's sheet
    assert v["forehand"] == 3 and state.current_player == 3


def test_push_around_passes_over_a_team_whose_sheet_is_full() -> None:
    """stichkit's ruling (docs/coiffeur.md; the sources do not say): a player whose team's sheet is
    full has nothing to announce and is not asked. On a sheet of one row, once team 1 has written
    it, only seats 0 and 2 are asked: 2 pushes to 0 and back, then 2 must announce."""
    state = game(push="around", rows="D1").new_state(seed=1, deal=SUITED)
    state.apply("push")  # seat 0 to seat 3
    state.apply("trump:D")  # team 1 writes its only row
    play_out(state)
    v = state.view(None)
    assert v["forehand"] == 3 and v["sheets"][1]["open"] == [] and state.current_player == 2
    state.apply("push")
    assert state.current_player == 0
    state.apply("push")
    assert state.current_player == 2 and state.legal_actions()[-1] != "push"
    state.apply("trump:D")
    play_out(state)
    assert state.is_terminal()


def test_the_push_option_refuses_other_values_with_the_allowed_ones() -> None:
    for bad in ("left", "", None, True, 1, "next"):
        with pytest.raises(OptionError, match="'partner', 'around'"):
            game(push=bad)
    assert game().options["push"] == "partner"  # records written before the option replay as played


def test_swisslos_slalom_alternates_and_guschti_plays_five_then_four() -> None:
    """Swisslos: "Beim Slalom wird abwechslungsweise ein Stich Obenabe und dann ein Stich
    Undenufe gespielt ... Beim Guschti-Obenabe werden zuerst fünf Stiche Obenabe und dann vier
    Stiche Undenufe." Each trick counts as its own mode: an Ace is 11 under Obenabe, 0 under
    Undenufe, a 6 the other way round."""
    for mode, want in (
        ("slalom-obe", ["obe", "une"] * 4 + ["obe"]),
        ("slalom-une", ["une", "obe"] * 4 + ["une"]),
        ("guschti-obe", ["obe"] * 5 + ["une"] * 4),
        ("guschti-une", ["une"] * 5 + ["obe"] * 4),
    ):
        state = game(sheet="10-rows").new_state(seed=1, deal=SUITED)
        state.apply(f"trump:{mode}")
        seen = []
        while state.view(None)["deal_number"] == 0:
            seen.append(state.view(None)["trick_mode"])
            for _ in range(4):
                state.apply(state.legal_actions()[0])
        assert seen == want, mode
        # Seat 0 leads D6 .. DA and wins each trick (nobody else has Käse): the tricks hold
        # D6+H6+S6+C6, then the 7s, ...; sums by the mode of each trick
        tricks = state.view(None)["previous_deals"][0]
        assert tricks["tricks"] == [9, 0]


def test_the_game_ends_when_both_sheets_are_full_and_the_higher_total_wins() -> None:
    """jassverzeichnis.ch: "Sobald beide Teams alle vorgegebenen Trumpfarten angesagt und gespielt
    haben, werden die Punkte zusammengezählt. Jene Partei mit den meisten Punkten gewinnt." One
    row each: two deals, team 0 (seats 0 and 2) with the match."""
    state = game(rows="D2").new_state(seed=1, deal=SUITED)
    state.apply("trump:D")
    play_out(state)
    assert not state.is_terminal() and state.current_player == 3  # the forehand to the right
    state.apply("trump:D")
    play_out(state)
    assert state.is_terminal()
    assert state.view(None)["deals"] == 2 and len(state.view(None)["previous_deals"]) == 2
    total0 = state.view(None)["scores"][0]
    assert total0 == 514 and state.winners() == ([0, 2] if total0 > state.scores()[1] else [1, 3])


def test_a_sheet_of_ones_own_and_its_errors() -> None:
    g = game(rows="obe10 une10")
    assert g.new_state(seed=1).sheet == (("obe", 10), ("une", 10))
    for bad, says in (("X3", "kinds"), ("D0", "multiplier"), ("D", "multiplier"), (" ".join(["D1"] * 21), "rows")):
        with pytest.raises(OptionError, match=says):
            game(rows=bad)
    with pytest.raises(OptionError, match="8-rows"):
        game(sheet="12-rows")


def test_the_named_sheets_are_the_sources_lists() -> None:
    """jassverzeichnis.ch: "Eichle oder Schaufel (welche einfach zählen), Rosen oder Kreuz
    (zweifach), Schilten oder Ecken (dreifach), Schellen oder Herz (vierfach), Obenaben (fünfach),
    Undeufe (sechsfach), Joker 1 (siebenfach), Joker 2 (achtfach)"; jassen.ch: "Rose zählt einfach,
    Eichel doppelt, Schilte dreifach, Schelle vierfach, Obenabe fünffach, Undenufe sechsfach,
    Slalom siebenfach, «Guschti» achtfach sowie neunfach und zehnfach nach freier Wahl". Suits:
    Schaufel and Schilten S, Kreuz and Eicheln C, Ecken and Schellen D, Herz and Rosen H."""

    def sheet(name: str) -> tuple[tuple[str, int], ...]:
        return game(sheet=name).new_state(seed=1).sheet

    tail = (("obe", 5), ("une", 6))
    assert sheet("8-rows") == (("S", 1), ("C", 2), ("D", 3), ("H", 4), *tail, ("joker", 7), ("joker", 8))
    assert sheet("8-rows-swiss") == (("C", 1), ("H", 2), ("S", 3), ("D", 4), *tail, ("joker", 7), ("joker", 8))
    assert sheet("10-rows") == (
        ("H", 1), ("C", 2), ("S", 3), ("D", 4), *tail, ("slalom", 7), ("guschti", 8), ("joker", 9), ("joker", 10),
    )  # fmt: skip
