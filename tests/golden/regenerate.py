"""Golden game records: whole games from fixed seeds and a fixed action policy.

Run `python tests/golden/regenerate.py` (from the repository root, with the venv) to rewrite the
JSON files after a *deliberate* change of behaviour (rules, deals, record format). Review the diff
before committing it: any change to these files is a change every user's saved games will see.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# name -> (game, options, seed, policy seed). The policy: random.Random(policy).choice(legal_actions()).
GOLDEN: dict[str, tuple[str, dict[str, Any], int, int]] = {
    "jass_seed_default": ("jass", {}, 1, 1),
    "jass_schieber": ("jass", {"profile": "schieber"}, 2, 2),
    "jass_seed_weis_off": ("jass", {"weis": "off", "stoeck": False, "target": 1500}, 3, 3),
    "jass_schieber_weis_off": ("jass", {"profile": "schieber", "weis": "off", "target": 1000}, 4, 4),
}


def play(game_name: str, options: dict[str, Any], seed: int, policy: int) -> Any:
    """The whole game: `new_state(seed=seed)`, then `random.Random(policy).choice(legal_actions())`."""
    import stichkit

    state = stichkit.load_game(game_name, **options).new_state(seed=seed)
    rng = random.Random(policy)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def golden(name: str) -> dict[str, Any]:
    game_name, options, seed, policy = GOLDEN[name]
    state = play(game_name, options, seed, policy)
    record = state.record()
    return {
        "name": name,
        "how": "stichkit.load_game(game, **options).new_state(seed=seed), then "
        "random.Random(policy).choice(state.legal_actions()) until the end",
        "game": game_name,
        "options": options,
        "seed": seed,
        "policy": policy,
        "result": record["result"],
        "deals": state.view(None)["deal_number"] + 1,
        "record": record,
    }


def dumps(data: dict[str, Any]) -> str:
    """Pretty JSON with one move per line, so that a diff shows which move changed."""
    moves = data["record"]["moves"]
    body = dict(data, record=dict(data["record"], moves="@MOVES@"))
    text = json.dumps(body, indent=2, ensure_ascii=False)
    lines = ",\n".join("      " + json.dumps(m, ensure_ascii=False) for m in moves)
    return text.replace('"@MOVES@"', "[\n" + lines + "\n    ]") + "\n"


def path_of(name: str) -> Path:
    return HERE / f"{name}.json"


def main() -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    for name in GOLDEN:
        path_of(name).write_text(dumps(golden(name)), encoding="utf-8")
        print(f"wrote {path_of(name)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
