"""What clients may send, checked by pydantic: HTTP bodies and WebSocket messages.

The checks here are about shape (types, sizes); what a game or a bot allows is checked by the
game and the bot parser, which name what is allowed.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, field_validator
from pydantic import ValidationError as ValidationError

NAME_MAX = 40
CHAT_MAX = 500
MUTED_NAME_MAX = 80  # as long as a name a chat line is stored under


def clean_line(text: str, longest: int) -> str:
    """One line of printable text, trimmed, 1..longest characters (runs of spaces become one)."""
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in " \t\n" for ch in text):
        raise ValueError("must be printable text")
    text = " ".join(text.split())
    if not text:
        raise ValueError("must not be empty")
    if len(text) > longest:
        raise ValueError(f"at most {longest} characters")
    return text


OptionValue = StrictStr | StrictInt | StrictBool | None


class TableRequest(BaseModel):
    """POST /api/tables."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=32)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    seats: list[Annotated[str, Field(max_length=200)]] = Field(min_length=1, max_length=8)
    private: StrictBool = False
    name: str | None = Field(default=None, max_length=200)
    takeover: Literal["hand", "game", "off"] = "hand"
    grace: float = Field(default=60.0, ge=0, le=86400, allow_inf_nan=False)
    takeover_bot: str = Field(default="bot:heuristic", max_length=200)
    move_time: float | None = Field(default=None, ge=1, le=3600, allow_inf_nan=False)
    hints: StrictBool = True
    takebacks: StrictBool = True
    shared_screen: StrictBool = False
    rated: StrictBool = False

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, NAME_MAX)


class JoinRequest(BaseModel):
    """POST /api/tables/{id}/join. A logged-in player sits under the user name: `name` is then
    left out (or ignored)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    seat: StrictInt | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, NAME_MAX)


class MoveRequest(BaseModel):
    """POST /api/tables/{id}/seat: the free seat to move to, before play."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt


class QuickRequest(BaseModel):
    """POST /api/quick: join a quick-play queue. A logged-in player waits under the user name:
    `name` is then left out (or ignored)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    game: str = Field(max_length=32)
    players: StrictInt = Field(ge=2, le=8)
    rated: StrictBool = False
    wait: float = Field(default=30.0, ge=1, le=600, allow_inf_nan=False)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, NAME_MAX)


class FillRequest(BaseModel):
    """POST /api/quick/bots: fill the empty seats with this bot (its spec without `bot:`)."""

    model_config = ConfigDict(extra="forbid")

    bot: str = Field(default="heuristic", min_length=1, max_length=200)


class FriendRequest(BaseModel):
    """POST /api/friends: a user name to add."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)


class MuteRequest(BaseModel):
    """POST /api/mutes: a name whose chat lines to fold away, as the lines show it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_line(v, MUTED_NAME_MAX)


class ReportRequest(BaseModel):
    """POST /api/tables/{id}/chat/{line}/report: why, in a line (optional)."""

    model_config = ConfigDict(extra="forbid")

    reason: str | None = Field(default=None, max_length=1200)

    @field_validator("reason")
    @classmethod
    def _reason(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, 300)


# -- WebSocket messages from clients ---------------------------------------------------------

Ref = Annotated[StrictStr, Field(max_length=64)] | StrictInt | None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: Ref = None


class Act(_Msg):
    type: Literal["act"]
    action: str = Field(max_length=64)
    version: StrictInt
    game: StrictInt | None = None


class Chat(_Msg):
    type: Literal["chat"]
    text: str = Field(max_length=4 * CHAT_MAX)

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        return clean_line(v, CHAT_MAX)


class Rematch(_Msg):
    type: Literal["rematch"]


class Reclaim(_Msg):
    type: Literal["reclaim"]


class Ping(_Msg):
    type: Literal["ping"]


class Hint(_Msg):
    """What the game's hint bot would play for the asking seat, at this version (its turn)."""

    type: Literal["hint"]
    version: StrictInt
    game: StrictInt | None = None


class Takeback(_Msg):
    """Undo the seat's last decision and every later one, at this version: at once alone with
    bots, else once the other players agree (`takeback_answer`)."""

    type: Literal["takeback"]
    version: StrictInt
    game: StrictInt | None = None


class TakebackAnswer(_Msg):
    """Agree to the open takeback request, or decline it (the asker: withdraw it)."""

    type: Literal["takeback_answer"]
    accept: StrictBool


ClientMessage = Annotated[
    Act | Chat | Rematch | Reclaim | Ping | Hint | Takeback | TakebackAnswer, Field(discriminator="type")
]
CLIENT_MESSAGES = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("act", "chat", "rematch", "reclaim", "ping", "hint", "takeback", "takeback_answer")


def explain(e: ValidationError) -> str:
    """pydantic's errors as one line: `field: what is wrong; ...`."""
    parts = []
    for err in e.errors(include_url=False):
        loc = ".".join(str(x) for x in err["loc"] if x not in MESSAGE_TYPES) or "message"
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def errors_json(e: Any) -> list[dict[str, Any]]:
    """Validation errors, JSON-safe (the input values left out: they can be huge)."""
    return [{"loc": list(err["loc"]), "msg": str(err["msg"])} for err in e.errors()]


# -- accounts ----------------------------------------------------------------------------------
# Lengths are checked loosely here (a bound on what is read), and exactly by usernames.py and
# credentials.py, whose refusals say what is allowed.


class Credentials(BaseModel):
    """POST /api/account/register and /api/account/login."""

    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(max_length=200)
    password: StrictStr = Field(max_length=1024)


class PasswordChange(BaseModel):
    """POST /api/account/password."""

    model_config = ConfigDict(extra="forbid")

    password: StrictStr = Field(max_length=1024)
    new_password: StrictStr = Field(max_length=1024)


class PasswordConfirm(BaseModel):
    """DELETE /api/account: the password, asked again."""

    model_config = ConfigDict(extra="forbid")

    password: StrictStr = Field(max_length=1024)


class TournamentRequest(BaseModel):
    """POST /api/tournaments: open a tournament. The arena checks the rules (tournaments.md)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)
    game: str = Field(max_length=32)
    format: str = Field(max_length=16)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    rounds: StrictInt = Field(default=3, ge=1, le=50)
    games_per_round: StrictInt = Field(default=1, ge=1, le=20)
    deals_per_round: StrictInt | None = Field(default=None, ge=1, le=100)  # a round of one game of so many deals
    rated: StrictBool = False
    registration: Literal["anyone", "accounts", "invitation"] = "anyone"
    start_at: float | None = Field(default=None, allow_inf_nan=False)
    move_time: float | None = Field(default=None, ge=1, le=3600, allow_inf_nan=False)
    fill_bot: str = Field(default="heuristic", min_length=1, max_length=200)
    max_entrants: StrictInt | None = Field(default=None, ge=2, le=10_000)  # None: the server's most

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_line(v, NAME_MAX)


class RegisterRequest(BaseModel):
    """POST /api/tournaments/{id}/register. A logged-in player plays under the user name; `team`
    names the player's team where the format plays fixed teams; `invitation`: the link's secret."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    team: str | None = Field(default=None, max_length=200)
    invitation: str | None = Field(default=None, max_length=100)

    @field_validator("name", "team")
    @classmethod
    def _line(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, NAME_MAX)


class BotEntryRequest(BaseModel):
    """POST /api/tournaments/{id}/bots: the organiser enters a bot (its spec without `bot:`)."""

    model_config = ConfigDict(extra="forbid")

    bot: str = Field(default="heuristic", min_length=1, max_length=200)
    name: str | None = Field(default=None, max_length=200)
    team: str | None = Field(default=None, max_length=200)

    @field_validator("name", "team")
    @classmethod
    def _line(cls, v: str | None) -> str | None:
        return None if v is None else clean_line(v, NAME_MAX)


class EntrantRequest(BaseModel):
    """POST /api/tournaments/{id}/unregister (`entrant` left out: oneself)."""

    model_config = ConfigDict(extra="forbid")

    entrant: StrictInt | None = Field(default=None, ge=1, le=2**31 - 1)


class ReplaceRequest(BaseModel):
    """POST /api/tournaments/{id}/replace: a bot plays for entrant `entrant` from now on."""

    model_config = ConfigDict(extra="forbid")

    entrant: StrictInt = Field(ge=1, le=2**31 - 1)
    bot: str = Field(default="heuristic", min_length=1, max_length=200)
