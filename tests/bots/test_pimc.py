"""The `pimc` bot: sampled worlds solved exactly. Real play on real positions, no stand-ins.

Budgets are given as `samples` (no clock), so every test is a pure function of its seed; the
clock is checked by counting the worlds a tiny `time` lets through, never by timing."""

from __future__ import annotations

import io
import random
import time
from pathlib import Path
from typing import cast

import pytest
from rich.console import Console

import stichkit
from stichkit import OptionError
from stichkit.arena import parse_bot
from stichkit.bots import PIMCBot, make
from stichkit.bots.jass_heuristic import decide
from stichkit.bots.pimc import (
    CALIBRATION_TRUST,
    PLAY_MISS,
    PLAY_MISS_PARTNER,
    Budget,
    Calibration,
    choice_likelihood,
    extras,
    partner_mode,
    past_plays,
    play_likelihood,
    push_likelihood,
    start_hands,
)
from stichkit.cli.main import main
from stichkit.games.jass.cards import DECK, MODES
from stichkit.games.jass.state import JassState

PLAIN = {"weis": "off", "stoeck": False, "first_forehand": 0}


def deal(*hands: str, **options: object) -> JassState:
    """A first deal with these four hands (space-separated cards), seat 0 forehand."""
    game = stichkit.load_game("jass", **{**PLAIN, **options})
    state = game.new_state(seed=1, deal={"hands": [h.split() for h in hands]})
    assert isinstance(state, JassState)
    return state


STRONG = "SJ S9 SA SK SQ S10 DA HA CA"  # six top trumps in Schokolade and three side Aces
WEAK = "D6 D7 H6 H7 H8 S6 S7 C6 C8"  # nothing: no honour, no length


def rest(*taken: str) -> list[str]:
    """The 27 cards not in `taken`, dealt round the three other hands in deck order (every third
    card of a suit to a hand: no sequence, so no Weis)."""
    used = {c for h in taken for c in h.split()}
    cards = [c for c in DECK.names if c not in used]
    return [" ".join(cards[i::3]) for i in range(3)]


def pimc(**params: object) -> PIMCBot:
    bot = make("pimc", **params)
    assert isinstance(bot, PIMCBot)
    return bot


# -- what it plays ---------------------------------------------------------------------------------


def test_it_names_the_trump_a_strong_hand_is_made_for() -> None:
    state = deal(STRONG, *rest(STRONG))
    bot = pimc(samples=4, seed=1)
    assert str(bot.choose(state, 0)) == "trump:S"
    means = bot.last_stats["means"]
    assert means["trump:S"] == max(means.values())
    assert means["trump:S"] > 100  # ours minus theirs: the hand takes most of the deal


def test_it_pushes_a_clearly_weak_forehand_hand() -> None:
    state = deal(WEAK, *rest(WEAK))
    bot = pimc(samples=6, seed=2)
    assert str(bot.choose(state, 0)) == "push"
    means = bot.last_stats["means"]
    assert means["push"] > max(v for k, v in means.items() if k != "push")


def test_after_a_push_the_partner_names_a_mode_and_never_pushes() -> None:
    state = deal(WEAK, *rest(WEAK))
    state.apply("push")
    assert state.current_player == 2
    action = pimc(samples=3, seed=3).choose(state, 2)
    assert str(action).startswith("trump:")


def test_it_trumps_a_fat_trick_it_is_sure_to_take() -> None:
    # Trump S. Seat 0 takes four tricks with its Aces and Kings of H and C (the others follow),
    # then leads DA; seat 3 plays D10, seat 2 DK: 25 points on the table. Seat 1, last to play,
    # has no Käse left: any of its trumps takes the trick for sure, the discard H6 gives it away.
    state = deal("HA HK CA CK DA D6 S8 C6 S6", "H9 HQ C9 CQ H6 S9 SJ SK SA",
                 "H8 HJ C8 CJ DK D7 D8 S10 SQ", "H7 H10 C7 C10 D10 D9 DJ DQ S7")  # fmt: skip
    state.apply("trump:S")
    for trick in ("HA H7 H8 H9", "HK H10 HJ HQ", "CA C7 C8 C9", "CK C10 CJ CQ", "DA D10 DK"):
        for card in trick.split():
            state.apply(card)
    assert state.current_player == 1
    bot = pimc(samples=8, seed=4)
    card = str(bot.choose(state, 1))
    assert card in ("S9", "SJ", "SK", "SA"), bot.last_stats
    means = bot.last_stats["means"]
    assert bot.last_stats["worlds"] == 8  # 20 cards left: solved, within the default horizon
    assert min(means[c] for c in ("S9", "SJ", "SK", "SA")) > means["H6"]


def test_the_only_legal_card_is_played_without_solving() -> None:
    state = deal(STRONG, *rest(STRONG))
    state.apply("trump:S")
    rng = random.Random(5)
    bot = pimc(samples=3)
    while len(state.legal_actions()) != 1:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    assert bot.choose(state, seat) == state.legal_actions()[0]
    assert bot.last_stats["worlds"] == 0


# -- the budget, determinism, honesty of the inputs --------------------------------------------------


def mid_deal(seed: int, cards: int) -> JassState:
    game = stichkit.load_game("jass")
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while state.current_player is not None and (state.legal_actions()[0].id >= 36 or cards > 0):
        if state.legal_actions()[0].id < 36:
            cards -= 1
        state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    assert isinstance(state, JassState)
    return state


def test_samples_cap_the_worlds_and_a_seed_fixes_the_choice() -> None:
    state = mid_deal(7, 14)
    seat = state.current_player
    assert seat is not None
    a, b = pimc(samples=5, seed=11), pimc(samples=5, seed=11)
    assert a.choose(state, seat) == b.choose(state, seat)
    assert a.last_stats["worlds"] == b.last_stats["worlds"] == 5
    assert a.last_stats["means"] == b.last_stats["means"]


def test_two_threads_solve_the_same_worlds_to_the_same_choice() -> None:
    """threads=2: every other world is solved by one more thread, at the same time as the next; the
    worlds, their order and so the means and the choice are those of one thread."""
    import threading

    for seed, played in ((7, 14), (8, 16), (9, 20), (10, 18)):
        state = mid_deal(seed, played)
        seat = state.current_player
        assert seat is not None
        for samples in (5, 8):
            one, two = pimc(samples=samples, seed=seed), pimc(samples=samples, seed=seed, threads=2)
            where: set[int] = set()
            solve = two.solve

            def traced(w: object, solve: object = solve, where: set[int] = where) -> object:
                where.add(threading.get_ident())
                return solve(w)  # type: ignore[operator]

            two.solve = traced  # type: ignore[assignment]
            assert one.choose(state, seat) == two.choose(state, seat)
            assert one.last_stats["means"] == two.last_stats["means"]
            assert one.last_stats["worlds"] == two.last_stats["worlds"] == samples
            assert len(where) == 2  # two threads solved them
    with pytest.raises(OptionError, match="1 or 2"):
        pimc(threads=3)


def test_a_tiny_clock_stops_after_the_first_world() -> None:
    """The anytime loop checks the clock between worlds: with no time left it solves just one."""
    state = mid_deal(8, 16)
    seat = state.current_player
    assert seat is not None
    bot = pimc(time=1e-6, seed=1)
    action = bot.choose(state, seat)
    assert action in state.legal_actions()
    assert bot.last_stats["worlds"] == 1
    trump = deal(STRONG, *rest(STRONG))
    assert str(bot.choose(trump, 0)).startswith("trump:")
    assert bot.last_stats["worlds"] == 1
    assert bot.last_stats["solves"] == 4  # one world: every mode of the seed profile solved once


def test_within_values_each_world_by_bounds_and_the_clock_caps_their_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`within=K`: each world's cards by `solve_bounds` to within K points, the middle of each
    interval as its margin; without a clock no node budget, with one a budget in nodes."""
    from stichkit.bots.pimc import worlds

    calls: list[tuple[int, int]] = []
    bounds = worlds.default_solve_bounds

    def counted(state: JassState, within: int, nodes: int) -> object:
        calls.append((within, nodes))
        return bounds(state, within, nodes)

    monkeypatch.setattr(worlds, "default_solve_bounds", counted)
    state = mid_deal(7, 14)
    seat = state.current_player
    assert seat is not None
    bot = pimc(samples=3, seed=2, within=10)
    chosen = bot.choose(state, seat)
    assert calls == [(10, 0)] * 3 and bot.last_stats["cut_short"] == 0
    means = bot.last_stats["means"]
    assert means[str(chosen)] == max(means.values())
    calls.clear()
    clocked = pimc(time=0.2, seed=2, within=10)
    clocked.choose(state, seat)
    assert calls and all(within == 10 and nodes > 0 for within, nodes in calls)
    assert pimc(samples=3).within == 0  # exact unless asked


def test_before_the_horizon_cards_are_searched_by_ismcts_at_the_same_budget() -> None:
    state = mid_deal(9, 4)  # 32 cards left: more than the default horizon of 24
    seat = state.current_player
    assert seat is not None
    bot = pimc(samples=2, seed=1)
    assert bot.choose(state, seat) in state.legal_actions()
    assert bot.last_stats["early"] == "ismcts" and bot.last_stats["iterations"] > 0
    assert bot.last_stats["worlds"] == 0
    assert pimc(time=0.3).early.time == 0.3


def test_the_horizons_follow_the_clock_and_plain_pimc_is_the_measured_bot() -> None:
    """With a clock of at least 1 s a decision the horizons are those the strength figures were
    measured with (docs/benchmarks.md: `pimc:time=1.0:horizon=28:trump_horizon=24:infer=calibrated`); below
    it, or without a clock, the cheaper ones; a horizon given is kept."""
    measured = make("pimc", time=1.0, horizon=28, trump_horizon=24, infer="calibrated")
    for bot in (pimc(), pimc(time=1.0), pimc(time=2.5)):
        assert (bot.horizon, bot.trump_horizon) == (28, 24)
    assert {k: v for k, v in pimc().params.items() if k != "seed"} == {
        k: v for k, v in measured.params.items() if k != "seed"
    }
    for bot in (pimc(time=0.99), pimc(time=0.25), pimc(samples=3)):
        assert (bot.horizon, bot.trump_horizon) == (24, 20)
    assert (pimc(time=0.25, horizon=32).horizon, pimc(samples=3, trump_horizon=36).trump_horizon) == (32, 36)


def test_early_playout_values_every_card_by_play_then_solve() -> None:
    """`early=playout`: before the horizon each legal card is valued in each world by the
    heuristic's play to `trump_horizon`, then solved; the best mean is played."""
    state = mid_deal(9, 4)  # 32 cards left
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    bot = pimc(samples=3, seed=1, early="playout")
    chosen = bot.choose(state, seat)
    stats = bot.last_stats
    assert stats["early"] == "playout" and stats["worlds"] == 3
    assert stats["solves"] == 3 * len(legal)  # one solve per card and world (no race this far from the target)
    means = stats["means"]
    assert set(means) == {str(a) for a in legal}
    assert means[str(chosen)] == max(means.values())
    assert all(-257 <= m <= 257 for m in means.values())  # margins of one deal's points
    assert state.legal_actions() == legal  # the real state is untouched


def test_early_playout_is_honest() -> None:
    """Seeded with a samples budget, it plays the same on the real state and on any state the
    seat cannot tell from it (the other hands redealt)."""
    state = mid_deal(11, 2)
    seat = state.current_player
    assert seat is not None
    other = state.sample_hidden(seat, random.Random(3))
    assert other.view(seat) == state.view(seat)
    assert other.view((seat + 1) % 4) != state.view((seat + 1) % 4)  # the others' cards differ
    choices = [pimc(samples=2, seed=4, early="playout").choose(s, seat) for s in (state, other)]
    assert choices[0] == choices[1]


def test_one_budget_rule_for_every_decision() -> None:
    """Worlds are counted as the loop asks for the next; `samples` caps them; with a clock the
    loop stops between worlds once the next would not fit; a `break` leaves the count honest."""
    budget = Budget(3, None)
    assert list(budget) == [0, 1, 2] and budget.done == 3 and budget.left() == 0
    stopped = Budget(10, None)
    for i in stopped:
        assert stopped.left() == 10 - i
        if i == 4:
            break  # e.g. pimc's card is settled before solving world 4
    assert stopped.done == 4
    tiny, ran = Budget(100, 1e-9), []
    for i in tiny:
        ran.append(i)
        time.sleep(0.001)  # a world's work
    assert ran == [0] and tiny.done == 1  # the first world always runs, then the clock stops it
    assert tiny.left() <= 1 and tiny.seconds() >= 0.001


def test_a_time_budget_alone_keeps_a_samples_cap() -> None:
    bot = pimc(time=0.3)
    assert bot.params["time"] == 0.3 and bot.params["samples"] >= 1
    default = pimc()
    assert default.params["time"] == 1.0


def test_the_push_model_and_the_inference_read_only_a_worlds_hands() -> None:
    modes = (0, 1, 2, 3)
    strong, weak = DECK.parse_set(STRONG.split()), DECK.parse_set(WEAK.split())
    assert partner_mode(strong, modes) == 2
    assert choice_likelihood(strong, 2, modes) > 0.9
    assert choice_likelihood(strong, 0, modes) < 0.05
    assert push_likelihood(weak, modes) > 0.9 > 0.1 > push_likelihood(strong, modes)


def test_play_inference_rebuilds_what_each_seat_knew_when_it_played() -> None:
    """In deals the heuristic plays (no random tie-breaks), the real hands explain every card the
    others played: each unforced card counts 1 - miss, as if the heuristic chose it again from
    the view rebuilt out of the public tricks. A world where one card would have been another
    choice weighs less."""
    game = stichkit.load_game("jass")
    checked = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        first = state.deals_played
        while state.current_player is not None and state.deals_played == first:
            me = state.current_player
            view = state.view(me)
            if view["phase"] == "play":
                plays = past_plays(view, me)
                mode = MODES.index(view["trump"])
                unforced = [p for p in plays if play_likelihood(start_hands(state), [p], mode) < 1.0]
                expected = 1.0
                for p in unforced:
                    expected *= 1.0 - (PLAY_MISS_PARTNER if p[0] == me ^ 2 else PLAY_MISS)
                assert play_likelihood(start_hands(state), plays, mode) == pytest.approx(expected)
                checked += len(unforced)
            state.apply(game.parse_action(decide(view, None)))
    assert checked > 100


def calibrate(
    seeds: list[int], random_seats: set[int], deals: int = 3, ask_from: int = 0, real: bool = False
) -> list[list[tuple[float | None, ...]]]:
    """Games (one per seed, played in lockstep) where seat 0 watches through ONE Calibration: the
    seats in `random_seats` play random cards, the others the heuristic's. Per game, seat 0's
    misses at its first decision of each deal from `ask_from` on; seat 0 is fed copies it cannot
    tell from the real state (`real`: the real state)."""
    game = stichkit.load_game("jass")
    states = [cast(JassState, game.new_state(seed=seed)) for seed in seeds]
    rngs = [random.Random(seed) for seed in seeds]
    cal = Calibration()
    out: list[list[tuple[float | None, ...]]] = [[] for _ in seeds]

    def going(st: JassState) -> bool:
        return st.current_player is not None and st.view(0)["deal_number"] < deals

    while any(going(st) for st in states):
        for i, st in enumerate(states):
            if not going(st):
                continue
            seat = st.current_player
            view = st.view(seat)
            if seat == 0:
                cal.remember(st if real else st.sample_hidden(0, random.Random(99)), 0, view)
                if len(out[i]) == view["deal_number"]:  # its first decision of the deal
                    out[i].append(cal.misses(view) if view["deal_number"] >= ask_from else ())
            if seat in random_seats and view["phase"] == "play":
                st.apply(rngs[i].choice(st.legal_actions()))
            else:
                st.apply(game.parse_action(decide(view, rngs[i])))
    return out


def test_calibration_trusts_players_as_far_as_their_cards_bear_the_heuristic_out() -> None:
    """infer=calibrated: before any deal is over no player is modelled (the prior miss is above
    the trust bar); once a deal or two are over, a player who played the heuristic's cards is
    modelled, with a miss that shrinks as more of its cards agree; one who played at random is
    left out. Two games watched by one bot at once (a server's shared bot) do not mix."""
    together = calibrate([1, 2], random_seats={1, 3})
    alone = calibrate([1], random_seats={1, 3}) + calibrate([2], random_seats={1, 3})
    assert together == alone
    assert calibrate([1], random_seats={1, 3}, real=True) == alone[:1]  # honest: the hidden cards do not count
    heuristic = calibrate([3], random_seats=set())
    for game in [*together, *heuristic]:
        assert len(game) == 3 and game[0] == (None, None, None, None)
        assert game[1][0] is None and game[2][0] is None  # never itself
    for game in together:
        for misses in game[1:]:
            assert misses[1] is None and misses[3] is None  # random: not modelled
            assert misses[2] is not None and misses[2] <= CALIBRATION_TRUST  # the heuristic partner
        assert cast(float, game[2][2]) < cast(float, game[1][2])  # more cards seen, more trust
    assert all(m is not None and m <= CALIBRATION_TRUST for m in heuristic[0][2][1:])
    # Not asked in the earlier deals (only late decisions ask): their counts are made up later.
    assert calibrate([3], random_seats=set(), ask_from=2)[0][2] == heuristic[0][2]


def test_play_inference_prefers_worlds_that_explain_the_cards() -> None:
    """After a few tricks, worlds drawn with infer=play explain the others' cards better (by the
    heuristic's model) than worlds drawn at random."""
    state = mid_deal(5, 14)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    plays = past_plays(view, seat)
    mode = MODES.index(view["trump"])
    rng = random.Random(2)
    inferred, plain = pimc(samples=1, infer="play"), pimc(samples=1, infer="off")
    mean = {}
    for name, bot in (("play", inferred), ("off", plain)):
        worlds = [bot.world(state, seat, view, rng) for _ in range(40)]
        mean[name] = sum(play_likelihood(start_hands(w), plays, mode) for w in worlds) / 40
    assert mean["play"] > 2 * mean["off"]


@pytest.mark.parametrize("infer", ["play", "calibrated"])
def test_play_inference_is_honest(infer: str) -> None:
    """It reads the tricks and the world's hands only: the same choice on the real state and on
    a state the seat cannot tell from it."""
    state = mid_deal(13, 15)
    seat = state.current_player
    assert seat is not None
    other = state.sample_hidden(seat, random.Random(8))
    assert other.view(seat) == state.view(seat)
    assert other.view((seat + 1) % 4) != state.view((seat + 1) % 4)
    bots = [pimc(samples=3, seed=6, infer=infer) for _ in range(2)]
    assert bots[0].choose(state, seat) == bots[1].choose(other, seat)


def test_weis_and_stoeck_enter_the_trump_valuation() -> None:
    hand = "SK SQ S6 D7 D8 D9 H6 C6 C7"  # Stöck in Schokolade, three in sequence in Käse
    state = deal(hand, *rest(hand), weis="auto", stoeck=True)
    assert extras(state, 2) == (20 + 20, 0)  # the sequence (20) and the Stöck (20)
    assert extras(state, 1) == (20, 0)
    plain = deal(hand, *rest(hand))
    assert extras(plain, 2) == (0, 0)


# -- where it may play -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["stichwahl", "stichling", "stichmeister"])
def test_it_plays_only_the_jass_games(game: str) -> None:
    with pytest.raises(OptionError, match="plays only jass, differenzler, coiffeur"):
        parse_bot("pimc", game=game)
    state = stichkit.load_game(game).new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="plays only jass, differenzler, coiffeur"):
        pimc(samples=1).choose(state, seat)


def test_it_needs_a_state_and_checked_parameters() -> None:
    state = stichkit.load_game("jass").new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="pimc needs a State"):
        pimc(samples=1).choose(state.view(seat), seat)
    with pytest.raises(OptionError, match="samples"):
        make("pimc", samples=0)
    with pytest.raises(OptionError, match=r"infer.*trump.*play.*off"):
        make("pimc", infer="maybe")
    with pytest.raises(OptionError, match=r"ismcts.*playout"):
        make("pimc", early="rollout")
    with pytest.raises(OptionError, match=r"within.*from 0 \(exact\) to 100"):
        make("pimc", within=101)


def test_hint_in_stich_play_jass_asks_pimc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    con = Console(file=io.StringIO(), width=120, color_system=None, force_terminal=False)
    answers = ["hint"]

    def player(prompt: str) -> str:
        if "Enter" in prompt:
            return ""
        if answers:
            return answers.pop(0)
        raise EOFError

    argv = ["play", "jass", "--delay", "0", "--seats", "human,heuristic,heuristic,heuristic", "--seed", "3"]
    assert main(argv, console=con, input_fn=player) == 0
    out = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Hint from the pimc bot:" in out


def test_without_the_c_solver_early_decisions_are_the_heuristics(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python reference takes minutes for a whole deal: without C, pimc asks the heuristic
    until its last three tricks, and solves those."""
    monkeypatch.setattr("stichkit.bots.pimc.worlds.fast_solver", lambda: False)
    state = deal(STRONG, *rest(STRONG))
    bot = pimc(samples=2, seed=1)
    assert bot.choose(state, 0) == make("heuristic").choose(state, 0)
    assert bot.last_stats["fallback"] == "heuristic"
    late = mid_deal(10, 26)  # 10 cards left: seat to move holds at most 3
    seat = late.current_player
    assert seat is not None
    bot.choose(late, seat)
    assert bot.last_stats["worlds"] == 2 and "fallback" not in bot.last_stats


# -- the race to the target ------------------------------------------------------------------------


def near_target_position(seed: int) -> JassState:
    """A card decision within the default horizon of a game to 150 points (both teams within reach)."""
    game = stichkit.load_game("jass", target=150, first_forehand=0)
    rng = random.Random(seed)
    while True:
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            pos = state.play_position()
            if pos is not None and sum(h.bit_count() for h in pos.hands) <= 20 and len(state.legal_actions()) > 1:
                assert isinstance(state, JassState)
                return state
            state.apply(rng.choice(state.legal_actions()))
        seed += 1000


def test_near_the_target_it_plays_the_race_and_stays_honest() -> None:
    """Near the target each world is also solved for the race (last_stats["race"]); the choice
    still depends only on the seat's view: the same on the real state and on redealt copies."""
    for seed in range(3):
        state = near_target_position(seed)
        seat = state.current_player
        assert seat is not None
        bot = pimc(samples=4, seed=2)
        card = bot.choose(state, seat)
        assert bot.last_stats["race"] is True
        for k in range(2):
            world = state.sample_hidden(seat, random.Random(k))
            assert pimc(samples=4, seed=2).choose(world, seat) == card
        off = pimc(samples=4, seed=2, race="off")
        assert off.choose(state, seat) in state.legal_actions()
        assert off.last_stats["race"] is False  # race=off never solves the race, even near the target


def test_far_from_the_target_the_race_is_not_solved() -> None:
    state = deal("HA HK CA CK DA D6 S8 C6 S6", "H9 HQ C9 CQ H6 S9 SJ SK SA",
                 "H8 HJ C8 CJ DK D7 D8 S10 SQ", "H7 H10 C7 C10 D10 D9 DJ DQ S7")  # fmt: skip
    state.apply("trump:S")
    for card in ["HA", "H7", "H8", "H9", "HK", "H10", "HJ", "HQ", "CA", "C7", "C8", "C9"]:
        state.apply(card)
    bot = pimc(samples=2, seed=1)
    bot.choose(state, state.current_player)  # type: ignore[arg-type]
    assert bot.last_stats["race"] is False  # 1000 points away: no deal reaches them
    with pytest.raises(OptionError):
        make("pimc", race="maybe")
