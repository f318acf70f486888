"""How long a bot's move takes to show: a time drawn before the bot thinks, independently of the
position.

A search bot that holds one legal card answers at once, and thinks its full clock otherwise; a
player who watches the clock would learn when a bot is forced (it holds no other card of the led
suit). So a bot's move shows at a pause drawn at random, never shorter than the bot may think
(its clock, and a margin for handing the game to a worker and back), nor than the server's pause
for people to follow (`--bot-delay`). The bot thinks during the pause, so the pause is the only
time anyone sees.
"""

from __future__ import annotations

import random

from .botrunner import SeatBot

MARGIN = 0.1  # seconds beyond a bot's clock: the game to a worker and back, a worker's replay of it
SLACK = 0.1  # and a tenth of the clock: a search stops at its clock, give or take
SPREAD = 0.5  # a pause is drawn from its least to half as long again


def least(bot: SeatBot, floor: float) -> float:
    """The shortest pause for `bot`'s moves: the floor, or the most the bot may take."""
    clock = bot.clock
    return max(floor, 0.0 if clock is None else clock * (1 + SLACK) + MARGIN)


def pause(bot: SeatBot, floor: float, rng: random.Random | None = None) -> float:
    """A pause for one move of `bot`, drawn from [least, 1.5 least]: the same for every position."""
    low = least(bot, floor)
    return low * (1 + SPREAD * (rng or random).random())
