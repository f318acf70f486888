"""pimc for Coiffeur: worlds drawn from the seat's view, each deal solved for what the announcing
team writes.

Each world's deal is solved by `stichkit.analysis.coiffeur_solver` (the C solver in Jass's modes,
the solver's Python reference for Slalom and Guschti): the row's multiplier scales every card of
the deal alike, so what the announcing team writes is what the seat's team gains or loses on the
sheet.

The announcement (or push) is searched by default (`announce=search`; `announce=heuristic`: the
heuristic's): each open mode and the push are played in every world (the heuristic plays to
`trump_horizon` cards, the solver the rest), and each is worth what it writes above what an
average hand writes in the same row (`ROW_VALUES`), times the row's multiplier: a row used now
is not used later.

A world is a state from `sample_hidden`: every hidden card in it is the bot's guess, so reading
its fields is fair (the real state gives the bot only its view, the legal actions and copies).
"""

from __future__ import annotations

import random
from typing import Any

from stichkit.analysis.coiffeur_solver import SLOW_HORIZON, announcer, card_values, deal_value, solvable
from stichkit.core import Action, State
from stichkit.games.coiffeur.actions import PUSHED, TRUMP

from ..base import View
from ..coiffeur_heuristic import choose_mode
from ..coiffeur_heuristic import decide as coiffeur_decide
from . import worlds
from .budget import Budgeted
from .worlds import after_each, card_by_worlds, deals_begun


def horizon(bot: Budgeted, world: State) -> int:
    """Most cards left for a card decision to be solved in this deal."""
    cards = bot.horizon_for(world)
    return cards if solvable(world) else min(cards, SLOW_HORIZON)


# -- the decisions -------------------------------------------------------------------------------


def choose(bot: Budgeted, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
    """A Coiffeur decision: the announcement by the worlds (`announce=search`) or the heuristic, a
    card by the worlds."""
    if view["phase"] in ("trump", "pushed"):
        if bot.announce == "search":
            return _announce(bot, state, seat, legal, rng)
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


def _card(bot: Budgeted, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
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


def _early_card(bot: Budgeted, state: State, seat: int, view: View, legal: list[Action],
                rng: random.Random) -> Action:  # fmt: skip
    """Before the horizon (`early=playout`): in each world each legal card is played, the heuristic
    plays on until `trump_horizon` cards are left (12 for Slalom and Guschti) and the rest is
    solved; the best mean for the seat's team wins."""
    sign, mult = _sign(view), _multiplier(view)

    def value(world: State) -> dict[int, float]:
        left = bot.trump_horizon if solvable(world) else min(bot.trump_horizon, SLOW_HORIZON)
        return after_each(legal, lambda w: sign * written_after_playout(w, left) * mult)(world)

    chosen, bot.last_stats = card_by_worlds(
        bot.budget(), legal, lambda: state.sample_hidden(seat, rng), value, by_best=False, solves=len(legal),
        stats={"early": "playout"},
    )  # fmt: skip
    return chosen


# -- the announcement ------------------------------------------------------------------------------

# What a row of each kind writes (before its multiplier) in a deal of random hands, the announcing
# team choosing the kind's mode as the heuristic does, each deal played by the heuristic to 24 cards
# left (12 in Slalom and Guschti) and solved from there: bench/coiffeur_announce.py --row-values 600
# (docs/benchmarks.md; each mean ± 4-7). A row announced now gives up what it would write later with
# another hand; an average hand's deal is what it can still earn.
# The four suits' means (83.9, 80.4, 80.7, 81.9, each ± 4.3) are one value: the suits are alike.
ROW_VALUES: dict[str, float] = {
    "D": 81.7, "H": 81.7, "S": 81.7, "C": 81.7, "obe": 82.8, "une": 78.1, "slalom": 126.4, "guschti": 111.6,
    "joker": 116.2,
}  # fmt: skip


def announced_value(world: State, team: int, cards_left: int) -> float:
    """What the deal of `world`, just after an announcement or a push, gains `team`'s sheet
    against an average hand's deal in the same row: the heuristic announces for any seat still
    asked (after a push), plays the deal to `cards_left` cards left (at most `SLOW_HORIZON` in
    Slalom and Guschti) and the rest is solved; (written - ROW_VALUES[row's kind]) x the row's
    multiplier, negated when the other team announced. `world` is played on."""
    w: Any = world
    while w._phase in (TRUMP, PUSHED):
        world.apply(world.game.parse_action(choose_mode(world.view(world.current_player))))
    kind, mult = w._sheet[w._row]
    left = cards_left if solvable(world) else min(cards_left, SLOW_HORIZON)
    chooser = announcer(world)
    gain = (written_after_playout(world, left) - ROW_VALUES[kind]) * mult
    return gain if chooser == team else -gain


def _announce(bot: Budgeted, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """`announce=search`: in each world every open mode is announced, and the push (the partner, or
    the next seat asked, then announces as the heuristic would), and each deal is valued by
    `announced_value` (`trump_horizon` cards solved); the best mean wins."""

    value = after_each(legal, lambda w: announced_value(w, seat & 1, bot.trump_horizon))
    chosen, bot.last_stats = card_by_worlds(
        bot.budget(), legal, lambda: state.sample_hidden(seat, rng), value, by_best=False, solves=len(legal),
        stats={"announce": "search"},
    )  # fmt: skip
    return chosen


__all__ = ["ROW_VALUES", "announced_value", "choose", "horizon", "play_to", "written_after_playout"]
