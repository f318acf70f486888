"""The import-linter contracts (`make lint`) cover the whole package: a new package or game has
to take its place in the layers, or the contract would not see it at all."""

from __future__ import annotations

import ast
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


def module_imports() -> dict[str, set[str]]:
    """Every stichkit module and the stichkit modules it imports, at run time or under
    TYPE_CHECKING alike (`from . import views` imports the module views, not its package)."""
    files = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        files[".".join(parts)] = (path, package)
    graph: dict[str, set[str]] = {}
    for name, (path, package) in files.items():
        here = name if package else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    target = ".".join(up + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                modules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in files]
                found.update(modules)
                if len(modules) < len(node.names):
                    found.add(target)
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (strongly connected, Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_sees_an_import_for_the_type_checker_alone() -> None:
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert circles(graph) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_stichkit_imports_one_that_imports_it_back() -> None:
    """No module of the package imports another that imports it back, not even for the type
    checker (import-linter's contracts leave out the imports under TYPE_CHECKING). Where two sides
    share a type, it lives below both: a game's views, sampling and snapshots read the state
    through the fields it declares (`position.<Game>Fields`); the server's rooms see the hub as a
    protocol (`server/hub_protocol.py`); pimc's variants see the bot as one (`Budgeted`)."""
    graph = module_imports()
    assert {m.split(".")[1] for m in graph if "." in m} == parts(), "a part of stichkit was not read"
    found = circles(graph)
    assert found == [], f"modules that import each other round a circle: {found}"


def test_the_contracts_count_the_imports_for_the_type_checker() -> None:
    """A module may not name a type of a higher layer even for its hints: the contracts read the
    imports under TYPE_CHECKING too."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config.get("exclude_type_checking_imports") is False
