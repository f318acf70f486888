"""What keeps another site's page away from a player's table: the WebSocket's origin check and
the headers on every answer (the browser itself is checked in tests/page/test_policy.py)."""

from __future__ import annotations

import argparse

import pytest
import websockets

from stichkit.server.headers import page_policy
from stichkit.server.origins import origin_allowed
from stichkit.server.serve import add_parser, settings_from

from .harness import Client, Server, run
from .test_hostile_requests import handshake_status, seated


def test_a_page_of_another_site_cannot_open_a_table(server: Server) -> None:
    table, token = seated(server)
    own = f"http://127.0.0.1:{server.port}"

    async def go() -> None:
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port + 1}", "http://127.0.0.1"):
            sub = ["stichkit", f"stichkit.token.{token}"]
            assert await handshake_status(server, table, origin=origin, subprotocols=sub) == 403
            assert await handshake_status(server, table, origin=origin) == 403  # nor watch it
        for origin in (own, None):  # the server's own page; a program (no Origin)
            c = await Client.open(server, table, token, origin=origin)
            assert (await c.state())["seat"] == 0
            await c.close()

    run(go())


def test_the_operator_names_other_origins_and_each_is_checked() -> None:
    allowed = ("https://jass.example", "http://localhost:3000")
    assert origin_allowed("https://JASS.example", "127.0.0.1:8000", allowed)
    assert origin_allowed("http://localhost:3000", "127.0.0.1:8000", allowed)
    assert not origin_allowed("https://jass.example.evil", "127.0.0.1:8000", allowed)
    assert not origin_allowed("http://jass.example", "127.0.0.1:8000", allowed)  # another scheme
    assert origin_allowed("https://play.example", "play.example", ())  # the server's own, behind TLS
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(["serve", "--allowed-origin", "https://Jass.example/", "--allowed-origin",
                              "http://localhost:3000"])  # fmt: skip
    assert settings_from(args).allowed_origins == allowed
    for bad in ("jass.example", "ftp://jass.example", "https://jass.example/page"):
        with pytest.raises(ValueError, match="--allowed-origin: an origin is scheme://host"):
            settings_from(parser.parse_args(["serve", "--allowed-origin", bad]))


@pytest.mark.parametrize("path", ["/", "/tables/abc", "/static/js/app.js", "/static/css/page.css", "/static/nope.js"])
def test_the_page_and_its_files_carry_the_browser_defences(server: Server, path: str) -> None:
    r = server.get(path)
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    policy = r.headers["content-security-policy"]
    assert policy == page_policy(f"127.0.0.1:{server.port}")
    script = next(d for d in policy.split("; ") if d.startswith("script-src"))
    assert script == "script-src 'self'"  # no inline script, no eval
    assert "frame-ancestors 'none'" in policy


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/games"), ("GET", "/api/tables/nosuch"), ("POST", "/api/tables"), ("GET", "/openapi.json"),
     ("GET", "/api/nosuchroute")],
)  # fmt: skip
def test_the_api_runs_nothing_and_is_never_framed(server: Server, method: str, path: str) -> None:
    r = server.post(path, {"game": 1}) if method == "POST" else server.get(path)
    assert r.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff"


def test_the_api_reference_may_run_only_its_own_inline_scripts(server: Server) -> None:
    r = server.get("/docs")
    policy = r.headers["content-security-policy"]
    assert "'sha256-" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert int(r.headers["content-length"]) == len(r.content)


def test_a_socket_refused_for_its_origin_says_why(server: Server) -> None:
    table, _ = seated(server)

    async def go() -> str:
        with pytest.raises(websockets.InvalidStatus) as e:
            async with websockets.connect(f"{server.ws}/ws/tables/{table}", origin="https://evil.example"):  # type: ignore[arg-type]
                pass
        return e.value.response.body.decode()

    assert "may not open this server's tables" in run(go())
