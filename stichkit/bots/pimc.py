"""`pimc`: Perfect Information Monte Carlo for Jass, on the exact double-dummy solver.

At every decision the bot draws worlds the moving seat cannot tell from the real state
(`state.sample_hidden(seat, rng)`: the other hands redealt, keeping the seat's hand, the cards
played, the voids the play revealed and the Weis shown) and solves each exactly with
`stichkit.analysis.solve`, the way GIB plays Bridge and Kermit plays Skat.

- **Cards:** from `horizon` cards left in the deal on (by default 28, from the third trick, with
  a clock of at least 1 s a decision, the budget pimc's strength was measured at; otherwise 24,
  from the fourth trick), every legal card gets the mean, over the worlds, of its margin for the
  seat's team over the rest of the deal with perfect play after it (the solver's `margins`: our points
  minus theirs, the match bonus included). The best mean wins; a tie goes to the card that was
  best in more worlds, then to the first legal one. Earlier card decisions are searched by
  `ismcts` at the same budget: the C solver needs 0.1-0.3 s for 28 cards left, about 1 s for
  32 and seconds to minutes for a whole deal on this machine today, far from a world per few milliseconds
  (`horizon=36` solves every card decision once the solver is fast enough). With
  `early=playout` those decisions are valued like a trump mode instead (below): each card, in
  each world, played on by the heuristic to `trump_horizon` cards, then solved.
- **Trump:** for every world and every trump mode of the profile, the deal is played by the Jass
  heuristic until `trump_horizon` cards are left (by default 24 with a clock of at least 1 s, else
  20) and solved exactly from there, for its value alone (`solve_value`: one search, not one per
  card; `trump_horizon=36`: solved from its first card). A mode is worth the mean of the deal's
  margin over the worlds: trick points, the last trick and the match, plus the Weis and Stöck
  that mode gives (the solver leaves them out; they come from the engine's own `best_weis`,
  `scoring_teams` and `STOECK_PAIR`: Stöck depend on the trump, the Weis only through its
  tie-breaks).
- **Push:** the partner chooses with its own hand only. In each world the partner's choice is
  modelled by the hand-evaluation rule of the Jass heuristic applied to the partner's hand in
  that world (`partner_mode`), and the push is worth the solved value of *that* mode in that
  world. A per-world maximum over the modes would let the partner see every hand and overvalue
  the push; this model is a realistic partner without that bias.
- **Race:** a game ends the moment a team reaches the target, even mid-deal. When a team could
  reach it in this deal (`can_end_this_deal`: public knowledge only), each world is also solved
  for the race (`stichkit.analysis.race.solve_race`: +1 our team gets there first, -1 theirs, 0
  neither this deal) and a card or mode scores `RACE_WEIGHT` x the race outcome plus the margin:
  the race decides, the points break ties. `race=off` plays for the deal's points only.
- **Inference:** a world is drawn from a few `sample_hidden` candidates, each weighted by how
  likely the public trump decisions of the deal are in it (sampling-importance-resampling): the
  player who chose trump more likely held a hand for that mode, and a forehand who pushed more
  likely held a weak one (and a forehand who named trump, a hand too good to push). The
  likelihoods come from the same hand-evaluation scores of that seat's hand in the world: a
  softmax over the modes for the choice, a logistic curve around the heuristic's push threshold
  for the push. With `infer=play` the cards the others played this deal count
  too: each such card is asked of the Jass heuristic again, from that seat's hand in the world
  and the view it had then (rebuilt from the public tricks, `past_plays`), and counts
  `1 - PLAY_MISS` if the heuristic would have played it, else an equal share of `PLAY_MISS`
  (the partner, this bot and not the heuristic, with the softer `PLAY_MISS_PARTNER`); the world
  is then drawn among `PLAY_CANDIDATES`. Only the view (who chose, the mode, the push, the
  tricks) and the drawn worlds enter, so the bot stays honest. Against players unlike the
  heuristic (ismcts: about half its cards are the heuristic's) this model misleads, however
  softly weighed; `infer=calibrated` (the default; `Calibration`) counts, over the game's
  finished deals, how often each player's card was the heuristic's and models only the players
  whose miss stays at most `CALIBRATION_TRUST`, each with its own miss: nobody in the first deal.
- **Budget:** `time` seconds per decision (default 1.0), an anytime loop that stops between
  worlds when the next one would not fit (one solve's time estimated from those before), and at
  most `samples` worlds. `samples` alone means no clock: the bot is then a pure function of its
  seed and the views it saw in this game (with `infer=calibrated`, which learns from a game's
  earlier deals; of the current view alone otherwise). A card decision also stops once no
  remaining world could change the choice.

Without the C solver (a build without a compiler) only the Python reference is there, which takes
seconds to minutes before the last tricks: the bot then solves only its last three tricks and
plays the earlier decisions by the Jass heuristic (`last_stats["fallback"]` says so).

The bot reads hidden cards only in worlds from `sample_hidden`; the real state gives it the
view, the legal actions and the copies. Jass only (`GAMES`).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, cast

from stichkit.core import Action, State
from stichkit.games.jass.cards import DECK, MODES, STOECK_PAIR, STOECK_POINTS
from stichkit.games.jass.rules import legal_cards, next_reference
from stichkit.games.jass.state import JassState
from stichkit.games.jass.weis import best_weis, scoring_teams

from .base import SEED, Bot, Param, View, seat_view, view_key
from .ismcts import ISMCTSBot, _check_positive_int, _check_seconds
from .jass_heuristic import PUSH_BELOW, Table, notrump_score, trump_suit_score
from .jass_heuristic import decide as jass_decide

DEFAULT_TIME = 1.0
DEFAULT_SAMPLES = 100  # with a clock: late in a deal solves are cheap, this bounds the loop
CANDIDATES = 4  # sample_hidden draws per world when inference weighs them
TRUMP_TEMPERATURE = 8.0  # softmax temperature over hand-evaluation scores (their units: ~10 per honour)
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


# The horizons by budget: with a clock of at least FULL_BUDGET seconds a decision, those the strength
# figures were measured with (docs/benchmarks.md, pimc); below it or without a clock, the cheaper ones.
FULL_BUDGET = 1.0
FULL_HORIZONS = (28, 24)
SHORT_HORIZONS = (24, 20)
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
    if value in ("ismcts", "playout"):
        return value, None
    return value, ("ismcts (the generic search at the same budget) or playout (each card: the heuristic "
                   "plays each world on until trump_horizon cards are left, then it is solved)")  # fmt: skip


EARLY = Param("early", "ismcts", "card decisions before the horizon: ismcts (searched at the same budget) or "
              "playout (the heuristic plays each world on to trump_horizon, then solved, as for trump)",
              _check_early)  # fmt: skip
RACE = Param("race", "on", "near the game's end: on (reaching the target first counts before points) or off",
             _check_race)  # fmt: skip
RACE_WEIGHT = 1000  # a world's race outcome (+1/0/-1) outweighs any margin of points (at most 257)
RACE_WEIS = 600  # about the most Weis one team claims in a deal: beyond, the race is not solved at the trump choice

INFER = Param("infer", "calibrated", "inference over the worlds: calibrated (by the deal's trump/push decisions "
              "and by the cards this deal of each player whose cards in the game's earlier deals were mostly "
              "the heuristic's), play (by the cards of every other player), trump (by the trump/push "
              "decisions only) or off", _check_infer)  # fmt: skip
PLAY_MISS = 0.25  # infer=play: the chance an opponent plays another card than the heuristic would
PLAY_MISS_PARTNER = 0.5  # the partner is this bot, not the heuristic: a weaker model of its cards
PLAY_CANDIDATES = 8  # infer=play: sample_hidden draws per world (the card likelihoods vary more)
CALIBRATION_PRIOR = 4  # infer=calibrated: a player's prior miss, CALIBRATION_PRIOR_MISS, counts as this many cards
CALIBRATION_PRIOR_MISS = 0.5  # infer=calibrated: before a player's cards are seen (half the heuristic's card)
CALIBRATION_TRUST = 0.3  # infer=calibrated: a player missing the heuristic's card more often is not modelled
CALIBRATION_WORLDS = 8  # infer=calibrated: worlds drawn from a deal's last view to count its hits
CALIBRATION_GAMES = 256  # infer=calibrated: games (and deals) remembered at once


def mode_score(hand: int, mode: int) -> float:
    """How good `mode` looks for `hand` to a quick hand evaluation (the Jass heuristic's rule)."""
    return trump_suit_score(hand, mode) if mode < 4 else notrump_score(hand, mode)


def partner_mode(hand: int, modes: tuple[int, ...]) -> int:
    """The mode a partner holding `hand` names after a push, in the push model (see the module)."""
    return max(modes, key=lambda m: mode_score(hand, m))


def choice_likelihood(hand: int, mode: int, modes: tuple[int, ...]) -> float:
    """How likely a player holding `hand` names `mode`: a softmax of the hand-evaluation scores."""
    scores = [mode_score(hand, m) for m in modes]
    top = max(scores)
    z = sum(math.exp((s - top) / TRUMP_TEMPERATURE) for s in scores)
    return math.exp((mode_score(hand, mode) - top) / TRUMP_TEMPERATURE) / z


def push_likelihood(hand: int, modes: tuple[int, ...]) -> float:
    """How likely a forehand holding `hand` pushes: high when its best mode scores below PUSH_BELOW."""
    best = max(mode_score(hand, m) for m in modes)
    return 1.0 / (1.0 + math.exp((best - PUSH_BELOW) / TRUMP_TEMPERATURE))


# One card another seat played this deal, with what that seat knew then (see `past_plays`).
Play = tuple[int, int, int, int, int, int, dict[str, Any], float]


def past_plays(view: View, me: int, misses: tuple[float | None, ...] | None = None) -> list[Play]:
    """Every card another seat played in this deal, in order, as (seat, card, the cards that seat had
    played before, the trick's length then, the suit led, the trick's reference trump, that seat's
    view then without its hand, the chance it plays another card than the heuristic would: per seat
    from `misses`, where None leaves that seat's cards out, else PLAY_MISS, the partner
    PLAY_MISS_PARTNER). All of it is public: the tricks, the trick in progress, the trump and the
    Weis shown."""
    mode = MODES.index(view["trump"])
    lowest_plain = view["options"].get("undertrump") == "jass-kit"
    done = view["tricks"]
    tricks = [(t["leader"], t["cards"]) for t in done]
    if view["trick"]:
        tricks.append((view["trick_leader"], [p["card"] for p in view["trick"]]))
    played = [0, 0, 0, 0]
    plays: list[Play] = []
    for number, (leader, cards) in enumerate(tricks):
        led = reference = -1
        prefix: list[dict[str, Any]] = []
        for i, name in enumerate(cards):
            s = (leader - i) & 3
            c = DECK.index[name]
            miss = PLAY_MISS_PARTNER if s == me ^ 2 else PLAY_MISS
            if misses is not None:
                miss = misses[s]
            if s != me and miss is not None:
                then = {"seat": s, "trump": view["trump"], "trump_chosen_by": view["trump_chosen_by"],
                        "hand_sizes": [9 - m.bit_count() for m in played], "tricks": done[:number],
                        "trick": list(prefix), "trick_leader": leader if prefix else None,
                        "weis": view["weis"] if number else []}  # fmt: skip
                plays.append((s, c, played[s], i, led, reference, then, miss))
            if i == 0:
                led, reference = c // 9, (c if c // 9 == mode else -1)
            elif c // 9 == mode:
                reference = next_reference(reference, c, lowest_plain)
            prefix.append({"seat": s, "card": name})
            played[s] |= 1 << c
    return plays


def _judged(hands: tuple[int, ...], plays: list[Play], mode: int) -> Iterator[tuple[int, int, bool, float] | None]:
    """Each unforced card of `plays` if the seats were dealt `hands`: (seat, its legal cards' count,
    whether the Jass heuristic would have played it, the play's miss); None if the card was not
    even legal there (the world cannot be), after which nothing more is given."""
    for s, card, before, n, led, reference, then, miss in plays:
        hand = hands[s] & ~before
        legal = legal_cards(hand, n, led, mode, reference)
        if not legal >> card & 1:
            yield None
            return
        k = legal.bit_count()
        if k < 2:
            continue
        then["hand"] = DECK.notation(hand)  # the one part of `then` that depends on the world
        yield s, k, Table(then, None).choose_card(legal) == card, miss


def play_likelihood(hands: tuple[int, ...], plays: list[Play], mode: int) -> float:
    """How likely the others' cards of this deal are if they were dealt `hands`: each card the Jass
    heuristic would have played from that hand counts 1 - miss, each other legal card an equal
    share of miss (a forced card counts 1)."""
    w = 1.0
    for judged in _judged(hands, plays, mode):
        if judged is None:
            return 0.0
        _, k, hit, miss = judged
        w *= 1.0 - miss if hit else miss / (k - 1)
    return w


def heuristic_hits(hands: tuple[int, ...], plays: list[Play], mode: int) -> tuple[list[int], list[int], float]:
    """Per seat, how many of its unforced cards in `plays` the Jass heuristic would have played
    from `hands`, and how many unforced cards it played (nothing if the world cannot be); with
    `play_likelihood` of the same, from the same judgements."""
    hits, cards, w = [0, 0, 0, 0], [0, 0, 0, 0], 1.0
    for judged in _judged(hands, plays, mode):
        if judged is None:
            return [0, 0, 0, 0], [0, 0, 0, 0], 0.0
        s, k, hit, miss = judged
        hits[s] += hit
        cards[s] += 1
        w *= 1.0 - miss if hit else miss / (k - 1)
    return hits, cards, w


class Calibration:
    """How often each other player of a game played the card the Jass heuristic would have, in the
    game's earlier deals (infer=calibrated): that player's miss for the card inference.

    A deal's cards are all public once it is over, but the view keeps only the current deal, so
    the bot remembers its own last view of each deal (from its last two cards on, when nearly
    every card is known) with a few `sample_hidden` worlds drawn from it then, and counts the
    hits in those worlds when it next sees the game. A game is told apart by the seat, the options
    and the summaries of its finished deals (`previous_deals`), so one bot can play many tables
    (the server shares one per worker); a deal whose end the bot did not see (made anew, or not
    asked) adds nothing."""

    def __init__(self) -> None:
        self.tally: dict[str, tuple[list[float], list[float]]] = {}
        self.pending: dict[tuple[Any, ...], tuple[View, list[tuple[int, int, int, int]]]] = {}

    @staticmethod
    def game_key(view: View, deals: int) -> str:
        """The game as this seat knows it after `deals` finished deals."""
        return json.dumps([view["seat"], view["options"], view["previous_deals"][:deals]], sort_keys=True)

    def remember(self, state: State, seat: int, view: View) -> None:
        """Keep the seat's view late in a deal, with worlds drawn from it, for `misses` next deal."""
        if view["phase"] != "play" or view["hand_sizes"][seat] > 2:
            return
        rng = random.Random(view_key(view))
        worlds = [start_hands(state.sample_hidden(seat, rng)) for _ in range(CALIBRATION_WORLDS)]
        key = (self.game_key(view, view["deal_number"]), view["trump"], view["forehand"],
               view["trump_chosen_by"], view["pushed"])  # fmt: skip
        self.pending.pop(key, None)
        self.pending[key] = (view, worlds)
        while len(self.pending) > CALIBRATION_GAMES:
            del self.pending[next(iter(self.pending))]

    def counts(self, view: View, deals: int | None = None) -> tuple[list[float], list[float]]:
        """Per seat: the heuristic's cards and all unforced cards it played in the game's first
        `deals` deals (default: all finished ones), means over the remembered worlds."""
        d: int = view["deal_number"] if deals is None else deals
        key = self.game_key(view, d)
        known = self.tally.get(key)
        if known is not None:
            return known
        hits, cards = [0.0] * 4, [0.0] * 4
        if d > 0:
            hits, cards = (list(x) for x in self.counts(view, d - 1))
            last = view["previous_deals"][d - 1]
            before = self.game_key(view, d - 1)
            seen = self.pending.pop((before, last["trump"], last["forehand"], last["chooser"], last["pushed"]), None)
            if seen is not None:
                then, worlds = seen
                me: int = then["seat"]
                plays, mode = past_plays(then, me), MODES.index(then["trump"])
                # The worlds differ only in the few cards not yet seen; each counts as likely as the
                # deal's cards are in it (by the prior misses), so the real deal weighs most.
                judged = [heuristic_hits(hands, plays, mode) for hands in worlds]
                total = sum(w for _, _, w in judged)
                if total <= 0:  # no world explains the cards (it should not happen): all alike
                    judged, total = [(h, c, 1.0) for h, c, _ in judged], float(len(judged))
                for wh, wc, weight in judged:
                    for s in range(4):
                        hits[s] += wh[s] * weight / total
                        cards[s] += wc[s] * weight / total
        self.tally[key] = (hits, cards)
        while len(self.tally) > CALIBRATION_GAMES:
            del self.tally[next(iter(self.tally))]
        return hits, cards

    def misses(self, view: View) -> tuple[float | None, ...]:
        """Each seat's chance of playing another card than the heuristic, or None for a seat not
        like it: CALIBRATION_PRIOR_MISS worth CALIBRATION_PRIOR cards, updated by the counted
        cards; above CALIBRATION_TRUST the seat's cards are left out. No deal over yet: nobody's
        cards are modelled (the trump decisions still are); a player like the heuristic's are once
        a deal or two bear it out."""
        hits, cards = self.counts(view)
        out: list[float | None] = []
        for s in range(4):
            miss = (CALIBRATION_PRIOR * CALIBRATION_PRIOR_MISS + cards[s] - hits[s]) / (CALIBRATION_PRIOR + cards[s])
            out.append(miss if miss <= CALIBRATION_TRUST else None)
        return tuple(out)


def start_hands(world: State) -> tuple[int, int, int, int]:
    """The four hands a world was dealt in its current deal (a world from sample_hidden: all its
    hands are the bot's own guess, so reading them is fair)."""
    return world._start  # type: ignore[attr-defined]


def extras(world: State, mode: int) -> tuple[int, int]:
    """The Weis and Stöck points each team gets in `world` if `mode` is trump (what the solver
    leaves out), from the engine's own functions and the game's options."""
    game = world.game
    profile = game.profile  # type: ignore[attr-defined]
    hands = start_hands(world)
    pts = [0, 0]
    if game.options["weis"] == "auto":
        weis = tuple(best_weis(h, profile) for h in hands)
        forehand = world._forehand  # type: ignore[attr-defined]
        for team in scoring_teams(weis, mode, forehand, profile):
            pts[team] += sum(w.points for seat in range(4) if seat & 1 == team for w in weis[seat])
    if game.options["stoeck"] and mode < 4:
        pair = STOECK_PAIR[mode]
        for seat in range(4):
            if hands[seat] & pair == pair:
                pts[seat & 1] += STOECK_POINTS
    return pts[0], pts[1]


def margins(sol: Any) -> dict[Action, int]:
    """Each legal card's margin (the mover's team's points minus the other team's, match
    included) from a Solution: its `margins` when it has them, else from `values`."""
    found: dict[Action, int] | None = getattr(sol, "margins", None)
    if found is not None:
        return found
    return {a: 2 * v - sol.remaining for a, v in sol.values.items()}


def _default_solve(state: State) -> Any:
    from stichkit.analysis import solve

    return solve(cast(JassState, state))


def _default_solve_value(state: State) -> Any:
    from stichkit.analysis import solve_value

    return solve_value(cast(JassState, state))


def _default_solve_race(state: State) -> Any:
    from stichkit.analysis.race import solve_race

    return solve_race(cast(JassState, state))


def race_matters(state: State) -> bool:
    """Whether a team could reach the target in this deal (public knowledge only)."""
    from stichkit.analysis.race import can_end_this_deal

    return can_end_this_deal(cast(JassState, state))


def fast_solver() -> bool:
    """Whether the C solver is built: without it a solve from early in a deal takes minutes."""
    from stichkit.analysis import c_available

    return bool(c_available())


class Budget:
    """A decision's budget of worlds: at most `samples`, and with `seconds`, stop between worlds
    once the next would not fit (at the mean time a world has taken so far). One rule for every
    decision, so no decision overruns the clock by more than its slowest world."""

    def __init__(self, samples: int, seconds: float | None) -> None:
        self.samples = samples
        self.start = self.now = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.done = 0  # worlds finished

    def __iter__(self) -> Iterator[int]:
        """The worlds to do, numbered; a world counts as done when the loop asks for the next."""
        while self.done < self.samples:
            self.now = now = time.perf_counter()
            if self.deadline is not None and self.done and now + (now - self.start) / self.done > self.deadline:
                return  # the next world would not fit: stop between worlds
            yield self.done
            self.done += 1

    def left(self) -> int:
        """How many worlds there may still be, the one about to be drawn included (at the last
        check's time)."""
        left = self.samples - self.done
        if self.deadline is not None and self.done:
            pace = max((self.now - self.start) / self.done, 1e-9)
            left = min(left, int((self.deadline - self.now) / pace) + 1)
        return left

    def seconds(self) -> float:
        return time.perf_counter() - self.start


class PIMCBot(Bot):
    """Samples worlds from the seat's view and solves each exactly (see the module)."""

    name = "pimc"
    cheats: ClassVar[bool] = False
    GAMES: ClassVar[tuple[str, ...] | None] = ("jass",)
    PARAMS = (TIME, SAMPLES, HORIZON, TRUMP_HORIZON, EARLY, INFER, RACE, SEED)

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
        horizons = FULL_HORIZONS if self.time is not None and self.time >= FULL_BUDGET else SHORT_HORIZONS
        if p["horizon"] is None:
            p["horizon"] = horizons[0]
        if p["trump_horizon"] is None:
            p["trump_horizon"] = horizons[1]
        self.horizon: int = p["horizon"]
        self.trump_horizon: int = p["trump_horizon"]
        self.race = p["race"] == "on"
        self.early_playout = p["early"] == "playout"
        # Before the horizon: the generic search at the same budget (no clock: a fixed iteration count).
        self.early = (
            ISMCTSBot(time=self.time, seed=p["seed"])
            if self.time is not None
            else ISMCTSBot(iterations=EARLY_ITERATIONS_PER_SAMPLE * self.samples, seed=p["seed"])
        )
        self.seed: int | None = p["seed"]
        self.solve: Callable[[State], Any] = _default_solve
        # A trump mode is worth the deal's value alone: one search, not one per card (solve_value).
        self.solve_value: Callable[[State], Any] = _default_solve_value
        self.solve_race: Callable[[State], Any] = _default_solve_race
        self.last_stats: dict[str, Any] = {}
        self._weighs: tuple[View, Callable[[tuple[int, ...]], float] | None] | None = None

    # -- the Bot API ----------------------------------------------------------------------------

    def choose(self, state_or_view: State | Mapping[str, Any], seat: int) -> Action:
        if not isinstance(state_or_view, State):
            raise ValueError(f"{self.name} needs a State to sample from (it solves sample_hidden worlds); "
                             "a view dict is not enough")  # fmt: skip
        state = state_or_view
        if state.game.name != "jass":
            raise ValueError(f"{self.name} plays only jass, not {state.game.name}")
        view = seat_view(state, seat)
        self._observe(state, seat, view)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"worlds": 0, "seconds": 0.0, "solves": 0}
            return legal[0]
        rng = random.Random(None if self.seed is None else self.seed * 1_000_003 + view_key(view))
        if self.solve is _default_solve and not fast_solver() and view["hand_sizes"][seat] > SLOW_SOLVER_TRICKS:
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
            self._weighs = (view, self._weigher(state, seat, view))
        weigh = self._weighs[1]
        if weigh is None:
            return state.sample_hidden(seat, rng)
        worlds = [state.sample_hidden(seat, rng) for _ in range(PLAY_CANDIDATES if self.infer_play else CANDIDATES)]
        weights = [weigh(start_hands(w)) for w in worlds]
        total = sum(weights)
        if total <= 0:
            return worlds[0]
        x = rng.random() * total
        for w, wt in zip(worlds, weights, strict=True):
            x -= wt
            if x < 0:
                return w
        return worlds[-1]

    def _weigher(self, state: State, seat: int, view: View) -> Callable[[tuple[int, ...]], float] | None:
        """The likelihood of the deal's public decisions given a world's hands (the trump decisions;
        with infer=play the others' cards too), or None if inference is off or nobody but the seat
        decided anything yet."""
        if not self.infer:
            return None
        modes: tuple[int, ...] = state.game.profile.trump_modes  # type: ignore[attr-defined]
        forehand: int = view["forehand"]
        pushed: bool = view["pushed"]
        chooser = view["trump_chosen_by"]
        mode = None if view["trump"] is None else MODES.index(view["trump"])
        pusher = forehand if pushed and forehand != seat else None
        named = chooser if chooser is not None and chooser != seat and mode is not None else None
        kept = forehand if named == forehand and not pushed else None  # it could have pushed, and did not
        misses = None if self.calibration is None else self.calibration.misses(view)
        plays = past_plays(view, seat, misses) if self.infer_play and mode is not None else []
        if pusher is None and named is None and not plays:
            return None

        def weigh(hands: tuple[int, ...]) -> float:
            w = play_likelihood(hands, plays, cast(int, mode)) if plays else 1.0
            if pusher is not None:
                w *= push_likelihood(hands[pusher], modes)
            if named is not None:
                assert mode is not None
                w *= choice_likelihood(hands[named], mode, modes)
                if kept is not None:
                    w *= 1.0 - push_likelihood(hands[kept], modes)
            return w

        return weigh

    # -- card play ------------------------------------------------------------------------------

    def _choose_card(self, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
        clock = time.perf_counter
        budget = Budget(self.samples, self.time)
        total = {a.id: 0.0 for a in legal}
        best_in = {a.id: 0 for a in legal}
        solving = 0.0
        swing = 0
        race = self.race and fast_solver() and race_matters(state)
        for worlds in budget:
            if worlds >= 8 and self._settled(total, swing, budget):
                break
            w = self.world(state, seat, view, rng)
            t0 = clock()
            sol = self.solve(w)
            if race:
                outcome = self.solve_race(w).outcomes
            solving += clock() - t0
            swing = max(swing, 2 * sol.remaining + 200 + (2 * RACE_WEIGHT if race else 0))  # the widest gap
            for a, v in margins(sol).items():
                total[a.id] += v + (RACE_WEIGHT * outcome[a] if race else 0)
            for a in sol.best:
                best_in[a.id] += 1
        chosen = max(legal, key=lambda a: (total[a.id], best_in[a.id], -legal.index(a)))
        self.last_stats = {
            "worlds": budget.done,
            "solves": budget.done,
            "seconds": budget.seconds(),
            "solving_seconds": solving,
            "race": race,
            "means": {str(a): total[a.id] / max(budget.done, 1) for a in legal},
        }
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
        race = self.race and fast_solver() and race_matters(state)
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

    @staticmethod
    def _race_before_play(state: State) -> bool:
        """At the trump choice: whether a team could reach the target in this deal (public: the
        scores, a deal's 157 points, last trick, match, Stöck and the Weis one team may claim)."""
        from stichkit.analysis.race import needs

        return min(needs(cast(JassState, state))) <= 157 + 5 + 100 + 20 + RACE_WEIS

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
        race = self.race and fast_solver() and self._race_before_play(state)
        for _ in budget:
            w = self.world(state, seat, view, rng)
            margin = {}
            for m in modes:
                world = cast(JassState, w.clone())
                world.apply(legal[[a.id for a in legal].index(TRUMP_ACTION + m)])
                bonus = extras(world, m)
                margin[m], n = self._playout_value(world, team, cast(JassState, w).deals_played, race)
                solves += n
                margin[m] += bonus[team] - bonus[team ^ 1]
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
