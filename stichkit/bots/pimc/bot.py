"""The pimc bot: at every decision, worlds drawn from the seat's view, each solved exactly.

The decisions are three kinds, each valued over the worlds: a card (its margin with perfect play
after it), a trump mode and the push (the heuristic plays each world to a horizon, the solver
does the rest). docs/bots.md describes each, with the settings' reasons.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any, ClassVar, cast

from stichkit.core import Action, State
from stichkit.games.jass.cards import MODES
from stichkit.games.jass.state import JassState

from ..announce import SAYINGS, announces, cards_only
from ..base import SEED, Bot, Param, View, seat_view, view_key
from ..ismcts import ISMCTSBot, _check_positive_int, _check_seconds
from ..jass_heuristic import decide as jass_decide
from . import worlds
from .budget import DEFAULT_SAMPLES, DEFAULT_TIME, Budget, horizons
from .inference import CANDIDATES, PLAY_CANDIDATES, Calibration, Weigh, draw_world, partner_mode, weigher
from .worlds import RACE_WEIGHT, extras, margins, race_matters, start_hands

TRUMP_ACTION = 36  # trump:D .. trump:une are 36..41, push 42 (the engine's action ids)
PUSH_ID = 42
SLOW_SOLVER_TRICKS = 3  # without the C solver, solve only with this many tricks left or fewer
EARLY_ITERATIONS_PER_SAMPLE = 100  # ismcts iterations before the horizon per world of a `samples` budget

TIME = Param("time", None, "most seconds per decision (default 1.0 when no budget is given)", _check_seconds)
SAMPLES = Param("samples", None, "most worlds solved per decision (alone: no clock, reproducible)",
                _check_positive_int)  # fmt: skip


def _check_cards(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 4 <= value <= 36:
        return value, None
    return value, "a whole number of cards from 4 to 36"


HORIZON = Param("horizon", None, "most cards left in the deal for a card decision to be solved (36: every one); "
                "earlier card decisions are searched by ismcts at the same budget (default 28 with a clock of "
                "at least 1 s a decision, else 24)", _check_cards)  # fmt: skip
TRUMP_HORIZON = Param("trump_horizon", None, "trump and push: each world's deal is played by the heuristic "
                      "until this many cards are left, then solved exactly (36: solved from the first card; "
                      "default 24 with a clock of at least 1 s a decision, else 20)", _check_cards)  # fmt: skip


def _check_infer(value: Any) -> tuple[Any, str | None]:
    if value in ("trump", "play", "calibrated", "off"):
        return value, None
    return value, ("trump (weigh worlds by the deal's trump decisions), play (by those and by every card the "
                   "others played this deal, as the heuristic would play), calibrated (as play, each player "
                   "trusted as far as its cards in the game's earlier deals bear the heuristic out) "
                   "or off")  # fmt: skip


def _check_race(value: Any) -> tuple[Any, str | None]:
    if value in ("on", "off"):
        return value, None
    return value, "on (near the target, play for reaching it first) or off (always the deal's points)"


def _check_early(value: Any) -> tuple[Any, str | None]:
    if value in (None, "ismcts", "playout"):
        return value, None
    return value, ("ismcts (the generic search at the same budget) or playout (each card: the heuristic "
                   "plays each world on until trump_horizon cards are left, then it is solved)")  # fmt: skip


EARLY = Param("early", None, "card decisions before the horizon: ismcts (searched at the same budget) or "
              "playout (the heuristic plays each world on to trump_horizon, then solved, as for trump); "
              "default: ismcts in Jass and Differenzler, playout in Coiffeur", _check_early)  # fmt: skip
EARLY_BY_GAME = {"jass": "ismcts", "differenzler": "ismcts", "coiffeur": "playout"}
# ismcts before the horizon in Differenzler and Coiffeur plays out by the heuristic (its measured
# setting there, docs/benchmarks.md), some 10 ms a playout: fewer iterations per world without a clock.
EARLY_HEURISTIC_ITERATIONS_PER_SAMPLE = 10


def _check_announce(value: Any) -> tuple[Any, str | None]:
    if value in ("heuristic", "search"):
        return value, None
    return value, ("heuristic (the Coiffeur heuristic's fit of the hand to each open row) or search (every "
                   "open mode and the push played in each world and solved)")  # fmt: skip


# Coiffeur's announcement by search: on duplicate games it beat the heuristic's on the ten-row sheet
# and matched it on a four-row one (docs/benchmarks.md, "Coiffeur's announcement by search").
ANNOUNCE = Param("announce", "search", "Coiffeur: the mode (or push) by search (each open mode and the push "
                 "played in every world to trump_horizon, then solved; worth what it writes above an average "
                 "hand in the row, times the multiplier) or by the heuristic", _check_announce)  # fmt: skip
RACE = Param("race", "on", "near the game's end: on (reaching the target first counts before points) or off",
             _check_race)  # fmt: skip


def _check_within(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100:
        return value, None
    return value, "a whole number of points from 0 (exact) to 100"


WITHIN = Param("within", 0, "card decisions: each world's cards valued to within this many points (0: exactly), "
               "by bounds from the C solver that stop at that width and at the decision's clock",
               _check_within)  # fmt: skip


def _check_threads(value: Any) -> tuple[Any, str | None]:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if value in (1, 2) and not isinstance(value, bool):
        return value, None
    return value, "1 or 2 (threads solving card worlds at once)"


# Two threads: the solver lets go of the GIL, so one more thread solves every other world while this
# one draws and solves the next (docs/benchmarks.md, "The two cores": two positions at once, the
# busiest thread about 0.55 of the nodes). Worlds and their order are those of threads=1.
THREADS = Param("threads", 1, "card decisions: worlds solved by this many threads at once (1 or 2; 2: every "
                "other world by one more thread, with the C solver and within=0)", _check_threads)  # fmt: skip
NODE_RATE = 4_000_000  # search nodes a second assumed before a decision has timed its own (within > 0)
INFER = Param("infer", "calibrated", "inference over the worlds: calibrated (by the deal's trump/push decisions "
              "and by the cards this deal of each player whose cards in the game's earlier deals were mostly "
              "the heuristic's), play (by the cards of every other player), trump (by the trump/push "
              "decisions only) or off", _check_infer)  # fmt: skip


class PIMCBot(Bot):
    """Samples worlds from the seat's view and solves each exactly (see the module)."""

    name = "pimc"
    cheats: ClassVar[bool] = False
    GAMES: ClassVar[tuple[str, ...] | None] = ("jass", "differenzler", "coiffeur")
    PARAMS = (TIME, SAMPLES, HORIZON, TRUMP_HORIZON, EARLY, WITHIN, INFER, RACE, ANNOUNCE, THREADS, SEED)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        p = self.params
        if p["samples"] is None and p["time"] is None:
            p["samples"], p["time"] = DEFAULT_SAMPLES, DEFAULT_TIME
        elif p["samples"] is None:
            p["samples"] = DEFAULT_SAMPLES
        self.time: float | None = p["time"]
        self.samples: int = p["samples"]
        self.infer = p["infer"] != "off"
        self.infer_play = p["infer"] in ("play", "calibrated")
        self.calibration = Calibration() if p["infer"] == "calibrated" else None
        horizon, trump_horizon = horizons(self.time)
        self.horizon_given = p["horizon"] is not None  # else each game's own default (horizon_for)
        if p["horizon"] is None:
            p["horizon"] = horizon
        if p["trump_horizon"] is None:
            p["trump_horizon"] = trump_horizon
        self.horizon: int = p["horizon"]
        self.trump_horizon: int = p["trump_horizon"]
        self.race = p["race"] == "on"
        self.announce: str = p["announce"]
        self.within: int = p["within"]
        self.threads: int = p["threads"]
        self.early_playout = p["early"] == "playout"
        self._early_heuristic: ISMCTSBot | None = None  # Differenzler and Coiffeur: heuristic playouts
        # Before the horizon: the generic search at the same budget (no clock: a fixed iteration count).
        self.early = (
            ISMCTSBot(time=self.time, seed=p["seed"])
            if self.time is not None
            else ISMCTSBot(iterations=EARLY_ITERATIONS_PER_SAMPLE * self.samples, seed=p["seed"])
        )
        self.seed: int | None = p["seed"]
        self.solve: Callable[[State], Any] = worlds.default_solve
        # A trump mode is worth the deal's value alone: one search, not one per card (solve_value).
        self.solve_value: Callable[[State], Any] = worlds.default_solve_value
        self.solve_race: Callable[[State], Any] = worlds.default_solve_race
        self.last_stats: dict[str, Any] = {}
        self._weighs: tuple[View, Weigh | None] | None = None

    # -- the Bot API ----------------------------------------------------------------------------

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if not isinstance(state_or_view, State):
            raise ValueError(f"{self.name} needs a State to sample from (it solves sample_hidden worlds); "
                             "a view dict is not enough")  # fmt: skip
        state = state_or_view
        if state.game.name not in self.GAMES:  # type: ignore[operator]
            raise ValueError(f"{self.name} plays only {', '.join(self.GAMES or ())}, not {state.game.name}")
        view = seat_view(state, seat)
        if state.game.name != "jass":
            return self._choose_variant(state, seat, view)
        self._observe(state, seat, view)
        legal = state.legal_actions()
        said = announces(view)  # Jass with announced Weis: decided as every bot does, not solved
        if said is not None:
            if said:
                return state.game.parse_action(said)
            legal = [a for a in legal if a.text not in SAYINGS]
            view = cards_only(view)
        if len(legal) == 1:
            self.last_stats = {"worlds": 0, "seconds": 0.0, "solves": 0}
            return legal[0]
        rng = random.Random(None if self.seed is None else self.seed * 1_000_003 + view_key(view))
        if (
            self.solve is worlds.default_solve
            and not worlds.fast_solver()
            and view["hand_sizes"][seat] > SLOW_SOLVER_TRICKS
        ):
            # Only the Python reference solver: too slow before the last tricks, so the heuristic
            # plays those decisions (the trump choice included) rather than blow the budget.
            self.last_stats = {"worlds": 0, "seconds": 0.0, "solves": 0, "fallback": "heuristic"}
            return state.game.parse_action(jass_decide(view, rng))
        if legal[0].id >= TRUMP_ACTION:
            return self._choose_trump(state, seat, view, legal, rng)
        if sum(view["hand_sizes"]) > self.horizon:
            if self.early_playout:
                return self._choose_early_card(state, seat, view, legal, rng)
            action = self.early.choose(state, seat)
            self.last_stats = {"worlds": 0, "seconds": self.early.last_stats.get("seconds", 0.0), "solves": 0,
                               "early": "ismcts", "iterations": self.early.last_stats.get("iterations", 0)}  # fmt: skip
            return action
        return self._choose_card(state, seat, view, legal, rng)

    def _choose_variant(self, state: State, seat: int, view: View) -> Action:
        """A Differenzler or Coiffeur decision (pimc/differenzler.py, pimc/coiffeur.py)."""
        from . import coiffeur, differenzler

        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"worlds": 0, "seconds": 0.0, "solves": 0}
            return legal[0]
        rng = random.Random(None if self.seed is None else self.seed * 1_000_003 + view_key(view))
        variant = differenzler if state.game.name == "differenzler" else coiffeur
        return variant.choose(self, state, seat, view, legal, rng)

    def horizon_for(self, state: State) -> int:
        """Most cards left in the deal for a card decision to be solved: the `horizon` given, else
        the game's default (Differenzler's max^n has no pruning: its last three tricks)."""
        if state.game.name == "differenzler" and not self.horizon_given:
            from .differenzler import HORIZON as DIFFERENZLER_HORIZON

            return DIFFERENZLER_HORIZON
        return self.horizon

    def early_kind(self, state: State) -> str:
        """How card decisions before the horizon are made: `early` given, else the game's default."""
        given: str | None = self.params["early"]
        return given if given is not None else EARLY_BY_GAME[state.game.name]

    def early_by_ismcts(self, state: State, seat: int) -> Action:
        """A card before the horizon by ismcts at the same budget; in Differenzler and Coiffeur its
        playouts are the game's heuristic."""
        if self._early_heuristic is None:
            self._early_heuristic = (
                ISMCTSBot(time=self.time, rollout="heuristic", seed=self.seed)
                if self.time is not None
                else ISMCTSBot(iterations=EARLY_HEURISTIC_ITERATIONS_PER_SAMPLE * self.samples, rollout="heuristic",
                               seed=self.seed)
            )  # fmt: skip
        early = self._early_heuristic
        action = early.choose(state, seat)
        self.last_stats = {"worlds": 0, "seconds": early.last_stats.get("seconds", 0.0), "solves": 0,
                           "early": "ismcts", "iterations": early.last_stats.get("iterations", 0)}  # fmt: skip
        return action

    def budget(self) -> Budget:
        """A decision's budget of worlds (the parameters `samples` and `time`)."""
        return Budget(self.samples, self.time)

    def observe(self, state: State, seat: int) -> None:
        if state.game.name == "jass":
            self._observe(state, seat, seat_view(state, seat))

    def _observe(self, state: State, seat: int, view: View) -> None:
        if self.calibration is not None:
            self.calibration.remember(state, seat, view)

    def decide(self, view: View) -> str:
        raise ValueError(f"{self.name} needs a State to sample from; a view dict is not enough")

    # -- worlds ---------------------------------------------------------------------------------

    def world(self, state: State, seat: int, view: View, rng: random.Random) -> State:
        """One world the seat cannot tell from `state`, drawn among `CANDIDATES` (`PLAY_CANDIDATES`
        with infer=play or calibrated, even when no card is modelled) by the likelihood of the
        deal's public decisions (when inference is on and there are any)."""
        if self._weighs is None or self._weighs[0] is not view:  # once per decision, not per world
            weigh = (
                weigher(state, seat, view, play=self.infer_play, calibration=self.calibration) if self.infer else None
            )
            self._weighs = (view, weigh)
        candidates = PLAY_CANDIDATES if self.infer_play else CANDIDATES
        return draw_world(state, seat, self._weighs[1], candidates, rng)

    # -- card play ------------------------------------------------------------------------------

    def _choose_card(self, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
        clock = time.perf_counter
        budget = Budget(self.samples, self.time)
        total = {a.id: 0.0 for a in legal}
        best_in = {a.id: 0 for a in legal}
        solving = 0.0
        swing = 0
        race = self.race and worlds.fast_solver() and race_matters(state)
        bounded = self.within > 0 and self.solve is worlds.default_solve and worlds.fast_solver()
        rate, cut = float(NODE_RATE), 0  # nodes a second (bounded: measured as it goes); worlds cut short
        two = self.threads == 2 and not bounded and worlds.fast_solver()
        pending: Future[tuple[Any, Any, float]] | None = None  # the world before, solved by the other thread

        def solved(w: State) -> tuple[Any, Any, float]:
            t0 = clock()
            sol = self.solve(w)
            return sol, self.solve_race(w).outcomes if race else None, clock() - t0

        def take(sol: Any, outcome: Any) -> None:
            nonlocal swing
            swing = max(swing, 2 * sol.remaining + 200 + (2 * RACE_WEIGHT if race else 0))  # the widest gap
            found = margins(sol)
            top = max(found.values())
            for a, v in found.items():
                total[a.id] += v + (RACE_WEIGHT * outcome[a] if race else 0)
                best_in[a.id] += v == top

        for done in budget:
            if pending is None and done >= 8 and self._settled(total, swing, budget):
                break
            w = self.world(state, seat, view, rng)
            if two and pending is None:
                pending = worlds.helper().submit(solved, w)
                continue
            if bounded:
                # Bounds `within` wide, and no more nodes than the clock has left: no world overruns it.
                t0 = clock()
                left = 0.0 if budget.deadline is None else max(budget.deadline - t0, 0.0)
                sol = worlds.default_solve_bounds(w, self.within, int(rate * left) + 1 if budget.deadline else 0)
                rate = max(sol.nodes / max(clock() - t0, 1e-6), 1e5)
                cut += not sol.complete
                outcome = self.solve_race(w).outcomes if race else None
                seconds = clock() - t0
            else:
                sol, outcome, seconds = solved(w)
            if pending is not None:  # the world drawn before this one counts first, as with one thread
                before, before_outcome, before_seconds = pending.result()
                pending = None
                solving += before_seconds
                take(before, before_outcome)
            solving += seconds
            take(sol, outcome)
        if pending is not None:
            before, before_outcome, before_seconds = pending.result()
            solving += before_seconds
            take(before, before_outcome)
        chosen = max(legal, key=lambda a: (total[a.id], best_in[a.id], -legal.index(a)))
        self.last_stats = {
            "worlds": budget.done,
            "solves": budget.done,
            "seconds": budget.seconds(),
            "solving_seconds": solving,
            "race": race,
            "means": {str(a): total[a.id] / max(budget.done, 1) for a in legal},
        }
        if bounded:
            self.last_stats["cut_short"] = cut  # worlds whose bounds the clock left wider than `within`
        return chosen

    @staticmethod
    def _settled(total: dict[int, float], swing: int, budget: Budget) -> bool:
        """Whether the leading card is ahead by more than the worlds left could make up."""
        values = sorted(total.values(), reverse=True)
        return values[0] - values[1] > budget.left() * swing

    # -- trump and push -------------------------------------------------------------------------

    def _play_to_horizon(self, world: JassState, team: int) -> int | None:
        """Play `world` by the Jass heuristic until `trump_horizon` cards are left; the trick margin
        of `team` so far, or None if the game ended on the way (then nothing is left to solve)."""
        deal = world.deals_played
        while True:
            seat = world.current_player
            if seat is None or world.deals_played != deal:
                return None
            view = world.view(seat)
            if sum(view["hand_sizes"]) <= self.trump_horizon and world.legal_actions()[0].id < TRUMP_ACTION:
                return self._tricks_margin(world, team, deal, view)
            world.apply(world.game.parse_action(jass_decide(view, None)))

    def _playout_value(self, world: JassState, team: int, deal: int, race: bool) -> tuple[int, int]:
        """`team`'s margin in the deal of `world` (trick points so far, then the heuristic's play to
        `trump_horizon` cards, then solved; with `race`, RACE_WEIGHT x who reaches the target first
        on top), and the number of solves it took. `world` is played on."""
        played = self._play_to_horizon(world, team)
        if played is None:
            margin = self._tricks_margin(world, team, deal)
            if race and world.is_terminal():  # the game ended in the playout: its winner counts
                margin += RACE_WEIGHT * (1 if world.winners()[0] & 1 == team else -1)
            return margin, 0
        val = self.solve_value(world)
        margin = played + (val.margin if val.team == team else -val.margin)
        if not race:
            return margin, 1
        r = self.solve_race(world)
        return margin + RACE_WEIGHT * (r.best if r.team == team else -r.best), 2

    def _choose_early_card(self, state: State, seat: int, view: View, legal: list[Action],
                           rng: random.Random) -> Action:  # fmt: skip
        """`early=playout`: in each world, each legal card is played, the heuristic plays on until
        `trump_horizon` cards are left and the rest is solved (`_playout_value`, as for a trump
        mode); the best mean margin wins. Stops between worlds, like the other decisions."""
        budget = Budget(self.samples, self.time)
        team = seat & 1
        deal = cast(JassState, state).deals_played
        total = {a.id: 0.0 for a in legal}
        solves = 0
        race = self.race and worlds.fast_solver() and race_matters(state)
        for _ in budget:
            w = self.world(state, seat, view, rng)
            for a in legal:
                world = cast(JassState, w.clone())
                world.apply(a)
                value, n = self._playout_value(world, team, deal, race)
                total[a.id] += value
                solves += n
        chosen = max(legal, key=lambda a: (total[a.id], -legal.index(a)))
        n = max(budget.done, 1)
        self.last_stats = {"worlds": budget.done, "solves": solves, "seconds": budget.seconds(), "early": "playout",
                           "race": race, "means": {str(a): total[a.id] / n for a in legal}}  # fmt: skip
        return chosen

    @staticmethod
    def _tricks_margin(world: JassState, team: int, deal: int, view: View | None = None) -> int:
        """`team`'s trick points minus the other team's in the deal so far (0 once it is over)."""
        if view is None:
            if world.deals_played != deal or world.current_player is None:
                return 0  # the game ended in a playout: the scores decided it, not these points
            view = world.view(world.current_player)
        return sum(t["points"] if t["winner"] & 1 == team else -t["points"] for t in view["tricks"])

    def _choose_trump(self, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
        """Solve every mode in every world; the push is worth the partner's modelled choice."""
        budget = Budget(self.samples, self.time)
        modes = [a.id - TRUMP_ACTION for a in legal if a.id != PUSH_ID]
        can_push = any(a.id == PUSH_ID for a in legal)
        all_modes: tuple[int, ...] = state.game.profile.trump_modes  # type: ignore[attr-defined]
        partner = (seat + 2) & 3
        team = seat & 1
        total = dict.fromkeys(modes, 0.0)
        push_total = 0.0
        solves = 0
        race = self.race and worlds.fast_solver() and worlds.race_before_play(state)
        mults: tuple[int, ...] = state.game.multipliers  # type: ignore[attr-defined]
        for _ in budget:
            w = self.world(state, seat, view, rng)
            margin = {}
            for m in modes:
                world = cast(JassState, w.clone())
                world.apply(legal[[a.id for a in legal].index(TRUMP_ACTION + m)])
                bonus = extras(world, m)
                margin[m], n = self._playout_value(world, team, cast(JassState, w).deals_played, race)
                solves += n
                # A mode that counts double or triple (option multipliers) is worth as much more.
                margin[m] = (margin[m] + bonus[team] - bonus[team ^ 1]) * mults[m]
                total[m] += margin[m]
            if can_push:
                push_total += margin[partner_mode(start_hands(w)[partner], all_modes)]
        best = max(modes, key=lambda m: (total[m], -m))
        chosen = next(a for a in legal if a.id == TRUMP_ACTION + best)
        if can_push and push_total > total[best]:
            chosen = next(a for a in legal if a.id == PUSH_ID)
        n = max(budget.done, 1)
        self.last_stats = {
            "worlds": budget.done,
            "solves": solves,
            "seconds": budget.seconds(),
            "means": {f"trump:{MODES[m]}": total[m] / n for m in modes}
            | ({"push": push_total / n} if can_push else {}),
        }
        return chosen
