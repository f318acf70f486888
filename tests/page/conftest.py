"""The browser tests' shared pieces: one `stich serve` and one headless Chromium for all of them.

Both live as long as this package's tests (scope "package"): Playwright's sync API holds an event
loop while it runs, which must be gone before other tests call `asyncio.run`.

Chromium is Debian's (`apt-get install chromium`), driven by Playwright for Python through
`executable_path`; `make test` finds it (installing it where it can) through tools/with-services,
which names it in STICHKIT_TEST_CHROMIUM. Without it the tests skip with the reason, except when
STICHKIT_TEST_CHROMIUM names the browser: then a missing browser is a failure.

Pages run under the server's Content-Security-Policy, which refuses `eval`: give Playwright's
`wait_for_function` a function (`"() => document.title === 'x'"`), never a bare expression, which
it would evaluate as a string. A violation fails the test (`new_page`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the browser tests need the web extra: pip install 'stichkit[web]'")
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright: pip install playwright"
)

CHROMIUM_ENV = "STICHKIT_TEST_CHROMIUM"
CHROMIUM = os.environ.get(CHROMIUM_ENV) or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# Settings a test page starts with: German, moves shown at once (no pacing), no animations.
FAST_PREFS = {"lang": "de", "speed": "instant", "animations": False, "name": "Anna", "jassDeck": "seed"}


def _missing(reason: str) -> None:
    if os.environ.get(CHROMIUM_ENV):
        pytest.fail(f"{CHROMIUM_ENV} is set, so the browser tests must run, but {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`stich serve` in a subprocess on a fresh SQLite file, with bots that do not pause."""

    def __init__(self, workdir: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "server.log"
        stich = Path(sys.executable).with_name("stich")
        cmd = [str(stich)] if stich.exists() else [sys.executable, "-c", "from stichkit.cli.main import main; main()"]
        self.db = f"sqlite:///{workdir / 'page.db'}"
        cmd += ["serve", "--port", str(self.port), "--db", self.db]
        # no analyses of the server's own (a tournament's games): they would take the one worker
        # from the hints, and fill the tournament page's table before the test asks for it
        cmd += ["--bot-delay", "0", "--bot-workers", "1", "--log-level", "warning", "--background-analyses", "0"]
        # every page test comes from one address: limits far above what they do (accounts)
        cmd += ["--register-limit", "10000/hour", "--login-address-limit", "10000/minute"]
        # every page of the tests comes from one address: no limits on what one client may open
        cmd += ["--client-tables", "0", "--client-bot-seats", "0", "--client-hints", "0", "--client-workers", "0",
                "--table-bot-time", "0"]  # fmt: skip
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"stich serve stopped at start:\n{self.log.read_text()}")
            try:
                self.get("/api/health")
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"stich serve did not answer within 60 s:\n{self.log.read_text()}")

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("page-server"))
    yield s
    s.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium; `make test` does it as root)")
    pw = playwright_api.sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as e:  # the binary is there but will not start
        pw.stop()
        _missing(f"Chromium at {CHROMIUM} does not start: {e}")
    yield b
    b.close()
    pw.stop()


NewPage = Callable[..., Any]


def person(browser: Any, width: int, height: int, prefs: dict[str, Any], seats: dict[str, Any] | None = None) -> Any:
    """A browser context of its own (its own storage: one person), with the page's settings and
    seat tokens stored before its first page loads."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="de-CH")
    init = {"stichkit.prefs": prefs}
    if seats:
        init["stichkit.seats"] = {k: {**v, "at": 1} for k, v in seats.items()}
    # only on the first load: a reload keeps what the page stored since
    stored = json.dumps({k: json.dumps(v) for k, v in init.items()})
    ctx.add_init_script(
        f"for (const [k, v] of Object.entries({stored})) if (!localStorage.getItem(k)) localStorage.setItem(k, v);"
    )
    return ctx


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[NewPage]:
    """Pages in fresh browser contexts (separate storage: separate people); closed after the test.

    `new_page(width=..., height=..., prefs={...}, seats={table: {seat, token, name}})`.
    """
    contexts: list[Any] = []

    def make(
        width: int = 1280, height: int = 800, prefs: dict[str, Any] | None = None, seats: dict[str, Any] | None = None
    ) -> Any:
        ctx = person(browser, width, height, {**FAST_PREFS, **(prefs or {})}, seats)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        page.js_errors = errors
        return page

    yield make
    for ctx in contexts:
        for p in ctx.pages:
            # script errors, and anything the server's Content-Security-Policy refused
            assert not getattr(p, "js_errors", []), f"JavaScript errors in the page: {p.js_errors}"
        ctx.close()
