"""What a seat may see of a Stichling game: its own hand and tile order, the trick places, the
tiles turned up, the tricks taken, and nothing more.

Another player's tile order stays hidden but for the tiles it has turned up (`tiles_seen`).
"""

from __future__ import annotations

from typing import Any

from .actions import PHASE_NAMES
from .cards import COLOURS, DEALS, ORDER_TEXTS, TILES, tile_value
from .position import StichlingFields
from .rules import OpenTrick


def view(st: StichlingFields, seat: int | None) -> dict[str, Any]:
    """`st` as `seat` sees it (None: a spectator, who sees no hand)."""
    deck = st._deck
    names = deck.names
    n = st._n
    deal = min(st._deal_no, DEALS - 1)

    def cards_json(cards: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
        return [{"seat": s, "card": names[c]} for s, c in cards]

    places: list[dict[str, Any] | None] = [
        None
        if t is None
        else {
            "place": i + 1,
            "led": COLOURS[t.led],
            "owner": t.owner,
            "best": names[t.cards[0][1]] if len(t.cards) == 1 else _best_card(st, t),
            "cards": cards_json(t.cards),
        }
        for i, t in enumerate(st._places)
    ]
    own_order: list[int] | None = None
    own_action: str | None = None
    if seat is not None and st._orders[seat] >= 0:
        own_order = [tile_value(deal, st._orders[seat], i) for i in range(3)]
        own_action = ORDER_TEXTS[st._orders[seat]]
    v: dict[str, Any] = {
        "game": "stichling",
        "seat": seat,
        "options": dict(st.game.options),
        "players": n,
        "phase": PHASE_NAMES[st._phase],
        "current_player": st.current_player,
        "deal_number": st._deal_no,
        "deals": DEALS,
        "starter": st._starter,
        "hand": [] if seat is None else deck.notation(st._hands[seat]),
        "hand_sizes": [h.bit_count() for h in st._hands],
        "tiles": list(TILES[deal]),
        "tile_order": own_order,
        "tile_order_action": own_action,
        "tiles_laid": [o >= 0 for o in st._orders],
        "places": places,
        "taken": list(st._taken),
        "face_up": [st.face_up(s) for s in range(n)],
        "tiles_seen": [_tiles_seen(st, s) for s in range(n)],
        "tricks": [
            {"place": i + 1, "led": COLOURS[led], "owner": owner, "cards": cards_json(cards)}
            for i, cards, led, owner in st._done
        ],
        "last_trick": _last_trick_json(st),
        "discarded": [
            {"place": i + 1, "led": COLOURS[led], "owner": owner, "cards": cards_json(cards)}
            for i, cards, led, owner in st._discarded
        ],
        "scores": list(st._scores),
        "previous_deals": [d.to_json() for d in st._summaries],
        "winners": st.winners() or None,
    }
    if seat is not None and seat == st.current_player:
        v["legal_actions"] = [a.text for a in st.legal_actions()]
    return v


def _best_card(st: StichlingFields, t: OpenTrick) -> str:
    deck = st._deck
    for _, c in t.cards:
        if deck.colour[c] == t.led and deck.value[c] == t.best:
            return deck.names[c]
    raise AssertionError("a trick without its best card")  # pragma: no cover


def _tiles_seen(st: StichlingFields, seat: int) -> list[int]:
    """The tiles of `seat` turned up so far this deal, by position (public: each was shown)."""
    k = min(st._taken[seat], 3)
    return [tile_value(st._deal_no, st._orders[seat], i) for i in range(k)]


def _last_trick_json(st: StichlingFields) -> dict[str, Any] | None:
    """The trick taken last (full, to its owner), even when it closed the previous deal (as Jass):
    its place, led colour, cards with their seats, who took it and the tile that turned up."""
    if st._done:
        deal, (i, cards, led, owner), tile = st._deal_no, st._done[-1], st.face_up(st._done[-1][3])
    elif st._summaries and st._summaries[-1].last_trick is not None:
        last = st._summaries[-1]
        deal, (i, cards, led, owner) = last.number, last.last_trick  # type: ignore[misc]
        tile = last.face_up[owner]
    else:
        return None
    names = st._deck.names
    return {
        "deal": deal, "place": i + 1, "led": COLOURS[led], "leader": cards[0][0],
        "cards": [{"seat": s, "card": names[c]} for s, c in cards], "winner": owner, "tile": tile,
    }  # fmt: skip
