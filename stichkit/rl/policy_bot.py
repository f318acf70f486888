"""`policy`: a trained policy (a saved sb3-contrib MaskablePPO model) as a stichkit bot.

`stich tournament jass --seats policy:path=runs/jass/model.zip,heuristic,...` seats it like any
other bot. It sees only its seat's view: the observation is encoded from that view and the
mask from its legal actions. Needs the `rl-train` extra (sb3-contrib, torch).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np

from stichkit.bots.base import SEED, Bot, Param, View, game_of
from stichkit.core import OptionError

from .encoders import encoding

# Without them the bot could be listed but never play: it is not loaded at all (bots/registry.py).
for _module, _dist in (("torch", "torch"), ("sb3_contrib", "sb3-contrib")):
    if importlib.util.find_spec(_module) is None:
        raise ImportError(
            f"the policy bot needs {_dist}: install the rl-train extra (docs/rl.md: the CPU torch wheel first)",
            name=_module,
        )

_MODELS: dict[str, Any] = {}


def check_path(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str | Path) and Path(value).is_file():
        return str(value), None
    return value, "the path of a saved model file (MaskablePPO .zip)"


def check_flag(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, bool):
        return value, None
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1"), None
    return value, "true or false"


def load_model(path: str) -> Any:
    """The model at `path`, loaded once per process, on the CPU with one torch thread."""
    model = _MODELS.get(path)
    if model is None:
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        try:
            model = MaskablePPO.load(path, device="cpu")
        except Exception as e:  # a foreign or damaged file: say which, not a traceback
            raise OptionError(f"cannot load the policy {path!r}: {e}") from None
        _MODELS[path] = model
    return model


def policy_inputs(view: View) -> tuple[np.ndarray, np.ndarray]:
    """The observation and the action mask the policy gets from a seat's view: the very arrays the
    Gymnasium environment gave it in training for the same position and seat."""
    game = game_of(view)
    obs = encoding(game).observation_from_view(view)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    for text in view["legal_actions"]:
        mask[game.parse_action(text).id] = 1
    return obs, mask


class PolicyBot(Bot):
    """Plays the action a trained policy prefers among the legal ones."""

    name = "policy"
    PARAMS = (
        Param("path", None, "the saved model (MaskablePPO .zip)", check_path),
        Param("deterministic", True, "true: the policy's most likely action; false: sample it", check_flag),
        SEED,
    )

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if self.params["path"] is None:
            raise OptionError("bot 'policy' needs path=FILE, the saved model (e.g. policy:path=runs/jass/model.zip)")
        self.model = load_model(self.params["path"])
        if self.params["seed"] is not None:
            import torch

            torch.manual_seed(self.params["seed"])

    def decide(self, view: View) -> str:
        game = game_of(view)
        obs, mask = policy_inputs(view)
        expected = self.model.observation_space["observation"].shape
        if obs.shape != expected:
            raise OptionError(
                f"the policy {self.params['path']!r} was trained on observations of shape {expected}, "
                f"but {game!r} has {obs.shape}"
            )
        action, _ = self.model.predict(
            {"observation": obs, "action_mask": mask},
            action_masks=mask.astype(bool),
            deterministic=self.params["deterministic"],
        )
        return game.actions[int(action)].text
