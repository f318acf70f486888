"""The learning example cannot rot: a few hundred MaskablePPO steps, and the saved policy plays
through `stich tournament` as the bot `policy:path=...`."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import stichkit
import stichkit.bots

pytest.importorskip("sb3_contrib", reason="the rl-train extra (sb3-contrib, torch) is not installed")

ROOT = Path(__file__).resolve().parents[2]


def _train_example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_ppo", ROOT / "examples" / "train_ppo.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo")
    _train_example().main(
        ["--game", "jass", "--steps", "256", "--envs", "2", "--n-steps", "64", "--out", str(out), "target=100"]
    )
    return out


def test_a_few_hundred_steps_of_training_write_model_curve_and_plot(trained: Path) -> None:
    meta = json.loads((trained / "training.json").read_text())
    assert meta["game"] == "jass" and meta["steps"] >= 256 and meta["games"] >= 1
    assert (trained / "model.zip").stat().st_size > 10_000
    rows = (trained / "curve.csv").read_text().splitlines()
    assert rows[0].split(",") == _train_example().COLUMNS and len(rows) >= 2
    assert (trained / "curve.png").read_bytes()[:4] == b"\x89PNG"


def test_the_policy_is_a_bot_that_plays_legal_moves_from_the_view(trained: Path) -> None:
    bot = stichkit.bots.make("policy", path=str(trained / "model.zip"))
    state = stichkit.load_game("jass", target=100).new_state(seed=4)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bot.choose(state.view(seat), seat))  # apply() would raise on an illegal move


def test_the_policy_plays_in_stich_tournament(trained: Path) -> None:
    import io

    from rich.console import Console

    from stichkit.cli.main import main

    spec = f"policy:path={trained / 'model.zip'}"
    out = io.StringIO()
    code = main(
        ["tournament", "jass", "--seats", f"{spec},random,{spec},random", "--deals", "1", "--json", "target=100"],
        console=Console(file=out, width=200),
    )
    assert code == 0, out.getvalue()
    summary = json.loads(out.getvalue())
    assert "policy" in json.dumps(summary) and summary["games"] == 2


def test_deal_episodes_go_on_with_the_game_and_pay_each_deals_margin() -> None:
    """`--episode deal --reward points`: an episode ends with each deal, the next goes on with the
    same game, and each episode's rewards add up to the score margin it saw change."""
    example = _train_example()
    env = example.make_env("jass", "random", 3, {"target": "600"}, "points", "deal")()
    inner = env.unwrapped
    bot = stichkit.bots.make("random", seed=1)
    env.reset()
    deals_seen, games = [], 0
    while games < 2:
        start = inner.state.scores()
        deal = inner.state.deals_played
        total, terminated = 0.0, False
        while not terminated:
            _, reward, terminated, _, info = env.step(bot.choose(inner.state, 0).id)
            total += reward
        end = inner.state.scores()
        assert total == pytest.approx(((end[0] - end[1]) - (start[0] - start[1])) / 100)
        if inner.state.is_terminal():
            games += 1
            assert "episode" in info and "deal_points" in info
        else:
            assert inner.state.deals_played == deal + 1
        deals_seen.append(deal)
        env.reset()
    assert len(deals_seen) > 2 * games


def test_policy_needs_a_model_file() -> None:
    with pytest.raises(stichkit.OptionError, match="path"):
        stichkit.bots.make("policy")
    with pytest.raises(stichkit.OptionError, match="path"):
        stichkit.bots.make("policy", path="no/such/model.zip")
    assert "policy" in stichkit.bots.bot_names()
