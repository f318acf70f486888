"""The smoke stage (tools/smoke, run by `make test`) fails when an entry point breaks: a README
example that no longer holds, an engine that needs a package it does not declare, a route that
answers 500 or that the walk does not reach. The stage itself runs in `make test`; here its
checks are shown to fail on broken input, one of them end to end on a broken copy of the tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "tools" / "smoke"
sys.path.insert(0, str(SMOKE))

import readme_examples  # noqa: E402
import web  # noqa: E402

README = """# demo

```python
>>> import stichkit
>>> stichkit.load_game("jass").name
'jass'

```

```sh
pip install "stichkit[rl]"
```

```python
>>> import stichkit.rl
>>> env = stichkit.rl.gym_env("jass")

```

```python
>>> from stichkit.server import Settings
>>> Settings().max_tables > 0
True

```
"""


def examples(tmp_path: Path, text: str, extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "README.md"
    path.write_text(text)
    return subprocess.run([sys.executable, str(SMOKE / "readme_examples.py"), str(path), extra],
                          capture_output=True, text=True)  # fmt: skip


def test_each_readme_example_belongs_to_the_install_whose_interface_it_imports() -> None:
    owners = [owner for *_, owner in readme_examples.blocks(README)]
    assert owners == ["engine", "rl", "web"]


def test_the_readme_examples_run_and_a_wrong_one_fails(tmp_path: Path) -> None:
    ok = examples(tmp_path, README, "web")
    assert ok.returncode == 0, ok.stdout
    assert "web: 2 blocks (1 of its own), 4 examples, 0 failed" in ok.stdout
    broken = examples(tmp_path, README.replace("'jass'", "'skat'"), "engine")
    assert broken.returncode == 1
    assert 'README.md", line 5' in broken.stdout and "Expected:\n    'skat'" in broken.stdout


def test_a_readme_without_engine_examples_fails(tmp_path: Path) -> None:
    none = examples(tmp_path, "# demo\n\n```sh\nmake play\n```\n", "engine")
    assert none.returncode == 1 and "no Python example for the engine found" in none.stdout


def walk(handler: object) -> web.Walk:
    return web.Walk("http://smoke.invalid", lambda text: None, httpx.MockTransport(handler))  # type: ignore[arg-type]


def test_a_route_that_answers_500_fails_the_walk() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(200, text="<html><script src=x></script>", headers={"content-type": "text/html"})
        return httpx.Response(500, json={"error": "the server failed (KeyError)"})

    w = walk(answer)
    with pytest.raises(web.Failed, match=r"GET /api/games answered 500, not 200: .*KeyError"):
        web.lobby(w, unavailable={"policy"})


def test_a_catalog_that_offers_a_bot_it_cannot_load_fails_the_walk() -> None:
    catalog = {"games": [], "bots": [{"name": n} for n in ("random", "heuristic", "ismcts", "policy")]}

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(200, text="<html><script src=x></script>", headers={"content-type": "text/html"})
        return httpx.Response(200, json=catalog)

    with pytest.raises(web.Failed, match=r"expected \['policy'\] among the unavailable"):
        web.lobby(walk(answer), unavailable={"policy"})


def test_a_route_the_walk_does_not_reach_fails_it() -> None:
    pytest.importorskip("fastapi", reason="the server's routes need the web extra")
    routes = web.app_routes()
    assert ("WS", "/ws/tables/{table_id}") in routes and ("POST", "/api/tables/{table_id}/seat") in routes
    w = walk(lambda request: httpx.Response(200))
    w.reached = set(routes)
    web.all_reached(w, routes)
    with pytest.raises(web.Failed, match=r"routes the smoke does not walk .*'DELETE', '/api/tables/\{table_id\}'"):
        web.all_reached(w, routes | {("DELETE", "/api/tables/{table_id}")})


def test_the_engine_stage_fails_when_the_engine_needs_an_undeclared_package(tmp_path: Path) -> None:
    """End to end on a copy of the tree whose bots import numpy, which the engine does not declare:
    its wheel installs, and the README's bot example fails in the engine-only environment."""
    if shutil.which("git") is None:
        pytest.skip("no git: the copy of the tree is its `git ls-files`")
    tree = tmp_path / "tree"
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, names.decode().split("\0")):
        if (ROOT / name).is_file() and not name.startswith(("tests/", "bench/", "docs/")):
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    bots = tree / "stichkit" / "bots" / "base.py"
    bots.write_text(bots.read_text().replace("import json\n", "import json\n\nimport numpy  # noqa: F401\n", 1))
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # where the failed run keeps its logs
    p = subprocess.run([sys.executable, str(SMOKE / "run.py"), "--only", "engine", "--tree", str(tree)],
                       capture_output=True, text=True, timeout=600, env=env)  # fmt: skip
    assert p.returncode == 1, p.stdout + p.stderr
    assert "smoke: engine" in p.stdout and "FAILED" in p.stdout
    assert "No module named 'numpy'" in p.stdout
    assert "smoke: 0 passed, 1 failed" in p.stdout.splitlines()
