"""The observation encoder every game shares: a fixed layout of named fields, written from a view.

An encoder turns `state.view(seat)` (and nothing else) into a float32 vector in [0, 1]. A game's
encoder declares its fields once (name, size, meaning) and writes each view as a list of the
positions that are 1 plus a few scalar positions and values; one numpy write per batch then fills
the whole array. So the batch form costs one fancy-index assignment for many states, not one per
field, and nothing per step allocates arrays.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stichkit.core import Game, State

View = Mapping[str, Any]


@dataclass(frozen=True)
class Field:
    """One block of the observation: `size` values from `offset` on, described in players' terms."""

    name: str
    offset: int
    size: int
    doc: str


class Encoder(ABC):
    """A game's observation encoder. `shape` is the tensor's shape; every value lies in [0, 1]."""

    game: Game
    fields: tuple[Field, ...]
    size: int

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players
        self._fields: list[Field] = []
        self.size = 0
        self._layout()
        self.fields = tuple(self._fields)
        self.offsets = {f.name: f.offset for f in self.fields}

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def _add(self, name: str, size: int, doc: str) -> int:
        """Declare the next field; returns its offset."""
        offset = self.size
        self._fields.append(Field(name, offset, size, doc))
        self.size += size
        return offset

    @abstractmethod
    def _layout(self) -> None:
        """Declare every field with `_add`, in order."""

    @abstractmethod
    def _write(self, view: View, base: int, hot: list[int], at: list[int], values: list[float]) -> None:
        """Append the positions (offset by `base`) that are 1 to `hot`, other values to `at`/`values`."""

    # --- the public forms -------------------------------------------------------------------

    def observation(self, state: State, seat: int) -> np.ndarray:
        """`seat`'s observation of `state`, built from `state.view(seat)` alone."""
        return self.observation_from_view(state.view(seat))

    def observation_from_view(self, view: View) -> np.ndarray:
        """The observation of a seat's view dict (what a bot is given)."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill_views([view], out[None, :])
        return out

    def observations(self, states: Sequence[State], seats: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
        """The batch form: row i is seat `seats[i]`'s observation of `states[i]` (into `out` if given).

        Each view is made, written and dropped in turn: a thousand views alive at once would each
        be promoted by the garbage collector, whose full collections then cost the vectorised
        environment half its speed at 1024 games."""
        if len(states) != len(seats):
            raise ValueError(f"{len(states)} states for {len(seats)} seats")
        return self._fill((s.view(p) for s, p in zip(states, seats, strict=True)), len(states), out)

    def fill_views(self, views: Sequence[View], out: np.ndarray | None = None) -> np.ndarray:
        """Encode many views with one numpy write; `out` must be float32 of shape (len(views), size)."""
        return self._fill(views, len(views), out)

    def _fill(self, views: Iterable[View], n: int, out: np.ndarray | None) -> np.ndarray:
        if out is None:
            out = np.zeros((n, self.size), dtype=np.float32)
        else:
            if out.shape != (n, self.size) or out.dtype != np.float32:
                raise ValueError(f"out must be float32 of shape {(n, self.size)}, not {out.dtype} {out.shape}")
            out.fill(0.0)
        hot: list[int] = []
        at: list[int] = []
        values: list[float] = []
        size = self.size
        write = self._write
        for i, view in enumerate(views):
            write(view, i * size, hot, at, values)
        flat = out.reshape(-1)
        if hot:
            flat[hot] = 1.0
        if at:
            flat[at] = values
        return out

    def describe(self) -> str:
        """The layout as a table: offset, size, field, meaning (docs/rl.md prints it)."""
        lines = [f"{'offset':>6} {'size':>5}  {'field':<22} meaning"]
        lines += [f"{f.offset:>6} {f.size:>5}  {f.name:<22} {f.doc}" for f in self.fields]
        return "\n".join(lines)


def unit(x: float, top: float) -> float:
    """`x / top`, clipped to [0, 1]: counts and scores as observation values."""
    if x <= 0:
        return 0.0
    return 1.0 if x >= top else x / top


def card_table(names: Sequence[str]) -> dict[str, int]:
    """Card notation to index; any letter case the views might use is accepted."""
    table = {name: i for i, name in enumerate(names)}
    table.update({name.upper(): i for i, name in enumerate(names)})
    return table
