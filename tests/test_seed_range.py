"""Seeds: every whole number of at most 64 bits, either sign, and an error that names that range.

The deals a seed gives are a stored format (records keep only the seed for later deals), so the
bound is written down, not widened: tests/golden pins what existing seeds deal."""

from __future__ import annotations

import json

import pytest

import stichkit
from stichkit.core import OptionError, RecordError

LARGEST = 2**64 - 1
RANGE = "a whole number from -(2**64 - 1) to 2**64 - 1"


@pytest.mark.parametrize("name", stichkit.game_names())
@pytest.mark.parametrize("seed", [LARGEST, -LARGEST, 0, 2**63])
def test_every_seed_in_the_range_deals_and_replays(name: str, seed: int) -> None:
    game = stichkit.load_game(name)
    state = game.new_state(seed=seed)
    assert state.view(state.current_player)["legal_actions"]
    again = stichkit.replay(json.loads(json.dumps(state.record())), from_seed=True)
    assert again == state and again.record()["seed"] == seed


@pytest.mark.parametrize("name", stichkit.game_names())
@pytest.mark.parametrize("seed", [2**64, -(2**64), 10**30, 1.5, "7", True])
def test_a_seed_outside_the_range_is_refused_naming_the_range(name: str, seed: object) -> None:
    game = stichkit.load_game(name)
    with pytest.raises(OptionError) as e:
        game.new_state(seed=seed)  # type: ignore[arg-type]
    assert str(e.value).startswith(f"seed must be {RANGE} or None, not ")


def test_a_record_with_a_seed_outside_the_range_is_refused_naming_the_range() -> None:
    record = stichkit.load_game("stichling").new_state(seed=1).record()
    record["seed"] = 2**64
    with pytest.raises(RecordError, match=r"^a record's whole numbers are from -\(2\*\*64 - 1\) to 2\*\*64 - 1"):
        stichkit.replay(record)
