"""`pimc`: Perfect Information Monte Carlo for Jass, on the exact double-dummy solver.

At every decision the bot draws worlds the moving seat cannot tell from the real state
(`state.sample_hidden`, weighed by what the others decided in public) and solves each with
`stichkit.analysis`, the way GIB plays Bridge and Kermit plays Skat. The package is cut by
concern:

- `bot`: the bot, its parameters and its three kinds of decision (card, trump, push);
- `inference`: how likely a world is, given the deal's public decisions and cards;
- `worlds`: what a world holds and the solvers that value it;
- `budget`: the clock and the horizons.

docs/bots.md describes how it plays and why; docs/benchmarks.md holds what it was measured at.
The bot reads hidden cards only in worlds from `sample_hidden`; the real state gives it the view,
the legal actions and the copies. Jass only.
"""

from __future__ import annotations

from .bot import (
    EARLY,
    EARLY_ITERATIONS_PER_SAMPLE,
    HORIZON,
    INFER,
    PUSH_ID,
    RACE,
    SAMPLES,
    SLOW_SOLVER_TRICKS,
    TIME,
    TRUMP_ACTION,
    TRUMP_HORIZON,
    PIMCBot,
)
from .budget import DEFAULT_SAMPLES, DEFAULT_TIME, FULL_BUDGET, FULL_HORIZONS, SHORT_HORIZONS, Budget, horizons
from .inference import (
    CALIBRATION_GAMES,
    CALIBRATION_PRIOR,
    CALIBRATION_PRIOR_MISS,
    CALIBRATION_TRUST,
    CALIBRATION_WORLDS,
    CANDIDATES,
    PLAY_CANDIDATES,
    PLAY_MISS,
    PLAY_MISS_PARTNER,
    TRUMP_TEMPERATURE,
    Calibration,
    Play,
    choice_likelihood,
    draw_world,
    heuristic_hits,
    mode_score,
    partner_mode,
    past_plays,
    play_likelihood,
    push_likelihood,
    weigher,
)
from .worlds import (
    RACE_WEIGHT,
    RACE_WEIS,
    extras,
    fast_solver,
    margins,
    race_before_play,
    race_matters,
    start_hands,
)

__all__ = [
    "CALIBRATION_GAMES", "CALIBRATION_PRIOR", "CALIBRATION_PRIOR_MISS", "CALIBRATION_TRUST", "CALIBRATION_WORLDS",
    "CANDIDATES", "DEFAULT_SAMPLES", "DEFAULT_TIME", "EARLY", "EARLY_ITERATIONS_PER_SAMPLE", "FULL_BUDGET",
    "FULL_HORIZONS", "HORIZON", "INFER", "PLAY_CANDIDATES", "PLAY_MISS", "PLAY_MISS_PARTNER", "PUSH_ID", "RACE",
    "RACE_WEIGHT", "RACE_WEIS", "SAMPLES", "SHORT_HORIZONS", "SLOW_SOLVER_TRICKS", "TIME", "TRUMP_ACTION",
    "TRUMP_HORIZON", "TRUMP_TEMPERATURE", "Budget", "Calibration", "PIMCBot", "Play", "choice_likelihood",
    "draw_world", "extras", "fast_solver", "heuristic_hits", "horizons", "margins", "mode_score", "partner_mode",
    "past_plays", "play_likelihood", "push_likelihood", "race_before_play", "race_matters", "start_hands",
    "weigher",
]  # fmt: skip
