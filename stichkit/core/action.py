"""Actions: small immutable values, created once per game and reused, so play makes no garbage."""

from __future__ import annotations

from collections.abc import Callable, Iterable


class Action:
    """One decision of a player. `str(action)` is its canonical notation; `id` its fixed RL id."""

    __slots__ = ("id", "text")

    id: int
    text: str

    def __init__(self, id: int, text: str) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Action):
            return self.id == other.id and self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[type, tuple[int, str]]:
        return (Action, (self.id, self.text))


def ids_by_identity(actions: Iterable[Action]) -> Callable[[int, int], int]:
    """`lookup(id(action), default)`: the id of one of these very Action objects, found by
    identity, the cheapest test there is (a dict probe on an int); `default` for any other
    object, which then goes the long way, `Game.action_id` (equal Actions, notation text)."""
    return {id(a): a.id for a in actions}.get
