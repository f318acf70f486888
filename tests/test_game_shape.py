"""What every game shares from `core` since the game packages took one shape: the action table
built from ready-made Actions, one lookup of an action's id, the refusals "the game is over" and
"seat p does not hold X", and `clone` built from one declared list of fields."""

from __future__ import annotations

import random

import pytest

import stichkit
from stichkit.core.action import Action
from stichkit.core.errors import IllegalActionError, game_over, not_held
from stichkit.core.game import NotationError, State


def test_set_actions_keeps_ready_made_actions_and_numbers_texts() -> None:
    from stichkit.games.jass.actions import ACTIONS

    game = stichkit.load_game("jass")
    assert all(a is b for a, b in zip(game.actions, ACTIONS, strict=True))  # the very objects, shared
    game._set_actions(["x", "y"])
    assert [(a.id, a.text) for a in game.actions] == [(0, "x"), (1, "y")]
    assert game.parse_action("Y") is game.actions[1]
    with pytest.raises(ValueError, match="numbers its actions 0, 1, 2"):
        game._set_actions([Action(1, "x")])
    assert [a.text for a in game.actions] == ["x", "y"]  # a refused table changes nothing


@pytest.mark.parametrize("name", stichkit.game_names())
def test_an_action_id_is_looked_up_one_way(name: str) -> None:
    game = stichkit.load_game(name)
    own = game.actions[3]
    assert game.action_id_of(id(own), -1) == 3  # the hot path: the game's own object
    assert game.action_id_of(id(Action(3, own.text)), -1) == -1  # an equal copy is not the object
    assert game.action_id(own) == game.action_id(Action(3, own.text)) == game.action_id(own.text) == 3
    with pytest.raises(NotationError, match=r"not 3\.5|not float"):
        game.action_id(3.5)  # type: ignore[arg-type]


def test_the_shared_refusals_say_what_and_who() -> None:
    over = game_over("HA")
    assert (str(over), over.code, over.params) == ("HA: the game is over", "game_over", {})
    held = not_held("HA", 2, "HA")
    assert str(held) == "HA: seat 2, whose turn it is, does not hold HA"
    assert (held.code, held.params) == ("not_held", {"card": "HA", "seat": 2})
    assert str(not_held("down:HA", 1, "HA", to_move=False)) == "down:HA: seat 1 does not hold HA"


def finished(name: str) -> State:
    state = stichkit.load_game(name).new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", stichkit.game_names())
def test_every_game_refuses_a_move_after_the_end_in_the_same_words(name: str) -> None:
    state = finished(name)
    text = state.game.actions[0].text
    with pytest.raises(IllegalActionError, match=f"^{text}: the game is over$") as refused:
        state.apply(text)
    assert refused.value.code == "game_over"


@pytest.mark.parametrize("name", stichkit.game_names())
def test_clone_copies_each_declared_field_and_no_field_is_forgotten(name: str) -> None:
    state = stichkit.load_game(name).new_state(seed=3)
    cls = type(state)
    shared, copied = set(cls.SHARED_FIELDS), set(cls.COPIED_FIELDS)
    assert not shared & copied
    slots = {s for c in cls.__mro__ for s in c.__dict__.get("__slots__", ())}
    assert slots == shared | copied, "a field that clone() does not know of"
    rng = random.Random(3)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    copy = state.clone()
    assert copy == state and copy.view(None) == state.view(None)
    for name_ in cls.COPIED_FIELDS:
        assert getattr(copy, name_) is not getattr(state, name_)
    before = state.view(None)
    copy.apply(copy.legal_actions()[0])
    copy.undo()
    copy.undo()
    assert state.view(None) == before  # the original never moves with its clone


def test_a_state_that_declares_no_fields_cannot_clone() -> None:
    state = stichkit.load_game("jass").new_state(seed=1)

    class Bare(type(state)):  # type: ignore[misc]
        SHARED_FIELDS = ()

    bare = object.__new__(Bare)
    with pytest.raises(NotImplementedError, match="declares no SHARED_FIELDS"):
        bare.clone()
