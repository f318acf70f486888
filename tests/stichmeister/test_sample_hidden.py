"""`sample_hidden` carries nothing real that its seat cannot see (API.md: "hidden parts drawn at
random"; ISMCTS determinizes from it, so every search bot's honesty rests on it).

Each test builds positions where some fact is hidden from seat 0 and checks that samples redraw it
(over several rng seeds the sampled fact varies and is not always the real one), or that two real
states seat 0 cannot tell apart give the very same sample for the same rng. Every sample is also
checked for the basics: the same `view(0)`, `replay(record) == sample` through JSON, and legal play
on to the end of the game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import stichkit
from stichkit import State

from .helpers import with_rules

SEAT = 0


def play_until(state: State, rng: random.Random, stop: Callable[[State], bool], limit: int = 2000) -> bool:
    """Random legal play until `stop(state)` (True) or the end of the game (False)."""
    for _ in range(limit):
        if stop(state):
            return True
        if state.is_terminal():
            return False
        state.apply(rng.choice(state.legal_actions()))
    return False


def check_sample(state: State, sample: State, seat: int = SEAT) -> None:
    assert sample.view(seat) == state.view(seat)
    assert [len(sample.view(p)["hand"]) for p in range(state.game.num_players)] == [
        len(state.view(p)["hand"]) for p in range(state.game.num_players)
    ]
    assert stichkit.replay(json.loads(json.dumps(sample.record()))) == sample
    end = sample.clone()
    rng = random.Random(7)
    while not end.is_terminal():
        end.apply(rng.choice(end.legal_actions()))


def round_moves(record: dict[str, Any], number: int) -> tuple[list[list[str]], list[dict[str, Any]]]:
    """Round `number` of a record: its dealt hands and its decisions."""
    rounds: list[tuple[list[list[str]], list[dict[str, Any]]]] = []
    for m in record["moves"][1:]:
        if "chance" in m:
            rounds.append((m["chance"]["hands"], []))
        else:
            rounds[-1][1].append(m)
    return rounds[number]


def picks(record: dict[str, Any], number: int, seat: int, prefix: str) -> list[str]:
    """The setup picks `prefix:CARD` of `seat` in round `number`, in the order made."""
    _hands, moves = round_moves(record, number)
    return [m["action"] for m in moves if m["seat"] == seat and m["action"].startswith(prefix + ":")]


def known_passes(rec: dict[str, Any], players: int) -> list[list[str]]:
    """Round 0's passes seat 0 took part in (rule 22: 3 cards right first, then rule 23: 3 left)."""
    left, right = (SEAT + 1) % players, (SEAT - 1) % players
    mine = picks(rec, 0, SEAT, "pass")
    return [sorted(mine[:3]), sorted(mine[3:]), sorted(picks(rec, 0, left, "pass")[:3]),
            sorted(picks(rec, 0, right, "pass")[3:])]  # fmt: skip


def hidden_passes(rec: dict[str, Any], players: int) -> list[list[str]]:
    """Round 0's passes between two players other than seat 0."""
    left, right = (SEAT + 1) % players, (SEAT - 1) % players
    others = [p for p in range(players) if p != SEAT]
    out = [sorted(picks(rec, 0, p, "pass")[:3]) for p in others if p != left]
    return out + [sorted(picks(rec, 0, p, "pass")[3:]) for p in others if p != right]


def test_finished_round_passes_between_other_players_are_redrawn() -> None:
    """Rules 22 + 23 in round 0. In round 1, seat 0 knows what it gave and received, and every card
    each player held after the passes (all were played face up), but not what the others passed
    among themselves: the samples' round-0 deals and those passes vary; seat 0's stay as they were."""
    for players in (3, 4, 5):
        state = with_rules([15, 22, 23, 44], players=players, seed=players)
        rng = random.Random(players)
        assert play_until(state, rng, lambda s: s.view(None)["round"] == 1 and s.view(None)["phase"] == "play")
        real = state.record()
        deal, _ = round_moves(real, 0)
        others = [p for p in range(players) if p != SEAT]
        deals, passes = set(), set()
        for k in range(12):
            sample = state.sample_hidden(SEAT, random.Random(k))
            check_sample(state, sample)
            rec = sample.record()
            got, _ = round_moves(rec, 0)
            assert got[SEAT] == deal[SEAT] and known_passes(rec, players) == known_passes(real, players)
            deals.add(json.dumps([got[p] for p in others]))
            passes.add(json.dumps(hidden_passes(rec, players)))
        assert len(deals) > 1 and len(passes) > 1, players


def test_finished_round_real_passes_between_others_rarely_survive() -> None:
    """The real passes between others must not survive in (almost) every sample."""
    state = with_rules([15, 22, 23, 44], players=4, seed=11)
    rng = random.Random(11)
    assert play_until(state, rng, lambda s: s.view(None)["round"] == 1)
    real = [picks(state.record(), 0, p, "pass") for p in range(4)]
    same = 0
    for k in range(12):
        rec = state.sample_hidden(SEAT, random.Random(k)).record()
        same += all(sorted(picks(rec, 0, p, "pass")) == sorted(real[p]) for p in (1, 2))
    assert same < 6


def shown_face_down_position(seed: int) -> tuple[State, int] | None:
    """Rules 25 + 26: a trick in progress where a seat other than 0 followed, face down, with one
    of its shown cards (still listed as shown until the reveal)."""
    state = with_rules([15, 25, 26, 44], seed=seed)
    rng = random.Random(seed)

    def found(s: State) -> bool:
        v = s.view(None)
        if v["phase"] != "play" or not v["trick"]:
            return False
        last = v["trick"][-1]
        if not last["face_down"] or last["seat"] == SEAT:
            return False
        card = next(t["card"] for t in s.view(last["seat"])["trick"] if t["seat"] == last["seat"])
        return card in v["shown"][last["seat"]]

    if play_until(state, rng, found, limit=400):
        return state, state.view(None)["trick"][-1]["seat"]
    return None


def test_a_shown_card_played_face_down_is_redrawn() -> None:
    """Rules 25 + 26: which card a follower played face down is hidden until the reveal, also when
    it was one of its shown cards: the samples' face-down card varies, and is not always the real one."""
    positions = [x for x in (shown_face_down_position(seed) for seed in range(12)) if x is not None]
    assert len(positions) >= 3
    for state, p in positions:
        real = next(t["card"] for t in state.view(p)["trick"] if t["seat"] == p)
        cards = []
        for k in range(10):
            sample = state.sample_hidden(SEAT, random.Random(k))
            check_sample(state, sample)
            cards.append(next(t["card"] for t in sample.view(p)["trick"] if t["seat"] == p))
            # the shown cards are with p: in its hand, or the one it played face down
            assert set(state.view(SEAT)["shown"][p]) <= set(sample.view(p)["hand"]) | {cards[-1]}
        assert len(set(cards)) > 1 and cards.count(real) < len(cards)


def test_shown_or_unshown_face_down_card_gives_the_same_sample() -> None:
    """The same position with a follower's face-down card either a shown card or another hand card:
    seat 0 cannot tell them apart, so the same rng must give the same sample."""
    checked = 0
    for seed in range(30):
        state = with_rules([15, 25, 26, 44], seed=seed)
        rng = random.Random(seed)

        def a_choice(s: State) -> bool:
            v = s.view(None)
            p = s.current_player
            if v["phase"] != "play" or not v["trick"] or p == SEAT or p is None:
                return False
            legal = {a.text for a in s.legal_actions()}
            return bool(legal & set(v["shown"][p])) and bool(legal - set(v["shown"][p]))

        if not play_until(state, rng, a_choice, limit=300):
            continue
        p = state.current_player
        assert p is not None
        legal = sorted(a.text for a in state.legal_actions())
        shown = set(state.view(None)["shown"][p])
        a, b = state.clone(), state.clone()
        a.apply(next(c for c in legal if c in shown))
        b.apply(next(c for c in legal if c not in shown))
        assert a.view(SEAT) == b.view(SEAT)
        for k in range(4):
            assert a.sample_hidden(SEAT, random.Random(k)) == b.sample_hidden(SEAT, random.Random(k))
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_a_trump_played_face_down_does_not_break_trump_before_the_reveal() -> None:
    """Rules 26 + 39: `trumps_broken` is public; while a trump lies face down in the trick nobody
    knows a trump was played, so the view must not say so until the cards are turned up."""
    checked = 0
    for seed in range(40):
        state = with_rules([15, 26, 39, 44], seed=seed)
        rng = random.Random(seed)

        def trump_down(s: State) -> bool:
            v = s.view(None)
            if v["phase"] != "play" or v["trumps_broken"] or len(v["trick"]) < 2:
                return False
            last = v["trick"][-1]
            card = next(t["card"] for t in s.view(last["seat"])["trick"] if t["seat"] == last["seat"])
            return last["face_down"] and card in v["trump"]

        if not play_until(state, rng, trump_down, limit=300):
            continue
        assert state.view(None)["trumps_broken"] is False
        for k in range(3):
            check_sample(state, state.sample_hidden(SEAT, random.Random(k)))
        while state.view(None)["trick"]:
            state.apply(rng.choice(state.legal_actions()))
        assert state.view(None)["trumps_broken"] is True
        checked += 1
    assert checked >= 2


def test_the_order_of_other_players_picks_is_not_kept() -> None:
    """Rules 25 + 38 in round 0: the order in which another player picked its shown and discarded
    cards was never seen; two games that differ only in that order give the same samples."""
    games = []
    for reverse in (False, True):
        state = with_rules([15, 25, 38, 44], seed=5)
        for _ in range(2):  # the show phase, then the discard phase
            for _p in range(4):
                acts = [a.text for a in state.legal_actions()]
                count = 3 if acts[0].startswith("show:") else 1
                chosen = sorted(acts)[:count] if state.current_player == SEAT else sorted(acts)[-count:]
                for text in reversed(chosen) if reverse and state.current_player != SEAT else chosen:
                    state.apply(text)
        assert play_until(state, random.Random(5), lambda s: s.view(None)["round"] == 1)
        games.append(state)
    a, b = games
    assert a.view(SEAT) == b.view(SEAT) and a.record() != b.record()
    for k in range(4):
        sample = a.sample_hidden(SEAT, random.Random(k))
        check_sample(a, sample)
        assert sample == b.sample_hidden(SEAT, random.Random(k))


def test_samples_of_random_games_are_consistent_and_vary() -> None:
    """Whole games with setup rules in force from the seed's rule deck and round 0's chosen rules:
    every sample keeps view(0), replays exactly through JSON and plays on to the end; redrawing from
    a sample gives the same state as redrawing from the real one (a function of the view and rng)."""
    combos = [[22, 24, 26, 40], [23, 25, 26, 28], [15, 24, 25, 39], [21, 22, 34, 38], [17, 23, 26, 37]]
    for i, rules in enumerate(combos):
        for players in (3, 4, 5):
            state = with_rules(rules, players=players, seed=i)
            rng = random.Random(100 * i + players)
            steps = 0
            while not state.is_terminal():
                if steps % 13 == 5:
                    seat = rng.randrange(players)
                    sample = state.sample_hidden(seat, random.Random(steps))
                    check_sample(state, sample, seat)
                    again = sample.sample_hidden(seat, random.Random(1))
                    assert again == state.sample_hidden(seat, random.Random(1))
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
