"""What can be played here: every game with its player counts and options, the bots, the table
settings, described well enough for a page to build its "new table" form (GET /api/games)."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

import stichkit
from stichkit import bots
from stichkit.core import Game, Option, OptionError
from stichkit.core.registry import game_class

log = logging.getLogger("stichkit.server")

TITLES = {
    "coiffeur": "Coiffeur",
    "differenzler": "Differenzler",
    "jass": "Jass",
    "stichling": "Stichling",
    "stichmeister": "Stich-Meister",
    "stichwahl": "Stichwahl",
}
TAKEOVER_MODES = ("hand", "game", "off")


def is_server_file(opt: Option) -> bool:
    """An option whose value is the path of a data file (`cards`, `rule_cards`): not settable over
    the web, where it would read the server's files."""
    return bool(opt.data_file)


def player_counts(name: str) -> list[int]:
    for opt in game_class(name).OPTIONS:
        if opt.name == "players":
            return sorted(int(c) for c in opt.choices)
    return [stichkit.load_game(name).num_players]


def _minimum(opt: Option) -> int | None:
    """The smallest whole number the option takes, when it refuses the one below."""
    for low in (-1, 0, 1):
        try:
            opt.validate(low)
        except OptionError:
            continue
        if low == -1:
            return None
        return low
    return None


def describe_option(opt: Option, default: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": opt.name, "default": default, "doc": opt.doc}
    if opt.choices and all(isinstance(c, bool) for c in opt.choices):
        out["type"] = "boolean"
    elif opt.choices:
        out.update(type="choice", choices=list(opt.choices))
    elif opt.suggested:  # a menu of named values; the API takes any value the option's check allows
        out.update(type="choice", choices=list(opt.suggested), open=True)
    elif opt.kind is str:  # free text that the option's doc describes (Coiffeur's own sheet)
        out["type"] = "text"
    else:
        out["type"] = "integer"
        low = _minimum(opt)
        if low is not None:
            out["minimum"] = low
        if opt.maximum is not None:
            out["maximum"] = opt.maximum
    return out


def web_options(name: str) -> list[Option]:
    return [o for o in game_class(name).OPTIONS if o.name != "players" and not is_server_file(o)]


def game_data(name: str) -> dict[str, Any] | None:
    """Facts printed on the cards that a page draws but no view carries: Stichwahl's pearls and
    bonuses, Stich-Meister's rule-card texts (a view names the rules of past rounds by number)."""
    if name == "stichwahl":
        from stichkit.games.stichwahl import CARDS

        return {"cards": {c.name: {"pearls": c.pearls, "bonus": c.bonus} for c in CARDS}}
    if name == "stichmeister":
        from stichkit.games.stichmeister import RULE_CARDS

        texts = ("number", "kind", "text_de", "text_en")
        return {"rule_cards": {r.number: {k: getattr(r, k) for k in texts} for r in RULE_CARDS}}
    return None


@cache
def describe_game(name: str) -> dict[str, Any]:
    defaults = stichkit.load_game(name).options
    counts = player_counts(name)
    return {
        "name": name,
        "title": TITLES.get(name, name),
        "players": counts,
        "default_players": stichkit.load_game(name).num_players,
        "options": [describe_option(o, defaults.get(o.name, o.default)) for o in web_options(name)],
        "data": game_data(name),
    }


def describe_bots(allow_remote: bool = False) -> list[dict[str, Any]]:
    """The bots a table may seat: those that load with what is installed here, not those that see
    hidden cards, nor (unless the operator allows them) those that call other servers."""
    out = []
    for name in bots.bot_names():
        try:
            cls = bots.bot_class(name)
        except OptionError as e:  # listed, yet it failed to load: leave it out, never fail the page
            log.warning("bot %s is left out of the catalog: %s", name, e)
            continue
        assert cls is not None
        if bots.is_cheating(name) or (bots.address_param(name) is not None and not allow_remote):
            continue
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        params = [{"name": p.name, "default": p.default, "doc": p.doc} for p in cls.PARAMS]
        out.append(
            {"name": name, "doc": doc, "params": params, "games": None if cls.GAMES is None else list(cls.GAMES)}
        )
    return out


def unavailable_bots() -> list[dict[str, str]]:
    """The bots an installed package offers that cannot be loaded here (their extra is missing),
    with the reason: what an operator installs to have them. Logged once."""
    missing = [{"name": name, "reason": reason} for name, reason in bots.unavailable().items()]
    _log_unavailable(tuple((m["name"], m["reason"]) for m in missing))
    return missing


@cache
def _log_unavailable(missing: tuple[tuple[str, str], ...]) -> None:
    for name, reason in missing:
        log.info("bot %s is not offered here: %s", name, reason)


def describe_settings(max_bot_time: float) -> list[dict[str, Any]]:
    return [
        {"name": "private", "default": False, "type": "boolean",
         "doc": "not listed in the lobby; whoever has the link can join or watch"},
        {"name": "name", "default": None, "type": "text", "maxLength": 40, "doc": "the table's name in the lobby"},
        {"name": "takeover", "default": "hand", "type": "choice", "choices": list(TAKEOVER_MODES),
         "doc": "when a player has been away for the grace time: a bot plays their seat to the end of the hand "
                "(hand) or of the game (game), or the table waits (off)"},
        {"name": "grace", "default": 60, "type": "number", "minimum": 0, "maximum": 86400,
         "doc": "seconds a player may be away before a bot takes the seat over"},
        {"name": "takeover_bot", "default": "bot:heuristic", "type": "text",
         "doc": "the bot that takes seats over, and moves when a move timer runs out"},
        {"name": "move_time", "default": None, "type": "number", "minimum": 1, "maximum": 3600, "nullable": True,
         "doc": "seconds per move for humans; when they run out a move is made for the seat (null: no timer)"},
        {"name": "hints", "default": True, "type": "boolean",
         "doc": "players may ask, at their turn, what the game's hint bot would play (pimc in Jass and Coiffeur, "
                "ismcts otherwise); the answer goes to them alone"},
        {"name": "takebacks", "default": True, "type": "boolean",
         "doc": "players may take their last move back: at once against bots, once the other players agree "
                "where others sit"},
        {"name": "shared_screen", "default": False, "type": "boolean",
         "doc": "players share one screen (a family): one person may hold several seats, and take another "
                "seat during play; off, a seat given up during play goes to the takeover bot or someone new"},
        {"name": "max_bot_time", "default": max_bot_time, "type": "number", "readOnly": True,
         "doc": "this server's limit on a bot's thinking time per move (seconds)"},
    ]  # fmt: skip


def catalog(max_bot_time: float, allow_remote: bool = False) -> dict[str, Any]:
    return {
        "games": [describe_game(n) for n in stichkit.game_names()],
        "bots": describe_bots(allow_remote),
        "unavailable_bots": unavailable_bots(),
        "seat_kinds": ["human", "bot:SPEC"],
        "settings": describe_settings(max_bot_time),
    }


def table_game(name: str, options: dict[str, Any], seats: int) -> Game:
    """The game a new table plays: the options checked by the game, the player count from the seats."""
    if not isinstance(name, str) or name.lower() not in stichkit.game_names():
        raise OptionError(f"unknown game {name!r}; games: {', '.join(stichkit.game_names())}")
    name = name.lower()
    counts = player_counts(name)
    if seats not in counts:
        allowed = " or ".join(str(c) for c in counts)
        raise OptionError(f"{name} is played by {allowed} players; the table has {seats} seats")
    declared = {o.name: o for o in game_class(name).OPTIONS}
    opts = dict(options)
    for key in opts:
        if key in declared and is_server_file(declared[key]):
            raise OptionError(f"option {key!r} names a file on the server and cannot be set over the web")
    if "players" in declared:
        given = opts.get("players", seats)
        if given != seats:
            raise OptionError(f"options.players={given!r} disagrees with the {seats} seats; leave it out")
        opts["players"] = seats
    return stichkit.load_game(name, **opts)
