"""Train MaskablePPO (sb3-contrib, torch on the CPU) for one seat of a stichkit game.

The agent plays seat 0 of the Gymnasium environment (`stichkit.rl.gym_env`): it chooses trump
and plays the cards (in Jass), with bots in the other seats; half the environments seat
`random` bots, half `heuristic` ones (`--opponents random` seats random bots in all). Rewards
are the final result with score shaping (the episode's rewards still add up to the game's
result, see docs/rl.md). It saves the model
(`model.zip`, usable as the bot `policy:path=OUT/model.zip`), the learning curve (`curve.csv`)
and its plot (`curve.png`).

    python examples/train_ppo.py --game jass --minutes 30 --out runs/jass
    python examples/train_ppo.py --game jass --steps 512 --out /tmp/smoke     # a smoke run
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import stichkit.rl


class Curve(BaseCallback):
    """Writes (steps, minutes, mean return of the last 100 games) and stops at the time limit."""

    def __init__(self, path: Path, seconds: float) -> None:
        super().__init__()
        self.path = path
        self.seconds = seconds
        self.returns: list[float] = []
        self.rows: list[tuple[int, float, float, int]] = []
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            if "episode" in info:
                self.returns.append(float(info["episode"]["r"]))
        return time.monotonic() - self.start < self.seconds

    def _on_rollout_end(self) -> None:
        if self.returns:
            recent = self.returns[-100:]
            row = (self.num_timesteps, (time.monotonic() - self.start) / 60, float(np.mean(recent)), len(self.returns))
            self.rows.append(row)
            with self.path.open("w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["steps", "minutes", "mean_return_last_100", "games"])
                w.writerows(self.rows)
            print(f"steps {row[0]:>8}  {row[1]:6.1f} min  mean return {row[2]:+.3f}  games {row[3]}", flush=True)


def make_env(game: str, opponents: str, seed: int, options: dict[str, Any]) -> Any:
    def build() -> Any:
        env = stichkit.rl.gym_env(game, seat=0, opponents=opponents, shaping="score", **options)
        env.reset(seed=seed)
        return Monitor(env)

    return build


def plot(curve: Path, out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(curve.open()))
    if not rows:
        return
    steps = [int(r["steps"]) for r in rows]
    means = [float(r["mean_return_last_100"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.plot(steps, means)
    ax.set_xlabel("environment steps (agent decisions)")
    ax.set_ylabel("mean return, last 100 games")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="jass")
    p.add_argument("--minutes", type=float, default=30.0, help="wall-clock limit of the training")
    p.add_argument("--steps", type=int, default=50_000_000, help="environment steps at most")
    p.add_argument("--envs", type=int, default=8, help="environments stepped together")
    p.add_argument("--opponents", default="mix", help="'mix' (half random, half heuristic) or a bot spec")
    p.add_argument("--n-steps", type=int, default=256, help="steps per environment per update")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("option", nargs="*", help="game options key=value")
    args = p.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.opponents == "mix":
        opponents = ["random" if i % 2 == 0 else "heuristic" for i in range(args.envs)]
    else:
        opponents = [args.opponents] * args.envs
    env = DummyVecEnv([make_env(args.game, o, args.seed + i, options) for i, o in enumerate(opponents)])
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(512, args.n_steps * args.envs),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve = Curve(args.out / "curve.csv", args.minutes * 60)
    started = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=curve)
    seconds = time.monotonic() - started
    model.save(args.out / "model.zip")
    plot(args.out / "curve.csv", args.out / "curve.png", f"MaskablePPO on {args.game}, seat 0")
    meta = {
        "game": args.game,
        "options": options,
        "steps": int(model.num_timesteps),
        "minutes": round(seconds / 60, 2),
        "games": len(curve.returns),
        "opponents": "half random, half heuristic" if args.opponents == "mix" else args.opponents,
        "shaping": "score",
    }
    (args.out / "training.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
