"""The encoders: shape, bounds, the batch form, and the layout docs/rl.md documents."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stichkit
import stichkit.rl as rl

from .helpers import CONFIGS, IDS, positions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_observations_are_float32_in_the_unit_interval_for_every_seat(name: str, options: dict[str, Any]) -> None:
    game = stichkit.load_game(name, **options)
    enc = rl.encoding(game)
    states = positions(name, options, games=2, every=5)
    for state in states:
        for seat in range(game.num_players):
            obs = enc.observation(state, seat)
            assert obs.dtype == np.float32 and obs.shape == enc.shape
            assert obs.min() >= 0.0 and obs.max() <= 1.0


class _CountedView(dict):  # type: ignore[type-arg]
    """A view that counts how many of its kind are alive."""

    alive = 0
    most = 0

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view)
        _CountedView.alive += 1
        _CountedView.most = max(_CountedView.most, _CountedView.alive)

    def __del__(self) -> None:
        _CountedView.alive -= 1


def test_the_batch_form_holds_one_view_at_a_time() -> None:
    """The vectorised environment encodes a thousand games per step: with all their views alive at
    once the garbage collector promoted each of their containers, and its full collections took
    half the environment's time at 1024 games. The batch form makes, writes and drops them in turn."""
    game = stichkit.load_game("jass")
    enc = rl.encoding(game)
    states = positions("jass", {}, games=1, every=4)

    class Counted:
        def __init__(self, state: Any) -> None:
            self.state = state

        def view(self, seat: int) -> _CountedView:
            return _CountedView(self.state.view(seat))

    _CountedView.most = 0
    batch = enc.observations([Counted(s) for s in states], [0] * len(states))  # type: ignore[misc]
    assert len(states) > 20 and _CountedView.most <= 2
    assert np.array_equal(batch, enc.observations(states, [0] * len(states)))


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_the_batch_form_equals_one_observation_at_a_time(name: str, options: dict[str, Any]) -> None:
    game = stichkit.load_game(name, **options)
    enc = rl.encoding(game)
    states = positions(name, options, games=1, every=3)
    seats = [i % game.num_players for i in range(len(states))]
    batch = enc.observations(states, seats)
    single = np.stack([enc.observation(s, p) for s, p in zip(states, seats, strict=True)])
    assert np.array_equal(batch, single)
    out = np.full((len(states), enc.size), 0.5, dtype=np.float32)
    assert enc.observations(states, seats, out=out) is out and np.array_equal(out, single)


def test_the_observation_tells_positions_apart() -> None:
    """Different views give different observations: each decision changes what the seat sees."""
    game = stichkit.load_game("jass")
    enc = rl.encoding(game)
    state = game.new_state(seed=3)
    seen = set()
    for _ in range(40):
        seen.add(enc.observation(state, 0).tobytes())
        state.apply(state.legal_actions()[0])
    assert len(seen) == 40


def test_encoding_takes_a_game_or_a_name_and_is_shared() -> None:
    game = stichkit.load_game("stichling", players=3)
    assert rl.encoding(game) is rl.encoding("stichling", players=3)
    assert rl.encoding("stichling", players=3).shape != rl.encoding("stichling").shape
    with pytest.raises(stichkit.OptionError, match="players"):
        rl.encoding("stichling", players=7)
    with pytest.raises(TypeError):
        rl.encoding(42)  # type: ignore[arg-type]


def test_a_wrong_output_array_is_refused_clearly() -> None:
    enc = rl.encoding("jass")
    state = stichkit.load_game("jass").new_state(seed=1)
    with pytest.raises(ValueError, match="float32 of shape"):
        enc.observations([state], [0], out=np.zeros((1, 3), dtype=np.float32))


@pytest.mark.parametrize(("name", "options"), [(g, o) for g, o in CONFIGS if o != {"profile": "schieber"}])
def test_docs_list_every_field_of_every_encoder(name: str, options: dict[str, Any]) -> None:
    """docs/rl.md documents each field by name; the layout tables there come from `describe()`."""
    text = DOCS.read_text()
    enc = rl.encoding(name, **options)
    for field in enc.fields:
        assert re.search(rf"\b{re.escape(field.name)}\b", text), f"docs/rl.md does not mention {name}'s {field.name}"
    assert sum(f.size for f in enc.fields) == enc.size
