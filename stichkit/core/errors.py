"""The errors users meet. All are ValueErrors, so callers that only care about bad input catch one thing."""

from __future__ import annotations

import reprlib
from typing import Any

QUOTE_LIMIT = 80  # characters of a user's input that an error message repeats


class StichkitError(ValueError):
    """Base of every error stichkit raises on purpose."""


class OptionError(StichkitError):
    """An unknown game, an unknown option, or a value the option does not allow."""


# Every `IllegalActionError.code`, with what it means (docs/api.md lists them with their params).
# A code is stable: clients translate it; the English message may be reworded.
ILLEGAL_CODES: dict[str, str] = {
    "illegal": "refused for a reason without a code of its own (the message says why)",
    "unknown_action": "not an action of this game: unknown notation, an id out of range, not an action at all",
    "game_over": "the game is over; nothing more can be played",
    "not_your_turn": "a move by a seat whose turn it is not (in a position given as moves)",
    "not_legal_now": "an action of another phase: `expected` says what is to be done now",
    "not_held": "the seat to move does not hold this card (often a card of another seat)",
    "must_follow": "the led suit (family, colour) must be followed: `suit`, and the `cards` that follow",
    "must_follow_or_trump": "Jass: follow the led `suit` (`cards`) or play a trump (`trumps`)",
    "must_follow_trump": "Jass: trump was led, and trump (`suit`) must be followed with one of `cards`",
    "no_undertrump": "Jass: `card` is a trump lower than `best`, the trump in the trick, and other cards are held",
    "already_pushed": "Jass: the partner already pushed; this seat must choose trump",
    "must_announce": "Coiffeur (push='around'): every player asked has pushed; the first, asked again, must announce",
    "mode_not_played": "Jass: the trump `mode` is not played in this `profile`",
    "mode_played": "Coiffeur: `team` has no open row on its sheet for `mode` (played already)",
    "weis_not_announced": "Jass: this game does not announce Weis (`weis` is 'auto' or 'off')",
    "weis_too_late": "Jass: a Weis is announced with the player's first card of the deal, before it is played",
    "no_weis": "Jass: the seat to move holds no Weis to announce",
    "already_announced": "Jass: the seat to move has announced its Weis already",
    "stoeck_not_announced": "Jass: this game counts Stöck itself (`stoeck` is true or false, not 'announce')",
    "no_stoeck": "Jass: the seat to move is not about to play the second of trump King and Queen, or may not now",
    "stoeck_card": "Jass: the seat said 'Stöck', so `card`, the second of trump King and Queen, is to be played",
    "not_your_bonus": "Stichwahl: `card` is not one of the seat's bonus cards",
    "bonus_no_flip": "Stichwahl: `card`'s bonus does not flip the marker",
    "bonus_no_trump": "Stichwahl: `card`'s bonus does not change trump to `suit`",
    "already_trump": "Stichwahl: `suit` is trump already",
    "own_card_prize": "Stichwahl: the trick's winner may not choose its own card as the prize",
    "not_in_trick": "`card` is not in the trick (Stichwahl's prize, Stich-Meister's card to remove)",
    "no_such_seat": "Stichwahl: there is no `seat` to lead",
    "no_free_place": "Stichling: `card` cannot open a new trick: all four places are taken",
    "no_trick_there": "Stichling: no trick is open on `place`",
    "no_throw_off_free_place": "Stichling: `card` may not be thrown off onto `place` (`led`): a place is free",
    "no_throw_off_can_follow": (
        "Stichling: `card` may not be thrown off onto `place` (`led`): it can follow `suit` on `places`"
    ),
    "rule_not_held": "Stich-Meister: the seat does not hold rule card `rule`; it holds `held`",
    "already_picked": "Stich-Meister: `card` is already picked",
    "trump_not_broken": "Stich-Meister: `card` is a trump, and trump may not be led before one was played (`rule`)",
    "trump_cannot_follow": "Stich-Meister: `card` is a trump and does not follow `suit` ('trump' or a suit letter)",
    "must_beat": "Stich-Meister: `card` does not beat the highest face-up card; beat it with one of `cards` (`rule`)",
    "must_trump": "Stich-Meister: `suit` cannot be followed, so a trump must be played (`rule`)",
}


class Reason(str):
    """An illegal action's English message that also carries its `code` and `params`: the rules'
    explanations return one, so one function writes the text and the code together."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        self.params = params
        return self

    def prefixed(self, prefix: str) -> Reason:
        """The same reason after `prefix` (the action's text, a move's number)."""
        return Reason(prefix + self, self.code, **self.params)


class IllegalActionError(StichkitError):
    """An action that the rules do not allow now; the message says why. The state is unchanged.

    `code` (one of ILLEGAL_CODES) and `params` (JSON values) say the same for a program: a client
    translates the reason from them. A `Reason` message brings its own code and params."""

    default_code = "illegal"

    def __init__(self, message: str, code: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        if code is None and isinstance(message, Reason):
            code, params = message.code, message.params
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = dict(params or {})


class UndoError(StichkitError):
    """`undo()` with no action to take back. The state is unchanged."""


class RecordError(StichkitError):
    """A game record that is malformed, from another version, or that does not replay."""


class DealError(StichkitError):
    """An explicit deal that is malformed or impossible (wrong size, duplicate or unknown cards)."""


class _Short(reprlib.Repr):
    """reprlib with a bounded cost for any value: long strings, big containers, deep nesting and
    integers too long to print (Python refuses more than 4300 digits) are shortened."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = QUOTE_LIMIT - 4
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 1000:
            return f"<a whole number of about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)


_SHORT = _Short()


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)` cut to about `limit` characters: an error message never echoes a huge input."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # a value whose repr fails: say what it is, not what it holds
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def game_over(text: str) -> Reason:
    """The refusal of any action once the game is over; `text` is the action's notation."""
    return Reason(f"{text}: the game is over", "game_over")


def not_held(text: str, seat: int, card: str, *, to_move: bool = True) -> Reason:
    """The refusal of a card that `seat` does not hold (usually another seat's card, played out of
    turn). `text` is the action, `card` the card's name; `to_move` says the seat is the one to move."""
    turn = ", whose turn it is," if to_move else ""
    return Reason(f"{text}: seat {seat}{turn} does not hold {card}", "not_held", card=card, seat=seat)
