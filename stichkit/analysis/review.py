"""What `stich analyse` reports: every card decision of a Jass game solved with all hands known.

For each card played: the double-dummy best card(s), the value of the card played and the points
it lost against the best (`Solution.loss`); then, per deal and per seat, the points lost in total
and the number of errors (cards that lost points). Values are points of the deal still to be won
from that decision, counted as the solver counts them (trick points, last trick, match; not Weis
or Stöck, see solver.py). The JSON form is documented in docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stichkit.core.action import Action
from stichkit.games.jass.cards import MODES
from stichkit.games.jass.state import JassState

from .endgame import SeatTotal, from_the_first_deal, seat_totals, sum_totals
from .solver import SolveError, c_available, clear_table, points_from_margin, remaining_points, solve, solve_value

SCHEMA = "stichkit-analysis"
SCHEMA_VERSION = 1
GAMES_SCHEMA = "stichkit-analysis-games"  # many games of one file (a jass-kit game log)
GAMES_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Decision:
    """One card played, and what the solver says of it."""

    deal: int  # deal number, from 0
    trick: int  # trick of the deal, from 1
    seat: int
    played: str
    value: int  # points the seat's team takes from here after the card played
    best: tuple[str, ...]  # the cards with the best value
    best_value: int
    values: dict[str, int]  # every legal card
    # False (analyse with full=False, early in a deal): `values` holds only the card played and one
    # best card, `best` the best of these two; another card may be as good
    complete: bool = True

    @property
    def loss(self) -> int:
        return self.best_value - self.value

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "played": self.played,
            "value": self.value,
            "best": list(self.best),
            "best_value": self.best_value,
            "loss": self.loss,
            "values": dict(self.values),
            "complete": self.complete,
        }


@dataclass(frozen=True)
class Analysis:
    """A game's card decisions, solved. `deals` maps a deal number to its trump mode text."""

    options: dict[str, Any]
    engine: str
    decisions: tuple[Decision, ...]
    deals: dict[int, str] = field(default_factory=dict)

    def totals(self, deal: int | None = None) -> list[SeatTotal]:
        """Per seat: decisions, errors and points lost, over one deal or (None) the whole game."""
        return seat_totals(self.decisions, deal)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SCHEMA,
            "version": SCHEMA_VERSION,
            "game": "jass",
            "options": dict(self.options),
            "engine": self.engine,
            "decisions": [d.to_json() for d in self.decisions],
            "deals": [
                {"deal": n, "trump": trump, "seats": [t.to_json() for t in self.totals(n)]}
                for n, trump in sorted(self.deals.items())
            ],
            "seats": [t.to_json() for t in self.totals()],
        }


@dataclass(frozen=True)
class GameResult:
    """One game of a file of many (a jass-kit game log): its number (from 1), where it is in the
    file, its analysis, and what the jass-kit record says of it (dealer, date, player ids)."""

    number: int
    where: str
    analysis: Analysis
    jasskit: dict[str, Any] = field(default_factory=dict)


def games_json(results: Sequence[GameResult], skipped: Sequence[tuple[int, str, str]], engine: str) -> dict[str, Any]:
    """The JSON document of a file of many games: each game's own analysis document, the games
    skipped (number, where, why) and the totals per seat over every game analysed."""
    return {
        "format": GAMES_SCHEMA,
        "version": GAMES_SCHEMA_VERSION,
        "source": "jasskit",
        "engine": engine,
        "games": [
            {"game": r.number, "where": r.where, "jasskit": dict(r.jasskit), "analysis": r.analysis.to_json()}
            for r in results
        ],
        "skipped": [{"game": n, "where": where, "error": error} for n, where, error in skipped],
        "seats": [t.to_json() for t in sum_totals(r.analysis.totals() for r in results)],
    }


FULL_CARDS = 28  # a decision with at most this many cards in the hands is solved in full (from trick 3)


@dataclass(frozen=True)
class Part:
    """One deal of one game, solved on its own: a unit of work any process can take (it pickles).
    A deal's decisions share the solver's table; deals share nothing, so they may be solved in
    any order, in parallel, on other machines (`stich analyse --workers`)."""

    game: int  # the game's index in the list analysed
    deal: int  # deal number, from 0
    start: JassState  # the state before the deal's first action
    actions: tuple[tuple[int, Action], ...]  # the deal's (seat, action): trump choice, Weis, cards
    cards: int  # how many of them are card decisions
    engine: str
    full: bool


@dataclass(frozen=True)
class PartResult:
    """A deal's decisions, its trump mode and the solver engine that solved it."""

    game: int
    deal: int
    trump: str | None  # None: no card of the deal was played
    decisions: tuple[Decision, ...]
    engine: str


def parts(state: Any, engine: str = "auto", *, full: bool = True, game: int = 0) -> list[Part]:
    """The history of a Jass `state` (a replayed record) cut into its deals, from the first deal on.
    `state` is left as it was."""
    if not isinstance(state, JassState):
        what = getattr(getattr(state, "game", None), "name", type(state).__name__)
        raise SolveError(f"analysis needs a Jass game, not {what}")
    history = state.history()
    work = from_the_first_deal(state)  # the record's later deals stay in the state
    out: list[Part] = []
    actions: list[tuple[int, Action]] = []
    start, cards, deal = work.clone(), 0, work.deals_played
    for seat, action in history:
        if work.deals_played != deal:
            if actions:
                out.append(Part(game, deal - 1, start, tuple(actions), cards, engine, full))
            start, actions, cards, deal = work.clone(), [], 0, work.deals_played
        cards += action.id < 36 and work.play_position() is not None
        actions.append((seat, action))
        work.apply(action)
    if actions:
        out.append(Part(game, deal - 1, start, tuple(actions), cards, engine, full))
    return out


def analyse_part(part: Part, progress: Callable[[], None] | None = None) -> PartResult:
    """Solve every card decision of one deal; `progress()` is called after each. The solver's
    table is cleared first, so that what a deal's analysis says never depends on which deals the
    same process solved before (the one best card shown of a decision solved by value only could)."""
    python = part.engine == "python" or not c_available()
    if not python:
        clear_table()
    work = part.start.clone()
    decisions: list[Decision] = []
    trump: str | None = None
    for seat, action in part.actions:
        pos = work.play_position()
        if action.id < 36 and pos is not None:
            trump = MODES[pos.trump]
            where = (part.deal, pos.tricks_done + 1, seat, action.text)
            left = sum(h.bit_count() for h in pos.hands)
            # the Python engine's solve_value is a whole solve anyway
            if part.full or python or left <= FULL_CARDS:
                decisions.append(full_decision(work, action, part.engine, where))
            else:
                decisions.append(fast_decision(work, action, part.engine, where))
            if progress is not None:
                progress()
        work.apply(action)
    return PartResult(part.game, part.deal, trump, tuple(decisions), "python" if python else "c")


def assemble(state: JassState, results: Iterable[PartResult], engine: str = "auto") -> Analysis:
    """One game's analysis from the results of its parts, in any order. Its engine is the one
    that solved the parts ("c+python" if workers differed: the values are the same either way)."""
    ordered = sorted(results, key=lambda r: r.deal)
    used = engines_used([r.engine for r in ordered], engine)
    deals = {r.deal: r.trump for r in ordered if r.trump is not None}
    decisions = tuple(d for r in ordered for d in r.decisions)
    return Analysis(dict(state.game.options), used, decisions, deals)


def engines_used(used: Iterable[str], engine: str = "auto") -> str:
    """The engine(s) named by analyses or parts ("c", "python", or "c+python" when workers
    differed); with none, the one `engine` would choose here."""
    names = {name for u in used for name in u.split("+")}
    return "+".join(sorted(names)) or ("python" if engine == "python" or not c_available() else "c")


def analyse(state: Any, engine: str = "auto", progress: Callable[[int, int], None] | None = None, *,
            full: bool = True) -> Analysis:  # fmt: skip
    """Solve every card decision in the history of a Jass `state` (a replayed record), from its
    first deal on, in this process. `state` is left as it was. `progress(done, total)` is called
    after each one.

    full=True: each decision gets every legal card's value and every best card (`solve`).
    full=False: the same values, best values and points lost, much faster: a decision with more
    than FULL_CARDS cards in the hands (the first two tricks, where `solve` costs a whole-deal
    search per card) gets the position's value and one best card (`solve_value`) and the played
    card's value (`solve_value` after it), no other card's; it has `complete` False. The later
    decisions are cheap and solved in full. See docs/analysis.md ("What is solved, and how fast").
    For many deals at once on many processes: `parts`, `analyse_part` and `assemble`."""
    todo = parts(state, engine, full=full)
    total = sum(p.cards for p in todo)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    return assemble(state, [analyse_part(p, step) for p in todo], engine)


def full_decision(work: JassState, action: Action, engine: str, where: tuple[int, int, int, str]) -> Decision:
    """The decision with every legal card's value, from one `solve`."""
    sol = solve(work, engine=engine)
    values = {a.text: v for a, v in sol.values.items()}
    return Decision(*where, sol.values[action], tuple(a.text for a in sol.best), sol.value, values)


def fast_decision(work: JassState, action: Action, engine: str, where: tuple[int, int, int, str]) -> Decision:
    """The decision from `solve_value`: the position's value and one best card, and the played
    card's value from the position after it. `complete` is False: the other cards are not solved
    (a card that ends the game leaves no position after it: that decision is solved in full)."""
    best = solve_value(work, engine=engine)
    every = len(work.legal_actions())  # with one or two legal cards, both solved are all of them
    if best.card == action:
        values = {action.text: best.value}
    else:
        value = played_value(work, action, engine)
        if value is None:
            return full_decision(work, action, engine, where)
        both = sorted((best.card, action), key=lambda a: a.id)  # in card order, as `solve`
        values = {a.text: best.value if a == best.card else value for a in both}
    known_best = tuple(t for t, v in values.items() if v == best.value)
    return Decision(*where, values[action.text], known_best, best.value, values, complete=len(values) == every)


def played_value(work: JassState, action: Action, engine: str) -> int | None:
    """The points the mover's team takes after `action`: the value of the position after it (its
    mover may be on the other team), plus the trick it completes. None when there is no position
    after it in the same deal (the game ended on it; the deal's last card has no alternative)."""
    before = work.play_position()
    assert before is not None
    after_state = work.clone()
    after_state.apply(action)
    after = after_state.play_position()
    if after is None or after_state.deals_played != work.deals_played:
        return None
    team = before.player & 1
    rest = solve_value(after_state, engine=engine)
    margin = rest.margin if rest.team == team else -rest.margin
    taken = remaining_points(before) - remaining_points(after)  # the trick completed by the card, if any
    if after.tricks_won[team] > before.tricks_won[team]:
        margin += taken
    elif after.tricks_won[1 - team] > before.tricks_won[1 - team]:
        margin -= taken
    return points_from_margin(margin, remaining_points(before))
