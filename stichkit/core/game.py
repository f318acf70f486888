"""The game protocol every game implements: a Game (rules + options) makes States (a whole game)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from .action import Action, ids_by_identity
from .errors import IllegalActionError, OptionError, quote
from .files import DataFile
from .options import Option, resolve_options

# A history entry: seat * SEAT_SHIFT + action id for a decision (one int; with a small shift
# CPython's cached small ints make logging allocate nothing), or ("chance", outcome).
Entry = int | tuple[str, Any]

RECORD_FORMAT = "stichkit-record"
RECORD_VERSION = 1
# Seeds are whole numbers of at most 64 bits, either sign: -SEED_LIMIT < seed < SEED_LIMIT. A record
# keeps its seed, and a bound keeps every number in a record small (record.NUMBER_LIMIT).
SEED_LIMIT = 2**64
SEED_RANGE = "a whole number from -(2**64 - 1) to 2**64 - 1"


class NotationError(IllegalActionError):
    """Text that is not the notation of any action of this game (code `unknown_action`)."""

    default_code = "unknown_action"


class Game(ABC):
    """A game with its options resolved. Cheap to keep; holds the action table shared by all states."""

    name: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]]

    options: dict[str, Any]
    files: dict[str, DataFile]  # data-file options (card tables) by name: their text, read once
    num_players: int
    actions: tuple[Action, ...]
    _by_text: dict[str, Action]
    action_id_of: Callable[[int, int], int]  # ids_by_identity of the table: apply's hot path

    def __init__(self, **options: Any) -> None:
        self.options = resolve_options(self.name, self.OPTIONS, options)
        self.files = {}
        for name, value in self.options.items():
            if isinstance(value, DataFile):  # the option shows the path; the game keeps the text
                self.files[name] = value
                self.options[name] = value.name

    def portable_options(self) -> dict[str, Any]:
        """The options with each data file's text in place of its path: `load_game(name,
        **portable_options())` makes this very game again (in a worker process, or after the
        file changed) without reading a file."""
        return {**self.options, **self.files}

    def _set_actions(self, actions: Sequence[Action] | Sequence[str]) -> None:
        """Make `actions` the game's action table: ready-made Actions (a table shared by every game
        of its kind, built once at import) or their texts, numbered in order."""
        table = tuple(a if isinstance(a, Action) else Action(i, str(a)) for i, a in enumerate(actions))
        if any(a.id != i for i, a in enumerate(table)):
            raise ValueError("an action table numbers its actions 0, 1, 2, ... in order")
        self.actions = table
        self.action_id_of = ids_by_identity(table)
        self._by_text = {a.text: a for a in table}
        self._by_text.update({a.text.lower(): a for a in table})

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def parse_action(self, text: str) -> Action:
        if isinstance(text, Action):
            return self._own(text)
        if not isinstance(text, str):
            raise NotationError(
                f"an action is an Action or its notation text, not {type(text).__name__}",
                params={"type": type(text).__name__},
            )
        key = text.strip()
        found = self._by_text.get(key) or self._by_text.get(key.lower())
        if found is None:
            raise NotationError(
                f"{quote(text)} is not a {self.name} action; {self.notation_help()}", params={"action": quote(text)}
            )
        return found

    def notation_help(self) -> str:
        return "actions are written like " + ", ".join(a.text for a in self.actions[:3])

    def _own(self, action: Action) -> Action:
        i = action.id
        if 0 <= i < len(self.actions) and self.actions[i] == action:
            return self.actions[i]
        raise NotationError(f"{quote(action)} is not an action of {self.name}", params={"action": quote(action)})

    def action_id(self, action: Action | str) -> int:
        """The id of `action`: one of the game's own Actions (found by identity, the hot path of
        every `apply`), an equal Action, or its notation text; NotationError for anything else."""
        found = self.action_id_of(id(action), -1)
        if found >= 0:
            return found
        if isinstance(action, str):
            return self.parse_action(action).id
        if isinstance(action, Action):
            return self._own(action).id
        raise NotationError(
            f"an action is an Action or its notation text, not {type(action).__name__}",
            params={"type": type(action).__name__},
        )

    def action_from_id(self, i: int) -> Action:
        if type(i) is not int or not 0 <= i < len(self.actions):
            raise NotationError(
                f"action id {quote(i)} is out of range 0..{len(self.actions) - 1}", params={"id": quote(i)}
            )
        return self.actions[i]

    @abstractmethod
    def new_state(self, seed: int | None = None, deal: Any = None) -> State:
        """A fresh whole game. `seed` fixes every shuffle; `deal` gives the first deal explicitly."""

    @abstractmethod
    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> State:
        """A fresh game fed these chance outcomes in order (replay); later ones come from `seed`."""

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.name!r}, {opts})"


def fresh_seed() -> int:
    return random.SystemRandom().getrandbits(63)


def check_seed(seed: Any) -> int | None:
    """`seed` if it is None or a whole number within +-SEED_LIMIT, else OptionError (a ValueError)."""
    if seed is not None and (type(seed) is not int or not -SEED_LIMIT < seed < SEED_LIMIT):
        raise OptionError(f"seed must be {SEED_RANGE} or None, not {quote(seed)}")
    return seed


class State(ABC):
    """A whole game in progress. Mutable: `apply` and `undo` change it in place; `clone` copies."""

    game: Game
    _log: list[Entry]
    SEAT_SHIFT: ClassVar[int] = 1 << 16  # must exceed every action id of the game
    _seed: int  # later chance outcomes (deals not yet dealt) come from it

    @property
    @abstractmethod
    def current_player(self) -> int | None: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]: ...

    def legal_action_mask(self) -> list[int]:
        mask = [0] * self.game.num_actions
        for a in self.legal_actions():
            mask[a.id] = 1
        return mask

    @abstractmethod
    def apply(self, action: Action | str) -> None: ...

    @abstractmethod
    def undo(self) -> None: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]: ...

    @abstractmethod
    def winners(self) -> list[int]: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]: ...

    # The state's fields, declared once: `clone` shares the values of SHARED_FIELDS (immutable,
    # or never changed in place) and copies COPIED_FIELDS (the lists and dicts that play changes
    # in place). A game's `__slots__` is the two together, so no field can be forgotten.
    SHARED_FIELDS: ClassVar[tuple[str, ...]] = ()
    COPIED_FIELDS: ClassVar[tuple[str, ...]] = ()

    def clone(self) -> Self:
        """An independent copy: applying or undoing on one never changes the other."""
        if not self.SHARED_FIELDS:
            raise NotImplementedError(f"{type(self).__name__} declares no SHARED_FIELDS to clone")
        new = object.__new__(type(self))
        for name in self.SHARED_FIELDS:
            setattr(new, name, getattr(self, name))
        for name in self.COPIED_FIELDS:
            setattr(new, name, getattr(self, name).copy())
        return new

    @abstractmethod
    def sample_hidden(self, seat: int, rng: random.Random) -> State: ...

    def history(self) -> list[tuple[int, Action]]:
        """Every decision so far, as (seat, action), oldest first."""
        acts = self.game.actions
        shift = self.SEAT_SHIFT
        return [(e // shift, acts[e % shift]) for e in self._log if isinstance(e, int)]

    def record(self) -> dict[str, Any]:
        """The game as a versioned JSON-serialisable record with every chance outcome written out."""
        acts = self.game.actions
        moves: list[dict[str, Any]] = []
        for e in self._log:
            if isinstance(e, int):
                seat, a = divmod(e, self.SEAT_SHIFT)
                moves.append({"seat": seat, "action": acts[a].text})
            else:
                moves.append({"chance": self._chance_json(e[1])})
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self._seed,
            "moves": moves,
        }
        if self.game.files:  # a custom card table travels with the record: replay never opens a file
            rec["files"] = {name: f.to_json() for name, f in self.game.files.items()}
        if self.is_terminal():
            rec["result"] = {"scores": self.scores(), "winners": self.winners()}
        return rec

    def _chance_json(self, outcome: Any) -> Any:
        """A chance outcome as the record writes it."""
        return outcome

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players
        ):
            raise ValueError(
                f"seat {quote(seat)} is not a seat of this game; seats are 0..{self.game.num_players - 1} or None"
            )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self._position() == other._position()

    __hash__ = None  # type: ignore[assignment]

    @abstractmethod
    def _position(self) -> tuple[Any, ...]:
        """Everything that makes the game position (not caches or the random source)."""
