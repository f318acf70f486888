"""Golden playthroughs (tests/golden/playthroughs/, written by tools/golden.py): one whole game for
every game at every player count and profile, with every view and legal list. Played again today,
each must give its file line for line: a change of rules, deals, action order, views or record
format shows up here. If the change is deliberate, regenerate and review the diff."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path
from typing import Any

import pytest

import stichkit
from stichkit.core.registry import load_game

TOOL_PATH = Path(__file__).resolve().parent.parent / "tools" / "golden.py"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("stichkit_golden_tool", TOOL_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()
NAMES = sorted(TOOL.PLAYTHROUGHS)
VARIED = ("players", "profile")  # the options a playthrough is needed for, at each of their choices


def test_every_player_count_and_profile_of_every_game_has_a_playthrough() -> None:
    have = {(game, tuple(load_game(game, **opts).options.get(o) for o in VARIED)) for game, opts, _, _ in
            TOOL.PLAYTHROUGHS.values()}  # fmt: skip
    for game in stichkit.game_names():
        options = {o.name: o for o in load_game(game).OPTIONS}
        choices = [options[o].choices if o in options else (None,) for o in VARIED]
        for combo in itertools.product(*choices):
            assert (game, combo) in have, f"no playthrough of {game} with {dict(zip(VARIED, combo, strict=True))}"


def test_every_playthrough_file_is_listed() -> None:
    on_disk = sorted(p.stem for p in TOOL.PLAYTHROUGH_DIR.glob("*.txt"))
    assert on_disk == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_game_played_again_gives_its_playthrough(name: str) -> None:
    pinned = TOOL.playthrough_path(name).read_text(encoding="utf-8").splitlines()
    today = TOOL.playthrough(name).splitlines()
    first = next((i for i, (a, b) in enumerate(zip(today, pinned, strict=False)) if a != b), None)
    assert first is None and len(today) == len(pinned), (
        f"{name}: line {first if first is not None else min(len(today), len(pinned))} differs "
        f"(today: {today[first][:300] if first is not None else '-'!r}; "
        f"pinned: {pinned[first][:300] if first is not None else '-'!r}); {len(today)} vs {len(pinned)} lines"
    )


@pytest.mark.parametrize("name", NAMES)
def test_a_playthrough_is_dealt_by_its_seed(name: str) -> None:
    """The deals in the file are the seed's (the deal functions are a stored format): the record
    replays with `from_seed=True`, which refuses any chance outcome the seed does not give."""
    game, options, seed, policy = TOOL.PLAYTHROUGHS[name]
    record = TOOL.play(game, options, seed, policy).record()
    assert stichkit.replay(record, from_seed=True).record() == record
    chances = [line for line in TOOL.playthrough_path(name).read_text(encoding="utf-8").splitlines()
               if line.startswith("chance ")]  # fmt: skip
    assert len(chances) == sum("chance" in m for m in record["moves"]) > 0
