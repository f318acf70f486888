"""`stich serve-bot` on the command line: what it serves, and what it refuses before listening."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

from .conftest import ServeBot, run_cli


def test_refused_before_listening() -> None:
    for argv, words in [
        (["nobot"], "unknown bot 'nobot'"),
        (["ismcts:time=-1"], "time"),
        (["bad/name=heuristic"], "player name 'bad/name'"),
        (["heuristic", "heuristic"], "two bots are served as 'heuristic'"),
        (["heuristic", "--timeout", "0.2", "--margin", "0.5"], "--timeout (0.2) must be more than --margin"),
        (["heuristic", "--port", "70000"], "not a port"),
    ]:
        code, out = run_cli("serve-bot", *argv)
        assert code == 2 and words in out, (argv, out)


def test_a_port_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, out = run_cli("serve-bot", "heuristic", "--port", str(port))
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in out


def test_named_bots_are_served_under_their_names() -> None:
    server = ServeBot("quick=random:seed=3", "deep=ismcts:iterations=10", "--timeout", "2", "--margin", "0.5")
    try:
        text = "".join(server.output)
        assert f"serving random:seed=3 at {server.url('quick')}" in text
        assert f"serving ismcts:iterations=10 at {server.url('deep')}" in text
        assert "answers within 2 s (bots think at most 1.5 s)" in text
        with urllib.request.urlopen(server.url("quick")) as r:
            assert json.load(r) == "Player quick here"
        with urllib.request.urlopen(server.base + "/") as r:
            info = json.load(r)
        assert info["players"] == {"quick": "random:seed=3", "deep": "ismcts:iterations=10"}
        try:
            urllib.request.urlopen(server.url("random"))
        except urllib.error.HTTPError as e:
            assert e.code == 404
        else:
            raise AssertionError("a bot is served only under its name")
    finally:
        server.stop()
    # SIGTERM: uvicorn shuts down gracefully, then lets the signal end the process as usual
    assert server.proc.returncode in (0, -15) and "Traceback" not in "".join(server.output)
