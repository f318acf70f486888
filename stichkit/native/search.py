"""The ISMCTS search of stichkit.bots.ismcts with its iterations in C, for Jass: one call a decision.

The search is handed one world (a state the searching seat cannot tell from the real game: the
bot's `determinize`, i.e. `sample_hidden`), read through the seat's own view and each seat's view
of that world, as the deal's start hands and its actions so far (the sayings of weis="announce"
and stoeck="announce" among them, as the views show them). It replays them on the core,
then draws its further worlds in C by the rules of sample_hidden (ismcts.c). It never reads the
real state.
"""

from __future__ import annotations

from typing import Any

from stichkit.core import State
from stichkit.games.jass import DECK
from stichkit.games.jass.actions import ANNOUNCE, CALL_STOECK
from stichkit.games.jass.cards import MODES
from stichkit.games.jass.state import PUSH, TRUMP_ACTION

from . import core_options, load


def world_deal(world: State, seat: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The core's options (multipliers included) and (deal number, forehand, scores at the deal's start, start hands,
    the deal's actions) of a Jass world, from its views. The sayings are public and placed where the
    rules put them: an announced Weis (view "announced") just before its seat's first card, a
    Stöck scored by its call (stoeck="announce", view "stoeck") just before the second card of the
    pair, and the call the seat to search has just made (`calling`)."""
    v = world.view(seat)
    card = DECK.parse
    played = [0, 0, 0, 0]
    actions: list[int] = []
    if v["pushed"]:
        actions.append(PUSH)
    if v["trump"] is not None:
        actions.append(TRUMP_ACTION + MODES.index(v["trump"]))
    plays = [((t["leader"] - k) & 3, card(name)) for t in v["tricks"] for k, name in enumerate(t["cards"])]
    plays += [(p["seat"], card(p["card"])) for p in v["trick"]]
    announced = {a["seat"] for a in v["announced"] or ()}
    called = -1  # the card before which Stöck was called
    if v["options"]["stoeck"] == "announce" and v["stoeck"] is not None:
        pair = DECK.parse_set([v["trump"] + "K", v["trump"] + "Q"])
        called = [c for s, c in plays if s == v["stoeck"] and pair >> c & 1][-1]
    for s, c in plays:
        if s in announced:
            announced.discard(s)
            actions.append(ANNOUNCE)
        if c == called:
            actions.append(CALL_STOECK)
        played[s] |= 1 << c
        actions.append(c)
    actions.extend(ANNOUNCE for _ in announced)  # announced by the seat to move, its card to come
    hands = [DECK.parse_set((v if s == seat else world.view(s))["hand"]) for s in range(4)]
    start = tuple(hands[s] | played[s] for s in range(4))
    if calling(v, start[seat]):
        actions.append(CALL_STOECK)
    # Points are claimed as they arise: what this deal has claimed so far is its tally.
    scores = (v["scores"][0] - v["deal_points"][0], v["scores"][1] - v["deal_points"][1])
    return core_options(v["options"]), (v["deal_number"], v["forehand"], scores, start, actions)


def calling(view: dict[str, Any], dealt: int) -> bool:
    """Whether the seat of `view` (dealt `dealt`) has just said "Stöck" and is to play the second
    card of the pair: its one legal action is that card, where the call would be open beside it."""
    trump = view["trump"]
    if view["options"]["stoeck"] != "announce" or view["stoeck"] is not None or trump not in ("D", "H", "S", "C"):
        return False
    pair = DECK.parse_set([trump + "K", trump + "Q"])
    legal = view.get("legal_actions") or ()
    left = DECK.parse_set(view["hand"]) & pair
    return dealt & pair == pair and left.bit_count() == 1 and list(legal) == DECK.notation(left)


def search(world: State, seat: int, *, iterations: int, seconds: float | None, c: float, determinizations: int,
           deal_horizon: bool, push_heuristic: bool, seed: int) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """ISMCTS from `seat`'s information set, starting from `world`; the chosen action id and the
    search's figures (iterations, seconds, determinizations, nodes, visits per action id)."""
    module = load()
    assert module is not None, "the C extension is not built"
    options, deal = world_deal(world, seat)
    params = (iterations, seconds or 0.0, c, determinizations, deal_horizon, push_heuristic, seed)
    action, stats = module.search(options, deal, seat, params)
    return int(action), dict(stats)
