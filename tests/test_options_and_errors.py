"""Options, malformed input and errors (API.md: "An unknown game, unknown option or bad value raises
`stichkit.OptionError` (a `ValueError`) that names the option and what is allowed"; "An illegal action
raises `stichkit.IllegalActionError` whose message says why ... and leaves the state exactly as it was";
explicit deals "validated with a clear error for a wrong deal"; `replay` of a bad record)."""

from __future__ import annotations

import copy
import json

import pytest

import stichkit

from .jass.helpers import ALL_CARDS, deal_of, first_legal

BASIC = deal_of(
    "D7 DJ DQ DK DA S6 S7 S8 C6",
    "SA C7 C8 C9 C10 CJ CQ CK CA",
    "D6 D8 D9 D10 H6 H7 H8 H10 HQ",
    "HJ H9 HA HK S9 S10 SJ SQ SK",
)


def snapshot(state):
    return json.dumps(
        {
            "record": state.record(),
            "views": [state.view(s) for s in (None, 0, 1, 2, 3)],
            "legal": [str(a) for a in state.legal_actions()],
            "player": state.current_player,
            "scores": state.scores(),
        },
        sort_keys=True,
    )


# -- options --------------------------------------------------------------------------------------


def test_errors_are_value_errors():
    for cls in (stichkit.OptionError, stichkit.DealError, stichkit.IllegalActionError, stichkit.RecordError):
        assert issubclass(cls, ValueError)
    assert issubclass(stichkit.UndoError, stichkit.StichkitError)
    assert issubclass(stichkit.NotationError, stichkit.IllegalActionError)


def test_unknown_game():
    with pytest.raises(stichkit.OptionError, match="skat") as err:
        stichkit.load_game("skat")
    assert "jass" in str(err.value)


def test_unknown_option_names_it_and_lists_the_options():
    with pytest.raises(stichkit.OptionError) as err:
        stichkit.load_game("jass", trumpf="H")
    msg = str(err.value)
    assert "trumpf" in msg
    for name in ("profile", "target", "weis", "stoeck"):
        assert name in msg


@pytest.mark.parametrize(
    "option,value,allowed",
    [
        ("profile", "x", ["seed", "schieber"]),
        ("profile", None, ["seed", "schieber"]),
        ("target", 0, ["positive"]),
        ("target", -100, ["positive"]),
        ("target", "abc", ["whole number"]),
        ("target", 1.5, ["whole number"]),
        ("target", True, ["whole number"]),
        ("target", None, ["whole number"]),
        ("weis", "maybe", ["auto", "off"]),
        ("weis", True, ["auto", "off"]),
        ("stoeck", "maybe", ["True", "False"]),
        ("stoeck", 2, ["True", "False"]),
        # seats 0-3 are allowed (docs/jass.md); what only equals one of them is not
        ("first_forehand", 4, ["'start-card', 0, 1, 2, 3"]),
        ("first_forehand", -1, ["'start-card', 0, 1, 2, 3"]),
        ("first_forehand", False, ["'start-card', 0, 1, 2, 3"]),
        ("first_forehand", 0.0, ["'start-card', 0, 1, 2, 3"]),
        ("first_forehand", "seat 0", ["'start-card', 0, 1, 2, 3"]),
    ],
)
def test_bad_option_values(option, value, allowed):
    """API.md: a bad value raises OptionError that names the option and what is allowed."""
    with pytest.raises(stichkit.OptionError) as err:
        stichkit.load_game("jass", **{option: value})
    msg = str(err.value)
    assert option in msg
    for word in allowed:
        assert word in msg


def test_options_resolved_with_defaults():
    """API.md: `Game.options` (every option resolved, defaults included, JSON-serialisable)."""
    g = stichkit.load_game("jass")
    assert g.options == {
        "profile": "seed",
        "target": 1000,
        "weis": "auto",
        "stoeck": True,
        "first_forehand": "start-card",
        "undertrump": "swiss",
        "ausmachregel": "stoeck-weis-stich",
        "multipliers": "none",
    }
    assert g.name == "jass" and g.num_players == 4
    s = stichkit.load_game("jass", profile="schieber")
    assert s.options == {
        "profile": "schieber",
        "target": 2500,
        "weis": "auto",
        "stoeck": True,
        "first_forehand": "start-card",
        "undertrump": "swiss",
        "ausmachregel": "stoeck-weis-stich",
        "multipliers": "none",
    }
    json.dumps(g.options)
    custom = stichkit.load_game("jass", target=1500, weis="off", stoeck=False)
    assert custom.options == {
        "profile": "seed",
        "target": 1500,
        "weis": "off",
        "stoeck": False,
        "first_forehand": "start-card",
        "undertrump": "swiss",
        "ausmachregel": "stoeck-weis-stich",
        "multipliers": "none",
    }
    assert stichkit.load_game("jass", target="2000").options["target"] == 2000  # command-line text
    assert "jass" in stichkit.game_names()


# -- deals ----------------------------------------------------------------------------------------


def _hands():
    return copy.deepcopy(BASIC["hands"])


def _bad(mutate):
    hands = _hands()
    mutate(hands)
    return {"hands": hands}


@pytest.mark.parametrize(
    "deal,words",
    [
        (_bad(lambda h: h[0].pop()), ["seat 0", "8 cards", "9"]),
        (_bad(lambda h: h[2].append("H9")), ["seat 2", "10 cards", "9"]),
        (_bad(lambda h: h[1].__setitem__(0, "D7")), ["D7", "twice"]),
        (_bad(lambda h: h[3].__setitem__(0, "X9")), ["seat 3", "X9", "not a Jass card"]),
        (_bad(lambda h: h[3].__setitem__(0, "D5")), ["D5", "not a Jass card"]),
        (_bad(lambda h: h[3].__setitem__(0, 7)), ["7", "not a Jass card"]),
        (_bad(lambda h: h[3].__setitem__(0, None)), ["None", "not a Jass card"]),
        (_bad(lambda h: h.pop()), ["4 hands"]),
        (_bad(lambda h: h.append([])), ["4 hands"]),
        ({"hands": "D7 D8"}, ["4 hands"]),
        ({"hands": [ALL_CARDS[i * 7 : i * 7 + 7] for i in range(4)]}, ["7 cards", "9"]),
        ({"cards": BASIC["hands"]}, ["hands"]),
        ({**BASIC, "dealer": 0}, ["hands"]),
        (BASIC["hands"], ["hands"]),
    ],
)
def test_malformed_deals(deal, words):
    """API.md: `game.new_state(deal=...)` ... "validated with a clear error for a wrong deal"."""
    game = stichkit.load_game("jass")
    with pytest.raises(stichkit.DealError) as err:
        game.new_state(deal=deal)
    assert isinstance(err.value, ValueError)
    for word in words:
        assert word in str(err.value)


def test_valid_deal_accepted():
    state = stichkit.load_game("jass").new_state(deal=BASIC)
    assert sorted(state.view(2)["hand"]) == sorted(BASIC["hands"][2])


# -- illegal actions ------------------------------------------------------------------------------


def _fresh():
    return stichkit.load_game("jass").new_state(seed=1, deal=BASIC)


@pytest.mark.parametrize(
    "setup,action,words",
    [
        ([], "D7", ["choose trump"]),  # a card before trump is chosen
        ([], "trump:obe", ["not played in the seed profile"]),
        (["push"], "push", ["already pushed"]),
        (["trump:H"], "trump:S", ["already chosen"]),
        (["trump:H"], "SA", ["not hold"]),  # seat 1's card, out of turn
        (["trump:H"], "H9", ["not hold"]),  # seat 3's card, out of turn
        (["trump:H", "S6"], "S6", ["not hold"]),  # played already
        (["trump:C", "S6"], "H9", ["must follow", "S"]),  # seat 3 holds spades
        (["trump:D", "DA", "S9"], "H6", ["must follow trump"]),
        (["trump:H", "S6", "H9"], "H6", ["undertrump"]),  # seat 2 may not undertrump
    ],
)
def test_illegal_action_raises_and_leaves_state(setup, action, words):
    """API.md: "An illegal action raises `stichkit.IllegalActionError` whose message says why ... and
    leaves the state exactly as it was" — record, every view and the legal actions."""
    state = _fresh()
    for a in setup:
        state.apply(a)
    before = snapshot(state)
    with pytest.raises(stichkit.IllegalActionError) as err:
        state.apply(action)
    for word in words:
        assert word in str(err.value)
    assert snapshot(state) == before
    first_legal(state)  # still playable


@pytest.mark.parametrize("text", ["Z9", "D5", "trump:X", "trump:", "", "schieben", "pass", "D 7"])
def test_unknown_notation(text):
    """API.md: `game.parse_action(text)` is the inverse of `str(action)`; unknown text raises."""
    state = _fresh()
    before = snapshot(state)
    with pytest.raises(stichkit.NotationError) as err:
        state.apply(text)
    assert "D7" in str(err.value) or "trump" in str(err.value)  # says how actions are written
    with pytest.raises(stichkit.NotationError):
        state.game.parse_action(text)
    assert snapshot(state) == before


@pytest.mark.parametrize("bad", [42, None, 3.5, ["D7"]])
def test_non_text_action(bad):
    state = _fresh()
    with pytest.raises(stichkit.IllegalActionError):
        state.apply(bad)


def test_action_ids_round_trip():
    game = stichkit.load_game("jass", profile="schieber")
    for i in range(game.num_actions):
        a = game.action_from_id(i)
        assert game.action_id(a) == i and game.parse_action(str(a)) == a
    with pytest.raises(stichkit.NotationError):
        game.action_from_id(game.num_actions)


def test_undo_on_fresh_state():
    """API.md: `state.undo()` takes back the last action (error when there is none)."""
    state = _fresh()
    before = snapshot(state)
    with pytest.raises(stichkit.UndoError):
        state.undo()
    assert snapshot(state) == before
    state.apply("trump:H")
    state.undo()
    assert snapshot(state) == before
    with pytest.raises(stichkit.UndoError):
        state.undo()


def test_apply_after_game_over():
    state = stichkit.load_game("jass", target=1).new_state(seed=0, deal=BASIC)
    state.apply("trump:H")
    for _ in range(4):
        first_legal(state)
    assert state.is_terminal()
    before = snapshot(state)
    with pytest.raises(stichkit.IllegalActionError, match="over"):
        state.apply("DA")
    assert snapshot(state) == before


def test_view_of_bad_seat():
    state = _fresh()
    for seat in (4, -1, "0", True):
        with pytest.raises(ValueError):
            state.view(seat)


# -- records --------------------------------------------------------------------------------------


def _finished_record():
    """A short whole game (target 60) with a push, as a record with a result."""
    state = stichkit.load_game("jass", target=60).new_state(seed=5, deal=BASIC)
    state.apply("push")
    while not state.is_terminal():
        first_legal(state)
    return state, state.record()


def test_record_round_trip():
    state, rec = _finished_record()
    json.dumps(rec)
    again = stichkit.replay(json.loads(json.dumps(rec)))
    assert again.record() == rec
    assert [again.view(s) for s in (None, 0, 1, 2, 3)] == [state.view(s) for s in (None, 0, 1, 2, 3)]
    assert again.scores() == state.scores() and again.winners() == state.winners()


def test_record_round_trip_over_several_deals():
    """API.md: "Every chance outcome (deals, draws) is written in the record, so a record replays
    without the random generator" — a game of several deals, chance entries between them."""
    state = stichkit.load_game("jass", target=500).new_state(seed=11)
    while not state.is_terminal():
        first_legal(state)
    rec = state.record()
    assert sum(1 for m in rec["moves"] if "chance" in m) >= 2
    again = stichkit.replay(json.loads(json.dumps(rec)))
    assert again.record() == rec and again.scores() == state.scores()


def _first_move_index(rec):
    return next(i for i, m in enumerate(rec["moves"]) if "seat" in m)


def _corrupt(kind):
    _, rec = _finished_record()
    rec = copy.deepcopy(rec)
    moves = rec["moves"]
    if kind == "format":
        rec["format"] = "chess-pgn"
    elif kind == "no format":
        del rec["format"]
    elif kind == "version":
        rec["version"] = 99
    elif kind == "game":
        rec["game"] = "skat"
    elif kind == "option":
        rec["options"] = {**rec["options"], "target": 0}
    elif kind == "options type":
        rec["options"] = ["target", 60]
    elif kind == "moves type":
        rec["moves"] = "push trump:H"
    elif kind == "move shape":
        moves[1] = {"seat": 0}
    elif kind == "illegal move":
        i = _first_move_index(rec) + 2  # after push and trump: the first card
        moves[i] = {"seat": moves[i]["seat"], "action": "SA"}  # not in seat 0's hand
    elif kind == "unknown action":
        i = _first_move_index(rec)
        moves[i] = {"seat": moves[i]["seat"], "action": "trump:X"}
    elif kind == "wrong seat":
        i = _first_move_index(rec)
        moves[i] = {"seat": 3, "action": moves[i]["action"]}
    elif kind == "bad chance":
        moves[0] = {"chance": {"hands": [h[:8] for h in BASIC["hands"]]}}
    elif kind == "duplicate chance":
        hands = copy.deepcopy(BASIC["hands"])
        hands[1][0] = hands[0][0]
        moves[0] = {"chance": {"hands": hands}}
    elif kind == "missing chance":
        del moves[0]
    elif kind == "extra move":
        moves.append({"seat": 0, "action": "D7"})
    elif kind == "result scores":
        rec["result"] = {**rec["result"], "scores": [0, 0, 0, 0]}
    elif kind == "result winners":
        w = rec["result"]["winners"]
        rec["result"] = {**rec["result"], "winners": [(w[0] + 1) % 4, (w[1] + 1) % 4]}
    elif kind == "result unfinished":
        del moves[-1]
    return rec


@pytest.mark.parametrize(
    "kind,words",
    [
        ("format", ["format"]),
        ("no format", ["format"]),
        ("version", ["version", "99"]),
        ("game", ["skat"]),
        ("option", ["target"]),
        ("options type", ["options"]),
        ("moves type", ["moves"]),
        ("move shape", ["move 1"]),
        ("illegal move", ["SA"]),
        ("unknown action", ["trump:X"]),
        ("wrong seat", ["seat 3"]),
        ("bad chance", ["chance", "8 cards"]),
        ("duplicate chance", ["chance", "twice"]),
        ("missing chance", ["move"]),
        ("extra move", ["over"]),
        ("result scores", ["result"]),
        ("result winners", ["result"]),
        ("result unfinished", ["result"]),
    ],
)
def test_corrupt_records(kind, words):
    """API.md: `stichkit.replay(record)`; a record that is malformed, from another version, or that does
    not replay raises RecordError with a clear message."""
    with pytest.raises(stichkit.RecordError) as err:
        stichkit.replay(_corrupt(kind))
    for word in words:
        assert word in str(err.value), str(err.value)


@pytest.mark.parametrize("bad", [None, [], "record", 42])
def test_record_not_an_object(bad):
    with pytest.raises(stichkit.RecordError, match="record"):
        stichkit.replay(bad)


@pytest.mark.parametrize("result", ["won", ["scores"], 7])
def test_record_result_not_an_object(result):
    """A `result` that is not an object is a corrupt record, not a crash."""
    _, rec = _finished_record()
    rec["result"] = result
    with pytest.raises(stichkit.RecordError, match="result"):
        stichkit.replay(rec)


def test_every_refusal_code_is_documented_with_its_params() -> None:
    """docs/api.md lists every code of stichkit.core.ILLEGAL_CODES (clients translate from it);
    the property tests (tests/invariants.py, check_code) see every game's refusals use them."""
    from pathlib import Path

    from stichkit.core import ILLEGAL_CODES

    doc = (Path(__file__).parent.parent / "docs" / "api.md").read_text()
    listed = [line.split("`")[1] for line in doc.splitlines() if line.startswith("| `")]
    assert [c for c in ILLEGAL_CODES if c not in listed] == []
    e = stichkit.IllegalActionError("plain")
    assert (e.code, e.params) == ("illegal", {})
    with pytest.raises(stichkit.NotationError) as info:
        stichkit.load_game("stichling").new_state(seed=1).apply("Z9>new")
    assert info.value.code == "unknown_action" and info.value.params == {"action": "'Z9>new'"}


@pytest.mark.parametrize(
    ("game", "options", "moves", "bad", "code", "params"),
    [
        ("jass", {}, ["trump:H"], "trump:S", "not_legal_now", {"expected": "play", "seat": 0}),
        ("stichwahl", {"players": 2}, [], "lead:1", "not_legal_now", {"expected": "first_bonus", "seat": 0}),
        ("stichling", {"players": 2}, [], "G1>new", "not_legal_now", {"expected": "order", "seat": 0}),
        ("stichmeister", {"players": 3}, [], "rule:99", "unknown_action", {"action": "'rule:99'"}),
    ],
)
def test_a_refusal_carries_its_code_and_params_and_keeps_its_message(
    game: str, options: dict[str, object], moves: list[str], bad: str, code: str, params: dict[str, object]
) -> None:
    state = stichkit.load_game(game, **options).new_state(seed=3)
    for m in moves:
        state.apply(m)
    with pytest.raises(stichkit.IllegalActionError) as info:
        state.apply(bad)
    assert (info.value.code, info.value.params) == (code, params)
    assert str(info.value).startswith(bad) or code == "unknown_action"
    assert json.loads(json.dumps(info.value.params)) == params
