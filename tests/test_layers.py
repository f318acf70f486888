"""The import-linter contracts (`make lint`) cover the whole package: a new package or game has
to take its place in the layers, or the contract would not see it at all."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import stichkit

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(stichkit.__file__).parent


def all_contracts() -> list[dict[str, Any]]:
    contracts: list[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    return contracts


def contracts() -> dict[str, dict[str, object]]:
    """The contracts over the whole package, by type (the game-package contract stands apart)."""
    return {c["type"]: c for c in all_contracts() if c.get("containers", ["stichkit"]) == ["stichkit"]}


def parts() -> set[str]:
    """stichkit's modules and packages directly under it."""
    out = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    out |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    return out


def test_every_part_of_stichkit_has_a_layer() -> None:
    layers = contracts()["layers"]["layers"]
    assert isinstance(layers, list)
    named = {name.strip() for layer in layers for name in layer.split("|")}
    assert named == parts()


def test_every_game_is_kept_apart_from_the_others() -> None:
    """Every game is independent of the others, or is a variant that builds on one game alone
    (Differenzler on Jass): forbidden every other game, and forbidden to every game."""
    games = {f"stichkit.games.{p.name}" for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()}
    independent = set(contracts()["independence"]["modules"])  # type: ignore[arg-type]
    forbidden = [c for c in all_contracts() if c["type"] == "forbidden"]
    variants = {c["source_modules"][0] for c in forbidden if len(c["source_modules"]) == 1}
    assert independent | variants == games and not independent & variants
    for variant in variants:
        (own,) = [c for c in forbidden if c["source_modules"] == [variant]]
        assert len(independent - set(own["forbidden_modules"])) == 1, f"{variant} builds on more than one game"
        assert any(set(c["source_modules"]) == independent and variant in c["forbidden_modules"] for c in forbidden)


def test_every_game_in_the_package_shape_is_held_to_it() -> None:
    """A game package with every file of the shape (docs/architecture.md) is a container of the
    contract that keeps its modules in order, so that views and sampling never import the state."""
    (contract,) = [c for c in all_contracts() if str(c.get("containers", [""])[0]).startswith("stichkit.games.")]
    layers = [name.strip(" ()") for layer in contract["layers"] for name in str(layer).split("|")]
    shape = {"state", "views", "sampling", "position", "deals", "rules", "actions", "game"}
    assert shape <= set(layers)
    for game in (PACKAGE / "games").iterdir():
        if (game / "__init__.py").is_file() and all((game / f"{m}.py").is_file() for m in shape):
            assert f"stichkit.games.{game.name}" in contract["containers"], f"{game.name} has the shape: add it"
