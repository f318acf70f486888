"""The table server under load: scripted WebSocket players at many tables, on loopback.

For each database (SQLite, PostgreSQL) and each table count (50, 200, 500), a fresh `stich serve`
is started on 127.0.0.1 with a fresh database; that many Jass tables are opened, and every seat
is taken by a scripted client that waits a think time (uniform between half and one and a half
`--think` seconds) and plays a uniformly random legal card. Server bots are not involved (add
some with `--bot-seats`): the server is measured, not the bots.

Reported per run, over `--seconds` after a warm-up:
- moves/s: actions the server applied and sent out;
- p50 / p99 / max latency: from a client's move (its `act` sent) to the moment every seat at the
  table has the resulting `state`;
- memory per table: the server's resident memory with the tables open and every seat connected,
  minus before the first table, divided by the table count (so it includes 4 connections);
- the server's and the clients' CPU use (1.0 = one core busy). Both run on this machine: on 2
  cores the clients take CPU from the server.

Everything stops by itself: the server is stopped and a PostgreSQL database made for the run is
dropped. How a bench starts a server and lets players in (`serving`, `open_table`, `join`,
`seat_socket`) lives here once, for fair_bots.py and serve_soak.py too; and how the memory
benches sample a server while it plays (`sample_for`: the report loop; `rss_mb`, `children`,
`probe`, `show_process`), for serve_soak.py and serve_memory.py.

    .venv/bin/python bench/serve_load.py                        # 50, 200, 500 tables; SQLite and PostgreSQL
    .venv/bin/python bench/serve_load.py --tables 500 --db sqlite --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.typing import Subprotocol

HOST = "127.0.0.1"  # loopback only
SERVE = "import sys; from stichkit.cli.main import main; sys.exit(main(sys.argv[1:]))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


# -- a server to load, and the players' doors into it: shared by fair_bots.py and serve_soak.py ----


@dataclass(frozen=True)
class Served:
    """A running `stich serve`: where it answers, and its process (its resident size, its children)."""

    base: str  # http://127.0.0.1:PORT
    pid: int


@contextlib.contextmanager
def serving(db: str, log: Path, *flags: str, start_timeout: float = 120, launcher: str | None = None,
            env: dict[str, str] | None = None) -> Iterator[Served]:  # fmt: skip
    """A fresh `stich serve` on loopback over `db` (warnings only, into `log`), once it answers its
    health check; stopped at the end with its whole process group (its bot workers too).
    `launcher`: a script run in place of `stich serve` with its arguments (memory_probe.py), with
    `env` added to the environment."""
    port = free_port()
    with open(log, "wb") as out:
        start = [launcher] if launcher else ["-c", SERVE]
        cmd = [sys.executable, *start, "serve", "--host", HOST, "--port", str(port), "--db", db,
               "--log-level", "warning", *flags]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env=None if env is None else {**os.environ, **env})  # fmt: skip
        try:
            base = f"http://{HOST}:{port}"
            deadline = time.monotonic() + start_timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"stich serve ended: see {log}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"stich serve did not answer in {start_timeout:g} s: see {log}")
                time.sleep(0.2)
            yield Served(base, proc.pid)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST `body`, its JSON answer; a kept-alive connection the server closed a moment ago is
    tried again."""
    for attempt in range(5):
        try:
            r = await http.post(path, json=body)
            r.raise_for_status()
            return dict(r.json())
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if attempt == 4:
                raise
    raise AssertionError


async def open_table(http: httpx.AsyncClient, body: dict[str, Any]) -> str:
    """A new table (`body` as POST /api/tables takes it): its id."""
    return str((await post(http, "/api/tables", body))["id"])


async def join(base: str, table: str, name: str) -> str:
    """A seat for a new person (a browser of its own, with its own identity cookie): its token."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as own:
        return str((await post(own, f"/api/tables/{table}/join", {"name": name}))["token"])


def seat_socket(base: str, table: str, token: str | None, **connect: Any) -> Any:
    """The WebSocket of a seat (its token sent as a subprotocol, as the page does) or of a
    spectator (no token); use as `async with` or await it."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    if token is not None:
        connect["subprotocols"] = [Subprotocol("stichkit"), Subprotocol(f"stichkit.token.{token}")]
    return websockets.connect(url, max_size=None, **connect)


# -- a server's memory over a run: the sampling loop, the processes' sizes and the probe, shared
# by serve_soak.py and serve_memory.py ------------------------------------------------------------

PROBE = str(Path(__file__).with_name("memory_probe.py"))  # run in place of `stich serve` to probe it


def rss_mb(pid: int) -> float:
    """A process's resident size in MB (0: it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    except (FileNotFoundError, StopIteration, ProcessLookupError):
        return 0.0


def children(pid: int) -> list[int]:
    """The processes `pid` started (its bot workers and its analysis process)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def probing(pid: int) -> bool:
    """Whether the process catches SIGUSR1 (the probe's handler): the server and its workers do,
    multiprocessing's resource tracker does not (the signal would end it)."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signal.SIGUSR1 - 1) & 1)
    return False


def probe(pid: int, out: str, timeout: float = 120) -> dict[int, dict[str, Any]]:
    """Signal the server (run under memory_probe.py, writing to `out`) and its workers, and read
    what each wrote."""
    pids = [p for p in [pid, *children(pid)] if probing(p)]
    before = {p: set(glob.glob(f"{out}.{p}.*.json")) for p in pids}
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGUSR1)
    found: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while len(found) < len(pids) and time.monotonic() < deadline:
        for p in pids:
            if p not in found:
                new = set(glob.glob(f"{out}.{p}.*.json")) - before[p]
                if new:
                    with open(max(new, key=lambda n: int(n.rsplit(".", 2)[1]))) as f:
                        found[p] = json.load(f)
        time.sleep(0.2)
    return found


async def sample_for(minutes: float, every: float, tasks: list[asyncio.Task[Any]], stop: asyncio.Event,
                     sample: Callable[[float], Awaitable[dict[str, Any]]], header: str,
                     line: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:  # fmt: skip
    """The report loop: every `every` seconds for `minutes`, `sample(minute)` (a dict; its
    "minute" and "load" are added) and its `line` printed under `header`; then the `tasks` that
    make the load are stopped. The samples."""
    samples: list[dict[str, Any]] = []
    began = time.monotonic()
    print(header, flush=True)
    try:
        while time.monotonic() - began < minutes * 60:
            await asyncio.sleep(every)
            minute = (time.monotonic() - began) / 60
            row = {"minute": minute, **await sample(minute), "load": os.getloadavg()[0]}
            samples.append(row)
            print(line(row), flush=True)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return samples


def grew(first: dict[str, int], last: dict[str, int], top: int) -> list[tuple[str, int, int]]:
    keys = set(first) | set(last)
    rows = [(k, first.get(k, 0), last.get(k, 0)) for k in keys]
    rows.sort(key=lambda r: r[2] - r[1], reverse=True)
    return rows[:top]


def show_process(name: str, a: dict[str, Any], b: dict[str, Any], churned: int, unit: str = "table churned") -> None:
    """What one process held at two probes: resident size, heaps, structures, objects."""
    ra, rb = a["status"]["VmRSS"], b["status"]["VmRSS"]
    per_table = 1024 * (rb - ra) / max(1, churned)
    print(f"\n{name}: resident {ra:.1f} -> {rb:.1f} MB ({rb - ra:+.1f} MB, {per_table:+.2f} KB per {unit}); "
          f"Python objects {a['objects']} -> {b['objects']}, "
          f"Python blocks {a['python_blocks']} -> {b['python_blocks']}")  # fmt: skip
    ma, mb = a.get("malloc", {}), b.get("malloc", {})
    if ma and mb:
        print("  C heap (MB): " + ", ".join(f"{k} {ma[k] / 2**20:.1f} -> {mb[k] / 2**20:.1f}" for k in ma))
    sa, sb = a.get("structures", {}), b.get("structures", {})
    if sa or sb:
        print("  structures (entries): " + ", ".join(f"{k} {sa.get(k, '-')} -> {sb.get(k, '-')}"
                                                      for k in sorted(set(sa) | set(sb))))  # fmt: skip
    rows = [r for r in grew(a["types"], b["types"], 12) if r[2] != r[1]]
    print("  objects that grew most: " + ", ".join(f"{k} {x} -> {y}" for k, x, y in rows))


def proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident kB) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return cpu, rss


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass
class Table:
    id: str
    seats: int
    pending: dict[int, float] = field(default_factory=dict)  # version -> when the move leading to it was sent
    arrived: dict[int, int] = field(default_factory=dict)  # version -> seats that have it


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


async def player(ws: Any, table: Table, stats: Stats, think: float, rng: random.Random) -> None:
    thinking: set[asyncio.Task[None]] = set()
    try:
        async for text in ws:
            m = json.loads(text)
            kind = m["type"]
            if kind == "error":
                stats.errors += 1
                continue
            if kind != "state":
                continue
            v = m["version"]
            got = table.arrived.get(v, 0) + 1
            table.arrived[v] = got
            if got == table.seats:
                del table.arrived[v]
                sent = table.pending.pop(v, None)
                if sent is not None and stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent)
                    stats.moves += 1
            if m["legal"]:  # think in a task of its own: this one keeps reading
                task = asyncio.create_task(move(ws, table, v, rng.choice(m["legal"]), rng.uniform(0.5, 1.5) * think))
                thinking.add(task)
                task.add_done_callback(thinking.discard)
    except websockets.ConnectionClosed:
        return


async def move(ws: Any, table: Table, version: int, action: str, delay: float) -> None:
    await asyncio.sleep(delay)
    table.pending[version + 1] = time.perf_counter()
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(json.dumps({"type": "act", "action": action, "version": version}))


async def gather_limited(n: int, coros: list[Any]) -> list[Any]:
    sem = asyncio.Semaphore(n)

    async def one(c: Any) -> Any:
        async with sem:
            return await c

    return await asyncio.gather(*[one(c) for c in coros])


async def load(base: str, pid: int, n_tables: int, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    _, rss_before = proc_stat(pid)
    seats = ["human"] * (4 - args.bot_seats) + ["bot:random"] * args.bot_seats
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def open_seats() -> tuple[str, list[str]]:
            tid = await open_table(http, {"game": "jass", "options": {"target": 100000}, "seats": seats,
                                          "takeover": "off", "private": True})  # fmt: skip
            # each seat a person of its own: one person holds one seat of a game in play
            tokens = [await join(base, tid, f"p{i}") for i in range(len(seats)) if seats[i] == "human"]
            return tid, tokens

        opened = await gather_limited(32, [open_seats() for _ in range(n_tables)])
    stats = Stats()
    tables = [Table(tid, len(tokens)) for tid, tokens in opened]

    async def connect(table: Table, token: str) -> Any:
        return await seat_socket(base, table.id, token, open_timeout=120, ping_interval=None, compression=None)

    pairs = [(t, tok) for t, (_, tokens) in zip(tables, opened, strict=True) for tok in tokens]
    sockets = await gather_limited(64, [connect(t, tok) for t, tok in pairs])
    tasks = [
        asyncio.create_task(player(ws, t, stats, args.think, random.Random(rng.random())))
        for ws, (t, _) in zip(sockets, pairs, strict=True)
    ]
    await asyncio.sleep(args.warmup)
    cpu0, _ = proc_stat(pid)
    mine0 = own_cpu()
    start = time.perf_counter()
    stats.measuring = True
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    cpu1, rss = proc_stat(pid)
    mine1 = own_cpu()
    for ws in sockets:
        await ws.close()
    for task in tasks:
        task.cancel()
    lat = sorted(stats.latencies) or [float("nan")]
    return {
        "tables": n_tables,
        "connections": len(sockets),
        "moves_per_s": round(stats.moves / elapsed, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 1),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 1),
        "max_ms": round(1000 * lat[-1], 1),
        "mean_ms": round(1000 * statistics.fmean(lat), 1),
        "kb_per_table": round((rss - rss_before) / n_tables, 1),
        "server_cpu": round((cpu1 - cpu0) / elapsed, 2),
        "server_ms_per_move": round(1000 * (cpu1 - cpu0) / max(1, stats.moves), 2),
        "client_cpu": round((mine1 - mine0) / elapsed, 2),
        "errors": stats.errors,
    }


@contextlib.contextmanager
def database(kind: str, admin: str, tmp: Path) -> Any:
    if kind == "sqlite":
        yield f"sqlite:///{tmp / ('bench-' + secrets.token_hex(4) + '.db')}"
        return
    import psycopg

    name = "stichkit_bench_" + secrets.token_hex(4)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_one(kind: str, n_tables: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    with database(kind, args.postgres, tmp) as db:
        flags = ["--max-tables", str(max(2000, n_tables)), "--bot-delay", "0.5", "--bot-workers", "1",
                 "--client-tables", "0", "--client-bot-seats", "0", *args.server_flag]  # fmt: skip
        with serving(db, tmp / f"server-{kind}-{n_tables}.log", *flags) as served:
            result = asyncio.run(load(served.base, served.pid, n_tables, args))
            result["db"] = kind
            return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="50,200,500", help="table counts, comma-separated (50,200,500)")
    p.add_argument("--db", default="sqlite,postgres", help="sqlite, postgres or both (sqlite,postgres)")
    p.add_argument("--postgres", default=os.environ.get("STICHKIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"),
                   help="an admin URL; the run makes and drops its own database")  # fmt: skip
    p.add_argument("--think", type=float, default=2.0, help="mean seconds a player takes per move (2.0)")
    p.add_argument("--bot-seats", type=int, default=0, choices=range(4), help="seats played by bot:random (0)")
    p.add_argument("--seconds", type=float, default=30.0, help="measured seconds per run (30)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--server-flag", action="append", default=[], help="an extra flag for stich serve (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON lines only")
    args = p.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    counts = [int(x) for x in args.tables.split(",")]
    kinds = [k.strip() for k in args.db.split(",")]
    if not args.json:
        print(f"stich serve under load: Jass tables, 4 - {args.bot_seats} scripted players each, think "
              f"{args.think} s a move; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"{'db':9} {'tables':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'kB/table':>8} "
              f"{'server CPU':>10} {'client CPU':>10} {'CPU ms/move':>11}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="stichkit-bench-") as d:
        for kind in kinds:
            for n in counts:
                r = run_one(kind, n, args, Path(d))
                if args.json:
                    print(json.dumps(r), flush=True)
                else:
                    cells = [f"{r[k]:>8}" for k in ("moves_per_s", "p50_ms", "p99_ms", "max_ms", "kb_per_table")]
                    cells += [f"{r[k]:>10}" for k in ("server_cpu", "client_cpu")]
                    print(f"{kind:9} {n:>6} " + " ".join(cells) + f" {r['server_ms_per_move']:>11}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
