"""The end of a game when both teams could reach the target in the same deal: the Ausmachregel
"Stöck, Weis, Stich" (docs/jass.md, "When points are claimed, and the end of the game").

Sources:
- Swisslos, Schieber Jass-Regeln: "Die Ausmachregel ist «Stöck, Wys, Stich». Die Regel kommt dann
  zur Anwendung, wenn beide Teams im ersten Stich des letzten Spiels gleichzeitig das Ziel
  erreichen und entscheidet, in welcher Reihenfolge die Punkte gezählt werden."
- The Schweizer Jassreglement (Egg/Hagenbucher, "Puur Näll Ass"), as jasswelt.ch quotes it: "Beim
  Ausmachen dürfen die Stöcke jederzeit vorgewiesen werden, sofern die 20 Punkte zum Fertig
  machen genügen. Und zwar auch dann, wenn der Betreffende ... die zweite Karte der Stöcke noch
  nicht ausspielt hat."
- allmedias.ch, Regeln Schieber, Ausmachregel: after the first trick "zuerst die Stöcke zählen
  (sofern sie alleine oder mit einem Weis oder mit dem letzten Stich zum Ausmachen genügen). An
  zweiter Stelle folgt der Weis und an dritter erst der Stich."

Every test runs in both profiles: the rule is the same in `seed` and `schieber`.
"""

from __future__ import annotations

import json
import random

import pytest

import stichkit

from .helpers import new_state, play, spectator

PROFILES = pytest.mark.parametrize("profile", ["seed", "schieber"])

# Seat 0 chooses trump (first_forehand=0) and holds three in sequence, S6-S8 (Weis 20); seat 1
# holds the trump King and Queen of Zug (H); seat 1's Nell takes the first trick (SA, S10, S9, H9).
FIXED = {0: "SA S6 S7 S8", 3: "S10", 2: "S9", 1: "H9 HK HQ"}


def game(profile: str, target: int, weis: str = "auto") -> stichkit.State:
    return new_state(FIXED, profile=profile, target=target, weis=weis, first_forehand=0)


@PROFILES
def test_stoeck_that_finishes_is_shown_at_once_before_any_weis(profile):
    """Stöck before Weis: team 1 needs 20, team 0's Weis (20) would end the game after the first
    trick. Stöck enough to finish is shown the moment trump is named: team 1 wins, its King and
    Queen still in hand."""
    s = game(profile, target=20)
    s.apply("trump:H")
    assert s.is_terminal()
    assert s.winners() == [1, 3]
    assert s.scores()[:2] == [0, 20]
    v = spectator(s)
    assert v["stoeck"] == 1
    assert {"HK", "HQ"} <= set(s.view(1)["hand"])
    assert v["previous_deals"][0]["stoeck"] == [0, 20]
    assert v["previous_deals"][0]["complete"] is False


@PROFILES
def test_stoeck_before_the_trick_at_the_first_trick(profile):
    """Stöck with the first trick: team 1 takes the first trick (11 + 10 + 0 + 14 = 35); with its
    Stöck (20) that makes 55 of the 40 it needs. Its Stöck counts first, then the trick: team 1
    has won, though the second Stöck card is still in hand."""
    s = game(profile, target=40, weis="off")
    play(s, "trump:H", "SA", "S10", "S9", "H9")
    assert s.is_terminal()
    assert s.winners() == [1, 3]
    assert s.scores()[:2] == [0, 55]
    assert spectator(s)["stoeck"] == 1


# A whole deal: seat 0 holds four in sequence, S6-S9 (50), the best Weis; seat 3 holds DQ-DA (20);
# seat 1 the trump King and Queen of Zug (H). First trick: SA, S10, SJ, and seat 1's Nell takes
# it, 11 + 10 + 2 + 14 = 37.
FULL = {
    "hands": [
        ["SA", "S6", "S7", "S8", "S9", "D6", "D8", "C6", "C8"],
        ["H9", "HK", "HQ", "D7", "D10", "C7", "C10", "SQ", "H6"],
        ["SJ", "D9", "DJ", "C9", "CJ", "H7", "HA", "SK", "CA"],
        ["S10", "DQ", "DK", "DA", "H8", "H10", "HJ", "CQ", "CK"],
    ]
}
FIRST_TRICK = ("trump:H", "SA", "S10", "SJ", "H9")


@PROFILES
def test_weis_come_before_stoeck_with_the_trick(profile):
    """Both teams reach 40 with the first trick: team 0 with its Weis (50), team 1 only with its
    Stöck (20) and the trick (37). Stöck is counted first, but is not enough; then the Weis end
    the game for team 0 before the trick is counted."""
    s = new_state(FULL, profile=profile, target=40, weis="auto", first_forehand=0)
    play(s, *FIRST_TRICK)
    assert s.is_terminal()
    assert s.winners() == [0, 2]
    assert s.scores()[:2] == [50, 20]
    assert spectator(s)["stoeck"] == 1


@PROFILES
def test_weis_before_stich(profile):
    """Without Stöck: team 0's Weis (50) and team 1's trick (37) both reach 30. Weis first."""
    s = new_state(FULL, profile=profile, target=30, weis="auto", first_forehand=0, stoeck=False)
    play(s, *FIRST_TRICK)
    assert s.is_terminal()
    assert s.winners() == [0, 2]
    assert s.scores()[:2] == [50, 0]


@PROFILES
def test_stoeck_and_weis_before_the_trick_of_the_other_team(profile):
    """Team 1 would reach 57 with its Stöck and the trick; with a target of 20 its Stöck alone is
    enough and is shown when trump is named, before team 0's Weis (50) are even shown."""
    s = new_state(FULL, profile=profile, target=20, weis="auto", first_forehand=0)
    s.apply("trump:H")
    assert s.is_terminal() and s.winners() == [1, 3]
    assert spectator(s)["weis_scored_by"] is None


@PROFILES
def test_stoeck_is_shown_as_soon_as_a_trick_brings_it_within_reach(profile):
    """At any time: team 1 needs 50. Its first trick (35) leaves 15, which its Stöck covers: it
    is shown at once, the game is over before anyone plays on."""
    s = game(profile, target=50, weis="off")
    play(s, "trump:H", "SA", "S10", "S9", "H9")
    assert s.is_terminal()
    assert s.winners() == [1, 3]
    assert s.scores()[:2] == [0, 55]


@PROFILES
def test_stoeck_not_enough_waits_for_its_second_card(profile):
    """Stöck that cannot finish is claimed as before, when the second card of the pair is played."""
    s = game(profile, target=1000, weis="off")
    play(s, "trump:H", "SA", "S10", "S9", "H9")
    assert not s.is_terminal()
    assert spectator(s)["stoeck"] is None
    assert s.scores()[:2] == [0, 35]


def test_a_sample_keeps_stoeck_shown_before_its_cards_were_played():
    """Showing Stöck shows the trump King and Queen: every sample leaves them with their owner."""
    s = game("schieber", target=40, weis="off")
    play(s, "trump:H", "SA", "S10", "S9", "H9")
    for r in range(20):
        sample = s.sample_hidden(0, random.Random(r))
        assert {"HK", "HQ"} <= set(sample.view(1)["hand"])
        assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample


def test_undo_takes_back_a_stoeck_shown_early():
    s = game("seed", target=40, weis="off")
    play(s, "trump:H", "SA", "S10", "S9")
    before = (s.scores(), spectator(s), s.current_player)
    s.apply("H9")
    assert s.is_terminal()
    s.undo()
    assert (s.scores(), spectator(s), s.current_player) == before


@PROFILES
def test_in_order_claims_stoeck_only_with_its_second_card(profile):
    """ausmachregel="in-order", the reading before the rule was played: every point as it arises,
    Stöck with its second card. Team 0's Weis (20) end the game after the first trick."""
    s = new_state(FIXED, profile=profile, target=20, weis="auto", first_forehand=0, ausmachregel="in-order")
    s.apply("trump:H")
    assert not s.is_terminal()
    play(s, "SA", "S10", "S9", "H9")
    assert s.is_terminal()
    assert spectator(s)["stoeck"] is None
    weis = spectator(s)["previous_deals"][0]["weis"]
    assert s.winners() == ([0, 2] if weis[0] else [1, 3])


def test_a_record_written_before_the_rule_replays_as_it_was_played():
    """A record that names no `ausmachregel` was played in order: it replays so."""
    s = game("seed", target=1000)
    s.apply("trump:H")
    record = json.loads(json.dumps(s.record()))
    del record["options"]["ausmachregel"]
    again = stichkit.replay(record)
    assert again.game.options["ausmachregel"] == "in-order"
    assert stichkit.load_game("jass").options["ausmachregel"] == "stoeck-weis-stich"


def test_a_bad_ausmachregel_says_what_is_allowed():
    with pytest.raises(stichkit.OptionError, match="allowed: one of 'stoeck-weis-stich', 'in-order'"):
        stichkit.load_game("jass", ausmachregel="stich-weis-stoeck")


def test_the_c_core_plays_only_the_swiss_rule():
    from stichkit import native

    assert native.unsupported({"ausmachregel": "stoeck-weis-stich"}) is None
    assert "ausmachregel='in-order'" in (native.unsupported({"ausmachregel": "in-order"}) or "")


def test_samples_never_hold_a_stoeck_that_would_have_been_shown():
    """A sample deals the hidden hands again; a Stöck it gives a team that the Ausmachregel would
    have shown already (enough to finish now, or at the first trick with the Weis and the trick)
    is not what the seat saw, and its record would end the game earlier. Doubled deals and a short
    target make such hands common; every sample must replay to itself."""
    checked = 0
    for seed in range(12):
        game = stichkit.load_game("jass", target=200, weis="auto", multipliers="D=3,H=3,S=3,C=3", profile="schieber")
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = s.current_player
            assert seat is not None
            if spectator(s)["trump"] is not None and spectator(s)["stoeck"] is None:
                sample = s.sample_hidden(seat, random.Random(checked))
                assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
                checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 300


def test_a_sample_never_gives_the_second_stoeck_card_to_the_player_of_the_first_when_it_would_finish() -> None:
    """A player who played one of trump King and Queen, and whose team the Stöck would carry over
    the target, does not hold the other: the Ausmachregel would have shown it at once. The card is
    barred from that player while dealing, so no sample holds it, not even one kept when no draw
    matched the shown Weis (hypothesis found such a world once: its record ended the game early)."""
    from stichkit.games.jass import sampling
    from stichkit.games.jass.cards import STOECK_PAIR

    found = 0
    for seed in range(60):
        s = stichkit.load_game("jass", target=157, weis="auto", profile="schieber").new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and found < 40:
            if spectator(s)["trump"] in ("H", "D", "S", "C") and spectator(s)["stoeck"] is None:
                pair = STOECK_PAIR[s._trump]
                played = [s._start[x] & ~s._hands[x] for x in range(4)]
                for x in range(4):
                    other = pair & ~played[x]
                    if not played[x] & pair or not other or s._scores[x & 1] + 20 < s._target:
                        continue
                    for seat in range(4):
                        if seat == x or s._hands[seat] & other:
                            continue  # the sampler sees where it is
                        others = [o for o in range(4) if o != seat]
                        assert sampling._stoeck_bars(s, others, [0, 0, 0, 0], played)[x] == other
                        for r in range(5):
                            sample = s.sample_hidden(seat, random.Random(r))
                            assert not sample._hands[x] & other, (seed, x, seat, r)
                            assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
                        found += 1
            s.apply(rng.choice(s.legal_actions()))
    assert found >= 10, found
