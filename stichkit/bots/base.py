"""The bot protocol: a bot turns what one seat sees into an Action.

A bot works from `state.view(seat)` only, so it can never read what its seat may not see. Given
a State it takes that view first; given a view (a dict) it uses it as is.
"""

from __future__ import annotations

import json
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from stichkit.core import Action, Game, OptionError, State, load_game
from stichkit.core.errors import quote

from .announce import announces, cards_only

View = dict[str, Any]

_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}


def game_of(view: Mapping[str, Any]) -> Game:
    """The Game a view belongs to (cached per game and options): it turns notation into Actions.

    A bot given a State uses that state's own game (see `seat_view`): a game whose card table came
    from a record is never loaded again from the path its options name."""
    options = view["options"]
    key = (view["game"], tuple(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) >= 256:
            _GAMES.clear()
        game = _GAMES[key] = load_game(view["game"], **options)
    return game


def _remember(game: Game, view: Mapping[str, Any]) -> None:
    """`game_of` of this game's views is this game (cheap: only games with data files are kept)."""
    if game.files:
        _GAMES[(view["game"], tuple(sorted(view["options"].items())))] = game


def seat_view(state_or_view: State | Mapping[str, Any], seat: int) -> View:
    """What `seat` sees, checked to be `seat`'s turn. A State is reduced to `state.view(seat)`."""
    if isinstance(state_or_view, State):
        view = state_or_view.view(seat)
        _remember(state_or_view.game, view)
    elif isinstance(state_or_view, Mapping):
        view = dict(state_or_view)
        if view.get("seat") != seat:
            raise ValueError(f"this view is seat {quote(view.get('seat'))}'s, not seat {quote(seat)}'s")
    else:
        raise TypeError(f"a bot chooses from a State or a view dict, not {type(state_or_view).__name__}")
    to_move = view.get("current_player")
    if to_move != seat:
        who = "the game is over" if to_move is None else f"it is seat {to_move}'s turn"
        raise ValueError(f"seat {seat} is not to move: {who}")
    if "legal_actions" not in view:
        raise ValueError(f"the view of seat {seat} lists no legal_actions")
    return view


@dataclass(frozen=True)
class Param:
    """A keyword parameter of a bot. `check` returns the accepted value or a reason it is not."""

    name: str
    default: Any
    doc: str
    check: Callable[[Any], tuple[Any, str | None]]


def check_seed(value: Any) -> tuple[Any, str | None]:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value, None
    if isinstance(value, str):
        try:
            return int(value), None
        except ValueError:
            pass
    return value, "a whole number or None"


SEED = Param("seed", None, "a whole number or None: fixes the bot's random choices", check_seed)


class Bot(ABC):
    """A player. Subclasses set `name` and `PARAMS` and implement `decide` (view → notation)."""

    name: ClassVar[str]
    PARAMS: ClassVar[tuple[Param, ...]] = ()
    # The games the bot can play; None: every game (a bot speaking another program's protocol may not).
    GAMES: ClassVar[tuple[str, ...] | None] = None

    params: dict[str, Any]

    def __init__(self, **params: Any) -> None:
        self.params = resolve_params(self.name, self.PARAMS, params)

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        """The action `seat` takes now. Raises ValueError if it is not `seat`'s turn."""
        view = seat_view(state_or_view, seat)
        said = announces(view)  # Jass with announced Weis: every bot decides it alike
        if said is not None:
            if said:
                return game_of(view).parse_action(said)
            view = cards_only(view)
        text = self.decide(view)
        return game_of(view).parse_action(text)

    def observe(self, state: State, seat: int) -> None:
        """Shown `seat`'s position without being asked to play: a bot that learns from a game's
        earlier deals (pimc's calibration) sees them even when it only answers now and then (the
        terminal's `hint`). Others ignore it."""
        return None

    @abstractmethod
    def decide(self, view: View) -> str:
        """The notation of the chosen action; `view` is the seat's own, with `legal_actions`."""

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"make({self.name!r}{args})"


def resolve_params(bot: str, declared: tuple[Param, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    by_name = {p.name: p for p in declared}
    for key in given:
        if key not in by_name:
            names = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"bot {quote(bot)} has no parameter {quote(key)}; its parameters are: {names}")
    out: dict[str, Any] = {}
    for p in declared:
        if p.name not in given:
            out[p.name] = p.default
            continue
        value, problem = p.check(given[p.name])
        if problem:
            raise OptionError(
                f"bot {quote(bot)}: parameter {p.name}={quote(given[p.name])} is not allowed; allowed: {problem}"
            )
        out[p.name] = value
    return out


def view_key(view: Mapping[str, Any]) -> int:
    """A number fixed by what the seat sees now: seeds tie-breaks so a bot is a pure function of
    (its seed, the view), independent of call order, process and PYTHONHASHSEED."""
    return zlib.crc32(json.dumps(view, sort_keys=True, separators=(",", ":")).encode())
