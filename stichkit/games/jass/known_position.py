"""A first deal as one seat knows it: its own hand and the moves so far, the rest drawn at random.

Other Jass programs describe a position by what one player sees (jass-kit's observation: the
tricks so far and the player's hand). A search bot needs a full State to sample from, so the
hidden hands are dealt at random from the unseen cards, keeping every void the moves show (the
same `cannot_hold` the engine infers while playing), and the moves are then replayed through the
engine, which checks each one. A position that no deal can explain is refused with the reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from stichkit.core.errors import DealError, IllegalActionError, OptionError
from stichkit.core.game import Game, fresh_seed
from stichkit.core.sampling import deal_constrained

from .cards import DECK
from .position import JassFields
from .rules import cannot_hold, next_reference

CARD_HELP = "a Jass card (suits D H S C, ranks 6-10 J Q K A)"


def new_position(game: Game, seat: int, hand: Sequence[str], moves: Sequence[tuple[int, str]],
                 seed: int | None = None) -> JassFields:  # fmt: skip
    """The first deal of `game` with `moves` played, where `seat` holds `hand` now; see the module."""
    if game.options["weis"] != "off" or game.options["stoeck"]:
        raise OptionError("a position from one seat's knowledge needs weis='off' and stoeck=False: shown Weis "
                          "and Stöck would depend on the hidden hands")  # fmt: skip
    if type(seat) is not int or not 0 <= seat < 4:
        raise DealError(f"seat {seat!r} is not a seat; seats are 0..3")
    own = _cards(hand, f"seat {seat}'s hand")
    plays: list[tuple[int, int]] = []  # (seat, card) in the order played
    trump = -1
    for i, move in enumerate(moves):
        if not isinstance(move, tuple | list) or len(move) != 2 or type(move[0]) is not int or not 0 <= move[0] < 4:
            raise IllegalActionError(f"move {i}: {move!r} is not (seat 0..3, action)", "unknown_action", {"move": i})
        who, text = move
        action = game.parse_action(text)
        if action.id < 36:
            if trump < 0:
                raise IllegalActionError(
                    f"move {i}: {action} is played before trump is chosen",
                    "not_legal_now",
                    {"expected": "trump", "move": i},
                )
            plays.append((who, action.id))
        elif action.text != "push":
            trump = action.id - 36
    played = [0, 0, 0, 0]
    for who, card in plays:
        if any(m >> card & 1 for m in played) or (own >> card & 1):
            raise DealError(f"{DECK.names[card]} is played twice, or played and still in seat {seat}'s hand")
        played[who] |= 1 << card
    if len(plays) > 36:
        raise DealError(f"{len(plays)} cards played; a deal has 36")
    left = 9 - played[seat].bit_count()
    if own.bit_count() != left:
        raise DealError(f"seat {seat} has played {9 - left} cards, so it holds {left}, not {own.bit_count()}")
    voids = _voids(plays, trump, game.options["undertrump"] == "jass-kit")
    hidden = [s for s in range(4) if s != seat]
    need = [9 - played[s].bit_count() for s in hidden]
    if min(need) < 0:
        raise DealError("a seat has played more than nine cards")
    unseen = DECK.full & ~own & ~(played[0] | played[1] | played[2] | played[3])
    cards = [c for c in range(36) if unseen >> c & 1]
    allowed = [sum(1 << i for i, s in enumerate(hidden) if not voids[s] >> c & 1) for c in cards]
    rng = random.Random(fresh_seed() if seed is None else seed)
    try:
        dealt = deal_constrained(cards, allowed, need, rng)
    except ValueError:
        raise DealError("no deal of the unseen cards fits the voids the moves show") from None
    hands = [0, 0, 0, 0]
    hands[seat] = own | played[seat]
    for i, s in enumerate(hidden):
        hands[s] = dealt[i] | played[s]
    state = game.new_state(seed=rng.getrandbits(63), deal={"hands": [DECK.notation(h) for h in hands]})
    assert isinstance(state, JassFields)
    for i, (who, text) in enumerate(moves):
        if state.current_player != who:
            to_move = "nobody (the game is over)" if state.current_player is None else f"seat {state.current_player}"
            raise IllegalActionError(
                f"move {i}: seat {who} plays {text}, but it is the turn of {to_move}", "not_your_turn",
                {"move": i, "seat": who, "turn": state.current_player},
            )  # fmt: skip
        try:
            state.apply(text)
        except IllegalActionError as e:
            raise IllegalActionError(f"move {i}: seat {who}: {e}", e.code, {**e.params, "move": i}) from None
        if state.deals_played > 1 and i < len(moves) - 1:
            raise IllegalActionError(
                f"move {i + 1}: the deal is over; a position is one deal", "game_over", {"move": i + 1}
            )
    return state


def _cards(texts: Any, what: str) -> int:
    if not isinstance(texts, list | tuple):
        raise DealError(f"{what} must be a list of cards, not {type(texts).__name__}")
    m = 0
    for t in texts:
        try:
            c = DECK.parse(t)
        except (KeyError, AttributeError, TypeError):
            raise DealError(f"{what}: {t!r} is not {CARD_HELP}") from None
        if m >> c & 1:
            raise DealError(f"{what}: {DECK.names[c]} is listed twice")
        m |= 1 << c
    return m


def _voids(plays: list[tuple[int, int]], trump: int, lowest_plain: bool) -> list[int]:
    """What the cards played show each seat no longer holds (four cards a trick, in order)."""
    voids = [0, 0, 0, 0]
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        led = trick[0][1] // 9
        reference = trick[0][1] if led == trump else -1
        for who, card in trick[1:]:
            if card // 9 != led:
                voids[who] |= cannot_hold(card, led, trump, reference)
            if card // 9 == trump:
                reference = next_reference(reference, card, lowest_plain)
    return voids
