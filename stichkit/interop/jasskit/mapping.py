"""How jass-kit's numbers and names map onto stichkit's: seats, dealer, trump codes, cards.

Written from jass-kit's documented formats and its observed behaviour (docs/interop.md has the
tables). Both number seats 0-3 clockwise (jass-kit: North, East, South, West) and play
counter-clockwise, so a seat is the same number in both; teams are 0+2 and 1+3 in both. jass-kit
names the dealer; the forehand (who chooses trump or pushes, and leads) is the next player after
the dealer in playing order. Card names are the same strings ("D6" ... "CA", "H10").
"""

from __future__ import annotations

from typing import Any

from stichkit.core.errors import StichkitError

SEATS = ("North", "East", "South", "West")  # jass-kit's names for seats 0-3
FORMAT_VERSION = "V0.2"  # jass-kit's game-record and observation format
JASS_TYPE = "SCHIEBER"
DATE_FORMAT = "%d.%m.%y %H:%M:%S"  # game-log entries
PUSH = 10  # jass-kit's (and Swisslos') code for pushing
TRUMP_CODES = {"D": 0, "H": 1, "S": 2, "C": 3, "obe": 4, "une": 5}  # stichkit mode -> jass-kit trump
MODE_OF_CODE = {v: k for k, v in TRUMP_CODES.items()}
# jass-kit's "forehand" field: who named trump (or -1: not named yet).
BY_FOREHAND, BY_PARTNER, NOT_YET = 1, 0, -1
SUITS = "DHSC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
CARDS = frozenset(s + r for s in SUITS for r in RANKS)
# The options of a game imported from jass-kit: plain Schieber (Obenabe and Undenufe), no Weis,
# no Stöck, jass-kit's undertrump reading; `first_forehand` comes from the record's dealer.
IMPORT_OPTIONS: dict[str, Any] = {"profile": "schieber", "weis": "off", "stoeck": False, "undertrump": "jass-kit"}


class JasskitError(StichkitError):
    """A jass-kit record, log line or observation that is malformed or impossible; or a stichkit
    game that jass-kit's formats cannot express. The message says what and why."""


class ImpossibleError(JasskitError):
    """Well-formed jass-kit data that no game can give: a card the rules do not allow, a wrong
    winner, the turn of another player, a deal no hidden hands can explain."""


def dealer_of(forehand: int) -> int:
    """jass-kit's dealer for a stichkit forehand: the player before it in playing order."""
    return (forehand + 1) % 4


def forehand_of(dealer: int) -> int:
    """The forehand for a jass-kit dealer: the next player after it (counter-clockwise)."""
    return (dealer + 3) % 4


def trump_code(action_text: str) -> int:
    """jass-kit's trump code for a stichkit trump action (`trump:D` ... `trump:une`) or `push`."""
    if action_text == "push":
        return PUSH
    return TRUMP_CODES[action_text.removeprefix("trump:")]


def trump_action(code: Any) -> str:
    """The stichkit action for a jass-kit trump code; JasskitError for anything else."""
    if type(code) is int and code == PUSH:
        return "push"
    if type(code) is int and code in MODE_OF_CODE:
        return "trump:" + MODE_OF_CODE[code]
    raise JasskitError(f"trump {code!r} is not a jass-kit trump code: 0-3 (D H S C), 4 (Obenabe), 5 (Undenufe), "
                       f"{PUSH} (push)")  # fmt: skip


def jass_kit_card_id(card: str) -> int:
    """jass-kit's integer id of a card (not used on the wire, which names cards): Ace first in each
    suit, so DA = 0, DK = 1, ..., D6 = 8, HA = 9, ..., C6 = 35."""
    return SUITS.index(card[0]) * 9 + 8 - RANKS.index(card[1:])
