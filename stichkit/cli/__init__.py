"""The `stich` command: play, simulate and replay games in a terminal (needs `stichkit[cli]`, i.e. rich)."""

from .main import main

__all__ = ["main"]
