"""Train MaskablePPO (sb3-contrib, torch on the CPU) for one seat of a stichkit game.

The agent plays seat 0 of the Gymnasium environment (`stichkit.rl.gym_env`): it chooses trump
and plays the cards (in Jass), with bots in the other seats; half the environments seat
`random` bots, half `heuristic` ones (`--opponents random` seats random bots in all). Rewards
are the final result with score shaping (the episode's rewards still add up to the game's
result, see docs/rl.md). In Jass, `--reward points --episode deal` instead pays the score margin
trick by trick and makes each deal an episode (the game goes on): a far clearer signal than one
win or loss after ten deals, and the setting that learns within half an hour. It saves the model
(`model.zip`, usable as the bot `policy:path=OUT/model.zip`), the learning curve (`curve.csv`)
and its plot (`curve.png`).

    python examples/train_ppo.py --game jass --opponents random --reward points --episode deal \
        --gamma 1 --lr 1e-3 --batch 512 --epochs 10 --minutes 29 --out runs/jass-deals
    python examples/train_ppo.py --game jass --steps 512 --out /tmp/smoke     # a smoke run
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import stichkit.rl

COLUMNS = [
    "steps",
    "minutes",
    "mean_return_last_100",
    "games",
    "win_share_last_100",
    "points_per_deal_own",
    "points_per_deal_other",
]


class DealPoints(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Jass: at the end of a game, `info["deal_points"]` is (own team, other team, complete deals),
    the points of the game's complete deals, and `info["won"]` whether the agent's team won. Points
    per deal show learning long before wins do."""

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated and not info.get("illegal_action"):
            state = self.env.unwrapped.state
            info = dict(info, deal_points=deal_points(state.view(0)), won=0 in state.winners())
        return obs, reward, terminated, truncated, info


def deal_points(view: dict[str, Any]) -> tuple[int, int, int]:
    """Points of the complete deals of a Jass game as seen by `view`'s seat: (own, other, deals)."""
    team = view["seat"] % 2
    deals = [d for d in view["previous_deals"] if d["complete"]]
    return sum(d["total"][team] for d in deals), sum(d["total"][1 - team] for d in deals), len(deals)


class PointsReward(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Jass, `--reward points`: each step pays the change of the score margin (own team minus the
    other) / 100, so an episode's rewards add up to the game's final margin / 100. The margin
    reaches the agent trick by trick and is not drowned by the noise of a whole game's win or loss."""

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self.margin = self._margin()
        return obs, info

    def _margin(self) -> int:
        scores = self.env.unwrapped.state.scores()
        return int(scores[0] - scores[1])

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if info.get("illegal_action"):
            return obs, reward, terminated, truncated, info
        margin = self._margin()
        reward, self.margin = (margin - self.margin) / 100, margin
        return obs, reward, terminated, truncated, info


class DealEpisodes(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Jass, `--episode deal`: an episode ends with each deal, and the next one goes on with the
    same game's next deal (a new game only once the game is over). With `--reward points` an
    episode's return is then the deal's margin, which the agent's choices in the deal decide, and
    not the later deals' luck. The agent still sees every deal of whole games to the target."""

    def reset(self, **kwargs: Any) -> Any:
        if getattr(self, "last_obs", None) is not None and not self.env.unwrapped.state.is_terminal():
            return self.last_obs, {}
        obs, info = self.env.reset(**kwargs)
        self.deal = self.env.unwrapped.state.deals_played
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.last_obs = obs
        deal = self.env.unwrapped.state.deals_played
        if deal != self.deal:
            self.deal = deal
            terminated = True
        return obs, reward, terminated, truncated, info


class LivePartner:
    """`--partner self`: the agent's partner (Jass) plays with the policy being trained, the way
    the trained policy will play both seats of a team in `stich tournament`. It acts on its own
    view exactly as the bot `policy` does (most likely action), with the current weights."""

    def __init__(self) -> None:
        self.model: Any = None

    def choose(self, state: Any, seat: int) -> Any:
        from stichkit.rl.policy_bot import policy_inputs

        if self.model is None:  # the first reset, before the model exists
            return random.choice(state.legal_actions())
        view = state.view(seat)
        obs, mask = policy_inputs(view)
        action, _ = self.model.predict(
            {"observation": obs, "action_mask": mask}, action_masks=mask.astype(bool), deterministic=False
        )
        return state.game.actions[int(action)]


class Curve(BaseCallback):
    """Writes (steps, minutes, mean return and points per deal of the last 100 games) and stops at
    the time limit."""

    def __init__(self, path: Path, seconds: float) -> None:
        super().__init__()
        self.path = path
        self.seconds = seconds
        self.returns: list[float] = []
        self.points: list[tuple[int, int, int]] = []
        self.wins: list[bool] = []
        self.rows: list[tuple[Any, ...]] = []
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", []):
            if "episode" in info:
                self.returns.append(float(info["episode"]["r"]))
            if "deal_points" in info:
                self.points.append(info["deal_points"])
                self.wins.append(info["won"])
        return time.monotonic() - self.start < self.seconds

    def _on_rollout_end(self) -> None:
        if self.returns:
            recent = self.returns[-100:]
            row: tuple[Any, ...] = (
                self.num_timesteps,
                round((time.monotonic() - self.start) / 60, 3),
                round(float(np.mean(recent)), 4),
                len(self.returns),
            )
            points = self.points[-100:]
            deals = sum(p[2] for p in points)
            row += (round(float(np.mean(self.wins[-100:])), 3),) if self.wins else ("",)
            if deals:
                row += (round(sum(p[0] for p in points) / deals, 2), round(sum(p[1] for p in points) / deals, 2))
            else:
                row += ("", "")
            self.rows.append(row)
            with self.path.open("w", newline="") as f:
                w = csv.writer(f)
                w.writerow(COLUMNS)
                w.writerows(self.rows)
            pts = f"  wins {row[4]}  points/deal {row[5]} : {row[6]}" if deals else ""
            print(f"steps {row[0]:>8}  {row[1]:6.1f} min  mean return {row[2]:+.3f}  games {row[3]}{pts}", flush=True)


def make_env(
    game: str, opponents: Any, seed: int, options: dict[str, Any], reward: str = "result", episode: str = "game"
) -> Any:
    def build() -> Any:
        env: Any = stichkit.rl.gym_env(game, seat=0, opponents=opponents, shaping="score", **options)
        env.reset(seed=seed)  # seeds the environment's own generator (a live partner plays randomly until set)
        if game == "jass":
            env = DealPoints(PointsReward(env) if reward == "points" else env)
        env = Monitor(env)
        return DealEpisodes(env) if game == "jass" and episode == "deal" else env

    return build


def plot(curve: Path, out: Path, title: str) -> None:
    """The learning curve: mean return of the last 100 games and, for Jass, the points per deal of
    the agent's team and of the other team over those games."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(curve.open()))
    if not rows:
        return
    steps = [int(r["steps"]) for r in rows]
    means = [float(r["mean_return_last_100"]) for r in rows]
    points = [r for r in rows if r.get("points_per_deal_own")]
    fig, axes = plt.subplots(1, 2 if points else 1, figsize=(11 if points else 6, 3.4), squeeze=False)
    ax = axes[0][0]
    ax.plot(steps, means)
    ax.set_xlabel("environment steps (agent decisions)")
    ax.set_ylabel("mean return, last 100 games")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if points:
        ax = axes[0][1]
        x = [int(r["steps"]) for r in points]
        ax.plot(x, [float(r["points_per_deal_own"]) for r in points], label="agent's team")
        ax.plot(x, [float(r["points_per_deal_other"]) for r in points], label="other team")
        ax.set_xlabel("environment steps (agent decisions)")
        ax.set_ylabel("points per deal, last 100 games")
        ax.set_title("points per complete deal")
        ax.legend()
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
    p.add_argument("--batch", type=int, default=512, help="minibatch size")
    p.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--gamma", type=float, default=0.995, help="discount")
    p.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    p.add_argument("--net", default="256,256", help="hidden layers of the policy and value networks")
    p.add_argument(
        "--reward",
        choices=("result", "points"),
        default="result",
        help="result: the game's result with score shaping; points (Jass): the score margin / 100",
    )
    p.add_argument(
        "--partner",
        choices=("opponents", "self"),
        default="opponents",
        help="opponents: the partner is a bot like the opponents; self (Jass): the policy being trained",
    )
    p.add_argument(
        "--episode",
        choices=("game", "deal"),
        default="game",
        help="game: an episode is a whole game; deal (Jass): each deal is an episode, games go on",
    )
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
    partner = LivePartner()
    seats: list[Any] = opponents
    if args.partner == "self":
        if args.game != "jass":
            p.error("--partner self is for Jass (a team game)")
        seats = [[o, partner, o] for o in opponents]
    env = DummyVecEnv(
        [make_env(args.game, o, args.seed + i, options, args.reward, args.episode) for i, o in enumerate(seats)]
    )
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(args.batch, args.n_steps * args.envs),
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        ent_coef=args.ent,
        policy_kwargs={"net_arch": [int(n) for n in args.net.split(",")]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    partner.model = model
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
        "reward": "the score margin / 100, per step" if args.reward == "points" else "the result, with shaping='score'",
        "episode": args.episode,
        "partner": "the policy being trained" if args.partner == "self" else "like the opponents",
        "ppo": {
            "envs": args.envs,
            "n_steps": args.n_steps,
            "batch": args.batch,
            "epochs": args.epochs,
            "lr": args.lr,
            "gamma": args.gamma,
            "ent": args.ent,
            "net": args.net,
        },
        "steps_per_second": round(model.num_timesteps / seconds, 1),
    }
    (args.out / "training.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
