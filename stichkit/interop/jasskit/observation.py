"""jass-kit's observation: one player's view of a deal, as its tournament servers send it.

An observation is a game record (records.py) with one hand only, the asking player's, plus
`playerView`. Two directions:

- `observation_from_view(view)`: what a remote jass-kit player is sent, built from one seat's
  stichkit view and nothing else;
- `position_from_observation(data)`: a full stichkit State consistent with an observation, the
  hidden hands drawn at random (`Jass.new_position`), so that any stichkit bot, search bots
  included, can answer it. An impossible observation raises JasskitError with the reason.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

import stichkit
from stichkit.core.errors import StichkitError

from .mapping import (
    BY_FOREHAND,
    BY_PARTNER,
    FORMAT_VERSION,
    IMPORT_OPTIONS,
    JASS_TYPE,
    NOT_YET,
    TRUMP_CODES,
    ImpossibleError,
    JasskitError,
    dealer_of,
    jass_kit_card_id,
    trump_action,
)
from .records import KitGame, parse_game, plays_of

TRUMP, CARD = "trump", "card"  # what an observation asks for


def observation_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """jass-kit's observation of the current deal for the seat whose view this is."""
    if view.get("game") != "jass":
        raise JasskitError(f"jass-kit's protocol plays Jass only, not {view.get('game')!r}")
    seat = view["seat"]
    if seat is None:
        raise JasskitError("an observation is one player's: a spectator's view has no hand")
    forehand = view["forehand"]
    trump = view["trump"]
    if trump is None:
        named = BY_PARTNER if view["pushed"] else NOT_YET
    else:
        named = BY_PARTNER if view["pushed"] else BY_FOREHAND
    tricks: list[dict[str, Any]] = [
        {"cards": t["cards"], "points": t["points"], "win": t["winner"], "first": t["leader"]} for t in view["tricks"]
    ]
    if trump is not None and len(tricks) < 9:
        open_cards = [e["card"] for e in view["trick"]]
        leader = view["trick_leader"] if open_cards else (view["tricks"][-1]["winner"] if tricks else forehand)
        tricks.append({"cards": open_cards, "first": leader} if open_cards else {"first": leader})
    players: list[dict[str, Any]] = [{"hand": []} for _ in range(4)]
    players[seat] = {"hand": sorted(view["hand"], key=jass_kit_card_id)}
    to_move = view["current_player"]
    return {
        "version": FORMAT_VERSION,
        "trump": -1 if trump is None else TRUMP_CODES[trump],
        "dealer": dealer_of(forehand),
        "currentPlayer": -1 if to_move is None else to_move,
        "playerView": seat,
        "forehand": named,
        "tricks": tricks,
        "player": players,
        "jassTyp": JASS_TYPE,
        "gameId": view["deal_number"],
    }


@dataclass
class Position:
    """A stichkit state that fits an observation, and what the observation asks for."""

    state: stichkit.State
    seat: int
    asks: str  # TRUMP or CARD


def position_from_observation(data: Any, seed: int | None = None) -> Position:
    """A state consistent with a jass-kit observation, for the player it is addressed to, who must
    be the player to move. Without `seed` the hidden hands are drawn from the observation itself,
    so the same observation always gives the same state."""
    if not isinstance(data, dict):
        raise JasskitError(f"an observation is a JSON object, not {type(data).__name__}")
    if "playerView" not in data:
        raise JasskitError("'playerView' is missing: an observation says whose view it is")
    seat = data["playerView"]
    if type(seat) is not int or not 0 <= seat < 4:
        raise JasskitError(f"'playerView' is {seat!r}; allowed: 0, 1, 2, 3")
    game = parse_game(data, "observation")
    others = [s for s in range(4) if s != seat and game.hands[s]]
    if others:
        raise ImpossibleError(f"the observation shows the hand of seat {others[0]}; a player sees only its own hand")
    if len(plays_of(game)) == 36:
        raise ImpossibleError("the deal is over: all 36 cards are played, nothing is left to ask")
    if game.current_player is None:
        raise JasskitError("'currentPlayer' is missing or -1: an observation asks the player whose turn it is")
    if game.current_player != seat:
        raise ImpossibleError(f"it is seat {game.current_player}'s turn, but this observation is seat {seat}'s view: "
                           "a player is asked only on its own turn")  # fmt: skip
    moves = _moves(game)
    jass = stichkit.load_game("jass", **IMPORT_OPTIONS, first_forehand=game.forehand)
    if seed is None:
        seed = zlib.crc32(json.dumps(data, sort_keys=True, default=str).encode())
    try:
        state = jass.new_position(seat, game.hands[seat], moves, seed=seed)  # type: ignore[attr-defined]
    except StichkitError as e:
        raise ImpossibleError(f"no deal fits this observation: {e}") from None
    _check_tricks(state, game)
    if state.current_player != seat:
        raise ImpossibleError(f"the rules give seat {state.current_player} the turn, not seat {seat}")
    return Position(state, seat, TRUMP if game.trump < 0 else CARD)


def _moves(game: KitGame) -> list[tuple[int, str]]:
    """The deal's decisions so far as (seat, stichkit action)."""
    moves: list[tuple[int, str]] = []
    forehand = game.forehand
    if game.named_by == BY_PARTNER:
        moves.append((forehand, "push"))
    if game.trump >= 0:
        chooser = forehand if game.named_by == BY_FOREHAND else (forehand + 2) % 4
        moves.append((chooser, trump_action(game.trump)))
    moves.extend(plays_of(game))
    return moves


def _check_tricks(state: stichkit.State, game: KitGame) -> None:
    """The finished tricks' winners and points, as far as the observation gives them, are the rules'."""
    view = state.view(None)
    done = view["tricks"]
    last = game.tricks[-1] if game.tricks else None
    if last is not None and not last.cards and last.first != view["current_player"]:
        raise ImpossibleError(f"trick {len(game.tricks) - 1} is to be led by seat {last.first}, the observation says; "
                           f"the rules give seat {view['current_player']}")  # fmt: skip
    for i, (t, d) in enumerate(zip(game.tricks, done, strict=False)):
        if t.win not in (None, d["winner"]) or t.points not in (None, d["points"]):
            raise ImpossibleError(f"trick {i} ({' '.join(t.cards)}): the observation says seat {t.win} wins "
                               f"{t.points} points; the rules give seat {d['winner']} and {d['points']} "
                               "points")  # fmt: skip
