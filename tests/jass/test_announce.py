"""Announced Weis (option weis="announce", docs/jass.md "Announced Weis").

The rule sheet, "Ankündigungen": "Die Spieler/innen müssen ihre Ansage machen, wenn sie an der
Reihe sind und bevor der/die nächste Spieler/in seine/ihre Karte ablegt" — a Weis is announced by
its player, at their first card; "Das Team mit der/den höchsten Anzeige(n) validiert seine
Punkte. Das andere Team kann die Punkte der Anzeige nicht validieren" — the higher announced
Weis scores; "Je nach Sitte und Region wird verlangt, dass die Ansagen gezeigt werden" — the
scoring team's are shown. A Weis not announced scores nothing.
"""

from __future__ import annotations

import json
import random

import pytest

import stichkit
from stichkit.bots import make
from stichkit.bots.announce import pays
from stichkit.games.jass.actions import ACTIONS_ANNOUNCED, ANNOUNCE

from .helpers import play, spectator

# Seat 0 (forehand) holds D6-D9 (four in sequence, 50); seat 3 holds S6-S8 (three, 20); seat 2
# holds C6-C8 (three, 20); seat 1 holds no Weis.
DEAL = {
    "hands": [
        ["D6", "D7", "D8", "D9", "HA", "SA", "CA", "HK", "SQ"],
        ["D10", "H6", "H8", "S10", "C10", "HQ", "SK", "CK", "DQ"],
        ["C6", "C7", "C8", "H7", "S9", "DJ", "HJ", "SJ", "DA"],
        ["S6", "S7", "S8", "H9", "H10", "DK", "C9", "CJ", "CQ"],
    ]
}


def announce_game(**options):
    opts = {"profile": "schieber", "weis": "announce", "first_forehand": 0, "stoeck": False, **options}
    return stichkit.load_game("jass", **opts).new_state(seed=1, deal=DEAL)


def legal(state):
    return [a.text for a in state.legal_actions()]


def test_the_option_and_its_action():
    game = stichkit.load_game("jass", weis="announce")
    assert game.num_actions == 44
    assert game.action_id("weis") == ANNOUNCE == 43
    assert stichkit.load_game("jass").options["weis"] == "auto"  # the default stays
    assert stichkit.load_game("jass").num_actions == 43  # and so does its table
    with pytest.raises(stichkit.OptionError, match="allowed: one of 'auto', 'announce', 'off'"):
        stichkit.load_game("jass", weis="declare")


def test_a_player_with_a_weis_may_announce_it_at_the_first_card():
    s = announce_game()
    s.apply("trump:H")
    assert "weis" in legal(s)  # seat 0 holds D6-D9
    s.apply("weis")
    assert "weis" not in legal(s)  # announced: now the card
    assert spectator(s)["announced"] == [{"seat": 0, "points": [50]}]
    s.apply("HA")
    assert s.current_player == 3 and "weis" in legal(s)  # S6-S8
    s.apply("H9")  # plays without a word: silent
    assert s.current_player == 2 and "weis" in legal(s)
    s.apply("weis")
    s.apply("H7")
    assert s.current_player == 1 and "weis" not in legal(s)  # no Weis: nothing to announce
    s.apply("H6")
    v = spectator(s)
    assert v["announced"] == [{"seat": 0, "points": [50]}, {"seat": 2, "points": [20]}]
    assert v["weis_scored_by"] == [0]
    assert {w["seat"] for w in v["weis"]} == {0, 2}  # shown: the scoring team's announced Weis
    assert s.scores()[:2] == [70, 25]  # seat 3's Nell takes the trick: HA 11 + H9 14


def test_the_announcement_is_public_at_once_and_the_cards_only_after_the_first_trick():
    s = announce_game()
    play(s, "trump:H", "weis")
    for seat in (None, 0, 1, 2, 3):
        v = s.view(seat)
        assert v["announced"] == [{"seat": 0, "points": [50]}]
        assert v["weis"] == []  # no card of it shown yet
    assert "D6" not in spectator(s)["hand"]


def test_silence_scores_nothing():
    """Seat 0 stays silent with the best Weis: seat 3's announced three in sequence scores."""
    s = announce_game()
    play(s, "trump:H", "HA")  # silent
    play(s, "weis", "H9", "H7", "H6")  # seat 3 announces S6-S8
    v = spectator(s)
    assert v["weis_scored_by"] == [1]
    assert [w["seat"] for w in v["weis"]] == [3]
    assert s.scores()[:2] == [0, 20 + 25]  # seat 3's Weis, then the trick (HA 11 + Nell 14)


def test_nobody_announces_nobody_scores():
    s = announce_game()
    play(s, "trump:H", "HA", "H9", "H7", "H6")
    v = spectator(s)
    assert v["weis_scored_by"] == [] and v["weis"] == [] and v["announced"] == []


@pytest.mark.parametrize(
    ("moves", "code", "says"),
    [
        (["trump:H", "HA", "H9", "H7", "H6", "weis"], "weis_too_late", "announced with the first card"),
        (["trump:H", "weis", "weis"], "already_announced", "has announced its Weis already"),
        (["trump:H", "HA", "H9", "H7", "weis"], "no_weis", "holds no Weis"),
        (["weis"], "not_legal_now", "must first choose trump"),
    ],
)
def test_refused_announcements_say_why_and_change_nothing(moves, code, says):
    s = announce_game()
    for m in moves[:-1]:
        s.apply(m)
    before = json.dumps([s.record(), spectator(s), legal(s)])
    with pytest.raises(stichkit.IllegalActionError) as err:
        s.apply(moves[-1])
    assert err.value.code == code
    assert says in str(err.value)
    assert json.dumps([s.record(), spectator(s), legal(s)]) == before


def test_a_game_that_declares_weis_itself_refuses_the_announcement():
    s = stichkit.load_game("jass", first_forehand=0).new_state(seed=1, deal=DEAL)
    s.apply("trump:H")
    with pytest.raises(stichkit.NotationError):
        s.apply("weis")  # not an action of this game
    with pytest.raises(stichkit.IllegalActionError) as err:
        s.apply(ACTIONS_ANNOUNCED[ANNOUNCE])
    assert err.value.code == "weis_not_announced"
    assert "weis='announce'" in str(err.value)


def test_undo_and_replay_through_announcements():
    s = announce_game()
    play(s, "trump:H", "weis", "HA", "weis")
    views = [spectator(s)]
    s.apply("H9")
    s.undo()
    assert spectator(s) == views[0]
    s.undo()  # seat 3's announcement
    assert spectator(s)["announced"] == [{"seat": 0, "points": [50]}]
    s.undo()
    s.undo()  # seat 0's announcement
    assert spectator(s)["announced"] == [] and "weis" in legal(s)
    play(s, "weis", "HA", "H9", "weis", "H7", "H6")
    again = stichkit.replay(json.loads(json.dumps(s.record())))
    assert again == s and again.view(1) == s.view(1)


def test_samples_keep_the_announced_points_but_not_the_cards():
    """Seat 1 knows seat 0 announced 50 (four in sequence), not which four cards: every sample
    gives seat 0 a Weis of 50, and the samples put it in more than one place."""
    s = announce_game()
    play(s, "trump:H", "weis", "HA", "H9")
    places = set()
    for r in range(40):
        sample = s.sample_hidden(2, random.Random(r))
        assert sample.view(2) == s.view(2)
        held = sample._held[0]  # the sampled world's own hands: fair to read here
        assert [w.points for w in held] == [50]
        places.add(held[0].cards)
        assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
    assert len(places) > 1


def test_bots_announce_when_it_pays():
    """Announcing pays unless the other team announced more than this team can show."""
    s = announce_game()
    s.apply("trump:H")
    assert pays(s.view(0))  # nothing announced yet
    for name in ("random", "heuristic", "ismcts", "pimc"):
        bot = make(name, seed=1) if name != "pimc" else make(name, seed=1, samples=4)
        assert bot.choose(s, 0).text == "weis"
    play(s, "weis", "HA")
    assert not pays(s.view(3))  # seat 0 announced 50; seat 3 holds 20
    for name in ("random", "heuristic", "ismcts"):
        assert make(name, seed=1).choose(s, 3).text != "weis"  # silent: plays a card
    s.apply("H9")
    assert pays(s.view(2))  # its partner announced the 50: its 20 adds to it


def test_the_c_core_searches_announced_weis():
    """The C core plays announced Weis (tests/native compares it with the engine): the search
    replays the announcement and answers with a card."""
    from stichkit import native

    assert native.unsupported({"weis": "announce", "multipliers": "none"}) is None
    s = announce_game()
    play(s, "trump:H", "weis")  # seat 0 has announced: its card is searched
    bot = make("ismcts", iterations=20, seed=2)
    assert bot.choose(s, 0) in s.legal_actions()
    assert bot.last_stats.get("engine") == ("c" if native.available() else None)


# Called Stöck (stoeck="announce"). The Schweizer Jassreglement, as jasswelt.ch quotes it:
# "Gewiesen werden die Stöcke beim Ausspielen der zweiten Stöckkarte"; a Stöck not said is not
# written. Seat 0 names Zug (H) and holds its King and Queen.
STOECK_DEAL = {"hands": [
    ["HK", "HQ", "D6", "D7", "S6", "S7", "C6", "C7", "C8"],
    ["H6", "H7", "D8", "D9", "S8", "S9", "C9", "C10", "CJ"],
    ["H8", "H9", "D10", "DJ", "S10", "SJ", "CQ", "CK", "CA"],
    ["H10", "HJ", "HA", "DQ", "DK", "DA", "SQ", "SK", "SA"],
]}  # fmt: skip


def stoeck_game(**options):
    opts = {"profile": "schieber", "weis": "off", "stoeck": "announce", "first_forehand": 0, **options}
    return stichkit.load_game("jass", **opts).new_state(seed=1, deal=STOECK_DEAL)


def to_the_call(s):
    """Seat 0 names Zug and leads its King; everybody plays its first legal card (seat 0 keeping
    its Queen) until seat 0 may play the Queen, the second card of its Stöck."""
    play(s, "trump:H", "HK")
    while not (s.current_player == 0 and "stoeck" in legal(s)):
        assert "stoeck" not in legal(s)
        s.apply(next(a for a in legal(s) if a != "HQ"))
    return s


def test_stoeck_is_called_with_the_second_card():
    s = stoeck_game()
    assert s.game.num_actions == 45 and s.game.action_id("stoeck") == 44
    to_the_call(s)
    s.apply("stoeck")
    assert legal(s) == ["HQ"]  # said: the Queen follows
    other = next(c for c in s.view(0)["hand"] if c != "HQ")
    with pytest.raises(stichkit.IllegalActionError) as err:
        s.apply(other)
    assert err.value.code == "stoeck_card" and "HQ" in str(err.value)
    before = s.scores()[0]
    s.apply("HQ")
    assert spectator(s)["stoeck"] == 0 and s.scores()[0] == before + 20


def test_stoeck_played_in_silence_is_lost():
    s = to_the_call(stoeck_game())
    s.apply("HQ")  # without a word
    assert spectator(s)["stoeck"] is None
    while spectator(s)["deal_number"] == 0:
        s.apply(s.legal_actions()[0])
    assert spectator(s)["previous_deals"][0]["stoeck"] == [0, 0]


def test_undo_and_replay_through_a_called_stoeck():
    s = to_the_call(stoeck_game())
    view = spectator(s)
    s.apply("stoeck")
    s.undo()
    assert spectator(s) == view and "stoeck" in legal(s)
    play(s, "stoeck", "HQ")
    s.undo()
    assert legal(s) == ["HQ"]  # back to just after the call
    s.apply("HQ")
    assert stichkit.replay(json.loads(json.dumps(s.record()))) == s


def test_refused_calls_say_why():
    s = stoeck_game()
    s.apply("trump:H")
    with pytest.raises(stichkit.IllegalActionError) as err:
        s.apply("stoeck")
    assert err.value.code == "no_stoeck"
    auto = stichkit.load_game("jass", first_forehand=0).new_state(seed=1, deal=STOECK_DEAL)
    auto.apply("trump:H")
    from stichkit.games.jass.actions import ACTIONS_STOECK, CALL_STOECK

    with pytest.raises(stichkit.IllegalActionError) as err:
        auto.apply(ACTIONS_STOECK[CALL_STOECK])
    assert err.value.code == "stoeck_not_announced"


def test_every_bot_calls_its_stoeck():
    s = to_the_call(stoeck_game())
    for name in ("random", "heuristic", "ismcts"):
        assert make(name, seed=1).choose(s, 0).text == "stoeck"
    from stichkit import native

    assert native.unsupported({"stoeck": "announce"}) is None  # called in the C search's worlds too
