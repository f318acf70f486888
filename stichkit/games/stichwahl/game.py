"""Stichwahl as a Game: options, explicit deals, and the action table."""

from __future__ import annotations

from typing import Any

from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError
from stichkit.core.files import DataFile
from stichkit.core.game import Game, check_seed, fresh_seed
from stichkit.core.options import Option

from .cards import ALL_CARDS, DECK, FAMILY_OF, FIRST_FIVE, NAMES, NO_FIVES, SHIPPED, CardTableError, table_from
from .state import HAND_SIZE, Deal, StichwahlState, action_texts

MAX_TARGET = 10**9  # a game that never ends (bench/jass_playout.py --endless plays to it)


def _positive(value: int) -> str | None:
    return None if value > 0 else "the target must be a positive number of points"


def _card_table(value: DataFile | None) -> str | None:
    if value is None:
        return None
    try:
        table_from(value)
    except CardTableError as e:
        return str(e)
    return None


class Stichwahl(Game):
    """3 or 4 players (2 without the 5s), each for themselves; play runs clockwise (seat + 1)."""

    name = "stichwahl"
    OPTIONS = (
        Option("players", 4, "number of players", choices=(4, 3, 2)),
        Option("first_player", 0, "the seat that starts the first deal (who last saw a whale)", kind=int),
        Option("target", 30, "points to end the game: a positive whole number (30 in the rulebook)", kind=int,
               check=_positive, maximum=MAX_TARGET),
        Option("next_deal", "left", "who starts a later deal: 'left' = the player left of the previous deal's "
               "starter, 'same' = first_player every deal", choices=("left", "same")),
        Option("top_up", "missing", "when the trick holds fewer cards than the prize's pearls, the winner draws "
               "'missing' = as many as missing, 'one' = one card (the rulebook's 'noch eine Karte' read literally)",
               choices=("missing", "one")),
        Option("cards", None, "a corrected card table (path of a TOML file like the shipped cards.toml); "
               "None = the shipped, reconstructed table", check=_card_table, data_file="the card table"),
    )  # fmt: skip

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.options["players"]
        fp = self.options["first_player"]
        if not 0 <= fp < n:
            from stichkit.core.errors import OptionError

            raise OptionError(f"option first_player={fp!r} is not allowed: a seat 0..{n - 1}")
        self.num_players = n
        data = self.files.get("cards")
        self.table = SHIPPED if data is None else table_from(data)
        self._set_actions(action_texts(n))

    def notation_help(self) -> str:
        return (
            "play a card: family O P N B + value 1-4, 6-9 (e.g. N2) or a 5 (5a 5b 5c 5d); "
            "bonus:N2 lays N2 as the first bonus card; use:O2 uses a flip bonus, use:O3:N a trump "
            f"bonus naming Narwal; prize:N2 chooses the prize; lead:0 .. lead:{self.num_players - 1} "
            "chooses the next leader"
        )

    def new_state(self, seed: int | None = None, deal: Any = None) -> StichwahlState:
        """A whole game. `deal` gives the first deal: {"draws": [...], "hands": [[9 cards] per seat],
        "pile": [...]} (see parse_deal)."""
        check_seed(seed)
        given = {} if deal is None else {0: parse_deal(deal, self.num_players)}
        return StichwahlState(self, fresh_seed() if seed is None else seed, given)

    def _state_from_chances(self, chances: list[Any], seed: int | None = None) -> StichwahlState:
        given = {i: parse_deal(c, self.num_players) for i, c in enumerate(chances)}
        return StichwahlState(self, fresh_seed() if seed is None else seed, given)


def _card(text: Any, where: str, deck: int) -> int:
    try:
        c = DECK.parse(text)
    except (KeyError, AttributeError, TypeError):
        raise DealError(f"{where}: {text!r} is not a Stichwahl card (O P N B + 1-4 or 6-9, or 5a-5d)") from None
    if not deck >> c & 1:
        raise DealError(f"{where}: {NAMES[c]} is not in the 2-player deck (the 5s are removed)")
    return c


def parse_deal(deal: Any, players: int) -> Deal:
    """A deal `{"draws": [card, ...], "hands": [[card x 9] per seat], "pile": [card, ...]}`.

    `draws`: the cards drawn for trump and marker, in order: 5s (drawn again) then one family card
    (its family is trump; value 1-4: the lowest card wins, 6-9: the highest). `hands`: 9 distinct
    cards per seat. `pile`: the draw pile, top first: exactly the cards not dealt (may be left out,
    then the undealt cards in card order; with 4 players it is empty)."""
    if not isinstance(deal, dict) or not {"draws", "hands"} <= set(deal) <= {"draws", "hands", "pile"}:
        raise DealError('a Stichwahl deal is {"draws": [cards], "hands": [[9 cards] per seat], "pile": [cards]}')
    deck = NO_FIVES if players == 2 else ALL_CARDS
    draws = deal["draws"]
    if not isinstance(draws, list | tuple) or not draws:
        raise DealError("'draws' is a non-empty list: the cards drawn for trump, 5s first (drawn again)")
    drawn = tuple(_card(t, "draws", deck) for t in draws)
    if FAMILY_OF[drawn[-1]] < 0 or any(c < FIRST_FIVE for c in drawn[:-1]):
        raise DealError("'draws': every draw but the last must be a 5 (drawn again), the last a family card")
    masks = parse_hands(
        deal["hands"],
        DECK,
        players=players,
        hand_size=HAND_SIZE,
        what=f"a deal for {players} players",
        card_help="a Stichwahl card (O P N B + 1-4 or 6-9, or 5a-5d)",
        allowed=deck,
        not_allowed="the 2-player deck (the 5s are removed)",
    )
    rest = deck & ~sum(masks)
    if "pile" in deal:
        raw = deal["pile"]
        if not isinstance(raw, list | tuple):
            raise DealError("'pile' is a list of cards, top first")
        seen = {c: f"seat {s}" for s, m in enumerate(masks) for c in range(36) if m >> c & 1}
        pile = []
        for text in raw:
            c = _card(text, "pile", deck)
            if c in seen:
                raise DealError(f"{NAMES[c]} is in the pile and also in {seen[c]}")
            seen[c] = "the pile"
            pile.append(c)
        missing = rest & ~sum(1 << c for c in pile)
        if missing:
            raise DealError(f"'pile' must hold every card not dealt; missing: {' '.join(DECK.notation(missing))}")
    else:
        pile = [c for c in range(36) if rest >> c & 1]
    return Deal(drawn, tuple(masks), tuple(pile))
