"""Building Stichling positions for the rule tests: explicit deals and scripted play."""

from __future__ import annotations

from typing import Any

import stichkit
from stichkit.games.stichling import StichlingState

TOP = {2: 6, 3: 9, 4: 12, 5: 15}


def deal(players: int, fixed: dict[int, list[str]]) -> dict[str, Any]:
    """A deal giving each seat its `fixed` cards, topped up to 12 with the remaining cards in
    deck order (G1, G2, ..., B top)."""
    cards = [c + str(v) for c in "GYPB" for v in range(1, TOP[players] + 1)]
    used = {c for hand in fixed.values() for c in hand}
    rest = [c for c in cards if c not in used]
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, []))
        while len(hand) < 12:
            hand.append(rest.pop(0))
        hands.append(hand)
    return {"hands": hands}


def new(
    players: int, fixed: dict[int, list[str]], orders: str | list[str] = "order:123", **options: Any
) -> StichlingState:
    """A game with this first deal, every seat's tiles laid out (one order for all, or per seat)."""
    game = stichkit.load_game("stichling", players=players, **options)
    state = game.new_state(seed=7, deal=deal(players, fixed))
    assert isinstance(state, StichlingState)
    lay_tiles(state, orders)
    return state


def lay_tiles(state: StichlingState, orders: str | list[str] = "order:123") -> None:
    n = state.game.num_players
    for _ in range(n):
        seat = state.current_player
        assert seat is not None
        state.apply(orders if isinstance(orders, str) else orders[seat])


def follow(state: StichlingState, card: str) -> str:
    """Play `card` onto the first open trick of its colour, else open a new trick; returns the action."""
    view = state.view(None)
    place = next((p["place"] for p in view["places"] if p is not None and p["led"] == card[0]), None)
    action = f"{card}>{place if place is not None else 'new'}"
    state.apply(action)
    return action


def legal_targets(state: StichlingState, card: str) -> list[str]:
    """Where `card` may go now: the part after '>' of each legal action with this card."""
    return [str(a).split(">")[1] for a in state.legal_actions() if str(a).split(">")[0] == card]
