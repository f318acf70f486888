"""jass-kit game records and game logs in and out of stichkit records.

A jass-kit game record is one deal: dealer, trump, who named it, the tricks (cards, first
player, winner, points) and the hands still held. A game log holds one JSON object a line: a
finished game with the date and the players' ids. A stichkit record is a whole game of many
deals, so an import gives one stichkit record per jass-kit game, and an export one jass-kit game
per deal. Everything read is checked, and replayed through the stichkit engine: a record whose
cards, winners or points the rules do not give is refused with the reason.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import stichkit
from stichkit.core.errors import StichkitError, UndoError

from .mapping import (
    BY_FOREHAND,
    BY_PARTNER,
    CARDS,
    DATE_FORMAT,
    FORMAT_VERSION,
    IMPORT_OPTIONS,
    JASS_TYPE,
    NOT_YET,
    ImpossibleError,
    JasskitError,
    dealer_of,
    forehand_of,
    jass_kit_card_id,
    trump_action,
    trump_code,
)

# -- reading jass-kit's JSON --------------------------------------------------------------------


@dataclass
class Trick:
    first: int
    cards: list[str]
    win: int | None = None
    points: int | None = None


@dataclass
class KitGame:
    """A jass-kit game record, checked for shape (not yet for the rules)."""

    dealer: int
    trump: int  # -1: not named yet
    named_by: int  # jass-kit's "forehand" field: BY_FOREHAND, BY_PARTNER (after a push) or NOT_YET
    tricks: list[Trick]
    hands: list[list[str]]  # the cards each seat still holds
    current_player: int | None  # as the record says, if it says

    @property
    def forehand(self) -> int:
        return forehand_of(self.dealer)


def _int(data: dict[str, Any], key: str, allowed: Iterable[int], where: str, default: Any = ...) -> Any:
    if key not in data:
        if default is ...:
            raise JasskitError(f"{where}: '{key}' is missing")
        return default
    value = data[key]
    allowed = tuple(allowed)
    if type(value) is not int or value not in allowed:
        raise JasskitError(f"{where}: '{key}' is {value!r}; allowed: {', '.join(map(str, allowed))}")
    return value


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise JasskitError(f"{where} must be a list of cards, not {type(value).__name__}")
    for c in value:
        if not isinstance(c, str) or c not in CARDS:
            raise JasskitError(f"{where}: {c!r} is not a jass-kit card (D H S C + 6 7 8 9 10 J Q K A, e.g. DA, H10)")
    return list(value)


def parse_game(data: Any, where: str = "game") -> KitGame:
    """Check the shape of a jass-kit game record (or observation) and read it."""
    if not isinstance(data, dict):
        raise JasskitError(f"{where}: a jass-kit game is a JSON object, not {type(data).__name__}")
    version = data.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise JasskitError(f"{where}: format version {version!r}; stichkit reads jass-kit's {FORMAT_VERSION!r}")
    kind = data.get("jassTyp", JASS_TYPE)
    if not isinstance(kind, str) or not kind.startswith(JASS_TYPE):
        raise JasskitError(f"{where}: jassTyp {kind!r} is not Schieber; stichkit reads jass-kit's {JASS_TYPE!r} games")
    dealer = _int(data, "dealer", range(4), where)
    trump = _int(data, "trump", range(-1, 6), where, -1)
    if "forehand" in data:
        named_by = _int(data, "forehand", (NOT_YET, BY_PARTNER, BY_FOREHAND), where)
    elif data.get("tss") == 1:  # jass-kit's older records: "tss" 1 means the partner named trump
        named_by = BY_PARTNER
    else:
        named_by = NOT_YET if trump < 0 else BY_FOREHAND
    if trump >= 0 and named_by == NOT_YET:
        raise JasskitError(f"{where}: trump {trump} is named, but 'forehand' says nobody named it yet (-1)")
    raw_tricks = data.get("tricks")
    if not isinstance(raw_tricks, list) or len(raw_tricks) > 9:
        raise JasskitError(f"{where}: 'tricks' must be a list of at most 9 tricks")
    tricks: list[Trick] = []
    for i, t in enumerate(raw_tricks):
        at = f"{where}, trick {i}"
        if not isinstance(t, dict):
            raise JasskitError(f"{at}: a trick is a JSON object with cards, first, win and points")
        cards = _cards(t.get("cards", []), f"{at}: 'cards'")
        if len(cards) > 4:
            raise JasskitError(f"{at}: {len(cards)} cards; a trick has 4")
        if (len(cards) < 4 or "first" not in t) and i != len(raw_tricks) - 1:
            raise JasskitError(f"{at}: only the last trick may be unfinished or lack its first player")
        if "first" not in t:
            raise JasskitError(f"{at}: 'first' (the player who leads it) is missing")
        first = _int(t, "first", range(4), at)
        win = _int(t, "win", range(4), at, None)
        points = _int(t, "points", range(158), at, None)
        if (win is not None or points is not None) and len(cards) < 4:
            raise JasskitError(f"{at}: an unfinished trick has no winner or points")
        tricks.append(Trick(first, cards, win, points))
    if tricks and trump < 0:
        raise JasskitError(f"{where}: cards are played, but no trump is named")
    players = data.get("player", [{}, {}, {}, {}])
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, dict) for p in players):
        raise JasskitError(f"{where}: 'player' must be a list of 4 objects with a 'hand' each")
    hands = [_cards(p.get("hand", []), f"{where}: seat {s}'s hand") for s, p in enumerate(players)]
    current = _int(data, "currentPlayer", range(-1, 4), where, None)
    return KitGame(dealer, trump, named_by, tricks, hands, None if current == -1 else current)


def plays_of(game: KitGame) -> list[tuple[int, str]]:
    """Every card played, as (seat, card), in order: a trick goes on counter-clockwise from its first."""
    return [((t.first - k) % 4, c) for t in game.tricks for k, c in enumerate(t.cards)]


def entry_parts(data: Any, where: str) -> tuple[Any, dict[str, Any]]:
    """A game-log entry `{"game", "date", "player_ids"}` or a bare game: (game, log facts)."""
    if isinstance(data, dict) and "game" in data:
        extra: dict[str, Any] = {}
        if "date" in data:
            date = data["date"]
            try:
                datetime.strptime(date, DATE_FORMAT)
            except (TypeError, ValueError):
                raise JasskitError(f"{where}: date {date!r} is not jass-kit's day.month.year "
                                   f"hour:minute:second ({DATE_FORMAT})") from None  # fmt: skip
            extra["date"] = date
        if "player_ids" in data:
            ids = data["player_ids"]
            if not isinstance(ids, list) or len(ids) != 4 or not all(isinstance(x, int | str) for x in ids):
                raise JasskitError(f"{where}: 'player_ids' must be a list of 4 ids (numbers or text)")
            extra["player_ids"] = ids
        return data["game"], extra
    return data, {}


# -- import -----------------------------------------------------------------------------------


def import_game(data: Any, where: str = "game") -> dict[str, Any]:
    """The stichkit record of one jass-kit game: a game record, or a game-log entry. The record
    replays the deal in a game with options `IMPORT_OPTIONS` and the record's forehand; its key
    `jasskit` keeps the dealer and, from a log entry, the date and player ids."""
    raw, extra = entry_parts(data, where)
    game = parse_game(raw, where)
    state = _replay(game, where, seed=zlib.crc32(json.dumps(raw, sort_keys=True).encode()))
    record = state.record()
    record["jasskit"] = {"dealer": game.dealer, **extra}
    return record


def _start_hands(game: KitGame, where: str) -> list[list[str]]:
    start = [list(h) for h in game.hands]
    for seat, card in plays_of(game):
        start[seat].append(card)
    everywhere = [c for h in start for c in h]
    if len(everywhere) != len(set(everywhere)):
        twice = sorted({c for c in everywhere if everywhere.count(c) > 1})
        raise ImpossibleError(f"{where}: {', '.join(twice)} held or played twice")
    if len(everywhere) != 36:
        missing = 36 - len(everywhere)
        raise ImpossibleError(f"{where}: {missing} of the 36 cards are nowhere: an unfinished game needs every "
                           "player's hand (an observation, with one hand, is not a game record)")  # fmt: skip
    for seat, hand in enumerate(start):
        if len(hand) != 9:
            raise ImpossibleError(f"{where}: seat {seat} holds and played {len(hand)} cards; each player has 9")
    return start


def _replay(game: KitGame, where: str, seed: int) -> stichkit.State:
    start = _start_hands(game, where)
    jass = stichkit.load_game("jass", **IMPORT_OPTIONS, first_forehand=game.forehand)
    state = jass.new_state(seed=seed, deal={"hands": start})
    if game.named_by == BY_PARTNER:
        state.apply("push")
    if game.trump >= 0:
        state.apply(trump_action(game.trump))
    for i, trick in enumerate(game.tricks):
        leader = state.current_player
        if trick.first != leader:
            raise ImpossibleError(f"{where}, trick {i}: the record says seat {trick.first} leads it, but the "
                               f"rules give seat {leader} (the forehand, then the last trick's winner)")  # fmt: skip
        for k, card in enumerate(trick.cards):
            seat = (trick.first - k) % 4
            try:
                state.apply(card)
            except StichkitError as e:
                raise ImpossibleError(f"{where}, trick {i}: seat {seat} plays {card}, which the rules do not allow: "
                                   f"{e}") from None  # fmt: skip
        if len(trick.cards) == 4:
            last = state.view(None)["last_trick"]
            if trick.win not in (None, last["winner"]) or trick.points not in (None, last["points"]):
                raise ImpossibleError(f"{where}, trick {i} ({' '.join(trick.cards)}): the record says seat {trick.win} "
                                   f"wins {trick.points} points; the rules give seat {last['winner']} "
                                   f"and {last['points']} points")  # fmt: skip
    if game.current_player is not None and len(plays_of(game)) < 36 and state.current_player != game.current_player:
        raise ImpossibleError(f"{where}: the record says seat {game.current_player} is to move; the rules give "
                           f"seat {state.current_player}")  # fmt: skip
    return state


def read_games(lines: Iterable[str], name: str = "input") -> Iterator[tuple[str, Any]]:
    """The JSON objects of a jass-kit file, each with where it is ("FILE, line n"): a single game
    record (also pretty-printed over many lines), or a game log with one object a line."""
    text_lines = list(lines)
    whole = "".join(text_lines)
    try:
        data = json.loads(whole)
    except (ValueError, RecursionError):  # not JSON, or JSON no reader takes: read it line by line
        data = None
    else:
        yield name, data
        return
    for n, line in enumerate(text_lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            data = JasskitError(f"{name}, line {n}: not JSON ({e.msg}, column {e.colno})")
        except RecursionError:
            data = JasskitError(f"{name}, line {n}: JSON nested too deeply")
        except ValueError:  # Python's limit on the digits of an integer
            data = JasskitError(f"{name}, line {n}: a number too long (over 4,300 digits)")
        yield f"{name}, line {n}", data


# -- export -----------------------------------------------------------------------------------


@dataclass
class Deal:
    """One deal of a stichkit game, as jass-kit sees it."""

    number: int
    forehand: int
    pushed: bool = False
    trump: int = -1
    cards: list[tuple[int, str]] = field(default_factory=list)
    tricks: list[tuple[int, list[str], int, int]] = field(default_factory=list)  # leader, cards, winner, points
    hands: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    complete: bool = False

    def to_jasskit(self) -> dict[str, Any]:
        """jass-kit's game record of this deal, in its key order."""
        tricks: list[dict[str, Any]] = [{"cards": c, "points": p, "win": w, "first": f} for f, c, w, p in self.tricks]
        to_move = -1
        if not self.complete:
            if self.trump < 0:
                to_move = (self.forehand + 2) % 4 if self.pushed else self.forehand
            else:
                leader = self.tricks[-1][2] if self.tricks else self.forehand
                open_cards = [c for _, c in self.cards[4 * len(self.tricks) :]]
                to_move = (leader - len(open_cards)) % 4
                tricks.append({"cards": open_cards, "first": leader} if open_cards else {"first": leader})
        named = NOT_YET if self.trump < 0 and not self.pushed else BY_PARTNER if self.pushed else BY_FOREHAND
        return {
            "version": FORMAT_VERSION,
            "trump": self.trump,
            "dealer": dealer_of(self.forehand),
            "currentPlayer": to_move,
            "forehand": named,
            "tricks": tricks,
            "player": [{"hand": sorted(h, key=jass_kit_card_id)} for h in self.hands],
            "jassTyp": JASS_TYPE,
        }


@dataclass
class Export:
    deals: list[Deal]
    notes: list[str]  # what jass-kit's format leaves out of this game, said plainly


def export_record(record: Any, *, drop_weis_stoeck: bool = False) -> Export:
    """The deals of a stichkit Jass record, for jass-kit. A game played with Weis or Stöck is
    refused (jass-kit knows neither), unless `drop_weis_stoeck`: then the notes say what was left
    out, deal by deal. A deal the game ended in the middle of comes last, with `complete` False."""
    try:
        state = stichkit.replay(record)
    except StichkitError as e:
        raise JasskitError(f"not a valid stichkit record: {e}") from None
    game = state.game
    if game.name != "jass":
        raise JasskitError(f"jass-kit plays Jass (Schieber) only; this record is a {game.name} game")
    options = game.options
    bonus = [name for name, on in (("Weis", options["weis"] != "off"), ("Stöck", options["stoeck"])) if on]
    if bonus and not drop_weis_stoeck:
        raise JasskitError(f"this game was played with {' and '.join(bonus)}, which jass-kit does not know; "
                           "drop them with drop_weis_stoeck=True (stich export jasskit --drop-weis-stoeck), "
                           "and the export will say what it left out")  # fmt: skip
    notes = _bonus_notes(state.view(None), bonus)
    moves = state.record()["moves"]
    for _ in range(len(moves)):  # back to the start; the record's deals stay in the state
        try:
            state.undo()
        except UndoError:
            break
    deals: list[Deal] = []
    number = -1
    for move in moves:
        if "chance" in move:
            number += 1
            continue
        seat, text = move["seat"], move["action"]
        if not deals or deals[-1].number != number:
            deals.append(Deal(number, seat))  # a deal's first decision is its forehand's
        deal = deals[-1]
        state.apply(text)
        if text == "push":
            deal.pushed = True
        elif text.startswith("trump:"):
            deal.trump = trump_code(text)
        else:
            deal.cards.append((seat, text))
            if len(deal.cards) % 4 == 0:
                last = state.view(None)["last_trick"]
                deal.tricks.append((last["leader"], list(last["cards"]), last["winner"], last["points"]))
    for deal in deals:
        deal.complete = len(deal.cards) == 36
    if deals and not deals[-1].complete:
        deals[-1].hands = [state.view(s)["hand"] for s in range(4)]
    if deals and not deals[-1].complete and state.is_terminal():
        notes.append(f"deal {deals[-1].number}: the game ended in it (a team reached the target), after "
                     f"{len(deals[-1].cards)} of 36 cards")  # fmt: skip
    return Export(deals, notes)


def _bonus_notes(view: dict[str, Any], bonus: Sequence[str]) -> list[str]:
    if not bonus:
        return []
    notes = [f"played with {' and '.join(bonus)}; jass-kit knows neither, so they are left out"]
    deals = list(view["previous_deals"])
    for d in deals:
        parts = [f"{what} {pts} of team {team}" for what, key in (("Weis", "weis"), ("Stöck", "stoeck"))
                 for team, pts in enumerate(d[key]) if pts]  # fmt: skip
        if parts:
            notes.append(f"deal {d['deal']}: left out " + ", ".join(parts))
    if view["phase"] != "over":  # the deal in progress
        parts = [f"Weis {w['points']} of seat {w['seat']}" for w in view["weis"]]
        if view["stoeck"] is not None:
            parts.append(f"Stöck 20 of seat {view['stoeck']}")
        if parts:
            notes.append(f"deal {view['deal_number']}: left out " + ", ".join(parts))
    if len(notes) == 1:
        notes.append("no Weis or Stöck was scored in this game, so no points are left out")
    return notes


def log_entry(game: dict[str, Any], *, date: datetime, player_ids: Sequence[Any] = (0, 0, 0, 0)) -> dict[str, Any]:
    """A jass-kit game-log line for a finished game: the game, the date, the four players' ids."""
    return {"game": game, "date": date.strftime(DATE_FORMAT), "player_ids": list(player_ids)}
