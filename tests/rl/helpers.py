"""What the rl tests share: every game at every player count, and positions to look at."""

from __future__ import annotations

import random
from typing import Any

import pytest

import stichkit
from stichkit.core import State

for module in ("numpy", "gymnasium", "pettingzoo", "pyspiel"):
    pytest.importorskip(module, reason=f"the rl extra ({module}) is not installed: pip install 'stichkit[rl]'")

# the Schieber with every option that adds to the observation and the actions
SCHIEBER_OPTIONS: dict[str, Any] = {
    "profile": "schieber",
    "multipliers": "swisslos",
    "weis": "announce",
    "stoeck": "announce",
}

# (game, options): every game at every player count it allows
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("jass", {}),
    ("jass", {"profile": "schieber"}),
    ("jass", SCHIEBER_OPTIONS),
    ("coiffeur", {"rows": "slalom2 D1"}),
    ("coiffeur", {"rows": "guschti3 joker1"}),
    ("coiffeur", {"rows": "D1 obe2", "push": "around"}),
    ("differenzler", {"deals": 2}),
    ("differenzler", {"deals": 2, "predictions": "open", "trump": "random"}),
    *[("stichwahl", {"players": n}) for n in (2, 3, 4)],
    *[("stichling", {"players": n}) for n in (2, 3, 4, 5)],
    *[("stichmeister", {"players": n}) for n in (3, 4, 5)],
]


def openspiel_params(options: dict[str, Any]) -> dict[str, Any]:
    """`options` as OpenSpiel parameters: stoeck='announce' is the parameter stoeck_announce."""
    if options.get("stoeck") == "announce":
        return {**{k: v for k, v in options.items() if k != "stoeck"}, "stoeck_announce": True}
    return options


IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CONFIGS]


def positions(name: str, options: dict[str, Any], games: int = 2, every: int = 7, seed: int = 0) -> list[State]:
    """Positions of random games: every `every`-th decision, and each game's end."""
    game = stichkit.load_game(name, **options)
    rng = random.Random(seed)
    out: list[State] = []
    for g in range(games):
        state = game.new_state(seed=seed * 1000 + g)
        k = 0
        while not state.is_terminal():
            if k % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            k += 1
        out.append(state)
    return out
