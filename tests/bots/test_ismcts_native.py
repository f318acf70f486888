"""ismcts with its iterations in C (Jass): the worlds it draws keep everything the seat has seen,
like sample_hidden's; the search is the Python search's, at many times the iterations."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
from stichkit import native
from stichkit.bots import make
from stichkit.games.jass import DECK
from stichkit.games.jass.sampling import _stoeck_would_show
from stichkit.games.jass.state import JassState
from stichkit.games.jass.weis import best_weis, scoring_teams
from stichkit.native.search import search, world_deal

pytestmark = pytest.mark.skipif(not native.available(), reason="the C extension is not built (no C compiler)")
J = native.load()


def positions(count: int, seed: int) -> list[JassState]:
    """Jass decisions of every option and phase, reached by random play."""
    rng = random.Random(seed)
    out: list[JassState] = []
    while len(out) < count:
        options = {
            "profile": rng.choice(("seed", "schieber")),
            "weis": rng.choice(("auto", "off", "announce", "announce")),
            "stoeck": rng.choice((True, False, "announce")),
            "first_forehand": rng.choice(("start-card", 0, 3)),
            "undertrump": rng.choice(("swiss", "jass-kit")),
            "multipliers": rng.choice(("none", "swisslos", "one-to-four", "D=7,H=2,obe=20")),
            "target": rng.choice((1000, 300, 150)),  # near the target, Stöck is shown early (the Ausmachregel)
        }
        state = stichkit.load_game("jass", **options).new_state(seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 80)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            assert isinstance(state, JassState)
            out.append(state)
    return out


def test_every_world_keeps_what_the_seat_has_seen() -> None:
    checked = Counter[str]()
    for state in positions(120, seed=1):
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        options, deal = world_deal(state.sample_hidden(seat, random.Random(0)), seat)
        played = [0, 0, 0, 0]
        for trick in view["tricks"]:
            for k, card in enumerate(trick["cards"]):
                played[(trick["leader"] - k) & 3] |= 1 << DECK.parse(card)
        for play in view["trick"]:
            played[play["seat"]] |= 1 << DECK.parse(play["card"])
        voids = [DECK.parse_set(c) for c in view["cannot_hold"]]
        shown = [0, 0, 0, 0]
        for w in view["weis"]:
            shown[w["seat"]] |= DECK.parse_set(w["cards"])
        game = state.game
        announced = {a["seat"]: a["points"] for a in view["announced"] or ()}
        # seats that played their first card of the deal in silence: they may hold a Weis all the same
        silent = {s for s in range(4) if played[s] and s not in announced and s != seat}
        for hands, stoeck_seat in J.determinizations(options, deal, seat, 40, 7):
            assert hands[seat] == DECK.parse_set(view["hand"])
            assert sum(hands) == sum(DECK.parse_set(state.view(s)["hand"]) for s in range(4))  # the same cards
            for s in range(4):
                assert hands[s].bit_count() == view["hand_sizes"][s]
                assert not hands[s] & voids[s], "a card where the play showed a void"
                assert hands[s] & shown[s] == shown[s] & ~played[s], "a shown Weis card moved"
                checked["voids"] += bool(voids[s] and s != seat)
            if view["deal_number"] == 0 and game.options["first_forehand"] == "start-card" and view["phase"] != "play":
                assert hands[view["forehand"]] >> DECK.parse("D7") & 1
                checked["D7"] += 1
            world_start = [hands[s] | played[s] for s in range(4)]
            weis_held = tuple(best_weis(h, game.profile) for h in world_start)
            weis_counted = weis_held
            if game.options["weis"] == "announce":  # an announced Weis is held, with the points announced
                weis_counted = tuple(weis_held[s] if s in announced else () for s in range(4))
                for s, points in announced.items():
                    assert sorted((w.points for w in weis_held[s]), reverse=True) == points, "an announced Weis"
                    checked["announced"] += s != seat
                checked["silent_holds"] += any(weis_held[s] for s in silent) and view["trump"] is not None
            if view["weis_scored_by"] is not None:
                weis = weis_counted
                trump = ("D", "H", "S", "C", "obe", "une").index(view["trump"])
                assert list(scoring_teams(weis, trump, view["forehand"], game.profile)) == view["weis_scored_by"]
                checked["weis"] += bool(view["weis"])
            if view["trump"] in ("D", "H", "S", "C") and game.options["stoeck"] and view["stoeck"] is None:
                pair = DECK.parse_set([view["trump"] + "K", view["trump"] + "Q"])
                holder = next((s for s in range(4) if world_start[s] & pair == pair), -1)
                assert stoeck_seat == holder
                checked["stoeck"] += holder >= 0
                counted = weis_counted if game.options["weis"] != "off" else ((), (), (), ())
                assert not _stoeck_would_show(state, tuple(world_start), counted), "a Stöck the game would have shown"
                stoeck_points = 20 * (state.multiplier or 1)
                score = state.view(None)["scores"][holder & 1] if holder >= 0 else 0
                checked["near"] += holder >= 0 and score + stoeck_points >= game.options["target"] - 60
    assert checked["voids"] > 100 and checked["weis"] > 10 and checked["stoeck"] > 10 and checked["D7"] > 10
    assert checked["near"] > 0  # worlds whose Stöck came near finishing the game
    assert checked["announced"] > 100 and checked["silent_holds"] > 0  # announced Weis held; silence constrains nothing


def test_worlds_are_drawn_like_sample_hidden() -> None:
    """Where each hidden card lies, over many worlds: the same frequencies as sample_hidden's."""
    for state in positions(6, seed=2):
        _same_frequencies(state, 3000, c_seed=11, py_seed=5, within=0.05)


def _same_frequencies(state: JassState, n: int, c_seed: int, py_seed: int, within: float) -> None:
    """Over `n` worlds of the C search's and `n` of sample_hidden's, for the seat to move: each
    hidden card lies with each seat as often, to `within`."""
    seat = state.current_player
    assert seat is not None
    options, deal = world_deal(state, seat)
    c_worlds = [h for h, _ in J.determinizations(options, deal, seat, n, c_seed)]
    rng = random.Random(py_seed)
    py_worlds = []
    for _ in range(n):
        world = state.sample_hidden(seat, rng)
        py_worlds.append(tuple(DECK.parse_set(world.view(s)["hand"]) for s in range(4)))
    for card in range(36):
        for s in range(4):
            p_c = sum(h[s] >> card & 1 for h in c_worlds) / n
            p_py = sum(h[s] >> card & 1 for h in py_worlds) / n
            assert abs(p_c - p_py) < within, (card, s, p_c, p_py)


def test_the_c_search_plays_legal_cards_and_repeats_with_its_seed() -> None:
    for k, state in enumerate(positions(30, seed=3)):
        seat = state.current_player
        assert seat is not None
        bot = make("ismcts", iterations=300, seed=k)
        action = bot.choose(state, seat)
        assert action in state.legal_actions()
        if len(state.legal_actions()) > 1:
            assert bot.last_stats["engine"] == "c" and 0 < bot.last_stats["iterations"] <= 300
            assert make("ismcts", iterations=300, seed=k).choose(state, seat) == action


def test_time_budget_and_horizons() -> None:
    state = positions(1, seed=4)[0]
    seat = state.current_player
    assert seat is not None
    for horizon in ("deal", "game"):
        bot = make("ismcts", time=0.2, horizon=horizon, seed=1)
        bot.choose(state, seat)
        if len(state.legal_actions()) > 1:
            assert 0.1 < bot.last_stats["seconds"] < 1.0 and bot.last_stats["iterations"] > 100


def test_engines_say_where_they_run() -> None:
    stichwahl = stichkit.load_game("stichwahl").new_state(seed=1)
    with pytest.raises(ValueError, match="only Jass"):
        make("ismcts", iterations=10, engine="c").choose(stichwahl, stichwahl.current_player)  # type: ignore[arg-type]
    jass = stichkit.load_game("jass").new_state(seed=1)
    seat = jass.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="random playouts"):
        make("ismcts", iterations=10, engine="c", rollout="heuristic").choose(jass, seat)
    bot = make("ismcts", iterations=10, rollout="heuristic", seed=1)  # auto: Python for what C cannot do
    bot.choose(jass, seat)
    assert "engine" not in bot.last_stats
    bot = make("ismcts", iterations=50, engine="python", seed=1)
    bot.choose(jass, seat)
    assert "engine" not in bot.last_stats
    doubled = stichkit.load_game("jass", multipliers="D=2").new_state(seed=1)
    bot = make("ismcts", iterations=30, seed=1, engine="c")  # multipliers are searched in C
    assert bot.choose(doubled, seat) in doubled.legal_actions()
    assert bot.last_stats["engine"] == "c"
    said = stichkit.load_game("jass", weis="announce", stoeck="announce").new_state(seed=1)
    bot = make("ismcts", iterations=30, seed=1, engine="c")  # announced Weis and Stöck are searched in C
    assert bot.choose(said, seat) in said.legal_actions()
    assert bot.last_stats["engine"] == "c"
    passe = stichkit.load_game("jass", deals=12).new_state(seed=1)
    with pytest.raises(ValueError, match="fixed deals"):
        make("ismcts", iterations=10, engine="c").choose(passe, seat)
    bot = make("ismcts", iterations=30, seed=1)  # auto: a game of fixed deals is searched in Python
    assert bot.choose(passe, seat) in passe.legal_actions()
    assert "engine" not in bot.last_stats


def test_open_searches_the_true_world_in_c() -> None:
    """`open` hands the search the real state (its one world): the C search then never redeals."""
    state = positions(1, seed=6)[0]
    seat = state.current_player
    assert seat is not None
    bot = make("open", iterations=200, seed=1)
    bot.choose(state, seat)
    if len(state.legal_actions()) > 1:
        assert bot.last_stats["engine"] == "c" and bot.last_stats["determinizations"] == 1


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), factor=st.integers(2, 20))
def test_a_constant_factor_changes_no_choice_within_a_deal(seed: int, factor: int) -> None:
    """Multipliers scale every point of a deal: with every mode counting `factor` times and the
    target out of reach this deal, the C search (horizon deal) makes the same visits as with none."""
    rng = random.Random(seed)
    every = ",".join(f"{m}={factor}" for m in ("D", "H", "S", "C", "obe", "une"))
    states = []
    for multipliers in ("none", every):
        state = stichkit.load_game("jass", multipliers=multipliers, target=10**6).new_state(seed=seed)
        states.append(state)
    for _ in range(rng.randrange(0, 30)):
        action = rng.choice(states[0].legal_actions())
        for state in states:
            state.apply(action.text)
    seat = states[0].current_player
    assert seat is not None
    # The same world and seed for both (the bot's own seed follows its view, options included).
    found = [
        search(state, seat, iterations=400, seconds=None, c=0.7, determinizations=64, deal_horizon=True,
               push_heuristic=True, seed=seed)
        for state in states
    ]  # fmt: skip
    for _, stats in found:
        del stats["seconds"]
    assert found[0] == found[1]


def announced_positions(count: int, seed: int, *, shown: bool) -> list[JassState]:
    """weis="announce" decisions where another seat has announced a Weis: in the first trick (its
    cards unseen: known by the points only), or later (`shown`: the scoring team's cards shown)."""
    rng = random.Random(seed)
    out: list[JassState] = []
    while len(out) < count:
        options = {"weis": "announce", "stoeck": rng.choice((True, "announce")),
                   "profile": rng.choice(("seed", "schieber"))}  # fmt: skip
        state = stichkit.load_game("jass", **options).new_state(seed=rng.getrandbits(32))
        stop = rng.randrange(6, 12) if shown else 99
        while not state.is_terminal() and len(state.view(None)["tricks"]) < (2 if shown else 1) and stop:
            legal = state.legal_actions()
            said = [a for a in legal if a.text == "weis"]
            state.apply(said[0] if said and rng.random() < 0.8 else rng.choice(legal))
            if shown and state.view(None)["tricks"]:
                stop -= 1
            seat = state.current_player
            others_said = seat is not None and any(a["seat"] != seat for a in state.view(seat)["announced"])
            if not shown and others_said and rng.random() < 0.5:
                break
        seat = state.current_player
        if seat is None or not any(a["seat"] != seat for a in state.view(seat)["announced"] or ()):
            continue
        if shown == (state.view(seat)["weis_scored_by"] is not None):
            out.append(state)
    return out


@pytest.mark.parametrize("shown", [False, True])
def test_announced_weis_are_placed_like_sample_hidden(shown: bool) -> None:
    """An announced Weis known by its points (or shown): where each hidden card lies, over many
    worlds, as sample_hidden places it."""
    for state in announced_positions(4, seed=8 + shown, shown=shown):
        _same_frequencies(state, 2000, c_seed=13, py_seed=6, within=0.06)


def test_the_search_replays_every_saying() -> None:
    """Worlds with Weis announced and kept silent, Stöck called and played in silence: the C search
    replays each deal's sayings from the views (a saying out of place is refused) and answers
    with a card, the root's own sayings being the bots' rule (stichkit.bots.announce)."""
    rng = random.Random(9)
    said = Counter[str]()
    for k in range(150):
        game = stichkit.load_game("jass", weis="announce", stoeck="announce", target=rng.choice((300, 1000)))
        state = game.new_state(seed=k)
        for _ in range(rng.randrange(4, 60)):
            if state.is_terminal():
                break
            a = rng.choice(state.legal_actions())
            said[a.text] += a.text in ("weis", "stoeck")
            state.apply(a)
        seat = state.current_player
        if seat is None:
            continue
        legal = state.legal_actions()
        cards = [a for a in legal if a.text not in ("weis", "stoeck")]
        action, stats = search(state.sample_hidden(seat, random.Random(k)), seat, iterations=60, seconds=None, c=0.7,
                               determinizations=8, deal_horizon=bool(k % 2), push_heuristic=True, seed=k)  # fmt: skip
        assert game.actions[action] in cards and set(stats["visits"]) <= {a.id for a in cards}
        said["searched_with_a_saying_open"] += len(cards) < len(legal)
    assert said["weis"] > 20 and said["stoeck"] > 5 and said["searched_with_a_saying_open"] > 3, said


def test_a_search_just_after_the_call_plays_the_called_card() -> None:
    """Right after its "Stöck!" a seat's one legal card is the second of the pair (the bots play it
    without searching); a search asked there all the same replays the call and plays that card."""
    rng = random.Random(4)
    found = 0
    for k in range(400):
        state = stichkit.load_game("jass", stoeck="announce", target=5000).new_state(seed=k)
        while not state.is_terminal() and "stoeck" not in {a.text for a in state.legal_actions()}:
            state.apply(rng.choice([a for a in state.legal_actions() if a.text != "stoeck"]))
        if state.is_terminal():
            continue
        seat = state.current_player
        assert seat is not None
        state.apply("stoeck")
        (card,) = state.legal_actions()
        action, _ = search(state.sample_hidden(seat, random.Random(k)), seat, iterations=20, seconds=None, c=0.7,
                           determinizations=4, deal_horizon=True, push_heuristic=True, seed=k)  # fmt: skip
        assert action == card.id
        found += 1
        if found == 12:
            break
    assert found == 12
