"""pimc for Coiffeur: worlds drawn from the seat's view, each deal solved for what the announcing
team writes.

A Coiffeur deal is a two-sided game: the announcing team wants to write much, the other team
wants it to write little, and the row's multiplier scales every card of the deal alike. What the
announcing team writes is its points (257 for a match), a non-decreasing function of the margin
the Jass solver maximises, so in a deal played in one of Jass's modes (a suit, Obenabe, Undenufe)
the C solver's best play is the best play for the sheet too, and its values give each card's
written points exactly. Slalom and Guschti change the mode from trick to trick, which the C solver
does not play: their last `SLOW_HORIZON` cards are searched by the solver's Python reference, which
plays each trick in its own mode and for the announcing team's points (`solve_points`), as are
every mode's without the C extension. The announcement (or
push) is the heuristic's: what a row is worth lies in the deals still to come.

A world is a state from `sample_hidden`: every hidden card in it is the bot's guess, so reading
its fields is fair (the real state gives the bot only its view, the legal actions and copies).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stichkit.analysis import c_available
from stichkit.analysis.solver import solve_points, value_points
from stichkit.core import Action, State
from stichkit.games.coiffeur.actions import PLAY
from stichkit.games.coiffeur.cards import TRICK_MODES
from stichkit.games.jass.position import PlayPosition

from ..base import View
from ..coiffeur_heuristic import choose_mode
from ..coiffeur_heuristic import decide as coiffeur_decide
from . import worlds
from .worlds import card_by_worlds, deals_begun

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
    """The world's card play as the Jass solver reads it, in the mode of the trick being played
    (the nine tricks' modes are `TRICK_MODES[world._play_mode]`)."""
    w: Any = world
    h = w._hands
    return PlayPosition(
        TRICK_MODES[w._play_mode][len(w._tricks)], False, (h[0], h[1], h[2], h[3]), tuple(w._trick), w._leader,
        w._led, w._win_seat, w._win_str, w._best_trump, len(w._tricks), (w._won[0], w._won[1]), w._player,
    )  # fmt: skip


def card_values(world: State) -> dict[int, int]:
    """Each legal card of the world's mover (by id): what the announcing team writes for the deal
    (before the multiplier) when that card is played and both sides play on perfectly."""
    w: Any = world
    team = announcer(world)
    taken = w._taken[team]
    found = solve_points(position(world), team, TRICK_MODES[w._play_mode])
    return {c: taken + v for c, v in found.items()}


def deal_value(world: State) -> int:
    """What the announcing team writes for the world's deal with perfect play from here."""
    w: Any = world
    team = announcer(world)
    return int(w._taken[team]) + value_points(position(world), team, TRICK_MODES[w._play_mode])


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

    def value(world: State) -> dict[int, float]:
        return {c: sign * v * mult for c, v in card_values(world).items()}

    chosen, bot.last_stats = card_by_worlds(bot.budget(), legal, lambda: state.sample_hidden(seat, rng), value)
    return chosen


def play_to(world: State, cards_left: int) -> None:
    """Play `world` on by the Coiffeur heuristic (every seat from its own view of the world) until
    `cards_left` cards are left in the deal or the deal is over."""
    worlds.play_to(world, cards_left, coiffeur_decide)


def written_after_playout(world: State, cards_left: int) -> int:
    """What the announcing team writes for the world's deal: the heuristic's play down to
    `cards_left` cards, solved from there. `world` is played on."""
    deal = deals_begun(world)
    play_to(world, cards_left)
    if world.current_player is None or deals_begun(world) != deal:  # the deal ended in the playout
        return int(world.view(None)["previous_deals"][deal - 1]["written"])
    return deal_value(world)


def _early_card(bot: PIMCBot, state: State, seat: int, view: View, legal: list[Action],
                rng: random.Random) -> Action:  # fmt: skip
    """Before the horizon (`early=playout`): in each world each legal card is played, the heuristic
    plays on until `trump_horizon` cards are left (12 for Slalom and Guschti) and the rest is
    solved; the best mean for the seat's team wins."""
    sign, mult = _sign(view), _multiplier(view)

    def value(world: State) -> dict[int, float]:
        left = bot.trump_horizon if solvable(world) else min(bot.trump_horizon, SLOW_HORIZON)
        found: dict[int, float] = {}
        for a in legal:
            w = world.clone()
            w.apply(a)
            found[a.id] = sign * written_after_playout(w, left) * mult
        return found

    chosen, bot.last_stats = card_by_worlds(
        bot.budget(), legal, lambda: state.sample_hidden(seat, rng), value, by_best=False, solves=len(legal),
        stats={"early": "playout"},
    )  # fmt: skip
    return chosen


__all__ = [
    "JASS_MODES", "SLOW_HORIZON", "SOLVE_FROM", "card_values", "choose", "deal_value", "position",
    "solvable", "solved_scores",
]  # fmt: skip
