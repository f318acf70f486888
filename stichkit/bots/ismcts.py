"""`ismcts`: single-observer Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012).

One tree is grown over the moving seat's information set. Each iteration takes a determinization
(a full state drawn by `state.sample_hidden(seat, rng)`: the other hands redealt consistently with
everything the seat knows), walks the tree with UCB over the actions available in that
determinization (each child counts how often it was available), adds one node, plays on at
random to the end of the deal, and backs the result up: every node is credited with the reward
of the seat that moved into it.

Push (Jass, `push="heuristic"`): after the root seat pushes, the partner's choice in each
determinization is made by the game's heuristic from the partner's view of that determinization,
not by the tree (see `search`).

The bot never reads the hidden parts of the state it is given: the only things it takes from
the real state are the seat's own view (for the seed), its legal actions and copies made by
`sample_hidden`. It is generic over the State protocol, so every game works without changes.

In C (Jass). With `engine="auto"` a Jass search with random playouts runs its iterations in the
C core (stichkit.native.search): the same algorithm, its first world from `determinize`, the
others from a C port of `sample_hidden`; Python is called once per decision.

Reward. The search stops at the end of the current deal (the game logs the next deal as a chance
outcome) or at the end of the game. Each seat's points won since the root, minus the mean of all
seats, are scaled into [0, 1] by the largest spread seen so far in this search; at the end of the
game the win counts most. Team games work by themselves: partners carry the team's score.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from stichkit import native
from stichkit.core import Action, State

from .announce import SAYINGS, announces
from .base import SEED, Bot, Param, View, seat_view, view_key
from .predictions import is_prediction, predict

# Without a budget: at most this long per decision, and at most this many iterations.
DEFAULT_TIME = 1.0
DEFAULT_ITERATIONS = 20_000
TIME_ONLY_ITERATIONS = 10_000_000  # `time=` alone: the clock decides
DEFAULT_DETERMINIZATIONS = 64
SAMPLING_SHARE = 0.25  # with a clock, new determinizations may take at most this share of it
WIN_WEIGHT = 0.7  # at the game's end, reward = WIN_WEIGHT * won + (1 - WIN_WEIGHT) * points


def _check_positive_int(value: Any) -> tuple[Any, str | None]:
    if value is None:
        return None, None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value, None
    return value, "a whole number of at least 1, or None"


def _check_seconds(value: Any) -> tuple[Any, str | None]:
    if value is None:
        return None, None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return value, "a number of seconds greater than 0, or None"
    if isinstance(value, bool) or not math.isfinite(seconds) or seconds <= 0:
        return value, "a number of seconds greater than 0, or None"
    return seconds, None


def _check_c(value: Any) -> tuple[Any, str | None]:
    try:
        c = float(value)
    except (TypeError, ValueError):
        return value, "a number of 0 or more"
    if isinstance(value, bool) or not math.isfinite(c) or c < 0:
        return value, "a number of 0 or more"
    return c, None


def _choice_of(*allowed: str) -> Callable[[Any], tuple[Any, str | None]]:
    def check(value: Any) -> tuple[Any, str | None]:
        if value in allowed:
            return value, None
        return value, " or ".join(allowed)

    return check


ITERATIONS = Param("iterations", None, "most iterations per decision (alone: no clock, reproducible)",
                   _check_positive_int)  # fmt: skip
TIME = Param("time", None, "most seconds per decision (default 1.0 when no budget is given)", _check_seconds)
C = Param("c", 0.7, "UCB exploration constant (rewards lie in [0, 1])", _check_c)
DETERMINIZATIONS = Param("determinizations", DEFAULT_DETERMINIZATIONS,
                         "how many sample_hidden draws one search uses at most (iterations cycle through them)",
                         _check_positive_int)  # fmt: skip


def _check_rollout(value: Any) -> tuple[Any, str | None]:
    if value in ("random", "heuristic", "solve"):
        return value, None
    return value, ("random (fast), heuristic (the game's heuristic bot) or solve (Coiffeur: random until the "
                   "deal's last cards, then solved exactly)")  # fmt: skip


ROLLOUT = Param("rollout", "random", "playout policy: random (fast), heuristic (the game's heuristic bot) or "
                "solve (Coiffeur: random until SOLVE_FROM cards are left in the deal, then solved exactly)",
                _check_rollout)  # fmt: skip
HORIZON = Param("horizon", "deal", "where playouts stop: the end of the deal, or of the whole game",
                _choice_of("deal", "game"))  # fmt: skip
ENGINE = Param("engine", "auto", "where the iterations run: auto (C for Jass with random playouts, when the C "
               "extension is built), c (insist), python", _choice_of("auto", "c", "python"))  # fmt: skip
PUSH = Param("push", "heuristic", "after the searching seat pushes, the partner's choice in each sampled world: "
             "heuristic (the game's heuristic on the partner's sampled hand) or search (the tree, as before)",
             _choice_of("heuristic", "search"))  # fmt: skip


class Node:
    """A tree node: the action that led here, taken by `player`; visits, reward sum, availability."""

    __slots__ = ("avail", "children", "n", "player", "w")

    def __init__(self, player: int) -> None:
        self.player = player
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}


class ISMCTSBot(Bot):
    """Searches the seat's information set through `sample_hidden` determinizations."""

    name = "ismcts"
    cheats: ClassVar[bool] = False
    PARAMS: ClassVar[tuple[Param, ...]] = (ITERATIONS, TIME, C, DETERMINIZATIONS, ROLLOUT, HORIZON, PUSH, ENGINE, SEED)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        p = self.params
        if p["iterations"] is None and p["time"] is None:
            p["iterations"], p["time"] = DEFAULT_ITERATIONS, DEFAULT_TIME
        elif p["iterations"] is None:
            p["iterations"] = TIME_ONLY_ITERATIONS
        self.iterations: int = p["iterations"]
        self.time: float | None = p["time"]
        self.c: float = p["c"]
        self.max_dets: int = p["determinizations"]
        self.seed: int | None = p["seed"]
        self.heuristic_rollouts = p["rollout"] == "heuristic"
        self.rollout: str = p.get("rollout", "random")
        self.deal_horizon = p["horizon"] == "deal"
        self.push_by_heuristic = p.get("push") == "heuristic"  # `open` declares no push: the tree decides
        self.engine: str = p.get("engine", "auto")
        self.last_stats: dict[str, Any] = {}  # of the last search: iterations, seconds, ...

    # -- the Bot API ----------------------------------------------------------------------------

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if not isinstance(state_or_view, State):
            raise ValueError(f"{self.name} needs a State to sample from (it searches over sample_hidden "
                             "determinizations); a view dict is not enough")  # fmt: skip
        state = state_or_view
        view = seat_view(state, seat)  # checks the turn; seeds the search from what the seat sees
        legal = state.legal_actions()
        said = announces(view)  # Jass with announced Weis: decided as every bot does, not searched
        if said is not None:
            if said:
                return state.game.parse_action(said)
            legal = [a for a in legal if a.text not in SAYINGS]
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "determinizations": 0}
            return legal[0]
        rng = random.Random(None if self.seed is None else self.seed * 1_000_003 + view_key(view))
        return self.search(state, seat, legal, rng)

    def decide(self, view: View) -> str:
        raise ValueError(f"{self.name} needs a State to sample from; a view dict is not enough")

    # -- the search -----------------------------------------------------------------------------

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state the seat cannot tell from `state`: the only door to hidden cards."""
        return state.sample_hidden(seat, rng)

    def native(self, state: State) -> bool:
        """Whether this search runs in C: Jass with random playouts, the extension built, and the
        engine not "python" ("c" insists, and says why it cannot)."""
        if self.engine == "python":
            return False
        why = None
        if state.game.name != "jass":
            why = f"the C search plays only Jass, not {state.game.name}"
        elif self.heuristic_rollouts:
            why = "the C search plays random playouts only (rollout=random)"
        elif native.unsupported(state.game.options) is not None:  # a game of fixed deals, the in-order rule
            why = native.unsupported(state.game.options)
        elif not native.available():
            why = native.MISSING
            if self.engine == "auto":
                native.missing()
        if why is not None and self.engine == "c":
            raise ValueError(f"{self.name}: engine=c: {why}")
        return why is None

    def search(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        if is_prediction(legal):
            return self.search_prediction(state, seat, legal, rng)
        if state.game.name == "coiffeur" and any(str(a).startswith("trump:") for a in legal):
            return self.announce_by_heuristic(state, seat, legal)
        if self.native(state):
            return self.search_native(state, seat, legal, rng)
        clock = time.perf_counter
        start = clock()
        deadline = None if self.time is None else start + self.time
        c = self.c
        log_ = math.log
        sqrt = math.sqrt
        n_players = state.game.num_players
        root_scores = list(state.scores())
        root = Node(seat)
        pool: list[State] = []
        sampling = 0.0
        scale = 0.0
        deal_horizon = self.deal_horizon
        one_side = state.game.name == "coiffeur"  # one team scores a deal: rewards by the team difference
        low, high = math.inf, -math.inf
        policy = self._heuristic_policy(state, rng) if self.heuristic_rollouts else None
        solved_scores = self._solver(state)  # rollout=solve: the deal's last cards solved, not played
        # A push at the root hands the choice to the partner. The tree would make that choice once
        # for all sampled worlds (blind to the partner's sampled hand) and random playouts value
        # every choice alike, so a push looks poor; instead, in each world the partner chooses as
        # the game's heuristic would with the partner's sampled hand (the 2026-11 push fix: the
        # tree alone pushed in about 2% of its forehand decisions).
        push_id = -1
        partner_choice = None
        if self.push_by_heuristic:
            push_id = next((a.id for a in legal if str(a) == "push"), -1)
            if push_id >= 0:
                partner_choice = self._partner_choice(state)
                if partner_choice is None:
                    push_id = -1
        uniform = rng.random  # int(uniform() * k): a uniform index below k, cheaper than randrange
        iterations = 0
        while iterations < self.iterations:
            if deadline is not None and iterations >= len(legal) and clock() >= deadline:
                break
            if iterations & 63 == 0 and iterations and self._settled(root, legal, iterations, start, deadline, clock()):
                break  # no iterations left could change the most visited action: stop early
            iterations += 1
            # 1. A determinization: a new sample while the pool is not full (and, with a clock,
            #    while sampling takes no more than its share), else a copy of one already drawn.
            if len(pool) < self.max_dets and (
                deadline is None or len(pool) < 4 or sampling <= SAMPLING_SHARE * (clock() - start)
            ):
                t0 = clock()
                det = self.determinize(state, seat, rng)
                sampling += clock() - t0
                pool.append(det)
                det = det.clone()
            else:
                det = pool[rng.randrange(len(pool))].clone()
            log = getattr(det, "_log", None) if deal_horizon else None
            if not isinstance(log, list):
                log = None
            # 2. Selection and expansion: UCB over the children available in this determinization.
            node = root
            path: list[Node] = []
            over = False
            pushed = False  # the root's push was just taken: the partner's choice comes next
            while not det.is_terminal():
                if pushed:
                    assert partner_choice is not None
                    pushed = False
                    a = partner_choice(det)
                    child = node.children.get(a.id)
                    if child is None:
                        child = node.children[a.id] = Node(det.current_player if det.current_player is not None else -1)
                        det.apply(a)
                        path.append(child)
                        break
                    det.apply(a)
                    path.append(child)
                    node = child
                    continue
                acts = det.legal_actions()
                player = det.current_player
                children = node.children
                untried = [a for a in acts if a.id not in children]
                if untried:
                    for a in acts:
                        ch = children.get(a.id)
                        if ch is not None:
                            ch.avail += 1
                    a = untried[int(uniform() * len(untried))] if len(untried) > 1 else untried[0]
                    child = Node(player if player is not None else -1)
                    children[a.id] = child
                    det.apply(a)
                    path.append(child)
                    over = log is not None and type(log[-1]) is tuple
                    pushed = a.id == push_id and node is root
                    break
                best: Node | None = None
                best_action = acts[0]
                best_value = -1.0
                for a in acts:
                    ch = children[a.id]
                    ch.avail += 1
                    value = ch.w / ch.n + c * sqrt(log_(ch.avail) / ch.n)
                    if value > best_value:
                        best, best_value, best_action = ch, value, a
                assert best is not None
                det.apply(best_action)
                path.append(best)
                pushed = best_action.id == push_id and node is root
                node = best
                if log is not None and type(log[-1]) is tuple:
                    over = True
                    break
            # 3. Playout to the end of the deal (a new chance outcome is logged) or of the game; with
            #    rollout=solve, to the deal's last cards, which the solver values.
            solved = None
            if not over:
                if pushed:  # the push was the node just added: the partner's choice as above
                    assert partner_choice is not None
                    det.apply(partner_choice(det))
                while not det.is_terminal():
                    if solved_scores is not None:
                        solved = solved_scores(det)
                        if solved is not None:
                            break
                    if policy is not None:
                        det.apply(policy(det))
                    else:
                        acts = det.legal_actions()
                        det.apply(acts[int(uniform() * len(acts))])
                    if log is not None and type(log[-1]) is tuple:
                        break
            # 4. Reward per seat, backed up to every node for the seat that moved into it.
            scores = det.scores() if solved is None else solved
            diffs = [scores[i] - root_scores[i] for i in range(n_players)]
            if one_side:
                # Coiffeur: only the announcing team writes, so the sheet's gain is never below 0
                # and a match writes 257: centred on the mean and scaled by the widest spread, every
                # card's reward fell in a sliver of [0, 1] and UCB visited the cards almost alike.
                # The team difference, scaled from the lowest to the highest seen, spans [0, 1].
                d = diffs[0] - diffs[1]
                low, high = min(low, d), max(high, d)
                r0 = (d - low) / (high - low) if high > low else 0.5
                rewards = [r0, 1 - r0, r0, 1 - r0]
            else:
                mean = sum(diffs) / n_players
                spread = max(abs(x - mean) for x in diffs)
                if spread > scale:
                    scale = spread
                rewards = [0.5 + (x - mean) / (2 * scale) for x in diffs] if scale else [0.5] * n_players
            if det.is_terminal():
                won = set(det.winners())
                rewards = [WIN_WEIGHT * (i in won) + (1 - WIN_WEIGHT) * r for i, r in enumerate(rewards)]
            for nd in path:
                nd.n += 1
                nd.w += rewards[nd.player] if 0 <= nd.player < n_players else 0.5
        # The most visited root action wins; ties go to the better mean, then to the first legal.
        chosen = legal[0]
        key = (-1, -1.0)
        for a in legal:
            ch = root.children.get(a.id)
            if ch is not None and (ch.n, ch.w / max(ch.n, 1)) > key:
                key = (ch.n, ch.w / max(ch.n, 1))
                chosen = a
        seconds = clock() - start
        self.last_stats = {
            "iterations": iterations,
            "seconds": seconds,
            "determinizations": len(pool),
            "sampling_seconds": sampling,
            "visits": {str(a): root.children[a.id].n for a in legal if a.id in root.children},
        }
        return chosen

    def announce_by_heuristic(self, state: State, seat: int, legal: list[Action]) -> Action:
        """A Coiffeur announcement (or push): the game's heuristic, from the seat's view. What a
        row of the sheet is worth lies in the deals still to come, past the end of the deal where
        the search stops: a playout of this deal alone values every mode by its multiplier, and
        spends the rows that count most first (its duel against the heuristic, docs/benchmarks.md)."""
        from .heuristic import policy_for

        start = time.perf_counter()
        policy = policy_for(state.game.name)
        assert policy is not None
        text = policy(seat_view(state, seat), None)
        self.last_stats = {"iterations": 0, "seconds": time.perf_counter() - start, "determinizations": 0}
        return next(a for a in legal if str(a) == text)

    def search_prediction(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """A prediction of the seat's own points (Differenzler): of a few candidates, the one with
        the smallest mean penalty in sampled deals played out by the game's heuristic
        (bots/predictions.py); one world for every ten iterations of the budget, at least 16."""
        from .heuristic import policy_for

        start = time.perf_counter()
        policy = policy_for(state.game.name)
        if policy is None:
            raise ValueError(f"{self.name}: {state.game.name} has no heuristic to play a prediction's worlds out")
        deadline = None if self.time is None else start + self.time
        worlds = max(16, self.iterations // 10)
        chosen, stats = predict(state, seat, legal, rng, policy, worlds, deadline)
        self.last_stats = {"iterations": int(stats["worlds"]), "seconds": time.perf_counter() - start,
                           "determinizations": int(stats["worlds"]), "mean_penalty": stats["mean_penalty"]}  # fmt: skip
        return chosen

    def search_native(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The same search with its iterations in C (stichkit.native.search): the first world
        comes from `determinize` (the door to hidden cards: `sample_hidden`, or the true state for
        `open`), the others from the C port of sample_hidden."""
        from stichkit.native.search import search

        start = time.perf_counter()
        world = self.determinize(state, seat, rng)
        seconds = None if self.time is None else max(self.time - (time.perf_counter() - start), 1e-6)
        action, stats = search(
            world, seat, iterations=self.iterations, seconds=seconds, c=self.c, determinizations=self.max_dets,
            deal_horizon=self.deal_horizon, push_heuristic=self.push_by_heuristic, seed=rng.getrandbits(64),
        )  # fmt: skip
        actions = state.game.actions
        stats["visits"] = {actions[a].text: n for a, n in stats["visits"].items()}
        stats["seconds"] = time.perf_counter() - start
        stats["engine"] = "c"
        self.last_stats = stats
        chosen = actions[action]
        assert chosen in legal
        return chosen

    def _settled(self, root: Node, legal: list[Action], done: int, start: float, deadline: float | None,
                 now: float) -> bool:  # fmt: skip
        """Whether the most visited root action leads by more visits than the budget has left."""
        first = second = 0
        for a in legal:
            ch = root.children.get(a.id)
            k = ch.n if ch is not None else 0
            if k > first:
                first, second = k, first
            elif k > second:
                second = k
        left = self.iterations - done
        if deadline is not None:
            rate = done / max(now - start, 1e-9)
            left = min(left, int(rate * max(deadline - now, 0.0)) + 1)
        return first - second > left

    def _solver(self, state: State) -> Callable[[State], list[int] | None] | None:
        """With rollout=solve (Coiffeur): the scores a world ends its deal with when its last cards
        are solved, or None while more are left (stichkit.analysis.coiffeur_solver). Measured against the
        heuristic it did not gain over random playouts (docs/benchmarks.md): fewer iterations, each
        worth more, came to about the same."""
        if self.rollout != "solve":
            return None
        if state.game.name != "coiffeur":
            raise ValueError(f"{self.name}: rollout=solve plays Coiffeur only, not {state.game.name}")
        from stichkit.analysis.coiffeur_solver import solved_scores

        return solved_scores

    def _partner_choice(self, state: State) -> Callable[[State], Action] | None:
        """The game's heuristic, deciding for whoever moves in a sampled world (None: no heuristic).
        It sees only that seat's view of the world, which `sample_hidden` drew."""
        from .heuristic import policy_for

        decide = policy_for(state.game.name)
        if decide is None:
            return None
        game = state.game

        def choose(s: State) -> Action:
            p = s.current_player
            assert p is not None
            view = s.view(p)
            if "legal_actions" not in view:
                view["legal_actions"] = [str(a) for a in s.legal_actions()]
            return game.parse_action(decide(view, None))

        return choose

    def _heuristic_policy(self, state: State, rng: random.Random) -> Callable[[State], Action]:
        """Playouts by the game's heuristic (slow: it builds a view per move); random if none."""
        from .heuristic import policy_for

        decide = policy_for(state.game.name)
        game = state.game
        if decide is None:
            return lambda s: rng.choice(s.legal_actions())

        def play(s: State) -> Action:
            p = s.current_player
            assert p is not None
            view = s.view(p)
            if "legal_actions" not in view:
                view["legal_actions"] = [str(a) for a in s.legal_actions()]
            return game.parse_action(decide(view, rng))

        return play
