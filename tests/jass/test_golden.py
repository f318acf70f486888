"""Golden records: pinned whole games (tests/golden/*.json) must replay, and the same seed and
policy must still produce the identical record today. Regenerate deliberately with
`python tools/golden.py` (see tests/golden/README.md)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import stichkit

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
TOOL = Path(__file__).resolve().parent.parent.parent / "tools" / "golden.py"


def _load_regenerate() -> Any:
    spec = importlib.util.spec_from_file_location("stichkit_golden_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REGEN = _load_regenerate()
NAMES = sorted(REGEN.GOLDEN)


def _pinned(name: str) -> dict[str, Any]:
    return json.loads(REGEN.path_of(name).read_text(encoding="utf-8"))


def test_every_golden_file_is_listed() -> None:
    on_disk = sorted(p.stem for p in GOLDEN_DIR.glob("*.json"))
    assert on_disk == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_result(name: str) -> None:
    pinned = _pinned(name)
    game, options, seed, policy = REGEN.GOLDEN[name]
    assert (pinned["game"], pinned["options"], pinned["seed"], pinned["policy"]) == (game, options, seed, policy)
    state = stichkit.replay(pinned["record"])
    assert state.is_terminal()
    assert state.current_player is None
    assert state.legal_actions() == []
    assert {"scores": state.scores(), "winners": state.winners()} == pinned["result"] == pinned["record"]["result"]
    assert state.view(None)["deal_number"] + 1 == pinned["deals"]
    assert state.record() == pinned["record"]
    target = state.game.options["target"]
    win = state.winners()[0]
    assert state.scores()[win] >= target > state.scores()[1 - win]


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_and_policy_give_the_identical_record(name: str) -> None:
    """Any change of rules, deals, legal-action order or record format breaks this: if deliberate,
    regenerate the golden files (tests/golden/README.md) and review the diff."""
    pinned = _pinned(name)
    today = REGEN.golden(name)
    assert today["result"] == pinned["result"]
    moves_now, moves_then = today["record"]["moves"], pinned["record"]["moves"]
    first = next((i for i, (a, b) in enumerate(zip(moves_now, moves_then, strict=False)) if a != b), None)
    assert first is None and len(moves_now) == len(moves_then), (
        f"{name}: the game differs from move {first} (today {moves_now[first] if first is not None else '-'}, "
        f"pinned {moves_then[first] if first is not None else '-'}); lengths {len(moves_now)} vs {len(moves_then)}"
    )
    assert today == pinned
    assert REGEN.dumps(today) == REGEN.path_of(name).read_text(encoding="utf-8")
