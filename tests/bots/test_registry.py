"""The registry of bots: the engine's own, and those other packages add through the `stichkit.bots`
entry points. A bot whose module cannot be imported here (its extra is missing) is not offered,
and asking for it says why; the engine's code never names the packages above it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import stichkit
from stichkit import bots
from stichkit.bots import registry

from .plugins import GOOD, MISSING_EXTRA, fake_plugins

ENGINE = Path(stichkit.__file__).parent


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    with fake_plugins(tmp_path, monkeypatch) as texts:
        yield texts


def test_a_plugin_bot_plays_like_any_other(plugins: dict[str, str]) -> None:
    plugins["first"] = GOOD
    assert "first" in bots.bot_names()
    state = stichkit.load_game("stichling").new_state(seed=1)
    bot = bots.make("first")
    assert bot.choose(state, state.current_player) == state.legal_actions()[0]
    assert bots.unavailable() == {}


def test_a_plugin_whose_extra_is_missing_is_not_offered_and_asking_for_it_says_why(plugins: dict[str, str]) -> None:
    plugins["first"] = GOOD
    plugins["frob"] = MISSING_EXTRA
    names = bots.bot_names()
    assert "frob" not in names and "first" in names and "heuristic" in names
    assert bots.unavailable() == {"frob": "the frob bot needs frobnicate: install the frob extra"}
    with pytest.raises(stichkit.OptionError, match="bot 'frob' cannot be used here: the frob bot needs frobnicate"):
        bots.make("frob")
    with pytest.raises(stichkit.OptionError, match="unknown bot 'nobody'; bots: first, heuristic"):
        bots.make("nobody")


def test_asking_for_one_plugin_loads_only_that_one(plugins: dict[str, str]) -> None:
    plugins["first"] = GOOD
    plugins["frob"] = MISSING_EXTRA
    assert bots.bot_class("first") is not None
    assert "plugin_frob" not in sys.modules and "frob" not in registry._UNAVAILABLE


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Plugin = 42\n", "plugin_odd:Plugin is not a stichkit Bot named 'odd'"),
        ("raise RuntimeError('half-installed')\n", "plugin_odd:Plugin failed to load: RuntimeError: half-installed"),
        (GOOD, "plugin_odd:Plugin is not a stichkit Bot named 'odd'"),  # it calls itself "first"
    ],
)
def test_a_broken_plugin_is_left_out_with_the_reason(plugins: dict[str, str], text: str, reason: str) -> None:
    plugins["odd"] = text
    assert "odd" not in bots.bot_names()
    assert bots.unavailable() == {"odd": reason}


def test_the_interfaces_register_their_bots_through_the_entry_points() -> None:
    ours = [ep for ep in entry_points(group=registry.GROUP) if ep.dist and ep.dist.name == "stichkit"]
    declared = {ep.name: ep.value for ep in ours}
    assert declared == {
        "policy": "stichkit.rl.policy_bot:PolicyBot",
        "remote": "stichkit.interop.jasskit.remote:RemoteBot",
    }
    # this environment has every extra: both load
    assert {"policy", "remote"} <= set(bots.bot_names())


@pytest.mark.parametrize("part", ["cards.py", "core", "games", "bots", "analysis", "arena"])
def test_the_engine_never_names_an_interface(part: str) -> None:
    """Not even as a string to import later: the interfaces (cli, server, rl, interop) come to the
    engine through entry points. The import-linter contract checks the imports themselves."""
    path = ENGINE / part
    files = [path] if path.is_file() else sorted(path.rglob("*.py"))
    for f in files:
        text = f.read_text()
        for interface in ("stichkit.rl", "stichkit.interop", "stichkit.server", "stichkit.cli"):
            assert interface not in text, f"{f.relative_to(ENGINE)} names {interface}"
