#!/usr/bin/env python3
"""Random Jass (Schieber) playouts: stichkit vs. the reference package jass-kit.

Both engines run in the same process, one after the other, single-threaded
(pinned to one core where the OS allows it). Each side is warmed up briefly
(untimed), then timed with time.perf_counter over N *complete* deals, --repeat
times on the same seed; the fastest run is reported (all runs are listed):

* jass-kit: ``GameSim(rule=RuleSchieber())``; per deal ``init_from_cards``
  with ``jass.game.game_util.deal_random_hand()``, a uniformly random trump
  action among ``rule.get_valid_actions_from_state(state)`` (6 trumps + push for
  forehand, 6 trumps for the partner after a push), then uniformly random
  cards from ``rule.get_valid_cards_from_state(state)`` played with
  ``sim.action_play_card`` until ``sim.is_done()``. This is jass-kit's fastest
  public path (no observation objects). ``--jasskit-path obs`` instead builds a
  ``GameObservation`` per move and uses ``rule.get_valid_cards_from_obs`` as
  jass-kit's own ``Arena`` + ``AgentRandomSchieber`` do (slower).
  jass-kit has no Weis, no Stoeck and no match bonus, so it does less work.

* stichkit: public API only, full rules (``weis="auto"``, Stoeck on)::

      game = stichkit.load_game("jass", profile=..., weis="auto", target=...)
      state = game.new_state(seed=...)
      while not state.is_terminal():
          state.apply(rng.choice(state.legal_actions()))

  Default: whole games to ``--target`` (1000) points, a new state per game;
  right after the action that starts deal N+1 (``state.deals_played > N``), so
  exactly N complete deals and their actions are counted.
  With ``--target T`` whole games to T points are played (new_state per game)
  until at least N deals were started; ``deals_played`` of each game is
  summed, which counts the final, possibly unfinished deal of each game.

An action is every trump choice / push and every card play (stichkit: every
``apply``). The headline number is the ratio stichkit/jass-kit in deals/s.
"""

from __future__ import annotations

import os

# Keep numpy (used by jass-kit) single-threaded; must happen before importing numpy.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import platform
import random
import shlex
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Protocol

REPO_ROOT = Path(__file__).resolve().parent.parent
HUGE_TARGET = 10**9


class Runner(Protocol):
    """One half of the benchmark: plays n_deals random deals, returns (deals, actions, seconds)."""

    def __call__(self, n_deals: int, seed: int, check: bool = False) -> tuple[int, int, float]: ...


INSTALL_HINT = (
    "jass-kit is not importable in this interpreter ({exc}).\n"
    "  Set it up with:  python3 -m venv .venv-bench && "
    ".venv-bench/bin/pip install -r bench/requirements.txt\n"
    "  and run:        .venv-bench/bin/python bench/jass_playout.py\n"
    "  (running the stichkit half only)"
)


# --------------------------------------------------------------------------- machine info


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_rev() -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def pkg_version(name: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return None


def pin_one_core(cpu: int | None) -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    try:
        allowed = sorted(os.sched_getaffinity(0))
        target = allowed[0] if cpu is None else cpu
        os.sched_setaffinity(0, {target})
        return f"pinned to cpu {target} (of {len(allowed)} allowed)"
    except OSError as exc:
        return f"not pinned ({exc})"


def machine_info(pinning: str) -> dict:
    return {
        "command": shlex.join([sys.executable, *sys.argv]),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "affinity": pinning,
        "numpy": pkg_version("numpy"),
        "jass-kit": pkg_version("jass-kit"),
        "git": git_rev(),
    }


# --------------------------------------------------------------------------- jass-kit half


def jasskit_runner(path: str) -> Runner:
    """Return ``run(n_deals, seed) -> (deals, actions, seconds)`` or raise ImportError."""
    import numpy as np
    from jass.game.const import next_player
    from jass.game.game_sim import GameSim
    from jass.game.game_util import deal_random_hand
    from jass.game.rule_schieber import RuleSchieber

    flatnonzero = np.flatnonzero

    def run(n_deals: int, seed: int, check: bool = False) -> tuple[int, int, float]:
        np.random.seed(seed)  # deal_random_hand uses numpy's global RNG
        rng = random.Random(seed)  # same chooser as the stichkit half
        randrange = rng.randrange
        sim = GameSim(rule=RuleSchieber())
        rule = sim.rule
        valid_actions = rule.get_valid_actions_from_obs if path == "obs" else rule.get_valid_actions_from_state
        valid_cards_state = rule.get_valid_cards_from_state
        valid_cards_obs = rule.get_valid_cards_from_obs
        get_obs = sim.get_observation
        action = sim.action
        play = sim.action_play_card
        use_obs = path == "obs"
        dealer = 0
        actions = 0
        t0 = time.perf_counter()
        for _ in range(n_deals):
            sim.init_from_cards(hands=deal_random_hand(), dealer=dealer)
            state = sim.state
            # trump phase: forehand picks among 6 trumps + push; after a push the partner among 6 trumps
            while state.trump == -1:
                valid = flatnonzero(valid_actions(get_obs() if use_obs else state))
                action(int(valid[randrange(len(valid))]))
                actions += 1
            # 36 card plays
            for _card in range(36):
                valid = flatnonzero(valid_cards_obs(get_obs()) if use_obs else valid_cards_state(state))
                play(int(valid[randrange(len(valid))]))
            actions += 36
            if check:
                assert sim.is_done() and int(state.points[0] + state.points[1]) == 157, state.points
            dealer = next_player[dealer]
        return n_deals, actions, time.perf_counter() - t0

    return run


# --------------------------------------------------------------------------- stichkit half


def import_stichkit() -> ModuleType:
    # benchmark the working tree, not some other installed copy
    root = str(REPO_ROOT)
    if root not in sys.path:
        sys.path.insert(0, root)
    import stichkit

    if not hasattr(stichkit, "load_game"):
        raise ImportError(f"stichkit at {list(getattr(stichkit, '__path__', []))} has no load_game() yet")
    return stichkit


def stichkit_runner(profile: str, target: int, endless: bool) -> Runner:
    """Return ``run(n_deals, seed) -> (deals, actions, seconds)`` or raise ImportError."""
    stichkit = import_stichkit()

    def run(n_deals: int, seed: int, check: bool = False) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        actions = 0
        deals = 0
        if endless:
            # one endless game; stop right after the apply that starts deal n_deals+1
            game = stichkit.load_game("jass", profile=profile, weis="auto", target=HUGE_TARGET)
            t0 = time.perf_counter()
            state = game.new_state(seed=seed)
            legal, apply = state.legal_actions, state.apply
            while state.deals_played <= n_deals:
                apply(choice(legal()))
                actions += 1
            deals = n_deals
            elapsed = time.perf_counter() - t0
        else:
            # Whole games to `target`, as players and RL episodes use the engine. Only complete
            # deals count; the time of each game's unfinished last deal is still included.
            game = stichkit.load_game("jass", profile=profile, weis="auto", target=target)
            g = 0
            t0 = time.perf_counter()
            while deals < n_deals:
                state = game.new_state(seed=seed * 1_000_003 + g)
                is_terminal, legal, apply = state.is_terminal, state.legal_actions, state.apply
                while not is_terminal():
                    apply(choice(legal()))
                    actions += 1
                deals += sum(1 for d in state.view(None)["previous_deals"] if d["complete"])
                g += 1
            elapsed = time.perf_counter() - t0
        if check:
            assert deals > 0 and actions >= 36 * deals, (deals, actions)
        return deals, actions, elapsed

    return run


# --------------------------------------------------------------------------- driver


def summarize(runs: list[tuple[int, int, float]]) -> dict:
    """The fastest of the timed runs, and all of them for the record."""
    deals, actions, secs = max(runs, key=lambda r: r[0] / r[2])
    return {
        "deals": deals,
        "actions": actions,
        "seconds": secs,
        "deals_per_s": deals / secs if secs > 0 else float("inf"),
        "actions_per_s": actions / secs if secs > 0 else float("inf"),
        "actions_per_deal": actions / deals if deals else 0.0,
        "deals_per_s_all_runs": sorted(d / s for d, _a, s in runs),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring / bench/README.md for details.",
    )
    ap.add_argument("--deals", type=int, default=2000, help="timed deals per engine (default 2000)")
    ap.add_argument("--seed", type=int, default=12345, help="RNG seed (default 12345)")
    ap.add_argument(
        "--profile", choices=("seed", "schieber"), default="seed", help="stichkit rules profile (default seed)"
    )
    ap.add_argument(
        "--target",
        type=int,
        default=1000,
        help="stichkit game target in points (default 1000): whole games are played and only "
        "complete deals are counted, while all time is",
    )
    ap.add_argument(
        "--endless",
        action="store_true",
        help="stichkit plays one endless game (target 10**9) instead: a stress test of the "
        "ever-growing undo history, not how games are played",
    )
    ap.add_argument("--only", choices=("stichkit", "jasskit"), help="run one engine only")
    ap.add_argument(
        "--jasskit-path",
        choices=("state", "obs"),
        default="state",
        help="jass-kit move generation: 'state' = GameState fast path (default), "
        "'obs' = GameObservation per move like jass-kit's Arena",
    )
    ap.add_argument(
        "--warmup", type=int, default=None, help="untimed warm-up deals per engine (default min(100, deals))"
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="timed rounds; each round runs every engine once, interleaved, so that machine "
        "noise hits both alike; the best run per engine is reported (default 5)",
    )
    ap.add_argument("--cpu", type=int, default=None, help="core to pin to (default: first allowed)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be >= 1")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    warmup = min(100, args.deals) if args.warmup is None else args.warmup

    pinning = "not pinned (--no-pin)" if args.no_pin else pin_one_core(args.cpu)
    info = machine_info(pinning)
    out: dict = {
        "machine": info,
        "settings": {
            "deals": args.deals,
            "seed": args.seed,
            "profile": args.profile,
            "target": args.target,
            "endless": args.endless,
            "jasskit_path": args.jasskit_path,
            "warmup": warmup,
            "repeat": args.repeat,
        },
        "results": {},
    }
    notes: list[str] = []

    def say(text: str = "") -> None:
        if not args.json:
            print(text, flush=True)

    say("jass playout benchmark")
    for key, val in info.items():
        say(f"  {key:10s} {val}")
    say(
        f"  deals={args.deals} seed={args.seed} warmup={warmup} repeat={args.repeat} (best reported) "
        f"profile={args.profile} "
        f"target={'10**9 (endless)' if args.endless else args.target}"
    )
    say()

    sides = []
    if args.only in (None, "stichkit"):
        sides.append("stichkit")
    if args.only in (None, "jasskit"):
        sides.append("jass-kit")

    runners = {}
    for side in sides:
        try:
            if side == "jass-kit":
                runners[side] = jasskit_runner(args.jasskit_path)
                labels = f"jass-kit {info['jass-kit']} ({args.jasskit_path} path, no Weis/Stoeck)"
            else:
                runners[side] = stichkit_runner(args.profile, args.target, args.endless)
                sk = sys.modules["stichkit"]
                where = Path(sk.__file__).parent if sk.__file__ else "?"
                mode = "one endless game" if args.endless else f"whole games to {args.target}"
                labels = (
                    f"stichkit {getattr(sk, '__version__', '?')} "
                    f"(profile={args.profile}, weis=auto, stoeck on, {mode}; {where})"
                )
            out["results"][side] = {"label": labels}
        except ImportError as exc:
            msg = (
                INSTALL_HINT.format(exc=exc)
                if side == "jass-kit"
                else f"stichkit is not importable ({exc}); skipping the stichkit half."
            )
            notes.append(msg)
            print(msg, file=sys.stderr, flush=True)
    timed: dict[str, list] = {side: [] for side in runners}
    for side, run in list(runners.items()):
        say(f"warming up {out['results'][side]['label']} ...")
        try:
            run(warmup, args.seed + 1_000_003, check=True)  # different seed, also a sanity check
        except Exception as exc:
            msg = f"{side} half failed: {type(exc).__name__}: {exc}"
            notes.append(msg)
            print(msg, file=sys.stderr, flush=True)
            del runners[side], timed[side], out["results"][side]
    for k in range(args.repeat):
        for side, run in runners.items():
            timed[side].append(run(args.deals, args.seed + k))
        say(
            f"  round {k + 1}/{args.repeat}: "
            + ", ".join(f"{side} {d / t:,.0f} deals/s" for side, (d, _a, t) in ((s_, timed[s_][-1]) for s_ in runners))
        )
    say()
    for side in runners:
        res = summarize(timed[side])
        res["label"] = out["results"][side]["label"]
        out["results"][side] = res
        say(f"{res['label']}")
        say(
            f"  best: {res['deals']} deals, {res['actions']} actions in {res['seconds']:.3f} s: "
            f"{res['deals_per_s']:,.1f} deals/s, {res['actions_per_s']:,.0f} actions/s "
            f"({res['actions_per_deal']:.2f} actions/deal)"
        )

    r = out["results"]
    if "stichkit" in r and "jass-kit" in r:
        ratio = r["stichkit"]["deals_per_s"] / r["jass-kit"]["deals_per_s"]
        out["ratio_deals_per_s"] = ratio
        say()
        say(f"ratio stichkit/jass-kit (deals/s): {ratio:.2f}x   (goal: >= 3x)")
    out["notes"] = notes
    if args.json:
        print(json.dumps(out, indent=2))
    return 0 if r else 1  # nothing could be run


if __name__ == "__main__":
    sys.exit(main())
