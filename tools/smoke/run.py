"""The smoke stage of `make test`: every install the README names, each in a fresh virtual
environment with exactly that install, doing what the README says it gives.

    .venv/bin/python tools/smoke/run.py [--only STAGE ...] [--tree DIR] [--keep]

- engine (`pip install stichkit`): the README's Python examples (tools/smoke/readme_examples.py),
  and the bots it offers are the engine's own.
- cli (`stichkit[cli]`): `stich play` with a person typing (a whole game, a refused card
  included), `stich simulate`, `stich replay` of the saved game, and `stich tournament` naming
  the arena extra it also needs.
- web (`stichkit[web]`): `stich serve`, checked from outside (tools/smoke/web.py): the lobby, a
  table of bots played to its end, a person who joins and plays to the end, every route with good
  input, the page in Chromium.
- make-play, make-serve: `make play` and `make serve`, each in a fresh copy of the tree (its
  `git ls-files`) as a newcomer runs them: each makes its own .venv; `make play` deals and takes a
  card, `make serve` is checked as web is, but for the walk through every route.
- rl (`stichkit[rl]`): one step of every environment of every game (tools/smoke/rl_step.py) and
  the README's learning example; no torch comes with it.
- interop (`stichkit[cli,interop]`, as docs/interop.md installs it): `stich serve-bot` answering,
  and a game whose remote players it serves.

Wheels are built once per run into a wheelhouse (stichkit's from the tree; the others from a
cache that outlives the run, `$STICHKIT_SMOKE_CACHE` or ~/.cache/stichkit/smoke-wheels, filled
from the package index when it lacks something); every environment installs from there, offline.
The environments themselves are new every run. Exit 1 when any stage fails; its log is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import web  # noqa: E402 (beside this file)

ROOT = HERE.parent.parent
EXTRAS = ("cli", "web", "rl", "interop")
BUDGET = 300.0  # seconds the whole stage should take on the 2-core build machine


class Failed(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Run:
    """One smoke run: the tree under test, a scratch folder, the wheelhouse."""

    def __init__(self, tree: Path, scratch: Path, cache: Path, chromium: str | None) -> None:
        self.tree = tree
        self.scratch = scratch
        self.cache = cache
        self.wheels = scratch / "wheels"  # this run's stichkit wheel
        self.chromium = chromium

    def pip(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]

    def requirements(self) -> list[str]:
        """What the extras need, and the build backend (for the editable installs of `make`)."""
        project = tomllib.loads((self.tree / "pyproject.toml").read_text())
        reqs = [*project["build-system"]["requires"], *project["project"]["dependencies"]]
        for extra in EXTRAS:
            reqs += project["project"]["optional-dependencies"][extra]
        return reqs

    def build(self, log: Stage) -> None:
        reqs = self.requirements()
        offline = self.pip("wheel", "--quiet", "--no-index", "--find-links", str(self.cache), "-w", str(self.cache))
        if log.run([*offline, *reqs], check=False) != 0:
            log.say("the wheel cache lacks something: filling it from the package index")
            log.run([*self.pip("wheel", "--quiet", "--find-links", str(self.cache), "-w", str(self.cache)), *reqs])
        log.run([*self.pip("wheel", "--quiet", "--no-deps", "--no-index", "--find-links", str(self.cache),
                           "-w", str(self.wheels)), str(self.tree)])  # fmt: skip

    def offline_env(self) -> dict[str, str]:
        """pip settings that make any install of this run come from the wheelhouse alone."""
        return {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": f"{self.wheels} {self.cache}",
                "PIP_NO_COMPILE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # fmt: skip


class Stage:
    """One stage's log and helpers; a failed check raises Failed."""

    def __init__(self, run: Run, name: str) -> None:
        self.run_ = run
        self.name = name
        self.dir = run.scratch / name
        self.dir.mkdir()
        self.log_path = run.scratch / f"{name}.log"
        self.log = self.log_path.open("w", encoding="utf-8")
        self.procs: list[subprocess.Popen[bytes]] = []
        self.t0 = time.monotonic()

    def say(self, text: str) -> None:
        self.log.write(text.rstrip("\n") + "\n")
        self.log.flush()

    def cmd(self, cmd: Sequence[str], tail: str = "") -> None:
        self.say(f"[{time.monotonic() - self.t0:5.1f} s] $ " + " ".join(cmd) + tail)

    def run(self, cmd: Sequence[str], *, check: bool = True, env: dict[str, str] | None = None,
            cwd: Path | None = None, timeout: float = 240, expect: str | None = None) -> int:  # fmt: skip
        self.cmd(cmd)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd or self.dir, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise Failed(f"{cmd[0]} ... took over {timeout:.0f} s") from e
        self.say(p.stdout + p.stderr)
        if check and p.returncode != 0:
            raise Failed(f"`{' '.join(cmd[:3])} ...` ended with {p.returncode}: {(p.stderr or p.stdout)[-800:]}")
        if expect is not None and not re.search(expect, p.stdout):
            raise Failed(f"`{' '.join(cmd[:3])} ...` did not print {expect!r}: {p.stdout[-800:]}")
        return p.returncode

    def venv(self, requirement: str) -> Path:
        """A new environment with exactly `requirement` installed from the wheelhouse; its bin."""
        env = self.dir / "venv"
        self.run([sys.executable, "-m", "venv", "--without-pip", str(env)])
        self.run(self.run_.pip("--python", str(env / "bin" / "python"), "install", "--quiet", "--no-compile",
                               "--no-index", "--find-links", str(self.run_.wheels), "--find-links",
                               str(self.run_.cache), requirement))  # fmt: skip
        return env / "bin"

    def start(self, cmd: Sequence[str], url: str, *, env: dict[str, str] | None = None, cwd: Path | None = None,
              timeout: float = 60) -> None:  # fmt: skip
        """A server in its own process group, waited for until `url` answers."""
        self.cmd(cmd, " &")
        out = (self.dir / f"server-{len(self.procs)}.log").open("wb")
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                cwd=cwd or self.dir, start_new_session=True)  # fmt: skip
        self.procs.append(proc)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise Failed(f"`{' '.join(cmd[:3])} ...` ended with {proc.returncode}: {self.server_log(proc)}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2).status_code == 200:
                    return
            time.sleep(0.3)
        late = f"`{' '.join(cmd[:3])} ...` did not answer at {url} within {timeout:.0f} s"
        raise Failed(f"{late}: {self.server_log(proc)}")

    def server_log(self, proc: subprocess.Popen[bytes]) -> str:
        path = self.dir / f"server-{self.procs.index(proc)}.log"
        return path.read_text(errors="replace")[-1500:]

    def stop(self) -> None:
        """Stop this stage's servers (each with its process group: bot workers, make's children)."""
        for proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(5)
            self.say(f"server {self.procs.index(proc)} stopped; its log:\n{self.server_log(proc)}")
        self.procs.clear()

    def converse(self, cmd: Sequence[str], answer: Callable[[str], str | None], *, env: dict[str, str] | None = None,
                 cwd: Path | None = None, timeout: float = 180) -> str:  # fmt: skip
        """Run an interactive command, answering each prompt with `answer(output so far)` (None closes
        its input). A prompt is a last line without its newline, and nothing more coming for half a
        second. The whole output."""
        self.cmd(cmd, "  (answering its prompts)")
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env={**(env or os.environ), "PYTHONUNBUFFERED": "1"}, cwd=cwd or self.dir)  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        out = b""
        deadline = time.monotonic() + timeout
        try:
            while True:
                if time.monotonic() > deadline:
                    raise Failed(f"`{' '.join(cmd[:3])} ...` went on for over {timeout:.0f} s: {out[-800:]!r}")
                ready, _, _ = select.select([proc.stdout], [], [], 0.5)
                if ready:
                    chunk = os.read(proc.stdout.fileno(), 65536)
                    if not chunk:
                        break
                    out += chunk
                    continue
                text = out.decode(errors="replace")
                if text.strip() and not text.endswith("\n") and not proc.stdin.closed:
                    reply = answer(text)
                    if reply is None:
                        proc.stdin.close()
                    else:
                        proc.stdin.write(reply.encode() + b"\n")
                        proc.stdin.flush()
                        out += b"\n"  # the prompt is answered: wait for the next one
            code = proc.wait(30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        text = out.decode(errors="replace")
        self.say(text)
        if code != 0:
            raise Failed(f"`{' '.join(cmd[:3])} ...` ended with {code}: {text[-800:]}")
        return text


# -- the stages ------------------------------------------------------------------------------------


def engine(s: Stage) -> None:
    bin_ = s.venv("stichkit")
    s.run([str(bin_ / "python"), str(HERE / "readme_examples.py"), str(s.run_.tree / "README.md"), "engine"])
    s.run([str(bin_ / "python"), "-c", "import stichkit.bots as b; print(*b.bot_names())"],
          expect=r"^heuristic ismcts open pimc random\n$")  # fmt: skip


def first_legal(typo: list[str]) -> Callable[[str], str | None]:
    """Answers to `stich play`: a refused card once, then the first legal action, Enter, or 1."""

    def answer(text: str) -> str | None:
        prompt = text.rsplit("\n", 1)[-1]
        if not typo:
            typo.append("xx")
            return "no-such-card"
        if "Enter" in prompt:
            return ""
        found = re.search(r"\[(.*?)\]\s*>\s*$", prompt)
        return found.group(1).split()[0] if found else "1"

    return answer


def cli(s: Stage) -> None:
    stich = str(s.venv("stichkit[cli]") / "stich")
    save = str(s.dir / "game.json")
    out = s.converse([stich, "play", "jass", "target=300", "--seats", "human,random,random,random", "--delay", "0",
                      "--seed", "1", "--save", save], first_legal([]))  # fmt: skip
    if "✗" not in out or not re.search(r"game over|wins|winners", out, re.IGNORECASE):
        raise Failed(f"stich play: no refusal or no end of the game: {out[-800:]}")
    s.run([stich, "simulate", "jass", "--games", "2", "--seats", "heuristic,random,heuristic,random", "--seed", "1"])
    # the ratings of a tournament need the arena extra: without it, stich says so (README)
    code = s.run([stich, "tournament", "stichwahl", "--seats", "heuristic,random,heuristic,random", "--deals", "1"],
                 check=False)  # fmt: skip
    if code != 2 or "stichkit[arena]" not in s.log_path.read_text():
        raise Failed(f"stich tournament without the arena extra ended with {code}, without naming the extra")
    s.run([stich, "replay", save], expect="(?i)game over|wins|winners")


def serve_cmd(port: int, db: Path) -> list[str]:
    return ["serve", "--port", str(port), "--db", f"sqlite:///{db}", "--bot-delay", "0", "--bot-workers", "1",
            "--log-level", "warning"]  # fmt: skip


def web_stage(s: Stage) -> None:
    bin_ = s.venv("stichkit[web]")
    port = free_port()
    s.start([str(bin_ / "stich"), *serve_cmd(port, s.dir / "server.db")], f"http://127.0.0.1:{port}/api/health")
    check(s, f"http://127.0.0.1:{port}", walk_every_route=True)


def check(s: Stage, base: str, *, walk_every_route: bool) -> None:
    chromium = s.run_.chromium
    if chromium is None:
        if os.environ.get("STICHKIT_REQUIRE_SERVICES") == "1":
            raise Failed("no Chromium (STICHKIT_TEST_CHROMIUM, or chromium on PATH), and every component is required")
        print(f"smoke: {s.name}: no Chromium here, so the page is not loaded (apt-get install chromium)")
    try:
        web.check_server(base, chromium, s.say, unavailable={"policy"}, walk_every_route=walk_every_route)
    except web.Failed as e:
        raise Failed(str(e)) from None


def fresh_copy(s: Stage) -> Path:
    """The tree as a fresh clone has it (its `git ls-files`), without the developer's .venv."""
    copy = s.dir / "stichkit"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=s.run_.tree, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src = s.run_.tree / name
        if src.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, copy / name)
    return copy


def make_play(s: Stage) -> None:
    """`make play` in a fresh copy: it makes its .venv, deals, and takes the newcomer's first card."""
    copy = fresh_copy(s)
    moves: list[str] = []

    def one_move(text: str) -> str | None:  # the first prompt is answered, then the input ends
        found = re.search(r"\[(.*?)\]\s*>\s*$", text.rsplit("\n", 1)[-1])
        if found and not moves:
            moves.append(found.group(1).split()[0])
            return moves[0]
        return None

    out = s.converse(["make", "-C", str(copy), "play"], one_move, env=s.run_.offline_env(), timeout=300)
    if not moves or not re.search(r"^You \(0\) (plays|chooses|schiebt)", out, re.MULTILINE) or "saved" not in out:
        raise Failed(f"make play: no move made, or the game was not kept: {out[-800:]}")


def make_serve(s: Stage) -> None:
    """`make serve` in a fresh copy (what the newcomer ran): it makes its .venv and serves the lobby."""
    copy = fresh_copy(s)
    port = free_port()
    args = " ".join(serve_cmd(port, s.dir / "server.db")[1:])
    s.start(["make", "-C", str(copy), "serve", f"ARGS={args}"], f"http://127.0.0.1:{port}/api/health",
            env=s.run_.offline_env(), timeout=300)  # fmt: skip
    check(s, f"http://127.0.0.1:{port}", walk_every_route=False)


def rl(s: Stage) -> None:
    python = str(s.venv("stichkit[rl]") / "python")
    s.run([python, str(HERE / "rl_step.py")])
    s.run([python, str(HERE / "readme_examples.py"), str(s.run_.tree / "README.md"), "rl"])


def interop(s: Stage) -> None:
    stich = str(s.venv("stichkit[cli,interop]") / "stich")  # the install docs/interop.md gives
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    s.start([stich, "serve-bot", "random", "heuristic", "--port", str(port)], f"{url}/random")
    r = httpx.get(url + "/", timeout=10)
    s.say(f"GET {url}/ -> {r.status_code} {r.text[:300]}")
    if r.status_code != 200 or "stichkit serve-bot" not in r.text:
        raise Failed(f"serve-bot's index: {r.status_code} {r.text[:300]}")
    # a game at a stichkit table with jass-kit's rules, two of whose players are behind serve-bot
    s.run([stich, "simulate", "jass", "profile=schieber", "weis=off", "stoeck=false", "undertrump=jass-kit",
           "target=300", "--games", "1", "--seed", "1", "--json",
           "--seats", f"remote:{url}/random,heuristic,remote:{url}/heuristic,random"],
          expect=r'"games": 1')  # fmt: skip


# Longest first: they run two at a time.
STAGES: dict[str, Callable[[Stage], None]] = {
    "make-serve": make_serve,
    "make-play": make_play,
    "web": web_stage,
    "cli": cli,
    "rl": rl,
    "interop": interop,
    "engine": engine,
}


def run_stage(run: Run, name: str) -> tuple[str, float, str | None]:
    s = Stage(run, name)
    t0 = time.monotonic()
    error = None
    try:
        STAGES[name](s)
    except Failed as e:
        error = str(e)
    except Exception as e:  # a bug in the smoke itself, or a tool that broke: a failure all the same
        error = f"{type(e).__name__}: {e}"
    finally:
        s.stop()
        s.say(f"-- {name}: {'FAILED: ' + error if error else 'ok'}")
        s.log.close()
    return name, time.monotonic() - t0, error


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", choices=list(STAGES), help="run these stages only")
    p.add_argument("--tree", type=Path, default=ROOT, help="the source tree to check (default: this one)")
    p.add_argument("--keep", action="store_true", help="keep the scratch folder (logs, environments)")
    p.add_argument("--jobs", type=int, default=2, help="stages at once (2)")
    args = p.parse_args(argv)
    cache = Path(os.environ.get("STICHKIT_SMOKE_CACHE") or Path.home() / ".cache" / "stichkit" / "smoke-wheels")
    cache.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("STICHKIT_TEST_CHROMIUM") or shutil.which("chromium")
    names = args.only or list(STAGES)
    t0 = time.monotonic()
    path = Path(tempfile.mkdtemp(prefix="stichkit-smoke-"))
    try:
        code = run_all(Run(args.tree.resolve(), path, cache, chromium), names, args.jobs, t0)
    finally:
        if args.keep or code:
            print(f"smoke: logs and environments kept in {path}")
        else:
            shutil.rmtree(path, ignore_errors=True)
    return code


def run_all(run: Run, names: list[str], jobs: int, t0: float) -> int:
    build = Stage(run, "wheels")
    try:
        run.build(build)
    except Failed as e:
        print(f"smoke: the wheels could not be built: {e}\n{build.log_path.read_text()[-3000:]}")
        return 1
    finally:
        build.log.close()
    print(f"smoke: wheels ready in {time.monotonic() - t0:.0f} s; stages: {', '.join(names)}", flush=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda n: run_stage(run, n), names))
    failed = [name for name, _, error in results if error]
    for name, seconds, error in results:
        print(f"smoke: {name:10} {seconds:5.0f} s  {'FAILED: ' + error if error else 'ok'}")
    for name in failed:
        tail = (run.scratch / f"{name}.log").read_text().splitlines()[-60:]
        print(f"\n---- {name}.log (last lines) ----\n" + "\n".join(tail))
    total = time.monotonic() - t0
    over = f", over the budget of {BUDGET:.0f} s" if total > BUDGET else ""
    print(f"smoke: {total:.0f} s in all{over}")
    print(f"smoke: {len(results) - len(failed)} passed, {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
