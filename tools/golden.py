"""The golden files of tests/golden/: whole games pinned as text, so that any change of rules,
deals, action order, views or record format shows up in a diff.

- Records (`<name>.json`): Jass games to the end, replayed by tests/jass/test_golden.py.
- Playthroughs (`playthroughs/<game>_<config>.txt`): one whole game for every game at every
  player count and profile, as OpenSpiel's playthroughs do: the deals, and after every action the
  view of every seat and of a spectator, and the legal list of the seat to move. A view is written
  whole the first time, then as the keys that changed since that seat's previous view.
  tests/test_golden_playthroughs.py plays each again and compares it line by line. The deals in
  them are what each game's deal function gives for the seed: a stored format (docs/records.md).

Run from the repository root after a *deliberate* change of behaviour, then review the diff:

    .venv/bin/python tools/golden.py            # rewrite every golden file
    .venv/bin/python tools/golden.py --check    # say which files differ, write nothing
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
PLAYTHROUGH_DIR = GOLDEN_DIR / "playthroughs"

# name -> (game, options, seed, policy seed). The policy: random.Random(policy).choice(legal_actions()).
GOLDEN: dict[str, tuple[str, dict[str, Any], int, int]] = {
    "jass_seed_default": ("jass", {}, 1, 1),
    "jass_schieber": ("jass", {"profile": "schieber"}, 2, 2),
    "jass_seed_weis_off": ("jass", {"weis": "off", "stoeck": False, "target": 1500}, 3, 3),
    "jass_schieber_weis_off": ("jass", {"profile": "schieber", "weis": "off", "target": 1000}, 4, 4),
    "jass_schieber_swisslos": ("jass", {"profile": "schieber", "multipliers": "swisslos"}, 5, 5),
    "jass_schieber_announce": ("jass", {"profile": "schieber", "weis": "announce", "target": 1500}, 6, 6),
}

# One game per game, player count and profile (tests/test_golden_playthroughs.py checks that none
# is missing). Short targets keep each file small; the games are still played to their end.
PLAYTHROUGHS: dict[str, tuple[str, dict[str, Any], int, int]] = {
    "jass_seed": ("jass", {"profile": "seed", "target": 200}, 1, 1),
    "jass_schieber": ("jass", {"profile": "schieber", "target": 200}, 2, 2),
    "jass_schieber_multipliers": ("jass", {"profile": "schieber", "target": 600, "multipliers": "one-to-four"}, 3, 3),
    "jass_seed_announce": ("jass", {"profile": "seed", "target": 300, "weis": "announce", "stoeck": "announce"}, 4, 4),
    "jass_schieber_deals": ("jass", {"profile": "schieber", "deals": 2}, 5, 5),
    "stichwahl_2": ("stichwahl", {"players": 2, "target": 8}, 1, 1),
    "stichwahl_3": ("stichwahl", {"players": 3, "target": 8}, 2, 2),
    "stichwahl_4": ("stichwahl", {"players": 4, "target": 8}, 3, 3),
    "stichling_2": ("stichling", {"players": 2}, 1, 1),
    "stichling_3": ("stichling", {"players": 3}, 2, 2),
    "stichling_4": ("stichling", {"players": 4}, 3, 3),
    "stichling_5": ("stichling", {"players": 5}, 4, 4),
    "stichmeister_3": ("stichmeister", {"players": 3}, 1, 1),
    "stichmeister_4": ("stichmeister", {"players": 4}, 2, 2),
    "stichmeister_5": ("stichmeister", {"players": 5}, 3, 3),
    "differenzler_hidden": ("differenzler", {"deals": 2}, 1, 1),
    "differenzler_open": ("differenzler", {"deals": 2, "predictions": "open", "exact_bonus": 10}, 2, 2),
    "coiffeur_short": ("coiffeur", {"rows": "slalom2 D1"}, 1, 1),
    "coiffeur_guschti": ("coiffeur", {"rows": "guschti3 joker1"}, 2, 3),
    "coiffeur_around": ("coiffeur", {"rows": "D1 obe2", "push": "around"}, 3, 5),
}

HOW = "stichkit.load_game(game, **options).new_state(seed=seed), then random.Random(policy).choice(legal_actions())"


def _stichkit() -> Any:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import stichkit

    return stichkit


def play(game_name: str, options: dict[str, Any], seed: int, policy: int) -> Any:
    """The whole game: `new_state(seed=seed)`, then `random.Random(policy).choice(legal_actions())`."""
    state = _stichkit().load_game(game_name, **options).new_state(seed=seed)
    rng = random.Random(policy)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- records ---------------------------------------------------------------------------------------


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
    return GOLDEN_DIR / f"{name}.json"


# -- playthroughs ----------------------------------------------------------------------------------


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _changes(key: str, old: Any, new: Any) -> dict[str, Any]:
    """`key`'s change from `old` to `new`: a list that grew as `key+` (the items added), a list of
    the same length as `key[i]` (each item changed), a mapping as `key.k` (each entry changed or
    added; `key-` lists the entries gone), anything else whole."""
    if isinstance(old, dict) and isinstance(new, dict) and old and new:
        out = {f"{key}.{k}": v for k, v in new.items() if k not in old or old[k] != v}
        gone = [k for k in old if k not in new]
        if gone:
            out[f"{key}-"] = gone
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(new) > len(old) and new[: len(old)] == old:
            return {f"{key}+": new[len(old) :]}
        if len(new) == len(old):
            return {f"{key}[{i}]": b for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}
    return {key: new}


def _diff(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, Any]:
    """`now` as the changes since `before` (all of it when there is no `before`)."""
    if before is None:
        return now
    changed: dict[str, Any] = {}
    for k, v in now.items():
        if k not in before:
            changed[k] = v
        elif before[k] != v:
            changed.update(_changes(k, before[k], v))
    gone = [k for k in before if k not in now]
    if gone:
        changed["-"] = gone  # keys no longer there
    return changed


def _views(state: Any, last: dict[Any, dict[str, Any]]) -> Iterator[str]:
    """The spectator's view, then what each seat sees beyond it (its hand, its legal actions...),
    each written as what changed since its previous line."""
    spectator = state.view(None)
    yield f"view *: {_json(_diff(last.get(None), spectator))}"
    last[None] = spectator
    for seat in range(state.game.num_players):
        view = state.view(seat)
        own = {k: v for k, v in view.items() if k not in spectator or spectator[k] != v}
        hidden = [k for k in spectator if k not in view]
        if hidden:
            own["not shown"] = hidden
        yield f"view {seat}: {_json(_diff(last.get(seat), own))}"
        last[seat] = own


def playthrough(name: str) -> str:
    """The playthrough file `name` as today's engine writes it."""
    game_name, options, seed, policy = PLAYTHROUGHS[name]
    record = play(game_name, options, seed, policy).record()
    state = _stichkit().load_game(game_name, **options).new_state(seed=seed)
    lines = [
        f"# {name}: a whole game of {game_name}, written by tools/golden.py; do not edit by hand.",
        f"# {HOW}.",
        "# 'view *' is a spectator's view, 'view <seat>' what that seat sees beyond it; each after the first",
        "# as the changes since that viewer's previous line ('key+' added, 'key[i]', 'key.k' changed, '-' gone).",
        f"game: {game_name}",
        f"options: {_json(state.game.options)}",
        f"seed: {seed}",
        f"policy: {policy}",
        f"actions: {_json([a.text for a in state.game.actions])}",
    ]
    last: dict[Any, dict[str, Any]] = {}
    chances = 0
    for move in record["moves"]:
        if "chance" in move:  # dealt by the state itself, from the seed: the deal function's output
            lines.append(f"chance {chances}: {_json(move['chance'])}")
            chances += 1
            continue
        if not last:
            lines.extend(_views(state, last))
        seat = state.current_player
        assert seat == move["seat"], f"{name}: the record's seat {move['seat']} is not the one to move ({seat})"
        lines.append(f"legal {seat}: {_json([a.id for a in state.legal_actions()])}")
        lines.append(f"move {seat}: {move['action']}")
        state.apply(move["action"])
        lines.extend(_views(state, last))
    assert state.record() == record, f"{name}: the game played again is not the recorded one"
    lines.append(f"result: {_json(record['result'])}")
    return "\n".join(lines) + "\n"


def playthrough_path(name: str) -> Path:
    return PLAYTHROUGH_DIR / f"{name}.txt"


# -- the command -----------------------------------------------------------------------------------


def files() -> dict[Path, Any]:
    """Every golden file, with the function that writes its text today."""
    out: dict[Path, Any] = {path_of(n): (lambda n=n: dumps(golden(n))) for n in GOLDEN}
    out.update({playthrough_path(n): (lambda n=n: playthrough(n)) for n in PLAYTHROUGHS})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file differs")
    args = ap.parse_args(argv)
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    differ = 0
    for path, text_of in files().items():
        text = text_of()
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == text:
            continue
        differ += 1
        if args.check:
            print(f"differs: {path.relative_to(ROOT)}")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
