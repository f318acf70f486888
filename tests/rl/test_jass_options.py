"""The Schieber's options in the Jass encoder: multipliers and announced Weis and Stöck add their
blocks only where they are on, show only what the seat may know, and the masks are the engine's."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import stichkit
import stichkit.rl as rl
from stichkit.games.jass.actions import ANNOUNCE, CALL_STOECK

from .helpers import SCHIEBER_OPTIONS

ADDED = ("mode_multipliers", "multiplier", "weis_announced", "announced_points", "own_weis", "own_weis_points",
         "may_announce_weis", "may_call_stoeck")  # fmt: skip


def _walk(seed: int, options: dict[str, Any]) -> list[Any]:
    """Every position of one random game (a short one), each a clone."""
    game = stichkit.load_game("jass", **{**options, "target": 600})
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    out.append(state)
    return out


def test_the_blocks_are_added_only_where_the_options_are_on() -> None:
    plain = rl.encoding("jass", profile="schieber")
    assert not {f.name for f in plain.fields} & set(ADDED)
    full = rl.encoding("jass", **SCHIEBER_OPTIONS)
    assert [f.name for f in full.fields[: len(plain.fields)]] == [f.name for f in plain.fields]
    assert [f.name for f in full.fields[len(plain.fields) :]] == list(ADDED)
    names = {f.name for f in rl.encoding("jass", profile="schieber", multipliers="swisslos").fields}
    assert names - {f.name for f in plain.fields} == {"mode_multipliers", "multiplier"}
    names = {f.name for f in rl.encoding("jass", stoeck="announce").fields}
    assert names - {f.name for f in plain.fields} == {"may_call_stoeck"}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_observation_holds_nothing_the_seat_may_not_know(seed: int) -> None:
    """Whatever the other hands are (any deal the seat cannot tell from this one), the seat's
    observation is the same; and the mask is exactly the engine's legal actions."""
    enc = rl.encoding("jass", **{**SCHIEBER_OPTIONS, "target": 600})
    rng = random.Random(seed)
    for state in _walk(seed, SCHIEBER_OPTIONS)[::3]:
        for seat in range(4):
            sample = state.sample_hidden(seat, rng)
            assert np.array_equal(enc.observation(state, seat), enc.observation(sample, seat))
        if not state.is_terminal():
            ids = {state.game.action_id(a) for a in state.legal_actions()}
            mask = state.legal_action_mask()
            assert len(mask) == state.game.num_actions == 45
            assert {i for i, m in enumerate(mask) if m} == ids


def test_the_blocks_say_what_the_table_knows() -> None:
    """Over random games: the multiplier in force, who announced, the own Weis and whether it may
    still be announced, the Stöck still to call: each agrees with the engine's state."""
    enc = rl.encoding("jass", **{**SCHIEBER_OPTIONS, "target": 600})
    o = enc.offsets
    counts = {"announce_open": 0, "announced": 0, "stoeck_open": 0}
    for seed in range(6):
        for state in _walk(seed, SCHIEBER_OPTIONS):
            if state.is_terminal():
                continue
            mover = state.current_player
            legal = {state.game.action_id(a) for a in state.legal_actions()}
            for seat in range(4):
                obs = enc.observation(state, seat)
                view = state.view(seat)
                assert obs[o["mode_multipliers"] + 2] == np.float32(2 / 20)  # swisslos: S counts double
                mult = view["multiplier"]
                assert obs[o["multiplier"]] == np.float32(0 if mult is None else mult / 20)
                may = obs[o["may_announce_weis"]] == 1
                if seat == mover:  # the seat to act may announce exactly when the engine lets it
                    assert may == (ANNOUNCE in legal)
                    if CALL_STOECK in legal:
                        assert obs[o["may_call_stoeck"]] == 1
                counts["announce_open"] += may
                counts["stoeck_open"] += obs[o["may_call_stoeck"]] == 1
                said = {(seat - a["seat"]) % 4 for a in view["announced"]}
                got = set(np.flatnonzero(obs[o["weis_announced"] : o["weis_announced"] + 4]))
                assert got == said
                counts["announced"] += bool(said)
                own = {c for w in view["own_weis"] for c in w["cards"]}
                assert {
                    state.game.actions[i].text for i in np.flatnonzero(obs[o["own_weis"] : o["own_weis"] + 36])
                } == own
                assert own <= set(view["hand"]) | _played_by(view, seat)
    assert all(n > 0 for n in counts.values()), counts  # the games reached every case


def _played_by(view: dict[str, Any], seat: int) -> set[str]:
    out = {p["card"] for p in view["trick"] if p["seat"] == seat}
    for trick in view["tricks"]:
        out |= {c for k, c in enumerate(trick["cards"]) if (trick["leader"] - k) % 4 == seat}
    return out


def test_the_announcements_reach_the_environments_masks() -> None:
    """PettingZoo's mask is the engine's, announcements included, and taking them works."""
    env = rl.pettingzoo_env("jass", **{**SCHIEBER_OPTIONS, "target": 600})
    seen: set[int] = set()
    for seed in range(4):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)  # type: ignore[arg-type]  # PettingZoo: None for an agent that is done
                continue
            mask = obs["action_mask"]
            state = env.state
            assert list(mask) == state.legal_action_mask()
            choices = list(np.flatnonzero(mask))
            seen |= {int(a) for a in choices if a >= 43}
            env.step(int(rng.choice(choices)))
    assert seen == {ANNOUNCE, CALL_STOECK}
