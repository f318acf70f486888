"""An exact double-dummy solver for the card play of a Jass deal.

With all four hands known, `solve` gives every legal card of the player to move the exact number of
points its team takes over the rest of the deal, both sides playing perfectly after that card.

What it counts: the points of the remaining tricks (the trick in progress included), the
last-trick bonus and the match bonus. Weis and Stöck are left out: they are fixed by the time the
cards are played (whoever holds them scores them whatever is played), so no card changes them.
The game's target is left out too: the engine may end a game in the middle of a deal when a team
reaches it, but the solver values the deal's card play as if it were played to the end, which is
what a card decision can change.

The search is zero-sum on the margin (the mover's team's points minus the other team's, the match
bonus included); the points in `Solution.values` follow from the margin. Two engines give the same
numbers: "python", the reference (plain alpha-beta with a transposition table, over the engine's
own rule functions), and "c", the solver of the C core `stichkit.native` (the same search with
equivalent cards merged, move ordering and a bigger table), used by default when it is built.
See docs/analysis.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stichkit import native
from stichkit.cards import bits
from stichkit.core.action import Action
from stichkit.core.errors import StichkitError
from stichkit.games.jass.cards import LAST_TRICK_BONUS, MATCH_BONUS, POINTS, STRENGTH
from stichkit.games.jass.rules import legal_cards, next_reference
from stichkit.games.jass.state import ACTIONS, JassState, PlayPosition

ENGINES = ("auto", "c", "python")
INF = 1 << 20

_dds: Any = native.load()  # the C core's solver, or None without the C extension


class SolveError(StichkitError):
    """A state the solver cannot solve, or an unknown engine; the message says what is allowed."""


def c_available() -> bool:
    """True when the C extension is built and importable."""
    return _dds is not None


def clear_table() -> None:
    """Make the C solver forget its transposition tables (the race search's too). It keeps them
    from one solve to the next (what they hold are facts about positions), so the next card of a
    deal, or a principal line, is solved mostly from the table; clear them to time a solve from
    scratch."""
    if _dds is not None:
        _dds.clear()


@dataclass(frozen=True)
class Solution:
    """The double-dummy values of the mover's legal cards; all numbers are points of the deal
    still to be won from this position (see the module)."""

    player: int  # the seat to move
    team: int  # its team: 0 (seats 0 and 2) or 1 (seats 1 and 3)
    values: dict[Action, int]  # each legal card: the points the mover's team takes from here
    value: int  # the best of them
    best: tuple[Action, ...]  # every card reaching `value`
    remaining: int  # trick points and last-trick bonus still to be won (the match bonus not included)
    margins: dict[Action, int]  # each legal card: the mover's team's points minus the other team's

    def loss(self, action: Action | str) -> int:
        """Points `action` gives away against the best card."""
        return self.value - self.values[self._action(action)]

    def other(self, action: Action | str) -> int:
        """The other team's points after `action`: `remaining - values[action]`, except that a
        match (all nine tricks to one team) adds its bonus to that team."""
        a = self._action(action)
        return self.values[a] - self.margins[a]

    def _action(self, action: Action | str) -> Action:
        if isinstance(action, Action) and action in self.values:
            return action
        text = action.text if isinstance(action, Action) else action
        for a in self.values:
            if a.text == text or a.text.lower() == str(text).lower():
                return a
        legal = ", ".join(a.text for a in self.values)
        raise SolveError(f"{text!r} is not a legal card here; the legal cards are {legal}")


def points_from_margin(margin: int, remaining: int) -> int:
    """The team's points from its margin: a match is `remaining + 100` (all to one team), and
    otherwise both teams' points add up to `remaining`."""
    if margin > remaining:
        return remaining + MATCH_BONUS
    if margin < -remaining:
        return 0
    return (remaining + margin) // 2


def position_of(state: Any) -> PlayPosition:
    """The state's card play, or SolveError saying why it has none."""
    if not isinstance(state, JassState):
        what = getattr(getattr(state, "game", None), "name", type(state).__name__)
        raise SolveError(f"the solver needs a Jass state at a card decision, not a {what} state")
    pos = state.play_position()
    if pos is None:
        if state.is_terminal():
            raise SolveError("the game is over: there is no card to play; solve a state where a card is to be played")
        raise SolveError(
            "trump is not chosen yet: the solver needs a card decision (a state after trump:... ), "
            "not the trump choice or the push"
        )
    return pos


def remaining_points(pos: PlayPosition) -> int:
    """Trick points still to be won (the trick in progress included) plus the last-trick bonus."""
    pts = POINTS[pos.trump]
    left = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    return sum(pts[c] for c in bits(left)) + sum(pts[c] for c in pos.trick) + LAST_TRICK_BONUS


def _checked(state: JassState, engine: str) -> PlayPosition:
    """The position to solve, once the engine asked for is known and at hand (else SolveError)."""
    if engine not in ENGINES:
        raise SolveError(f"unknown solver engine {engine!r}; the engines are {', '.join(ENGINES)}")
    if engine == "c" and _dds is None:
        raise SolveError(
            "the C solver is not built (stichkit.native._jass is missing: reinstall with a C compiler, "
            "`pip install -e .`); use engine='python' or 'auto'"
        )
    if engine == "auto" and _dds is None:
        native.missing()
    return position_of(state)


def solve(state: JassState, engine: str = "auto") -> Solution:
    """The exact value of every legal card of the player to move (see the module). `state` is
    not changed. engine: "auto" (C when built, else Python), "c" or "python"."""
    return solve_position(_checked(state, engine), engine)


def solve_position(pos: PlayPosition, engine: str = "auto") -> Solution:
    """`solve` on a card play given as plain values: a game that plays Jass's cards in one mode
    (Coiffeur's suits, Obenabe and Undenufe) builds its `PlayPosition` and is solved alike."""
    margins0 = solve_python(pos) if engine == "python" or _dds is None else solve_c(pos)
    return make_solution(pos, margins0)


@dataclass(frozen=True)
class Value:
    """The double-dummy value of a position and one card that reaches it (`solve_value`); the
    numbers are as in `Solution`."""

    player: int  # the seat to move
    team: int  # its team
    card: Action  # a best card (one of `Solution.best`)
    value: int  # the points the mover's team takes from here with best play (`Solution.value`)
    margin: int  # the mover's team's points minus the other team's
    remaining: int  # trick points and last-trick bonus still to be won


def solve_value(state: JassState, engine: str = "auto", threads: int = 1) -> Value:
    """The position's exact value and one best card, without the values of the other cards.

    Much faster than `solve` on early positions (one search over all the mover's cards instead of
    one per card): what a whole deal is worth, or which card to play, is all many uses need.
    `state` is not changed; engine as for `solve` (the Python engine takes the best of `solve`).
    threads=2 (C engine): the mover's cards are shared between two threads, each with its own
    table (docs/analysis.md: the same value, maybe another best card)."""
    return value_position(_checked(state, engine), engine, threads)


def value_position(pos: PlayPosition, engine: str = "auto", threads: int = 1) -> Value:
    """`solve_value` on a card play given as plain values (see `solve_position`)."""
    if threads not in (1, 2):
        raise SolveError(
            f"threads must be 1 or 2 (the C solver splits a value over at most two threads), not {threads!r}"
        )
    team = pos.player & 1
    sign = -1 if team else 1
    if engine == "python" or _dds is None:
        margins0 = solve_python(pos)
        card, margin0 = max(margins0.items(), key=lambda cm: (sign * cm[1], -cm[0]))
    else:
        card, margin0 = _dds.value(*c_arguments(pos), threads) if threads > 1 else _dds.value(*c_arguments(pos))
    remaining = remaining_points(pos)
    margin = sign * margin0
    return Value(pos.player, team, ACTIONS[card], points_from_margin(margin, remaining), margin, remaining)


@dataclass(frozen=True)
class Bounds:
    """Bounds on each legal card's margin (`solve_bounds`): the exact margin `Solution.margins`
    gives lies in [low, high] for every card; `complete` says whether every interval is at most
    `within` points wide (False: the node budget ran out first, and some are wider)."""

    player: int  # the seat to move
    team: int  # its team
    low: dict[Action, int]  # each legal card: the mover's team's margin is at least this
    high: dict[Action, int]  # and at most this
    within: int  # the width asked for
    complete: bool  # every interval is at most `within` wide
    remaining: int  # trick points and last-trick bonus still to be won
    nodes: int  # search nodes it took

    @property
    def margins(self) -> dict[Action, int]:
        """Each card's estimated margin, the middle of its bounds: off by at most half their width
        (`within / 2` when complete)."""
        return {a: (lo + self.high[a]) // 2 for a, lo in self.low.items()}


def solve_bounds(state: JassState, within: int, nodes: int = 0) -> Bounds:
    """Bounds on every legal card's margin, each at most `within` points wide, for as many as
    `nodes` search nodes (0: no budget). The C solver only (SolveError without it).

    Where the cards need only be ranked (pimc), the exact value of each is more than is needed,
    and the tests that pin a value down are the costliest of a solve. The cards take turns, one
    null-window test each, so a budget that runs out leaves every card with the bounds it reached;
    the bounds hold either way (a test cut short is dropped). `within=0` with no budget gives the
    exact margins of `solve`. `state` is not changed."""
    if not isinstance(within, int) or isinstance(within, bool) or within < 0:
        raise SolveError(f"within is a whole number of points, 0 or more, not {within!r}")
    if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 0:
        raise SolveError(f"nodes is a whole number, 0 (no budget) or more, not {nodes!r}")
    if _dds is None:
        raise SolveError(
            "solve_bounds needs the C solver (stichkit.native._jass), which is not built: reinstall with a C "
            "compiler (`pip install -e .`), or use solve, which has a Python engine"
        )
    pos = position_of(state)
    found, complete = _dds.bounds(*c_arguments(pos), within, nodes)
    team = pos.player & 1
    low, high = {}, {}
    for c, lo, hi in sorted(found):
        a = ACTIONS[c]
        low[a], high[a] = (-hi, -lo) if team else (lo, hi)
    nodes_searched = _dds.nodes()[0]
    return Bounds(pos.player, team, low, high, within, bool(complete), remaining_points(pos), nodes_searched)


def make_solution(pos: PlayPosition, margins0: dict[int, int]) -> Solution:
    """A Solution from the team-0 margins of each legal card."""
    team = pos.player & 1
    sign = -1 if team else 1
    remaining = remaining_points(pos)
    margins = {ACTIONS[c]: sign * margins0[c] for c in sorted(margins0)}  # in card order, whatever the engine
    values = {a: points_from_margin(m, remaining) for a, m in margins.items()}
    value = max(values.values())
    best = tuple(a for a, v in values.items() if v == value)
    return Solution(pos.player, team, values, value, best, remaining, margins)


def solve_c(pos: PlayPosition) -> dict[int, int]:
    """Team 0's margin after each legal card, from the C extension."""
    assert _dds is not None
    pairs = _dds.solve(*c_arguments(pos))
    return dict(pairs)


def brute_force_c(state: JassState) -> Solution:
    """The values of `solve`, by the C core's plain minimax (`_dds.brute`: no pruning, no
    table, its own scoring): a test tool to check the solver against, for positions with at most
    four tricks left (SolveError beyond, or without the extension)."""
    pos = position_of(state)
    if _dds is None:
        raise SolveError("the C brute force needs the C extension (stichkit.native._jass), which is not built")
    if pos.tricks_done < 5:
        raise SolveError(f"brute force takes at most 4 tricks left, not {9 - pos.tricks_done}")
    return make_solution(pos, dict(_dds.brute(*c_arguments(pos))))


def c_arguments(pos: PlayPosition) -> tuple[Any, ...]:
    """The position as the C search takes it."""
    return (
        pos.trump, int(pos.lowest_plain), *pos.hands, pos.trick, pos.led, pos.win_seat, pos.win_str,
        pos.best_trump, 9 - pos.tricks_done, won_flags(pos), pos.player,
    )  # fmt: skip


def won_flags(pos: PlayPosition) -> int:
    """Bit t set when team t has taken a trick of this deal (a match is still possible for a team
    only while the other has none)."""
    return (pos.tricks_won[0] > 0) | (pos.tricks_won[1] > 0) << 1


def solve_python(pos: PlayPosition) -> dict[int, int]:
    """Team 0's margin after each legal card: the reference search, every root card with a full window."""
    return _root(_Search((pos.trump,) * 9, pos.lowest_plain), pos)


def _root(search: _Search, pos: PlayPosition) -> dict[int, int]:
    """Each legal card's value by `search`, every root card with a full window."""
    mode = search.modes[pos.tricks_done]
    pts = sum(POINTS[mode][c] for c in pos.trick)
    out = {}
    legal = legal_cards(pos.hands[pos.player], len(pos.trick), pos.led, mode, pos.best_trump)
    for c in bits(legal):
        out[c] = search.card(
            c, pos.hands, len(pos.trick), pos.led, pos.win_seat, pos.win_str, pos.best_trump, pos.player,
            9 - pos.tricks_done, won_flags(pos), pts, -INF, INF,
        )  # fmt: skip
    return out


def _trick_modes(pos: PlayPosition, modes: tuple[int, ...] | None) -> tuple[int, ...]:
    """The nine tricks' modes (`pos.trump` for each when None), or SolveError saying what is wrong."""
    if modes is None:
        return (pos.trump,) * 9
    modes = tuple(modes)
    if len(modes) != 9 or any(not isinstance(m, int) or isinstance(m, bool) or not 0 <= m < 6 for m in modes):
        raise SolveError(f"modes are the nine tricks' modes, each 0-5 (a suit, Obenabe, Undenufe), not {modes!r}")
    if modes[pos.tricks_done] != pos.trump:
        raise SolveError(
            f"the position's trump {pos.trump} is not the mode {modes[pos.tricks_done]} of its trick "
            f"{pos.tricks_done + 1}: a position is played in its trick's mode"
        )
    return modes


def solve_points(
    pos: PlayPosition, team: int, modes: tuple[int, ...] | None = None, engine: str = "auto"
) -> dict[int, int]:
    """Each legal card of the mover (by card id): the points `team` takes over the rest of the
    deal (the trick in progress, the last-trick bonus and a match's bonus included) when `team`
    plays for as many points as it can and the other team for as few. `modes` gives each of the
    nine tricks its own mode (Coiffeur's Slalom and Guschti); None plays `pos.trump` throughout.

    In one mode for the whole deal a team's points are a non-decreasing function of the margin
    (`points_from_margin`), so the margin's search (the C solver, when built and engine allows)
    gives them; when the mode changes from trick to trick the points of a card depend on the trick
    it falls in, the two teams' points no longer add up to a fixed total, and the Python search
    plays for `team`'s points themselves."""
    if team not in (0, 1):
        raise SolveError(f"team is 0 (seats 0 and 2) or 1 (seats 1 and 3), not {team!r}")
    if engine not in ENGINES:
        raise SolveError(f"unknown solver engine {engine!r}; the engines are {', '.join(ENGINES)}")
    tricks = _trick_modes(pos, modes)
    if len(set(tricks[pos.tricks_done :])) == 1:
        sign = -1 if team else 1
        margins0 = solve_python(pos) if engine == "python" or _dds is None else solve_c(pos)
        remaining = remaining_points(pos)
        return {c: points_from_margin(sign * m, remaining) for c, m in sorted(margins0.items())}
    if engine == "c":
        raise SolveError("the C solver plays one mode for the whole deal; use engine='python' or 'auto'")
    weights = (1, 0) if team == 0 else (0, -1)  # team 0 maximises: team 1's points counted negative
    found = _root(_Search(tricks, pos.lowest_plain, weights), pos)
    return {c: v if team == 0 else -v for c, v in found.items()}


def value_points(pos: PlayPosition, team: int, modes: tuple[int, ...] | None = None, engine: str = "auto") -> int:
    """The points `team` takes over the rest of the deal with both sides playing best (as in
    `solve_points`): one search when the C solver plays the deal, else the best of `solve_points`."""
    tricks = _trick_modes(pos, modes)
    if len(set(tricks[pos.tricks_done :])) == 1 and engine != "python" and _dds is not None:
        val = value_position(pos, engine)
        # the other team's points are the mover's less its margin (a match included), as Solution.other
        return val.value if val.team == team else val.value - val.margin
    found = solve_points(pos, team, modes, engine).values()
    return max(found) if pos.player & 1 == team else min(found)


class _Search:
    """Alpha-beta on team 0's score over the engine's rules, each trick in its own mode; a
    transposition table on the hands at the start of each trick (with the leader and who has taken
    a trick, for the match). The score is `weights[t]` times the points of each trick team t takes
    (a match's bonus likewise): (1, -1) is team 0's margin, the zero-sum game of one mode; (1, 0)
    team 0's points; (0, -1) team 1's points, negated so that team 0 still maximises."""

    def __init__(self, modes: tuple[int, ...], lowest_plain: bool, weights: tuple[int, int] = (1, -1)) -> None:
        self.modes = modes
        self.lowest_plain = lowest_plain
        self.weights = weights
        self.strengths = tuple(STRENGTH[m] for m in modes)  # by trick number (0-8)
        self.points = tuple(POINTS[m] for m in modes)
        self.table: dict[tuple[tuple[int, ...], int, int], tuple[int, int]] = {}

    def trick(self, hands: tuple[int, ...], leader: int, left: int, won: int, alpha: int, beta: int) -> int:
        """Team 0's score over the `left` tricks from here, `leader` to lead."""
        key = (hands, leader, won)
        lo, hi = self.table.get(key, (-INF, INF))
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        v = self.play(hands, 0, -1, -1, -1, -1, leader, left, won, 0, a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def play(self, hands: tuple[int, ...], n: int, led: int, win_seat: int, win_str: int, ref: int, player: int,
             left: int, won: int, pts: int, alpha: int, beta: int) -> int:  # fmt: skip
        """Team 0's score with `player` to play the trick's card number `n` (0-3)."""
        legal = legal_cards(hands[player], n, led, self.modes[9 - left], ref)
        maximise = not player & 1
        best = -INF if maximise else INF
        for c in bits(legal):
            v = self.card(c, hands, n, led, win_seat, win_str, ref, player, left, won, pts, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def card(self, c: int, hands: tuple[int, ...], n: int, led: int, win_seat: int, win_str: int, ref: int,
             player: int, left: int, won: int, pts: int, alpha: int, beta: int) -> int:  # fmt: skip
        """Team 0's score after `player` plays card `c`."""
        h = list(hands)
        h[player] ^= 1 << c
        nh = tuple(h)
        trick = 9 - left
        trump = c // 9 == self.modes[trick]
        strength = self.strengths[trick]
        if n == 0:
            led = c // 9
            win_seat, win_str = player, strength[led][c]
            ref = c if trump else -1
        else:
            st = strength[led][c]
            if st > win_str:
                win_seat, win_str = player, st
            if trump:
                ref = next_reference(ref, c, self.lowest_plain)
        pts += self.points[trick][c]
        if n < 3:
            return self.play(nh, n + 1, led, win_seat, win_str, ref, (player + 3) & 3, left, won, pts, alpha, beta)
        team = win_seat & 1
        won |= 1 << team
        weight = self.weights[team]
        if left == 1:
            pts += LAST_TRICK_BONUS
            match = self.weights[0] if won == 1 else self.weights[1] if won == 2 else 0  # one team took every trick
            return weight * pts + match * MATCH_BONUS
        gain = weight * pts
        return gain + self.trick(nh, win_seat, left - 1, won, alpha - gain, beta - gain)
