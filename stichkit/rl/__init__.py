"""The games as learning environments: encoders, PettingZoo, Gymnasium and OpenSpiel.

Needs the `rl` extra (numpy, gymnasium, pettingzoo, open_spiel). See docs/rl.md. Importing this
package registers the PettingZoo and Gymnasium ids `stichkit/<game>-v0` when those are installed.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

if importlib.util.find_spec("numpy") is None:  # say which extra, not only which module
    raise ImportError("stichkit.rl needs numpy: install the rl extra (pip install 'stichkit[rl]')", name="numpy")

from .encoder import Encoder, Field
from .encoders import encoding
from .rewards import final_returns

if TYPE_CHECKING:
    from .gymnasium_env import StichkitGymEnv
    from .pettingzoo_aec import StichkitAECEnv
    from .pettingzoo_parallel import StichkitParallelEnv


def pettingzoo_env(name: str, **options: Any) -> StichkitAECEnv:
    """A PettingZoo AEC environment of the game `name` with the game's `options`."""
    from .pettingzoo_aec import StichkitAECEnv

    return StichkitAECEnv(name, **options)


def parallel_env(name: str, **options: Any) -> StichkitParallelEnv:
    """A PettingZoo parallel environment of the game `name` with the game's `options` (Jass in
    the C core when it is built)."""
    from .pettingzoo_parallel import StichkitParallelEnv

    return StichkitParallelEnv(name, **options)


def gym_env(name: str, seat: int = 0, opponents: Any = "heuristic", **options: Any) -> StichkitGymEnv:
    """A Gymnasium environment for one seat; the other seats are played by stichkit bots."""
    from .gymnasium_env import StichkitGymEnv

    return StichkitGymEnv(name, seat=seat, opponents=opponents, **options)


def register_openspiel() -> list[str]:
    """Register every game with OpenSpiel as `python_stichkit_<name>`; returns the short names."""
    from .openspiel_game import register

    return register()


def _register_ids() -> None:
    """`stichkit/<game>-v0` in PettingZoo's AEC and parallel registries and in Gymnasium's registry."""
    if importlib.util.find_spec("pettingzoo") is not None:
        from .pettingzoo_aec import register_pettingzoo
        from .pettingzoo_parallel import register_parallel

        register_pettingzoo()
        register_parallel()
    if importlib.util.find_spec("gymnasium") is not None:
        from .gymnasium_env import register_gymnasium

        register_gymnasium()


_register_ids()

__all__ = [
    "Encoder",
    "Field",
    "encoding",
    "final_returns",
    "gym_env",
    "parallel_env",
    "pettingzoo_env",
    "register_openspiel",
]
