"""pimc's card decisions on one thread and on two (`threads=2`), side by side.

    .venv/bin/python bench/pimc_threads.py                       # 12 positions, 24 cards left, 16 worlds
    .venv/bin/python bench/pimc_threads.py --cards 28 --samples 8

Each position (random play from a Jass deal down to --cards cards left) is decided by pimc with
--samples worlds and no clock (horizon=36: every world solved), once with threads=1 and once with
threads=2; the choices and the means over the worlds must be equal (the same worlds in the same
order). Printed: wall seconds and CPU seconds of the process for each, and the load average.
Without a clock the worlds are the same, so the wall time is what two cores save; under load it
is what the load left, and CPU seconds are the figures to compare there.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import stichkit
from stichkit.analysis import c_available
from stichkit.bots import PIMCBot, make
from stichkit.games.jass import JassState


def position(seed: int, cards: int) -> JassState:
    """Deal `seed` played at random (trump and push too) until `cards` cards are left."""
    state = stichkit.load_game("jass", weis="off", stoeck=False).new_state(seed=seed)
    rng = random.Random(seed)
    played = 0
    while state.current_player is not None and (state.legal_actions()[0].id >= 36 or played < 36 - cards):
        played += state.legal_actions()[0].id < 36  # a card, not the trump or the push
        state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    assert isinstance(state, JassState)
    return state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--cards", type=int, default=24, help="cards left in the deal (default 24)")
    ap.add_argument("--samples", type=int, default=16, help="worlds per decision (default 16)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not c_available():
        raise SystemExit("the C solver is not built: pip install -e . with a C compiler")
    states = [position(args.seed + k, args.cards) for k in range(args.positions)]
    load: tuple[float, ...] = os.getloadavg()
    rows = {}
    chosen = {}
    for threads in (1, 2):
        c0, w0 = time.process_time(), time.perf_counter()
        picks = []
        for k, state in enumerate(states):
            bot = make("pimc", samples=args.samples, horizon=36, seed=k, threads=threads)
            assert isinstance(bot, PIMCBot)
            seat = state.current_player
            assert seat is not None
            picks.append((bot.choose(state, seat), bot.last_stats["means"]))
        rows[threads] = (time.perf_counter() - w0, time.process_time() - c0)
        chosen[threads] = picks
    if chosen[1] != chosen[2]:
        raise SystemExit("threads=2 chose otherwise than threads=1")
    load = (*load, *os.getloadavg())
    print(f"pimc, {args.positions} card decisions with {args.cards} cards left, {args.samples} worlds each, "
          f"the same choices (load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores)")  # fmt: skip
    print(f"{'':<12} {'wall s':>8} {'CPU s':>8}")
    for threads, (wall, cpu) in rows.items():
        print(f"{f'threads={threads}':<12} {wall:>8.2f} {cpu:>8.2f}")
    print(f"{'ratio':<12} {rows[2][0] / rows[1][0]:>8.2f} {rows[2][1] / rows[1][1]:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
