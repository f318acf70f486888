"""The race to the target: which cards win the game, with all hands known.

A Jass game ends the moment a team's score reaches the target, even in the middle of a deal
(docs/jass.md, rules 24-27): Stöck is claimed when the second of trump King and Queen is played,
or at once when it finishes the game (and at the first trick before the Weis, when it can help
finish), the Weis when the first trick is complete (the forehand's team first), each trick's
points when it is taken, the last-trick bonus and the match bonus with the last trick. `solve` values a card by
the deal's points; near the end of a game what counts is who gets there first. `solve_race` gives
every legal card of the player to move the outcome with perfect play after it: +1 the mover's team
reaches its target first, -1 the other team does, 0 neither does in this deal (the game goes on).

Only the C engine searches races (`race` of the C core, stichkit.native); tests/analysis/test_race.py
checks it against minimax through the engine itself, which ends games as the rules say.
"""

from __future__ import annotations

from dataclasses import dataclass

from stichkit.core.action import Action
from stichkit.games.jass.passe import target_of
from stichkit.games.jass.state import ACTIONS, JassState

from .solver import SolveError, _dds, c_arguments, position_of, remaining_points

MOST_WEIS = 1000  # more than one team's Weis of a deal can add up to (about 600 at most; the C search's limit)


@dataclass(frozen=True)
class Race:
    """The race outcome of each legal card, for the mover's team (see the module)."""

    player: int  # the seat to move
    team: int  # its team
    outcomes: dict[Action, int]  # +1 the mover's team reaches the target first, -1 the other, 0 neither this deal
    best: int  # the best outcome of them
    needs: tuple[int, int]  # points the mover's team and the other team still lack

    @property
    def winning(self) -> tuple[Action, ...]:
        """The cards reaching the best outcome."""
        return tuple(a for a, v in self.outcomes.items() if v == self.best)


def needs(state: JassState) -> tuple[int, int]:
    """Points each team (0, 1) still lacks to reach the game's target, in the deal's own points:
    a deal that counts double (option multipliers) needs half as many, rounded up, since all it
    writes is doubled alike."""
    target = target_of(state.game.options)  # never reached in a game of fixed deals
    scores = state.scores()
    m = state.multiplier or 1
    return -((scores[0] - target) // m), -((scores[1] - target) // m)


def can_end_this_deal(state: JassState) -> bool:
    """Whether a team could still reach its target in the deal being played, from what every
    player knows: the trick points left, the last trick, a match, Stöck while it can still be
    claimed, and Weis not shown yet counted at the most a deal's Weis can bring (no hidden card is
    read, so a bot may ask it about the real state)."""
    pos = position_of(state)
    view = state.view(None)
    options = state.game.options
    most = remaining_points(pos) + 100
    if options["stoeck"] and pos.trump < 4 and view["stoeck"] is None:
        most += 20
    if options["weis"] == "auto" and view["weis_scored_by"] is None:
        most += MOST_WEIS
    return min(needs(state)) <= most


def solve_race(state: JassState) -> Race:
    """The race outcome of every legal card of the player to move (see the module). `state` is
    not changed. Needs the C engine (SolveError without it)."""
    pos = position_of(state)
    if _dds is None:
        raise SolveError(
            "the race search needs the C solver (stichkit.native._jass is missing: reinstall with a C "
            "compiler, `pip install -e .`)"
        )
    n0, n1 = needs(state)
    stoeck, weis, first = state.pending_claims()  # Weis (0, 0) once the first trick showed them
    ausmachen = int(state.game.options["ausmachregel"] == "stoeck-weis-stich")
    pairs = _dds.race(c_arguments(pos), n0, n1, stoeck, weis[0], weis[1], first, ausmachen)
    team = pos.player & 1
    sign = -1 if team else 1
    outcomes = {ACTIONS[c]: sign * v for c, v in pairs}
    mine = (n1, n0) if team else (n0, n1)
    return Race(pos.player, team, outcomes, max(outcomes.values()), mine)
