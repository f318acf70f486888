"""Property tests: random Stichwahl games for 2, 3 and 4 players through the game-agnostic invariant
suite (tests/invariants.py, unchanged), with a Stichwahl adapter written from the rulebook."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import State
from tests.invariants import SEEDS, SUPPRESS, Adapter, Rates, check_random_game, data_chooser, random_chooser, tokens_in

FAMILIES = "OPNB"
DECK = [f + str(v) for f in FAMILIES for v in (1, 2, 3, 4, 6, 7, 8, 9)] + ["5a", "5b", "5c", "5d"]


def deck(game: stichkit.Game) -> list[str]:
    """RULINGS.md: 36 cards; the 2-player variant removes the 5s."""
    return DECK[:32] if game.num_players == 2 else DECK


def plays(view: dict[str, Any]) -> list[list[tuple[int, str]]]:
    """The current deal's tricks (finished, then the one on the table) as (seat, card)."""
    out = [[(p["seat"], p["card"]) for p in t["plays"]] for t in view["tricks"]]
    if view["trick"]:
        out.append([(p["seat"], p["card"]) for p in view["trick"]])
    return out


def out_of_hand(view: dict[str, Any]) -> list[str]:
    """Cards that left the hands in public: the first bonus cards (once turned up) and every played card."""
    first = view["first_bonus"] or []
    return [*first, *(c for t in plays(view) for _, c in t)]


def unseen(view: dict[str, Any]) -> int:
    """The draw pile (also what was drawn from it face down) and first bonus cards not yet turned up."""
    pending = sum(view["first_bonus_chosen"]) if view["first_bonus"] is None else 0
    return view["draw_pile"] + sum(view["from_draw_pile"]) + pending


def known_voids(view: dict[str, Any]) -> list[set[str]]:
    """A player who played a family card other than the led family holds none of the led family."""
    voids: list[set[str]] = [set() for _ in view["hand_sizes"]]
    for trick in plays(view):
        led = next((c[0] for _, c in trick if c[0] != "5"), None)
        seen_led = False
        for seat, card in trick:
            if card[0] == "5":
                continue
            if not seen_led:
                seen_led = True  # this card defines the led family
                continue
            if card[0] != led:
                voids[seat].add(led)  # type: ignore[arg-type]
    return voids


def scan_view(view: dict[str, Any]) -> dict[str, Any]:
    """`draws`: the trump card was drawn in public and shuffled back, so it may be in any hand; a
    `last_trick` of the previous deal (its cards were shuffled back too; check_view checks it)."""
    last = view["last_trick"]
    earlier = last is not None and last["deal"] != view["deal_number"]
    return {k: v for k, v in view.items() if k != "draws" and not (k == "last_trick" and earlier)}


def check_view(state: State, seat: int | None, view: dict[str, Any], fail: Any) -> None:
    last = view["last_trick"]
    if view["tricks"]:
        if last != {**view["tricks"][-1], "deal": view["deal_number"]}:
            fail(f"last_trick {last} is not the deal's last trick {view['tricks'][-1]}")
    elif view["deal_number"] == 0:
        if last is not None:
            fail(f"last_trick {last} before the first trick of the game")
    elif last is None or last["deal"] != view["deal_number"] - 1 or last["next_leader"] is not None:
        fail(f"last_trick {last} is not the previous deal's last trick")
    if last is not None and last != state.view(None)["last_trick"]:
        fail("last_trick differs between the seats' views")
    draws = view["draws"]
    if not draws or any(d[0] != "5" for d in draws[:-1]) or draws[-1][0] == "5":
        fail(f"draws {draws}: 5s are drawn again, the last draw is a family card")
    if [set(v) for v in view["void_families"]] != known_voids(view):
        fail(f"void_families {view['void_families']} differ from the plays {known_voids(view)}")
    n = len(view["hand_sizes"])
    for p in range(n):
        hand = state.view(p)["hand"]
        if any(c[0] in view["void_families"][p] for c in hand):
            fail(f"seat {p} is listed void in {view['void_families'][p]} but holds {hand}")
    if view["first_bonus"] is None and seat is not None:
        others = [state.view(p)["my_first_bonus"] for p in range(n) if p != seat]
        leaked = {c for c in others if c} & tokens_in(scan_view(view)) - set(view["hand"])
        if leaked:
            fail(f"hidden first bonus cards {leaked} in view({seat})")


def check_scores(state: State, fail: Any) -> None:
    v = state.view(None)
    sc = list(state.scores())
    totals = [0] * len(sc)
    for d in v["previous_deals"]:
        for s in range(len(sc)):
            want = d["point_piles"][s] + d["unused_bonus"][s] // 2  # seed line 13: 1 per 2 unused bonus cards
            if d["points"][s] != want:
                fail(f"deal {d['deal']} seat {s}: {d['points'][s]} points, expected {want}")
            totals[s] += d["points"][s]
    if totals != sc:
        fail(f"scores {sc} != sum over deals {totals}")
    target = state.game.options["target"]
    if state.is_terminal():
        w = list(state.winners())
        if len(w) != 1 or sc[w[0]] < target or sorted(sc)[-2] == sc[w[0]]:
            fail(f"winners {w} with scores {sc}, target {target}")
    elif (
        v["previous_deals"]
        and max(sc) >= target
        and sorted(sc)[-1] != sorted(sc)[-2]
        and v["phase"] == "first_bonus"
        and not any(v["first_bonus_chosen"])
    ):
        fail(f"someone reached {target} alone ({sc}) but the game goes on")


def check_sample(state: State, sample: State, seat: int, fail: Any) -> None:
    voids = known_voids(state.view(seat))
    for p in range(len(voids)):
        if p == seat:
            continue
        bad = {c for c in sample.view(p)["hand"] if c[0] in voids[p]}
        if bad:
            fail(f"seat {p} showed void in {voids[p]} but was given {sorted(bad)}")


STICHWAHL = Adapter(
    name="stichwahl",
    deck=deck,
    out_of_hand=out_of_hand,
    unseen_count=unseen,
    scan_view=scan_view,
    check_view=check_view,
    check_scores=check_scores,
    check_sample=check_sample,
)

PLAYERS = st.sampled_from([2, 3, 4])


@settings(max_examples=15, deadline=None, suppress_health_check=SUPPRESS)
@given(
    data=st.data(),
    players=PLAYERS,
    target=st.sampled_from([5, 10, 15]),
    top_up=st.sampled_from(["missing", "one"]),
    seed=SEEDS,
    rng_seed=SEEDS,
)
def test_short_games(data: Any, players: int, target: int, top_up: str, seed: int, rng_seed: int) -> None:
    """Short games (low targets), every check at every step; choices shrink to the first action."""
    game = stichkit.load_game("stichwahl", players=players, target=target, first_player=seed % players, top_up=top_up)
    check_random_game(game, STICHWAHL, seed, data_chooser(data), random.Random(rng_seed))


LIGHT = Rates(step=0.3, illegal=0.03, replay=0.02, clone=0.02, sample=0.02, max_samples=3)


@settings(max_examples=6, deadline=None, suppress_health_check=SUPPRESS)
@given(players=PLAYERS, next_deal=st.sampled_from(["left", "same"]), seed=SEEDS, rng_seed=SEEDS)
def test_whole_games(players: int, next_deal: str, seed: int, rng_seed: int) -> None:
    """Whole games to 30, several deals, the undo chain over all of them."""
    game = stichkit.load_game("stichwahl", players=players, next_deal=next_deal)
    rng = random.Random(rng_seed)
    check_random_game(game, STICHWAHL, seed, random_chooser(rng), rng, LIGHT)


def test_each_player_count_once() -> None:
    """A fixed game per player count, so a plain run covers 2, 3 and 4 players whatever hypothesis draws."""
    for players in (2, 3, 4):
        game = stichkit.load_game("stichwahl", players=players, target=12)
        rng = random.Random(players)
        check_random_game(game, STICHWAHL, players, random_chooser(rng), rng, Rates(sample=0.2, max_samples=4))
