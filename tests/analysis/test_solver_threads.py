"""The C solver on two threads: each thread solves in a context of its own with the GIL released,
and `solve_value(threads=2)` splits one value over two threads; the answers are the serial ones."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from stichkit.analysis import SolveError, c_available, solve, solve_bounds, solve_value
from stichkit.analysis import solver as solver_module
from stichkit.analysis.solver import clear_table
from tests.analysis.positions import random_position

pytestmark = pytest.mark.skipif(not c_available(), reason="the C solver is not built")


def answers(state: Any) -> tuple[Any, ...]:
    """Everything the solver says about `state`: each card's margin, the value and its node count,
    and bounds 10 points wide."""
    margins = solve(state, engine="c").margins
    v = solve_value(state, engine="c")
    nodes = solver_module._dds.nodes()
    b = solve_bounds(state, 10)
    return margins, (v.card, v.margin), nodes, b.low, b.high


def test_two_threads_at_once_answer_as_one_thread_does() -> None:
    rng = random.Random(5)
    states = [random_position(rng, rng.randint(12, 24))[0] for _ in range(24)]
    serial = []
    for s in states:
        clear_table()
        serial.append(answers(s))
    got: dict[int, tuple[Any, ...]] = {}
    start = threading.Barrier(2)

    def run(k: int) -> None:
        clear_table()  # this thread's own table and history
        start.wait()
        for i in range(k, len(states), 2):
            clear_table()
            got[i] = answers(states[i])

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # The same margins, values, bounds, and node counts: neither thread saw the other's state.
    assert [got[i] for i in range(len(states))] == serial


def test_the_solver_lets_go_of_the_gil() -> None:
    """A short solve in a second thread ends while a long one runs: with the GIL held through the
    long search, the second thread could not run until it returned."""
    rng = random.Random(11)
    long_state = None
    for seed in range(50):  # a position with 28 cards left that takes some searching
        state, _ = random_position(random.Random(seed), 28, lopsided_share=0.0)
        clear_table()
        solve_value(state, engine="c")
        if solver_module._dds.nodes()[0] > 5_000_000:
            long_state = state
            break
    assert long_state is not None
    short = random_position(rng, 8)[0]
    events: list[str] = []
    started = threading.Event()

    def long() -> None:
        clear_table()
        started.set()
        solve_value(long_state, engine="c")
        events.append("long")

    def quick() -> None:
        started.wait()
        time.sleep(0.02)  # the long solve is in C by now
        solve(short, engine="c")
        events.append("short")

    threads = [threading.Thread(target=long), threading.Thread(target=quick)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert events == ["short", "long"]


def test_a_value_on_two_threads_is_the_value() -> None:
    rng = random.Random(23)
    for _ in range(60):
        state, _ = random_position(rng, rng.randint(4, 24))
        clear_table()
        exact = solve(state, engine="c").margins
        clear_table()
        v = solve_value(state, engine="c", threads=2)
        assert v.margin == max(exact.values())  # margins are the mover's team's
        assert exact[v.card] == v.margin  # the card named reaches it
        halves = solver_module._dds.halves()
        assert solver_module._dds.nodes()[0] == sum(n for n, _ in halves) or halves == ((0, 0.0), (0, 0.0))


def test_threads_is_one_or_two() -> None:
    state, _ = random_position(random.Random(1), 8)
    with pytest.raises(SolveError, match="threads must be 1 or 2"):
        solve_value(state, threads=3)
