"""Jass (Schieber) as a Game: its options, new games from a seed or an explicit deal, and the
notation help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import ACTIONS, ACTIONS_ANNOUNCED, ACTIONS_STOECK
from .announcements import AnnouncingJassState
from .deals import parse_deal
from .known_position import new_position
from .multipliers import SETS, canonical, factors, problem
from .passe import MAX_DEALS, check_deals
from .profiles import PROFILES, Profile
from .rules import UNDERTRUMP_RULES
from .state import JassState

AUSMACHREGELN = ("stoeck-weis-stich", "in-order")  # when both teams could reach the target in one deal

MAX_TARGET = 10**9  # a game that never ends (bench/jass_playout.py --endless plays to it)


def _positive(value: int) -> str | None:
    return None if value > 0 else "the target must be a positive number of points"


class Jass(Game):
    """Four players in two teams (seats 0+2 against 1+3), play counter-clockwise."""

    name = "jass"
    OPTIONS = (
        Option("profile", "seed", "rule profile", choices=("seed", "schieber")),
        Option(
            "target",
            1000,
            "points to win: a positive whole number (1000, 1500, 2000 on the sheet; schieber: 2500)",
            kind=int,
            check=_positive,
            maximum=MAX_TARGET,
            default_from=lambda o: PROFILES[o["profile"]].default_target,
        ),
        Option(
            "deals",
            0,
            "a game of fixed deals: 0 plays to the target; 1-1000 plays that many deals and the higher total "
            "wins, the target unused (12: a club's Passe)",
            kind=int,
            check=check_deals,
            maximum=MAX_DEALS,
        ),
        Option(
            "weis",
            "auto",
            "Weis: 'auto' declares each player's best set, 'announce' lets each player announce theirs with "
            "their first card (or stay silent), 'off' plays without",
            choices=("auto", "announce", "off"),
        ),
        Option(
            "stoeck",
            True,
            "Stöck: trump King and Queen in one hand score 20; 'announce': only when the player says "
            "'Stöck' with the second of them",
            choices=(True, False, "announce"),
        ),
        Option(
            "first_forehand",
            "start-card",
            "who chooses trump in the first deal: 'start-card' (the holder of Käse-7, D7) or a seat 0-3",
            choices=("start-card", 0, 1, 2, 3),
        ),
        Option(
            "undertrump",
            "swiss",
            "the trump a later trump may not go under: 'swiss' (the highest in the trick) or 'jass-kit' "
            "(jass-kit 2.0.5's reading, for its games)",
            choices=UNDERTRUMP_RULES,
        ),
        Option(
            "ausmachregel",
            "stoeck-weis-stich",
            "when both teams could reach the target in one deal: 'stoeck-weis-stich' (Stöck is shown as soon "
            "as it finishes the game, and at the first trick before the Weis) or 'in-order' (every point as it "
            "arises, Stöck with its second card)",
            choices=AUSMACHREGELN,
            before=lambda written: "in-order",  # games written before the option were played so
        ),
        Option(
            "multipliers",
            "none",
            "how many times a deal counts, by its trump mode: 'none' (all once), 'swisslos' (D, H once; S, C "
            "double; obe, une triple), 'one-to-four' (H, C once; D, S double; obe triple; une four times), or "
            "one factor 1-20 per mode as 'D=1,H=1,S=2,C=2,obe=3,une=3'",
            check=problem,
            suggested=tuple(SETS),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.profile: Profile = PROFILES[self.options["profile"]]
        self.options["multipliers"] = canonical(self.options["multipliers"])
        self.multipliers: tuple[int, ...] = factors(self.options["multipliers"])
        self.num_players = 4
        if not self.options["deals"]:
            # Played to the target: the option is left out, so that games, records and views
            # stay exactly as they were written before it existed (passe.py).
            del self.options["deals"]
        if self.options["stoeck"] == "announce":
            self._set_actions(ACTIONS_STOECK)
        else:
            self._set_actions(ACTIONS_ANNOUNCED if self.options["weis"] == "announce" else ACTIONS)
        # Chosen once: a game where nothing is said beside the cards plays the plain state, whose
        # card play never asks about announcements (announcements.py).
        said = self.options["stoeck"] == "announce" or self.options["weis"] == "announce"
        self._state_class: type[JassState] = AnnouncingJassState if said else JassState

    def notation_help(self) -> str:
        modes = "trump:D, trump:H, trump:S, trump:C" + (
            ", trump:obe, trump:une" if self.profile.name == "schieber" else ""
        )
        return f"play a card: suit D H S C + rank 6-10 J Q K A (e.g. D7, H10, SJ); choose trump by {modes}; or push"

    def new_state(self, seed: int | None = None, deal: Any = None) -> JassState:
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal)}
        return self._state_class(self, fresh_seed() if seed is None else seed, given)

    def new_position(
        self, seat: int, hand: Sequence[str], moves: Sequence[tuple[int, str]], seed: int | None = None
    ) -> JassState:
        """The first deal as `seat` knows it: `hand` is what it holds now, `moves` every decision of
        the deal so far as (seat, action). The other hands are drawn at random (fixed by `seed`)
        from the unseen cards, keeping every void the moves show; each move is checked by the rules.
        Needs weis="off" and stoeck=False. DealError or IllegalActionError says what cannot be."""
        state = new_position(self, seat, hand, moves, seed)
        assert isinstance(state, JassState)
        return state

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> JassState:
        """A state whose deals are `chances`, in order; later deals come from `seed` (fresh if None)."""
        return self._state_class(
            self, fresh_seed() if seed is None else seed, {i: parse_deal(c) for i, c in enumerate(chances)}
        )


__all__ = ["MAX_TARGET", "Jass", "parse_deal"]  # parse_deal lives in deals.py
