"""The deals of a Stichwahl game: what a seed deals, and explicit deals.

A stored format: a record keeps only its seed and the decisions, so `deal_from_seed` must deal
the same for as long as records are replayed. A string seed makes `random.Random` hash it with
SHA-512, the same on every platform and Python version. The golden files in tests/golden/ pin
it; changing it is a new record version.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, NamedTuple

from stichkit.cards import bits
from stichkit.core.deals import parse_hands
from stichkit.core.errors import DealError

from .cards import ALL_CARDS, DECK, FAMILY_OF, FIRST_FIVE, NAMES, NO_FIVES

HAND_SIZE = 9
TRICKS_PER_DEAL = 8


class Deal(NamedTuple):
    """One deal's chance outcomes: the trump draws (redraws on a 5, the last decides), the hands
    as dealt, and the draw pile top first."""

    draws: tuple[int, ...]
    hands: tuple[int, ...]
    pile: tuple[int, ...]


@lru_cache(maxsize=512)
def deal_from_seed(seed: int, number: int, players: int) -> Deal:
    """Deal `number` of the game with this seed: a pure function of both (string-seeded
    random.Random hashes its seed with SHA-512: the same on every platform and Python run).

    Cached: search bots replay the same determinizations into the same next deal many times."""
    rng = random.Random(f"stichwahl/{seed}/{number}")
    deck = list(bits(NO_FIVES if players == 2 else ALL_CARDS))
    draws = []
    while True:
        c = rng.choice(deck)
        draws.append(c)
        if FAMILY_OF[c] >= 0:
            break
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players))
    return Deal(tuple(draws), hands, tuple(deck[HAND_SIZE * players :]))


def deal_json(deal: Deal) -> dict[str, Any]:
    return {
        "draws": [NAMES[c] for c in deal.draws],
        "hands": [DECK.notation(h) for h in deal.hands],
        "pile": [NAMES[c] for c in deal.pile],
    }


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
