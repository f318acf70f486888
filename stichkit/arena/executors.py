"""Where the games are played: in this process, in local worker processes, or on a Ray cluster.

Every executor runs the same pure unit of work (`play_task(Task)` for a tournament, one picklable
spec in, one result out) and hands the results back by their index in the schedule, so the choice
changes only where and how fast the games are played, never what they give. Units are submitted
lazily, a few per worker at a time: a schedule of a billion deals is never held in memory.

A worker that dies (killed, out of memory, its node lost) costs only the games it was playing:
Ray plays the lost game again on another worker; the process pool, which cannot survive the death
of one of its processes, is started anew and every game that was in progress is played again.
After `MAX_RETRIES` deaths on the same unit the run stops with an `ExecutorError`.

Ray is imported only by `RayExecutor` (the `cluster` extra: pip install 'stichkit[cluster]').
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from itertools import chain, islice
from types import TracebackType
from typing import Any, ClassVar, Generic, TypeVar

from stichkit.core import StichkitError

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS = ("serial", "process", "ray")
NEED_RAY = "--executor ray needs Ray, which comes with the cluster extra: pip install 'stichkit[cluster]'"
MAX_RETRIES = 3  # deaths of a worker on one unit of work before the run gives up
MAX_WORKERS = 256  # more local worker processes than this is a typo, not a machine
CONNECT_TIMEOUT = 60.0  # seconds to connect to a Ray cluster (a wrong token fails after about 20 s)
AUTH_HINT = ("a cluster with token authentication (the default for clusters started by ray.init since Ray "
             "2.59) needs RAY_AUTH_MODE=token and its token in RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH here; "
             "see docs/cluster.md")  # fmt: skip


class ExecutorError(StichkitError):
    """The executor cannot be had (Ray missing, cluster unreachable) or gave up on a unit of work."""


class Executor(ABC):
    """Plays units of work: `completed` yields (index, result) as they finish, `map` in order.

    At most `window` units are in flight at once (two per worker), so a slow unit never lets the
    backlog grow without bound. Use it as a context manager, or `close()` it."""

    name: ClassVar[str]

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ExecutorError(f"an executor needs at least 1 worker, not {workers}")
        self.workers = workers

    @property
    def window(self) -> int:
        return 2 * self.workers

    @abstractmethod
    def completed(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        """(index of the item, fn(item)) for every item, in the order they finish."""

    def map(self, fn: Callable[[T], R], items: Iterable[T], *, chunk: int = 1) -> Iterator[R]:
        """fn(item) for every item, in the order of the items (not the order they finish).

        `chunk` > 1 sends the items in groups of that many, one unit of work each: for short
        units, where the cost of sending one would outweigh playing it."""
        if chunk > 1:
            for results in self.map(partial(_each, fn), _groups(items, chunk)):
                yield from results
            return
        waiting: dict[int, R] = {}
        nxt = 0
        for i, result in self.completed(fn, items):
            waiting[i] = result
            while nxt in waiting:
                yield waiting.pop(nxt)
                nxt += 1

    @abstractmethod
    def close(self) -> None:
        """Release the workers (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _groups(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while group := list(islice(it, size)):
        yield group


def _each(fn: Callable[[T], R], group: list[T]) -> list[R]:
    return [fn(item) for item in group]


class SerialExecutor(Executor):
    """Everything in this process, one unit after the other."""

    name = "serial"

    def __init__(self, workers: int = 1) -> None:
        if workers != 1:
            raise ExecutorError(f"the serial executor plays in this process, with 1 worker, not {workers}")
        super().__init__(1)

    def completed(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        for i, item in enumerate(items):
            yield i, fn(item)

    def close(self) -> None:
        """Nothing to release."""


class _Retries(Generic[T]):
    """Counts the deaths of workers per unit; past MAX_RETRIES the run gives up."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.count: Counter[int] = Counter()

    def again(self, index: int, item: T) -> None:
        self.count[index] += 1
        if self.count[index] > MAX_RETRIES:
            raise ExecutorError(f"{self.where} died {self.count[index]} times while playing unit #{index} ({item!r})")


class ProcessExecutor(Executor):
    """Local worker processes (`concurrent.futures.ProcessPoolExecutor`), never more than units."""

    name = "process"

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers or min(os.cpu_count() or 1, MAX_WORKERS))
        self.pool: ProcessPoolExecutor | None = None
        self.size = self.workers
        self.restarts = 0  # how often the pool was started anew after a worker died

    def completed(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        source = enumerate(items)
        first = list(islice(source, self.workers))
        if not first:
            return
        self.size = len(first)  # never more processes than units
        self._start()
        units = chain(first, source)
        retries: _Retries[T] = _Retries("a worker process")
        flight: dict[Future[R], tuple[int, T]] = {}
        try:
            while True:
                for i, item in islice(units, self.window - len(flight)):
                    flight[self._submit(fn, item)] = (i, item)
                if not flight:
                    return
                wait(flight, return_when=FIRST_COMPLETED)
                finished = [f for f in flight if f.done() and not isinstance(f.exception(), BrokenProcessPool)]
                for future in finished:
                    i, _item = flight.pop(future)
                    yield i, future.result()  # an exception of fn itself goes to the caller
                if any(f.done() for f in flight):
                    # The pool is lost with all its processes: the units in progress are played again.
                    lost = sorted(flight.values(), key=lambda unit: unit[0])
                    flight.clear()
                    for i, item in lost:
                        retries.again(i, item)
                    self._start()
                    self.restarts += 1
                    for i, item in lost:
                        flight[self._submit(fn, item)] = (i, item)
        finally:
            for future in flight:
                future.cancel()

    def _start(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = ProcessPoolExecutor(max_workers=self.size)

    def _submit(self, fn: Callable[[T], R], item: T) -> Future[R]:
        assert self.pool is not None
        return self.pool.submit(fn, item)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def _play_on_ray(fn: Callable[[Any], Any], item: Any) -> tuple[Any, str]:
    """The Ray task: the unit of work and the node that played it."""
    import ray

    return fn(item), ray.get_runtime_context().get_node_id()


class RayExecutor(Executor):
    """Ray tasks, one CPU each, on a local or remote Ray cluster.

    `address`: a head node's `host:port`, `auto` (the cluster this machine joined with `ray
    start`), or `local` (a Ray of our own on this machine, for this run, with `workers` CPUs);
    None: RAY_ADDRESS, else `local`.
    A process that is already connected (`ray.init` done by the caller) uses that connection.
    `workers`: units in flight at once; by default as many as the cluster has CPUs.
    `runtime_env`: Ray's runtime environment for the workers, e.g. {"py_modules": [stichkit]} to
    ship this stichkit to nodes that do not have it (docs/cluster.md)."""

    name = "ray"

    def __init__(
        self,
        workers: int | None = None,
        *,
        address: str | None = None,
        runtime_env: Mapping[str, Any] | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorError(NEED_RAY) from None
        self.ray = ray
        self.owned = _connect(ray, address, dict(runtime_env) if runtime_env else None, connect_timeout, workers)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 0))
            if cpus < 1:
                raise ExecutorError("the Ray cluster has no CPU to play on (every node was started with --num-cpus=0)")
            super().__init__(workers or cpus)
            self.cpus = cpus
            # SPREAD: Ray's default packs tasks onto the driver's node while its load looks low,
            # so short games could all run on one node; a tournament wants every node busy.
            self.remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, scheduling_strategy="SPREAD")(_play_on_ray)
        except BaseException:
            self.close()
            raise
        self.nodes: Counter[str] = Counter()  # node id -> units played there

    @property
    def window(self) -> int:
        """Ray runs every task it is given as soon as a CPU is free: so only with every CPU of
        the cluster in use may units wait in its queue; fewer workers, no more units than that."""
        return 2 * self.workers if self.workers >= self.cpus else self.workers

    def completed(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        ray = self.ray
        source = enumerate(items)
        flight: dict[Any, tuple[int, T]] = {}
        try:
            while True:
                for i, item in islice(source, self.window - len(flight)):
                    flight[self.remote.remote(fn, item)] = (i, item)
                if not flight:
                    return
                ready, _ = ray.wait(list(flight), num_returns=1)
                for ref in ready:
                    i, item = flight.pop(ref)
                    result, node = self._get(ref, i, item)
                    self.nodes[node] += 1
                    yield i, result
        finally:
            for ref in flight:
                ray.cancel(ref, force=True)

    def _get(self, ref: Any, index: int, item: Any) -> tuple[Any, str]:
        exceptions = self.ray.exceptions
        try:
            return self.ray.get(ref)
        except exceptions.RayTaskError as e:  # the unit of work itself raised: the caller sees its error
            raise e.as_instanceof_cause() from None
        except (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError) as e:
            raise ExecutorError(f"Ray gave up on unit #{index} ({item!r}) after {MAX_RETRIES} retries: {e}") from None

    def close(self) -> None:
        if getattr(self, "owned", False):
            self.ray.shutdown()
            self.owned = False


def _connect(
    ray: Any, address: str | None, runtime_env: dict[str, Any] | None, timeout: float, cpus: int | None
) -> bool:
    """Connect this process to Ray; True if it is our own connection (to shut down at the end).
    A Ray of our own gets `cpus` CPUs (default: all of this machine's): no more idle workers.

    An unreachable address is an ExecutorError at once (Ray itself would retry for many minutes),
    and a connection that does not come within `timeout` seconds is one too."""
    if ray.is_initialized():
        here = ray.get_runtime_context().gcs_address
        if address not in (None, "auto", here):
            raise ExecutorError(f"this process is already connected to the Ray cluster at {here}, not {address}")
        if runtime_env:
            raise ExecutorError("this process is already connected to Ray: its runtime environment was set then")
        return False
    # Not None: ray.init() would join a cluster that this machine started with `ray start`.
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    where = "a Ray of its own" if address == "local" else f"the Ray cluster at {address}"
    box: dict[str, BaseException | bool] = {}

    own = {"num_cpus": cpus} if address == "local" else {}

    def attempt() -> None:
        try:
            ray.init(address=address, runtime_env=runtime_env, logging_level=logging.WARNING, **own)
            box["done"] = True
        except Exception as e:
            box["error"] = e

    if address == "local":
        attempt()
    else:
        _check_reachable(address)
        # In a thread, so that a cluster that never answers cannot hang us; all Ray minds about
        # that is that it cannot set its SIGTERM handler there, which it says in a warning.
        quiet = _Without("SIGTERM handler is not set")
        logging.getLogger("ray._private.worker").addFilter(quiet)
        thread = threading.Thread(target=attempt, name="ray-connect", daemon=True)
        thread.start()
        thread.join(timeout)
        logging.getLogger("ray._private.worker").removeFilter(quiet)
        if thread.is_alive():
            raise ExecutorError(f"{where} did not answer within {timeout:.0f} s: is that the head node's address "
                                f"(host:6379 by default)? If it is, {AUTH_HINT}")  # fmt: skip
    error = box.get("error")
    if isinstance(error, ConnectionError | ray.exceptions.AuthenticationError):
        raise ExecutorError(f"cannot connect to {where}: {error}. Note: {AUTH_HINT}") from None
    if isinstance(error, BaseException):  # e.g. a runtime environment Ray refuses
        raise ExecutorError(f"cannot start {where}: {type(error).__name__}: {error}") from None
    return True


class _Without(logging.Filter):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


def _check_reachable(address: str) -> None:
    """A TCP connection to `host:port` (also `ray://host:port`), so a wrong address fails fast."""
    target = address.removeprefix("ray://")
    if target == "auto":
        return
    host, sep, port_text = target.rpartition(":")
    if not sep or not port_text.isdigit():
        raise ExecutorError(f"a Ray address is host:port (e.g. 10.0.0.5:6379), auto or local, not {address!r}")
    host = host.strip("[]")
    try:
        with socket.create_connection((host, int(port_text)), timeout=10):
            pass
    except OSError as e:
        raise ExecutorError(f"cannot reach the Ray cluster at {address}: {e.strerror or e} (is `ray start --head` "
                            f"running there, and is port {port_text} open to this machine?)") from None  # fmt: skip


def make_executor(
    kind: str | None = None,
    workers: int | None = None,
    *,
    address: str | None = None,
    runtime_env: Mapping[str, Any] | None = None,
) -> Executor:
    """The executor by name; without a name, `ray` if given an address or a runtime environment,
    else `process` for more than one worker, else `serial`."""
    if kind is None:
        kind = "ray" if address or runtime_env else "process" if workers is not None and workers > 1 else "serial"
    if kind not in EXECUTORS:
        raise ExecutorError(f"unknown executor {kind!r}; use one of: {', '.join(EXECUTORS)}")
    if kind != "ray" and (address or runtime_env):
        raise ExecutorError(f"a Ray address or runtime environment is for the ray executor, not {kind}")
    if kind == "serial":
        return SerialExecutor(1 if workers is None else workers)
    if kind == "process":
        return ProcessExecutor(workers)
    return RayExecutor(workers, address=address, runtime_env=runtime_env)
