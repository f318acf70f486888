"""What a route did not expect never becomes a bare 500: the catalog leaves out a bot it cannot
load (its extra is missing), and any other failure answers JSON with a reason while the log gets
the traceback. Every route with good input on a server with only the web extra: tools/smoke."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from stichkit.server import catalog
from stichkit.server.app import create_app
from stichkit.server.settings import Settings

from ..bots.plugins import GOOD, MISSING_EXTRA, fake_plugins

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette would rather see httpx2 than httpx here
    from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db=f"sqlite:///{tmp_path / 'server.db'}", bot_workers=1)
    with TestClient(create_app(settings)) as c:
        yield c


def test_a_bot_whose_extra_is_missing_is_left_out_of_the_catalog_with_the_reason(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """As `policy` on a server with the web extra alone (numpy missing): that was a 500, and the
    lobby said "Der Server antwortet nicht"."""
    (tmp_path / "plugins").mkdir()
    with fake_plugins(tmp_path / "plugins", monkeypatch) as plugins, caplog.at_level(logging.INFO, "stichkit.server"):
        plugins["first"] = GOOD
        plugins["frob"] = MISSING_EXTRA
        r = client.get("/api/games")
        assert r.status_code == 200, r.text
        names = [b["name"] for b in r.json()["bots"]]
        assert "first" in names and "heuristic" in names and "frob" not in names
        assert r.json()["unavailable_bots"] == [
            {"name": "frob", "reason": "the frob bot needs frobnicate: install the frob extra"}
        ]
        # a table cannot seat it either, and says why
        r = client.post("/api/tables", json={"game": "jass", "seats": ["human", "bot:frob", "bot:first", "bot:first"]})
        assert r.status_code == 400 and "bot 'frob' cannot be used here: the frob bot needs frobnicate" in r.text
    assert "bot frob is not offered here: the frob bot needs frobnicate" in caplog.text


def test_an_unexpected_failure_answers_json_with_a_reason_and_logs_the_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("the catalog fell over")

    monkeypatch.setattr(catalog, "catalog", broken)
    with caplog.at_level(logging.ERROR, "stichkit.server"):
        r = client.get("/api/games")
    assert r.status_code == 500
    assert r.headers["content-type"] == "application/json"
    reason = r.json()["error"]
    assert reason.startswith("the server failed (RuntimeError); its log says why under error ")
    assert "fell over" not in reason  # what failed inside stays in the log
    ref = reason.rsplit(" ", 1)[1]
    [record] = [r for r in caplog.records if ref in r.getMessage()]
    assert record.getMessage() == f"error {ref}: GET /api/games failed"
    assert record.exc_info is not None and "the catalog fell over" in caplog.text
    assert "Traceback" in caplog.text
    # the server goes on
    assert client.get("/api/health").status_code == 200
