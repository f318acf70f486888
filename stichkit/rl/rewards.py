"""Rewards: every game pays its final result at the end; optional shaping pays score changes early.

Final return per seat (the game's utility):
- Jass: +1 for both seats of the winning team, -1 for the other two (a zero-sum team game).
- Stichwahl, Stichling, Stich-Meister: by final rank, (seats it beats - seats that beat it) / (n - 1).
  A winner (`state.winners()`) beats every non-winner; non-winners are ranked by final score;
  equal ranks tie. So a clear winner gets +1, a clear last -1, and the returns sum to 0.

Shaping (`shaping="score"`, off by default) adds potential-based rewards: the potential of a seat
is half its score margin (Jass: own team minus the other team; otherwise own score minus the mean
of the others), divided by the game's scale and clipped to [-1, 1]. Each step pays the change of
the potential; the last step pays the final return minus the potential reached. So the rewards
of an episode still add up to exactly the final return, and partners in Jass always get equal
rewards. Scores change after each trick in Jass (and with Weis and Stöck), after each deal in
Stichwahl and Stichling and after each round in Stich-Meister, so that is the shaping's grain.
"""

from __future__ import annotations

from stichkit.core import Game, OptionError, State

SHAPINGS = (None, "score")


def check_shaping(shaping: object) -> str | None:
    if shaping not in SHAPINGS:
        raise OptionError(f"shaping={shaping!r} is not allowed; allowed: None (final result only) or 'score'")
    return None if shaping is None else str(shaping)


def final_returns(state: State) -> list[float]:
    """Each seat's return for a finished game (see the module docstring)."""
    game = state.game
    n = game.num_players
    winners = set(state.winners())
    if game.name == "jass":
        return [1.0 if s in winners else -1.0 for s in range(n)]
    if game.name == "coiffeur":  # two teams; a tie (all four win) is a draw
        return [0.0 if len(winners) == 4 else 1.0 if s in winners else -1.0 for s in range(n)]
    scores = state.scores()
    keys = [(s in winners, scores[s]) for s in range(n)]
    return [
        (sum(1 for t in range(n) if keys[s] > keys[t]) - sum(1 for t in range(n) if keys[s] < keys[t])) / (n - 1)
        for s in range(n)
    ]


def scale(game: Game) -> float:
    """The score margin that counts as a full potential of 1/2."""
    if game.name == "jass" and game.options.get("deals"):
        return 157.0 * game.options["deals"]  # a game of fixed deals: some 157 points a deal
    if game.name in ("jass", "stichwahl"):
        return float(game.options["target"])
    if game.name == "coiffeur":
        return 400.0 * game.new_state(seed=0).view(None)["deals"]  # some 400 sheet points a deal
    if game.name == "differenzler":
        return 30.0 * game.options["deals"]  # a fair penalty margin: some 30 points a deal
    return 18.0 if game.name == "stichling" else 20.0


def potentials(state: State, score_scale: float) -> list[float]:
    scores = state.scores()
    n = len(scores)
    margins: list[float]
    if state.game.name in ("jass", "coiffeur"):
        margins = [scores[s] - scores[(s + 1) % 4] for s in range(n)]
    else:
        total = sum(scores)
        margins = [scores[s] - (total - scores[s]) / (n - 1) for s in range(n)]
    return [0.5 * max(-1.0, min(1.0, m / score_scale)) for m in margins]


class Rewards:
    """Turns each new position into every seat's reward for the last step(s)."""

    def __init__(self, game: Game, shaping: str | None = None) -> None:
        self.shaping = check_shaping(shaping)
        self.n = game.num_players
        self.scale = scale(game)
        self.reached = [0.0] * self.n

    def reset(self, state: State) -> None:
        self.reached = potentials(state, self.scale) if self.shaping else [0.0] * self.n

    def step(self, state: State) -> list[float]:
        """Rewards earned since the last call (or reset), one per seat."""
        if state.is_terminal():
            final = final_returns(state)
            out = [f - r for f, r in zip(final, self.reached, strict=True)]
            self.reached = final
            return out
        if not self.shaping:
            return [0.0] * self.n
        now = potentials(state, self.scale)
        out = [a - b for a, b in zip(now, self.reached, strict=True)]
        self.reached = now
        return out
