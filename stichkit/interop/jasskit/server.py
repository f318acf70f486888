"""`stich serve-bot`: stichkit bots behind jass-kit's remote-player HTTP protocol.

A tournament server (jass-kit's own `AgentByNetwork`, for one) POSTs a player's observation to
`/PLAYER/action_trump` or `/PLAYER/action_play_card` and waits, up to its time limit, for
`{"trump": code}` or `{"card": "DA"}`. `GET /PLAYER` is the health check and
`POST /PLAYER/game_info` takes news that needs no answer.

Each request is answered within the caller's limit (`timeout`): the bot's own clock (`time`)
is cut to the budget left (the timeout less a safety `margin`), and should it still not have
answered at the deadline, the request gets the heuristic's move (counted as `late`). A
malformed observation gets 400, an impossible one 422, each with `{"error": reason}`.

The protocol and the decision are plain Python (`Players`); FastAPI only carries them. Needs the
`interop` extra (FastAPI, uvicorn).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from stichkit import bots
from stichkit.arena.duplicate import BotSpec

from .mapping import ImpossibleError, JasskitError, trump_code
from .observation import CARD, TRUMP, Position, position_from_observation

DEFAULT_TIMEOUT = 10.0  # jass-kit's network player waits 10 s
DEFAULT_MARGIN = 0.25  # seconds kept back for the network and for building the position
ROUTES = {"action_trump": TRUMP, "action_play_card": CARD}


class UnknownPlayer(LookupError):
    pass


@dataclass
class Counters:
    answers: int = 0
    late: int = 0  # the bot missed the deadline; the heuristic answered
    refused: int = 0  # malformed or impossible observations


class Players:
    """The served bots by name, and how each request is answered in time."""

    def __init__(self, specs: Mapping[str, BotSpec], *, timeout: float = DEFAULT_TIMEOUT,
                 margin: float = DEFAULT_MARGIN, seed: int | None = None, workers: int = 4) -> None:  # fmt: skip
        if not specs:
            raise ValueError("serve at least one bot")
        if not timeout > margin >= 0:
            raise ValueError(f"the timeout ({timeout:g} s) must be longer than the margin ({margin:g} s)")
        self.specs = dict(specs)
        self.timeout = timeout
        self.margin = margin
        self.seed = seed
        self.counters = Counters()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="serve-bot")

    def health(self, player: str) -> str:
        if player not in self.specs:
            raise UnknownPlayer(f"No such player {player}")
        return f"Player {player} here"

    def info(self) -> dict[str, Any]:
        c = self.counters
        return {"service": "stichkit serve-bot", "protocol": "jass-kit remote player",
                "players": {name: spec.label for name, spec in self.specs.items()},
                "timeout": self.timeout, "margin": self.margin,
                "answers": c.answers, "late": c.late, "refused": c.refused}  # fmt: skip

    def game_info(self, player: str, data: Any) -> None:
        """News about the game: checked for form, nothing to answer."""
        self.health(player)
        from .records import parse_game

        try:
            parse_game(data, "observation")
        except JasskitError:
            self._count("refused")
            raise

    def answer(self, player: str, route: str, data: Any, started: float | None = None) -> dict[str, Any]:
        """The answer to an action request, within the timeout counted from `started` (now)."""
        spec = self.specs.get(player)
        if spec is None:
            raise UnknownPlayer(f"No such player {player}")
        start = time.monotonic() if started is None else started
        deadline = start + self.timeout - self.margin
        try:
            position = position_from_observation(data)
            if position.asks != ROUTES[route]:
                wanted = "action_trump" if position.asks == TRUMP else "action_play_card"
                raise ImpossibleError(f"this observation asks for {'trump' if position.asks == TRUMP else 'a card'}: "
                                      f"send it to /{player}/{wanted}")  # fmt: skip
        except JasskitError:
            self._count("refused")
            raise
        future = self._pool.submit(self._decide, spec, position, deadline)
        try:
            text = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            self._count("late")
            text = str(bots.make("heuristic").choose(position.state, position.seat))
        self._count("answers")
        return {"trump": trump_code(text)} if position.asks == TRUMP else {"card": text}

    def _decide(self, spec: BotSpec, position: Position, deadline: float) -> str:
        bot = self._bot(spec, deadline - time.monotonic())
        return str(bot.choose(position.state, position.seat))

    def _bot(self, spec: BotSpec, budget: float) -> bots.Bot:
        """The bot of `spec`, its clock (if it runs by one) cut to `budget` seconds. A search bounded
        by iterations alone keeps its bound, so that it stays reproducible; the deadline still holds."""
        params: dict[str, Any] = dict(spec.params)
        if self.seed is not None and "seed" not in params:
            cls = bots.bot_class(spec.name)
            if cls is not None and any(p.name == "seed" for p in cls.PARAMS):
                params["seed"] = self.seed
        bot = bots.make(spec.name, **params)
        clock = bot.params.get("time")
        if clock is not None and clock > budget:
            bot = bots.make(spec.name, **{**params, "time": max(budget, 0.001)})
        return bot

    def _count(self, what: str) -> None:
        with self._lock:
            setattr(self.counters, what, getattr(self.counters, what) + 1)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def create_app(players: Players) -> FastAPI:
    """The FastAPI application that serves `players` over jass-kit's protocol."""
    app = FastAPI(title="stichkit serve-bot", description="stichkit bots behind jass-kit's remote-player protocol")

    def error(status: int, reason: str) -> JSONResponse:
        return JSONResponse({"error": reason}, status_code=status)

    async def body_of(request: Request) -> Any:
        raw = await request.body()
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            raise JasskitError(f"the request body is not JSON ({e})") from None

    @app.get("/")
    def index() -> dict[str, Any]:
        return players.info()

    @app.get("/{player}")
    def health(player: str) -> JSONResponse:
        try:
            return JSONResponse(players.health(player))
        except UnknownPlayer as e:
            return JSONResponse(str(e), status_code=404)

    @app.post("/{player}/game_info")
    async def game_info(player: str, request: Request) -> JSONResponse:
        try:
            players.game_info(player, await body_of(request))
        except UnknownPlayer as e:
            return error(404, str(e))
        except JasskitError as e:
            return error(400, str(e))
        return JSONResponse("")

    async def action(player: str, route: str, request: Request) -> JSONResponse:
        started = time.monotonic()
        try:
            data = await body_of(request)
            answer = await run_in_threadpool(players.answer, player, route, data, started)
        except UnknownPlayer as e:
            return error(404, str(e))
        except ImpossibleError as e:
            return error(422, str(e))
        except JasskitError as e:
            return error(400, str(e))
        except Exception as e:  # a bot that fails: the caller gets the reason, the server goes on
            return error(500, f"the bot failed: {type(e).__name__}: {e}")
        return JSONResponse(answer)

    @app.post("/{player}/action_trump")
    async def action_trump(player: str, request: Request) -> JSONResponse:
        return await action(player, "action_trump", request)

    @app.post("/{player}/action_play_card")
    async def action_play_card(player: str, request: Request) -> JSONResponse:
        return await action(player, "action_play_card", request)

    return app
