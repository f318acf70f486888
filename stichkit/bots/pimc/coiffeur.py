"""pimc for Coiffeur: worlds drawn from the seat's view, each deal solved for what the announcing
team writes.

A Coiffeur deal is a two-sided game: the announcing team wants to write much, the other team
wants it to write little, and the row's multiplier scales every card of the deal alike. What the
announcing team writes is its points (257 for a match), a non-decreasing function of the margin
the Jass solver maximises, so in a deal played in one of Jass's modes (a suit, Obenabe, Undenufe)
the C solver's best play is the best play for the sheet too, and its values give each card's
written points exactly. Slalom and Guschti change the mode from trick to trick, which the C solver
does not play: their last `SLOW_HORIZON` cards are searched here in Python (alpha-beta over the
rules of each trick's mode), as are every mode's without the C extension. The announcement (or
push) is the heuristic's: what a row is worth lies in the deals still to come.

A world is a state from `sample_hidden`: every hidden card in it is the bot's guess, so reading
its fields is fair (the real state gives the bot only its view, the legal actions and copies).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stichkit.analysis import c_available
from stichkit.analysis.solver import solve_position, value_position
from stichkit.cards import bits
from stichkit.core import Action, State
from stichkit.games.coiffeur.actions import PLAY
from stichkit.games.coiffeur.cards import LAST_TRICK_BONUS, MATCH_BONUS, POINTS, STRENGTH, TRICK_MODES
from stichkit.games.coiffeur.rules import legal_cards, next_reference
from stichkit.games.jass.position import PlayPosition

from ..base import View
from ..coiffeur_heuristic import choose_mode
from ..coiffeur_heuristic import decide as coiffeur_decide

if TYPE_CHECKING:
    from .bot import PIMCBot

SLOW_HORIZON = 12  # Slalom, Guschti (and every mode without the C solver): searched in Python from here
SOLVE_FROM = 20  # ismcts's playouts (rollout=solve): the deal's last cards solved from here (C: about a ms)
JASS_MODES = 6  # play modes 0-5 are Jass's: one mode for the whole deal, the C solver plays them


def announcer(world: State) -> int:
    """The team that announced the deal being played."""
    return int(world._chooser) & 1  # type: ignore[attr-defined]


def solvable(world: State) -> bool:
    """Whether the C solver plays this world's deal (one of Jass's modes, the extension built)."""
    return int(world._play_mode) < JASS_MODES and c_available()  # type: ignore[attr-defined]


def horizon(bot: PIMCBot, world: State) -> int:
    """Most cards left for a card decision to be solved in this deal."""
    cards = bot.horizon_for(world)
    return cards if solvable(world) else min(cards, SLOW_HORIZON)


def position(world: State) -> PlayPosition:
    """The world's card play as the Jass solver reads it (a deal in one of Jass's modes)."""
    w: Any = world
    h = w._hands
    return PlayPosition(
        w._play_mode, False, (h[0], h[1], h[2], h[3]), tuple(w._trick), w._leader, w._led, w._win_seat, w._win_str,
        w._best_trump, len(w._tricks), (w._won[0], w._won[1]), w._player,
    )  # fmt: skip


def card_values(world: State) -> dict[int, int]:
    """Each legal card of the world's mover (by id): what the announcing team writes for the deal
    (before the multiplier) when that card is played and both sides play on perfectly."""
    w: Any = world
    team = announcer(world)
    taken = w._taken[team]
    if solvable(world):
        sol = solve_position(position(world))
        ours = w._player & 1 == team
        return {a.id: taken + (sol.values[a] if ours else sol.other(a)) for a in sol.values}
    search = Search(TRICK_MODES[w._play_mode], team)
    return {c: taken + v for c, v in search.root(w).items()}


def deal_value(world: State) -> int:
    """What the announcing team writes for the world's deal with perfect play from here."""
    w: Any = world
    team = announcer(world)
    taken = w._taken[team]
    if solvable(world):
        val = value_position(position(world))
        # the other team's points are the mover's less its margin (a match included), as Solution.other
        return taken + (val.value if val.team == team else val.value - val.margin)
    found = Search(TRICK_MODES[w._play_mode], team).root(w).values()
    return taken + (max(found) if w._player & 1 == team else min(found))


def solved_scores(world: State) -> list[int] | None:
    """Each seat's score (its team's sheet total) once the world's deal is played out perfectly from
    here, at a card decision with at most SOLVE_FROM cards left (SLOW_HORIZON in Python); None
    otherwise. ismcts's playouts with rollout=solve end here."""
    w: Any = world
    if w._phase != PLAY:
        return None  # a mode is still to be announced, or the game is over
    left = w._hands[0].bit_count() + w._hands[1].bit_count() + w._hands[2].bit_count() + w._hands[3].bit_count()
    if left > (SOLVE_FROM if solvable(world) else SLOW_HORIZON):
        return None
    totals = w.totals()
    totals[announcer(world)] += deal_value(world) * w._sheet[w._row][1]
    return [totals[0], totals[1], totals[0], totals[1]]


class Search:
    """Alpha-beta on the announcing team's points over the rest of the deal, each trick in its own
    mode (Slalom, Guschti), with a table at the start of each trick. Both sides play perfectly."""

    def __init__(self, modes: tuple[int, ...], team: int) -> None:
        self.modes = modes
        self.team = team
        self.table: dict[tuple[tuple[int, ...], int, int], tuple[int, int]] = {}

    def root(self, w: Any) -> dict[int, int]:
        """The announcing team's points from here after each legal card of the mover."""
        done = len(w._tricks)
        mode = self.modes[done]
        hands = (w._hands[0], w._hands[1], w._hands[2], w._hands[3])
        trick = tuple(w._trick)
        won = (w._won[0] > 0) | (w._won[1] > 0) << 1
        pts = sum(POINTS[mode][c] for c in trick)
        legal = legal_cards(hands[w._player], len(trick), w._led, mode, w._best_trump)
        return {
            c: self.card(c, hands, len(trick), w._led, w._win_seat, w._win_str, w._best_trump, w._player, done, won,
                         pts, -(1 << 20), 1 << 20)
            for c in bits(legal)
        }  # fmt: skip

    def trick(self, hands: tuple[int, ...], leader: int, done: int, won: int, alpha: int, beta: int) -> int:
        key = (hands, leader, won)
        lo, hi = self.table.get(key, (-(1 << 20), 1 << 20))
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        v = self.play(hands, 0, -1, -1, -1, -1, leader, done, won, 0, a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def play(self, hands: tuple[int, ...], n: int, led: int, win_seat: int, win_str: int, ref: int, player: int,
             done: int, won: int, pts: int, alpha: int, beta: int) -> int:  # fmt: skip
        legal = legal_cards(hands[player], n, led, self.modes[done], ref)
        maximise = player & 1 == self.team
        best = -(1 << 20) if maximise else 1 << 20
        for c in bits(legal):
            v = self.card(c, hands, n, led, win_seat, win_str, ref, player, done, won, pts, alpha, beta)
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
             player: int, done: int, won: int, pts: int, alpha: int, beta: int) -> int:  # fmt: skip
        """The announcing team's points from here after `player` plays `c`."""
        mode = self.modes[done]
        h = list(hands)
        h[player] ^= 1 << c
        nh = (h[0], h[1], h[2], h[3])
        strength = STRENGTH[mode]
        if n == 0:
            led = c // 9
            win_seat, win_str = player, strength[led][c]
            ref = c if led == mode else -1
        else:
            st = strength[led][c]
            if st > win_str:
                win_seat, win_str = player, st
            if c // 9 == mode:
                ref = next_reference(ref, c, False)
        pts += POINTS[mode][c]
        if n < 3:
            return self.play(nh, n + 1, led, win_seat, win_str, ref, (player + 3) & 3, done, won, pts, alpha, beta)
        winner = win_seat & 1
        won |= 1 << winner
        gain = pts if winner == self.team else 0
        if done == 8:
            gain += LAST_TRICK_BONUS if winner == self.team else 0
            return gain + (MATCH_BONUS if won == 1 << self.team else 0)
        return gain + self.trick(nh, win_seat, done + 1, won, alpha - gain, beta - gain)


def _deals(world: State) -> int:
    """Deals begun in `world` (every stichkit game with deals counts them so)."""
    return int(world.deals_played)  # type: ignore[attr-defined]


# -- the decisions -------------------------------------------------------------------------------


def choose(bot: PIMCBot, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
    """A Coiffeur decision: the announcement by the heuristic, a card by the worlds."""
    if view["phase"] in ("trump", "pushed"):
        bot.last_stats = {"worlds": 0, "seconds": 0.0, "solves": 0, "announce": "heuristic"}
        return state.game.parse_action(choose_mode(view))
    if sum(view["hand_sizes"]) > horizon(bot, state):
        if bot.early_kind(state) == "ismcts":
            return bot.early_by_ismcts(state, seat)
        return _early_card(bot, state, seat, view, legal, rng)
    return _card(bot, state, seat, view, legal, rng)


def _sign(view: View) -> int:
    """+1 for the announcing team (it wants much written), -1 for the other."""
    return 1 if view["seat"] & 1 == view["chooser"] & 1 else -1


def _multiplier(view: View) -> int:
    team = view["chooser"] & 1
    return int(view["sheets"][team]["rows"][view["row"]]["multiplier"])


def _card(bot: PIMCBot, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
    """Each legal card's mean, over the worlds, of what the sheet gains by it for the seat's team:
    the announcing team's written points (perfect play after the card) times the multiplier,
    negated for the other team."""
    sign, mult = _sign(view), _multiplier(view)
    total = {a.id: 0.0 for a in legal}
    best_in = {a.id: 0 for a in legal}
    budget = bot.budget()
    for _ in budget:
        world = state.sample_hidden(seat, rng)
        found = card_values(world)
        top = max(sign * v for v in found.values())
        for a in legal:
            total[a.id] += sign * found[a.id] * mult
            best_in[a.id] += sign * found[a.id] == top
    chosen = max(legal, key=lambda a: (total[a.id], best_in[a.id], -legal.index(a)))
    n = max(budget.done, 1)
    bot.last_stats = {"worlds": budget.done, "solves": budget.done, "seconds": budget.seconds(),
                      "means": {str(a): total[a.id] / n for a in legal}}  # fmt: skip
    return chosen


def play_to(world: State, cards_left: int) -> None:
    """Play `world` on by the Coiffeur heuristic (every seat from its own view of the world) until
    `cards_left` cards are left in the deal or the deal is over."""
    deal = _deals(world)
    while world.current_player is not None and _deals(world) == deal:
        view = world.view(world.current_player)
        if sum(view["hand_sizes"]) <= cards_left:
            return
        world.apply(world.game.parse_action(coiffeur_decide(view, None)))


def written_after_playout(world: State, cards_left: int) -> int:
    """What the announcing team writes for the world's deal: the heuristic's play down to
    `cards_left` cards, solved from there. `world` is played on."""
    deal = _deals(world)
    play_to(world, cards_left)
    if world.current_player is None or _deals(world) != deal:  # the deal ended in the playout
        return int(world.view(None)["previous_deals"][deal - 1]["written"])
    return deal_value(world)


def _early_card(bot: PIMCBot, state: State, seat: int, view: View, legal: list[Action],
                rng: random.Random) -> Action:  # fmt: skip
    """Before the horizon (`early=playout`): in each world each legal card is played, the heuristic
    plays on until `trump_horizon` cards are left (12 for Slalom and Guschti) and the rest is
    solved; the best mean for the seat's team wins."""
    sign, mult = _sign(view), _multiplier(view)
    total = {a.id: 0.0 for a in legal}
    budget = bot.budget()
    solves = 0
    for _ in budget:
        world = state.sample_hidden(seat, rng)
        left = bot.trump_horizon if solvable(world) else min(bot.trump_horizon, SLOW_HORIZON)
        for a in legal:
            w = world.clone()
            w.apply(a)
            total[a.id] += sign * written_after_playout(w, left) * mult
            solves += 1
    chosen = max(legal, key=lambda a: (total[a.id], -legal.index(a)))
    n = max(budget.done, 1)
    bot.last_stats = {"worlds": budget.done, "solves": solves, "seconds": budget.seconds(), "early": "playout",
                      "means": {str(a): total[a.id] / n for a in legal}}  # fmt: skip
    return chosen


__all__ = [
    "JASS_MODES", "SLOW_HORIZON", "SOLVE_FROM", "Search", "card_values", "choose", "deal_value", "position",
    "solvable", "solved_scores",
]  # fmt: skip
