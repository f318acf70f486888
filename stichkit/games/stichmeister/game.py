"""Stich-Meister as a Game: options, the action table, explicit deals and the random source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stichkit.core.errors import DealError
from stichkit.core.files import DataFile
from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .actions import ACTIONS
from .cards import deck_mask, hand_size
from .deals import RULE_HAND, deal_hands, parse_round_hands, parse_rule_deck, shuffle_rule_deck
from .rulecards import RULE_CARDS, RuleCard, RuleCardError, rule_cards_from
from .rules import PHASE_KINDS, compose
from .state import StichMeisterState


def _rule_file(value: DataFile | None) -> str | None:
    if value is not None:
        rule_cards_from(value)  # raises RuleCardError (an OptionError) naming the card and field
    return None


def _pruned_before(options: Mapping[str, Any]) -> bool:
    """Until 2026-11-22 the 3-player deck always left those four out: older 3-player games replay
    so (with 4 and 5 players every rule names cards in play, and the default says the same)."""
    return options.get("players", 4) == 3


class StichMeister(Game):
    """3 to 5 players; the players rewrite the rules with rule cards before every round."""

    name = "stichmeister"
    OPTIONS = (
        Option("players", 4, "number of players", choices=(3, 4, 5)),
        Option("first_player", 0, "the dealer of the first round: a seat number", kind=int),
        Option("rule_cards", None, "path of a corrected rule_cards.toml (None: the shipped file)", check=_rule_file,
               data_file="the rule card file"),
        Option("prune_trump_rules", False, "take the trump rules that name only cards out of the game (3 players: "
               "9, 12, 18, 19) out of the rule deck; the rulebook keeps all 60", choices=(False, True),
               before=_pruned_before),
    )  # fmt: skip

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["players"]
        if not 0 <= self.options["first_player"] < n:
            from stichkit.core.errors import OptionError

            raise OptionError(f"option first_player={self.options['first_player']!r} must be a seat 0..{n - 1}")
        self.num_players = n
        self.rounds = n
        data = self.files.get("rule_cards")
        self.rule_cards: tuple[RuleCard, ...] = RULE_CARDS if data is None else rule_cards_from(data)
        self.deck = deck_mask(n)
        self.hand_size = hand_size(n)
        # The rulebook keeps all 60 rule cards (with 3 players it takes out trick cards only); the
        # option takes out the trump rules that name only cards out of the game (3 players: 1s, 10s, 13s).
        self.rule_deck = tuple(
            c.number for c in self.rule_cards if not (self.options["prune_trump_rules"] and self._names_none(c))
        )
        self._check_playable()
        # The state's canonical Action objects: apply resolves them by identity.
        self._set_actions(ACTIONS)
        self._deals: dict[tuple[int, int], tuple[int, ...]] = {}  # deal_hands memo (clones redeal alike)

    def _check_playable(self) -> None:
        """A corrected rule-card file may not leave a round without a legal action: every setup
        phase must find its cards in the hands, and the discards must leave a card to play, for
        any rule cards that can meet in a round (one per chooser, 3 players: one from the pile)."""
        n = self.num_players
        meet = (n - 1 if n == 5 else n) + (1 if n == 3 else 0)
        deck = set(self.rule_deck)
        phases = [(c.number, c.effect_kind, int(c.effect["count"])) for c in self.rule_cards
                  if c.number in deck and c.effect_kind in PHASE_KINDS]  # fmt: skip
        for i, (number, _kind, count) in enumerate(phases):
            gone = sorted((k for _n, kind, k in phases[:i] if kind in ("discard", "face_down_last")), reverse=True)
            if self.hand_size - sum(gone[: meet - 1]) < count:
                raise RuleCardError(
                    f"with {n} players, rule card {number} needs {count} hand cards, but the rule cards before it "
                    f"can take {sum(gone[: meet - 1])} of the {self.hand_size}: a round could have no legal action"
                )
        discards = sorted(((k, number) for number, kind, k in phases if kind == "discard"), reverse=True)[:meet]
        if discards and self.hand_size - sum(k for k, _ in discards) < 1:
            cards = ", ".join(str(number) for _, number in sorted(discards, key=lambda d: d[1]))
            raise RuleCardError(
                f"with {n} players, rule cards {cards} together discard all {self.hand_size} hand cards: a round "
                "could have no card to play (no card left for a trick)"
            )

    def _names_none(self, card: RuleCard) -> bool:
        """A trump rule whose cards are all out of the game: in force, it makes no card trump."""
        named = compose([card]).static_trumps
        return card.kind == "trump" and bool(named) and not named[0][1] & self.deck

    def notation_help(self) -> str:
        return (
            "play a card: suit F M K T + value 1-15 (e.g. K4, T15); choose a rule card: rule:N; "
            "setup picks pass:CARD, down:CARD, show:CARD, discard:CARD; rule 34: remove:CARD"
        )

    def shuffle_rule_deck(self, seed: int) -> tuple[int, ...]:
        """The rule deck as the seed shuffles it (deals.shuffle_rule_deck)."""
        return shuffle_rule_deck(self.rule_deck, seed)

    def deal_hands(self, seed: int, number: int) -> tuple[int, ...]:
        """Round `number`'s deal: independent of play, so undo and redo deal the same."""
        key = (seed, number)
        hit = self._deals.get(key)
        if hit is not None:
            return hit
        if len(self._deals) >= 4096:
            self._deals.clear()
        hands = self._deals[key] = deal_hands(self.deck, self.num_players, self.hand_size, seed, number)
        return hands

    def new_state(self, seed: int | None = None, deal: Any = None) -> StichMeisterState:
        check_seed(seed)
        given: dict[Any, Any] = {}
        if deal is not None:
            given = self.parse_deal(deal)
        return StichMeisterState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> StichMeisterState:
        given: dict[Any, Any] = {}
        for i, c in enumerate(chances):
            if i == 0:
                if not isinstance(c, dict) or set(c) != {"rule_deck"}:
                    raise DealError('the first chance outcome is {"rule_deck": [...]}')
                given["rule_deck"] = self._parse_rule_deck(c["rule_deck"])
            else:
                if not isinstance(c, dict) or set(c) != {"hands"}:
                    raise DealError('a round\'s chance outcome is {"hands": [...]}')
                given[i - 1] = self._parse_hands(c["hands"])
        return StichMeisterState(self, fresh_seed() if seed is None else seed, given)

    def parse_deal(self, deal: Any) -> dict[Any, Any]:
        """An explicit first deal: {"hands": [[cards] per seat], optional "rule_deck": [all rule
        numbers, the first three per seat in seat order, then the pile top first], or optional
        "rule_hands": [[3 numbers] per seat] (the pile: the other numbers, ascending)}."""
        if not isinstance(deal, dict) or "hands" not in deal or set(deal) - {"hands", "rule_deck", "rule_hands"}:
            raise DealError('a Stich-Meister deal is {"hands": [...], optional "rule_deck" or "rule_hands"}')
        given: dict[Any, Any] = {0: self._parse_hands(deal["hands"])}
        if "rule_deck" in deal and "rule_hands" in deal:
            raise DealError('give "rule_deck" or "rule_hands", not both')
        if "rule_deck" in deal:
            given["rule_deck"] = self._parse_rule_deck(deal["rule_deck"])
        elif "rule_hands" in deal:
            rh = deal["rule_hands"]
            if not isinstance(rh, list | tuple) or len(rh) != self.num_players:
                raise DealError(f"rule_hands has one list of {RULE_HAND} rule numbers per seat")
            flat: list[Any] = []
            for s, h in enumerate(rh):
                if not isinstance(h, list | tuple) or len(h) != RULE_HAND:
                    raise DealError(f"seat {s}'s rule hand must have {RULE_HAND} rule numbers, not {h!r}")
                flat.extend(h)
            rest = [k for k in self.rule_deck if k not in flat]
            given["rule_deck"] = self._parse_rule_deck(flat + rest)
        return given

    def _parse_rule_deck(self, deck: Any) -> tuple[int, ...]:
        return parse_rule_deck(deck, self.rule_deck)

    def _parse_hands(self, hands: Any) -> tuple[int, ...]:
        return parse_round_hands(hands, self.deck, self.num_players, self.hand_size)
