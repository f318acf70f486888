"""`remote:URL`: a player behind jass-kit's remote-player HTTP protocol, seated at a stichkit table.

The seat's view (and nothing else) becomes a jass-kit observation, POSTed to URL/action_trump or
URL/action_play_card. When the player does not answer within `timeout`, answers with an error
or answers something the rules do not allow now, the seat plays a legal fallback move instead
(the `fallback` bot's) and the bot counts it in `fallbacks`; `stich tournament` reports them.
The HTTP client (httpx) is imported only when a remote bot is made; without it installed this
module does not load, so the bot is not offered (bots/registry.py).
"""

from __future__ import annotations

import importlib.util
import math
import random
import time
from typing import Any, ClassVar
from urllib.parse import urlsplit

from stichkit.bots.base import SEED, Bot, Param, View, view_key
from stichkit.core import OptionError

from .mapping import CARDS, JasskitError, trump_action
from .observation import observation_from_view

DEFAULT_TIMEOUT = 10.0  # seconds, as jass-kit's own network player waits
NEED_HTTPX = "remote bots need the httpx library: pip install 'stichkit[interop]'"
KINDS = ("timeout", "error", "illegal")

if importlib.util.find_spec("httpx") is None:
    raise ImportError(NEED_HTTPX, name="httpx")


def _check_url(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str):
        parts = urlsplit(value.strip())
        if parts.scheme in ("http", "https") and parts.netloc:
            return value.strip().rstrip("/"), None
    return value, "an http:// or https:// address of one player, e.g. http://127.0.0.1:5000/heuristic"


def _check_timeout(value: Any) -> tuple[Any, str | None]:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if isinstance(value, bool) or not math.isfinite(seconds) or seconds <= 0:
        return value, "a number of seconds greater than 0"
    return seconds, None


def _check_fallback(value: Any) -> tuple[Any, str | None]:
    return (value, None) if value in ("heuristic", "random") else (value, "heuristic or random")


URL = Param("url", None, "the player's address: requests go to URL/action_trump and URL/action_play_card", _check_url)
TIMEOUT = Param("timeout", DEFAULT_TIMEOUT, "seconds to wait for an answer before playing the fallback",
                _check_timeout)  # fmt: skip
FALLBACK = Param("fallback", "heuristic", "who plays when the remote player fails: heuristic or random",
                 _check_fallback)  # fmt: skip


class RemoteBot(Bot):
    """Asks a remote jass-kit player; plays the fallback (and counts it) when that fails."""

    name = "remote"
    ADDRESS: ClassVar[str] = "url"  # written remote:URL
    PARAMS = (URL, TIMEOUT, FALLBACK, SEED)
    GAMES = ("jass",)  # jass-kit's protocol knows only Jass

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if self.params["url"] is None:
            raise OptionError("bot 'remote' needs the player's address: remote:http://HOST:PORT/PLAYER")
        self.url: str = self.params["url"]
        self.timeout: float = self.params["timeout"]
        self.seed: int | None = self.params["seed"]
        self.fallbacks = dict.fromkeys(KINDS, 0)
        self.requests = 0
        self.last_problem: str | None = None  # why the last fallback was played
        self._client: Any = None

    @property
    def fallback_count(self) -> int:
        return sum(self.fallbacks.values())

    def decide(self, view: View) -> str:
        legal: list[str] = view["legal_actions"]
        asks_trump = view.get("phase") in ("trump", "pushed")
        self.requests += 1
        kind, answer = self._ask(view, "action_trump" if asks_trump else "action_play_card", asks_trump)
        if kind is None and answer not in legal:
            kind, answer = "illegal", f"answered {answer}, which is not allowed now (allowed: {', '.join(legal)})"
        if kind is None:
            return answer
        self.fallbacks[kind] += 1
        self.last_problem = f"{self.url}: {answer}"
        return self._fallback(view)

    def _ask(self, view: View, route: str, asks_trump: bool) -> tuple[str | None, str]:
        """(None, action) on an answer; else (what went wrong, the reason)."""
        import httpx

        try:
            observation = observation_from_view(view)
        except JasskitError as e:
            return "error", str(e)
        if self._client is None:
            self._client = httpx.Client(timeout=self.timeout)
        start = time.monotonic()
        try:
            response = self._client.post(f"{self.url}/{route}", json=observation)
            response.raise_for_status()
            data = response.json()
        except httpx.TimeoutException:
            return "timeout", f"no answer within {self.timeout:g} s"
        except (httpx.HTTPError, ValueError) as e:
            return "error", f"{type(e).__name__}: {e}"
        if time.monotonic() - start > self.timeout:
            return "timeout", f"answered after {time.monotonic() - start:.2f} s, more than {self.timeout:g} s"
        try:
            if asks_trump:
                return None, trump_action(data["trump"])
            card = data["card"]
        except (KeyError, TypeError, JasskitError) as e:
            return "error", f"the answer {data!r} is not jass-kit's ({e})"
        if not isinstance(card, str) or card not in CARDS:
            return "error", f"the answer {data!r} names no card"
        return None, card

    def _fallback(self, view: View) -> str:
        if self.params["fallback"] == "random":
            rng = random.Random(None if self.seed is None else self.seed * 1_000_003 + view_key(view))
            legal: list[str] = view["legal_actions"]
            return rng.choice(legal)
        from stichkit.bots.heuristic import HeuristicBot

        return HeuristicBot(seed=self.seed).decide(view)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_client"] = None  # a connection does not travel to another process
        return state
