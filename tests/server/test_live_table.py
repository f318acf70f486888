"""The live table's own bookkeeping, without a server: what it works out once per position must be
worked out again when a takeback puts the table on a new line of the same game."""

from __future__ import annotations

import time
from typing import Any

import stichkit
from stichkit.server.model import Seat, StoredTable
from stichkit.server.table import LiveTable


def live_jass(seed: int) -> LiveTable:
    now = time.time()
    stored = StoredTable(
        id="t", name="t", game="jass", options={}, private=False,
        settings={"takeover": "off", "grace": 30, "takeover_bot": "bot:random"}, status="playing", game_no=1, rev=0,
        created_at=now, updated_at=now, seats=[Seat(kind="bot", bot="random") for _ in range(4)], seed=seed,
        started_at=now,
    )  # fmt: skip
    none: Any = None  # no bots run here: the table is only asked which hand it is in
    return LiveTable(stored, stichkit.load_game("jass"), [none] * 4, none, now)


def play(t: LiveTable, actions: list[str]) -> None:
    for a in actions:
        t.state.apply(a)
        t.version += 1


def test_the_hand_is_worked_out_again_on_a_new_line() -> None:
    """A push is one decision more than naming trump, so after a takeback the same version can be
    in another hand: the hand at version v of the old line (the next deal) must not be reused for
    version v of the new line (still the last card of the first deal)."""
    t = live_jass(seed=5)
    first = t.state.current_player
    trump = next(str(a) for a in t.state.legal_actions() if str(a).startswith("trump:"))
    direct = stichkit.load_game("jass").new_state(seed=5)
    direct.apply(trump)
    cards: list[str] = []
    while direct.view(None)["deal_number"] == 0:
        a = str(direct.legal_actions()[0])
        cards.append(a)
        direct.apply(a)
    play(t, [trump, *cards])
    assert t.hand() == 1  # the second deal has begun
    t.take_back_to(0)
    assert t.state.current_player == first
    play(t, ["push", trump, *cards[:-1]])  # the same version, one card short of the deal's end
    assert t.version == 1 + len(cards)
    assert t.hand() == 0
