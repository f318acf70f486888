"""The import-linter contracts (`make lint`) cover the whole package: a new package or game has
to take its place in the layers, or the contract would not see it at all."""

from __future__ import annotations

import tomllib
from pathlib import Path

import stichkit

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(stichkit.__file__).parent


def contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["type"]: c for c in config["contracts"]}


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
    games = {p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()}
    assert set(contracts()["independence"]["modules"]) == {f"stichkit.games.{g}" for g in games}  # type: ignore[arg-type]
