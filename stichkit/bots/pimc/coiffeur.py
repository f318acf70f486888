"""pimc for Coiffeur: worlds drawn from the seat's view, each deal solved for what the announcing
team writes.

Each world's deal is solved by `stichkit.analysis.coiffeur_solver` (the C solver in Jass's modes,
the solver's Python reference for Slalom and Guschti): the row's multiplier scales every card of
the deal alike, so what the announcing team writes is what the seat's team gains or loses on the
sheet. The announcement (or push) is the heuristic's: what a row is worth lies in the deals still
to come.

A world is a state from `sample_hidden`: every hidden card in it is the bot's guess, so reading
its fields is fair (the real state gives the bot only its view, the legal actions and copies).
"""

from __future__ import annotations

import random

from stichkit.analysis.coiffeur_solver import SLOW_HORIZON, card_values, deal_value, solvable
from stichkit.core import Action, State

from ..base import View
from ..coiffeur_heuristic import choose_mode
from ..coiffeur_heuristic import decide as coiffeur_decide
from . import worlds
from .budget import Budgeted
from .worlds import card_by_worlds, deals_begun


def horizon(bot: Budgeted, world: State) -> int:
    """Most cards left for a card decision to be solved in this deal."""
    cards = bot.horizon_for(world)
    return cards if solvable(world) else min(cards, SLOW_HORIZON)


# -- the decisions -------------------------------------------------------------------------------


def choose(bot: Budgeted, state: State, seat: int, view: View, legal: list[Action], rng: random.Random) -> Action:
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


__all__ = ["choose", "horizon", "play_to", "written_after_playout"]
