"""Bots of a made-up distribution, for tests of the registry and of what lists bots (the server's
catalog): module files in a temporary folder, named by the `stichkit.bots` entry points."""

from __future__ import annotations

import contextlib
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from stichkit.bots import registry

GOOD = """
    from stichkit.bots.base import SEED, Bot

    class Plugin(Bot):
        \"\"\"Always the first legal action.\"\"\"

        name = "first"
        PARAMS = (SEED,)

        def decide(self, view):
            return view["legal_actions"][0]
"""

# what stichkit.rl does where numpy is not installed
MISSING_EXTRA = """
    raise ImportError("the frob bot needs frobnicate: install the frob extra", name="frobnicate")
"""


@contextlib.contextmanager
def fake_plugins(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A fresh registry whose entry points are the modules the caller puts in the returned dict
    (bot name -> module text), instead of the installed ones; restored afterwards."""
    saved = dict(registry._BOTS), dict(registry._UNAVAILABLE), registry._plugins
    texts: dict[str, str] = {}

    def fake_entry_points(group: str) -> list[EntryPoint]:
        assert group == registry.GROUP
        for name, text in texts.items():
            (folder / f"plugin_{name}.py").write_text(textwrap.dedent(text))
        return [EntryPoint(name, f"plugin_{name}:Plugin", group) for name in texts]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    monkeypatch.syspath_prepend(str(folder))
    registry._plugins = None
    try:
        yield texts
    finally:
        registry._BOTS.clear()
        registry._BOTS.update(saved[0])
        registry._UNAVAILABLE.clear()
        registry._UNAVAILABLE.update(saved[1])
        registry._plugins = saved[2]
        for name in texts:
            sys.modules.pop(f"plugin_{name}", None)
