"""The FastAPI application: routers, error answers, the body size limit, the security headers, and
the hub's life."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stichkit import __version__

from .accounts import TooMany
from .headers import SecurityHeaders
from .hub import Hub, HubError
from .routers import account, games, lobby, pages, players, quick, records, social, tournaments, ws
from .schemas import errors_json
from .settings import Settings

log = logging.getLogger("stichkit.server")


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, before they are read into memory: by
    their `Content-Length`, or (a chunked body, whose length nobody announced) as soon as they
    grow past it. The route then hears that the client went away, and its answer goes nowhere."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reason = f"a request body is at most {self.limit} bytes"
        for key, value in scope.get("headers", []):
            if key == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _send_json(send, 413, {"error": reason})
                return
        seen = 0
        refused = False
        watch = Watched(send)

        async def limited() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    if not watch.started:
                        await _send_json(watch, 413, {"error": reason})
                    return {"type": "http.disconnect"}
            return message

        async def answer(message: Message) -> None:
            if not refused:
                await watch(message)

        await self.app(scope, limited, answer)


class Watched:
    """`send`, noting whether the answer has begun: after that no other answer may be sent."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self.send(message)


class Unexpected:
    """What no route expected (a bug, a lost database) answers a JSON 500 that says so, and the
    log gets one line with the traceback under the same error id; never a bare 500 page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        watch = Watched(send)
        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            ref = secrets.token_hex(4)
            log.exception("error %s: %s %s failed", ref, scope["method"], scope["path"])
            if not watch.started:  # else the answer is under way and the connection just ends
                reason = f"the server failed ({type(exc).__name__}); its log says why under error {ref}"
                await _send_json(send, 500, {"error": reason})


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application. The hub (database, bots, tables) starts with it and stops with it."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="stichkit table server",
        version=__version__,
        summary="Jass, Stichwahl, Stichling and Stich-Meister at the table, for people and bots. See docs/server.md.",
        lifespan=lifespan,
    )

    @app.exception_handler(HubError)
    async def hub_error(request: Request, exc: HubError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooMany) else None
        body = {"error": str(exc)} if exc.code is None else {"error": str(exc), "code": exc.code}
        return JSONResponse(body, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_reason(exc), "detail": errors_json(exc)}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        reason = "no such route; the API is described at /docs" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse({"error": reason}, status_code=exc.status_code, headers=exc.headers)

    app.add_middleware(BodyLimit, limit=settings.max_message)
    app.add_middleware(Unexpected)
    app.add_middleware(SecurityHeaders)
    for module in (games, lobby, account, quick, players, social, records, tournaments, ws, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), name="static")
    return app


def _validation_reason(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if err.get("type") == "json_invalid":
            return "the body is not valid JSON"
        parts.append(f"{'.'.join(loc) or 'body'}: {msg}")
    return "; ".join(parts) or "invalid request"
