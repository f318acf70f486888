"""Many Jass games in arrays, stepped together by the C core: the engine of the batched environments.

`JassBatch(num_games, seats=(0,), opponents="random", shaping=None, **options)` holds
`num_games` whole Jass games. One `step(actions)` advances every game by one action of its agent
seat and writes, with no Python loop over games:

- `obs`: float32 `(num_games, len(seats), encoder.size)`, each row exactly what
  `stichkit.rl.encoding(game).observation(state, seat)` gives for that game's state;
- `masks`: int8 `(num_games, len(seats), game.num_actions)` (43; 44 and 45 with the sayings of
  weis="announce" and stoeck="announce"), the legal actions of the seat to act, zeros for the others;
- `rewards`: float64 `(num_games, len(seats))`, `terminated` and `illegal`: bool `(num_games,)`.

Two shapes:

- **one agent seat** (`seats=(s,)`): the other seats are `random` bots (`"random"` or
  `"random:seed=N"`), played in C. A game's seed is taken as `SeatGame.reset` takes it (the
  deal, then each bot's seed, from `random.Random(seed)`), and the bots draw from CPython's
  Mersenne Twister as `RandomBot` does (its sayings as every bot makes them, stichkit.bots.announce):
  game for game, move for move, the same as the Python
  `StichkitVectorEnv` with the same seeds, which tests/native checks. An ended game is started
  again from its generator's next seed (its last observation in `final_obs`).
- **every seat an agent** (`seats=(0, 1, 2, 3)`, no bots): the seat to act is the one whose
  action counts; an ended game stays over until `reset`. The seed is the game's own
  (`game.new_state(seed=...)`).

Needs the C extension (`stichkit.native.available()`); the environments fall back to their
Python path without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import stichkit
from stichkit import native
from stichkit.core import OptionError

from .encoders import encoding

# The encoder's fields in the order the C writer takes their offsets (batch.c).
FIELDS = (
    "hand", "phase", "to_move", "forehand", "trump", "trump_chosen_by", "pushed", "profile_schieber", "trick",
    "trick_leader", "played_by", "played_in_trick", "trick_number", "tricks_won", "deal_points", "cannot_hold",
    "hand_sizes", "weis_cards", "weis_points", "weis_scored_by", "stoeck", "scores", "deal_number",
    "mode_multipliers", "multiplier",  # only with multipliers: -1 without
    "weis_announced", "announced_points", "own_weis", "own_weis_points", "may_announce_weis",  # weis="announce"
    "may_call_stoeck",  # stoeck="announce"
)  # fmt: skip
SEED_LIMIT = 1 << 64  # the C Mersenne Twister takes seeds below this (Python's takes any)


def native_bot_seed(spec: Any) -> int | None:
    """-1 for a `random` bot spec seeded by the game, its seed for `random:seed=N`; None when the
    opponent is anything the C core cannot play (another bot, a bot object)."""
    from stichkit.arena.duplicate import BotSpec, parse_bot

    if isinstance(spec, str):
        try:
            spec = parse_bot(spec, "jass")
        except OptionError:
            return None
    if not isinstance(spec, BotSpec) or spec.name != "random":
        return None
    params = dict(spec.params)
    if set(params) - {"seed"}:
        return None
    seed = params.get("seed")
    if seed is None:
        return -1
    value = int(seed)
    return value if 0 <= value < 1 << 63 else None


BACKENDS = ("auto", "native", "python")


def use_core(game: stichkit.Game, backend: str, why_not: str | None = None) -> bool:
    """Whether an environment runs `game` in the C core: "auto" when it can (Jass with options the
    core plays, the extension built, and `why_not` None: nothing else the caller needs is missing),
    "native" insists (an OptionError says why it cannot), "python" never."""
    if backend not in BACKENDS:
        raise OptionError(f"backend={backend!r} is not allowed; allowed: {', '.join(BACKENDS)}")
    if backend == "python":
        return False
    if game.name != "jass":
        why_not = f"the C core plays only Jass, not {game.name}"
    elif why_not is None:
        why_not = native.unsupported(game.options)
    if why_not is None and not native.available():
        why_not = native.MISSING
        if backend == "auto":
            native.missing()
    if why_not is not None and backend == "native":
        raise OptionError(f"backend='native': {why_not}")
    return why_not is None


class JassBatch:
    """`num_games` Jass games stepped together in C (see the module)."""

    def __init__(
        self,
        num_games: int,
        seats: Sequence[int] = (0,),
        opponents: Any = "random",
        shaping: str | None = None,
        **options: Any,
    ) -> None:
        from .rewards import check_shaping

        module = native.load()
        if module is None:
            raise OptionError(native.MISSING)
        if not isinstance(num_games, int) or isinstance(num_games, bool) or num_games < 1:
            raise OptionError(f"num_games={num_games!r} is not allowed: a positive whole number")
        self.game = stichkit.load_game("jass", **options)
        self.encoder = encoding(self.game)
        self.seats = tuple(seats)
        if sorted(self.seats) not in ([0, 1, 2, 3], *([s] for s in range(4))) or len(self.seats) not in (1, 4):
            raise OptionError(f"seats={seats!r}: one seat 0-3, or all four")
        shaping = check_shaping(shaping)
        others = [s for s in range(4) if s not in self.seats]
        items = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * len(others)
        if len(items) != len(others):
            raise OptionError(f"opponents lists {len(items)} bots for {len(others)} other seats")
        bots: list[int | None] = [None] * 4
        for s, item in zip(others, items, strict=True):
            seed = native_bot_seed(item)
            if seed is None:
                raise OptionError(f"the C core plays only 'random' bots (or 'random:seed=N'), not {item!r}")
            bots[s] = seed
        n, k, size = num_games, len(self.seats), self.encoder.size
        self.num_games = n
        self.obs = np.zeros((n, k, size), dtype=np.float32)
        self.masks = np.zeros((n, k, self.game.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, k), dtype=np.float64)
        self.terminated = np.zeros(n, dtype=bool)
        self.illegal = np.zeros(n, dtype=bool)
        self.final_obs = np.zeros((n, k, size), dtype=np.float32)
        offsets = [self.encoder.offsets.get(f, -1) for f in FIELDS]
        core = native.core_options(self.game.options)
        self._c = module.Batch(
            n, self.seats, bots, core, shaping == "score", offsets, size, self.obs, self.masks, self.rewards,
            self.terminated, self.illegal, self.final_obs,
        )  # fmt: skip
        self._actions = np.zeros((n, k), dtype=np.int64)

    def reset(self, seeds: Sequence[int]) -> None:
        """Every game anew: game i from `seeds[i]` (|seed| < 2**64)."""
        values = [int(s) for s in seeds]
        if len(values) != self.num_games:
            raise OptionError(f"{len(values)} seeds for {self.num_games} games")
        bad = [s for s in values if not -SEED_LIMIT < s < SEED_LIMIT]
        if bad:
            raise OptionError(f"seed {bad[0]} is too large for the C core: seeds lie between -2**64 and 2**64")
        self._c.reset([abs(s) for s in values])

    def step(self, actions: Any) -> int:
        """One action per game and agent seat (int, shape (num_games, len(seats)) or (num_games,)
        with one seat); returns how many games ended."""
        a = np.asarray(actions)
        if a.dtype.kind in "iub":
            np.copyto(self._actions, a.reshape(self._actions.shape), casting="unsafe")
        else:  # anything else: what int() makes of it, and an illegal action where it fails
            flat = self._actions.reshape(-1)
            for i, x in enumerate(a.reshape(-1)):
                try:
                    flat[i] = int(x)
                except (TypeError, ValueError, OverflowError):
                    flat[i] = -1
        return int(self._c.step(self._actions))

    def seeds(self) -> list[int]:
        """The seed each game was last started from (its absolute value; after an automatic
        reset, the seed drawn for it)."""
        return list(self._c.seeds())

    def state(self, i: int) -> dict[str, Any]:
        """Game i's fields as the core holds them (for tests and debugging)."""
        return dict(self._c.state(i))
