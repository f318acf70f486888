"""Which bots there are: the engine's own, and those other packages add through an entry point.

A package outside the engine (stichkit's own interfaces, or anyone else's) adds a bot by naming
its class in the `stichkit.bots` entry-point group of its distribution (pyproject.toml):

    [project.entry-points."stichkit.bots"]
    mybot = "mypackage.bots:MyBot"

The engine never names those packages. Such a bot is loaded the first time the bots are listed or
it is asked for; a module that cannot be imported here (its extra is not installed, so it raises
ImportError) leaves its bot out of `bot_names()`, and `unavailable()` says why.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from stichkit.core import OptionError
from stichkit.core.errors import quote

from .base import Bot

GROUP = "stichkit.bots"

_BOTS: dict[str, type[Bot]] = {}
_UNAVAILABLE: dict[str, str] = {}  # plugin name -> why it cannot be loaded here
_plugins: dict[str, EntryPoint] | None = None  # not yet loaded, by name


def register(cls: type[Bot]) -> type[Bot]:
    """Add a bot class under its `name` (usable as a class decorator)."""
    _BOTS[cls.name] = cls
    _UNAVAILABLE.pop(cls.name, None)
    return cls


def _pending() -> dict[str, EntryPoint]:
    """The entry points not loaded yet (read from the installed distributions once)."""
    global _plugins
    if _plugins is None:
        _plugins = {ep.name: ep for ep in entry_points(group=GROUP) if ep.name not in _BOTS}
    return _plugins


def _load(name: str) -> None:
    """Load the plugin bot `name`: registered if it loads, else the reason kept in _UNAVAILABLE."""
    ep = _pending().pop(name)
    try:
        cls = ep.load()
    except ImportError as e:  # its extra is not installed here
        _UNAVAILABLE[name] = str(e)
        return
    except Exception as e:  # someone's broken plugin must not break the list of bots
        _UNAVAILABLE[name] = f"{ep.value} failed to load: {type(e).__name__}: {e}"
        return
    if not (isinstance(cls, type) and issubclass(cls, Bot)) or cls.name != name:
        _UNAVAILABLE[name] = f"{ep.value} is not a stichkit Bot named {name!r}"
        return
    register(cls)


def load_all() -> None:
    for name in list(_pending()):
        _load(name)


def bot_class(name: object) -> type[Bot] | None:
    """The class of the bot of that name, or None for a name no installed package declares.

    A declared bot that cannot be loaded here raises OptionError saying why."""
    if not isinstance(name, str):
        return None
    if name not in _BOTS and name in _pending():
        _load(name)
    if name in _UNAVAILABLE:
        raise OptionError(f"bot {quote(name)} cannot be used here: {_UNAVAILABLE[name]}")
    return _BOTS.get(name)


def bot_names() -> tuple[str, ...]:
    """The names `make` accepts here, sorted: the bots that load with what is installed."""
    load_all()
    return tuple(sorted(_BOTS))


def unavailable() -> dict[str, str]:
    """The bots an installed package declares that cannot be loaded here, with the reason."""
    load_all()
    return dict(sorted(_UNAVAILABLE.items()))
